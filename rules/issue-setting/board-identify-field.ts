import type {FindingDraft} from '../../src/engine/rule.js'
import {defineRule} from '../../src/engine/rule.js'
import {quoted} from '../../src/issue-setting/workflow.js'

export default defineRule({
  meta: {
    id: 'issue-setting/board-identify-field',
    shortDescription: 'A board is identified by a field that is not a single-valued choice field.',
    fullDescription:
      'A board\'s identifyField decides which column an issue is in, so it must be State or a single-valued ChoiceField. OneDev does not check this when the setting is posted.',
    defaultSeverity: 'high',
    help: [
      'OneDev places each issue in the board column equal to the value of the board\'s `identifyField`. Only `State` and single-valued `ChoiceField` fields have exactly one such value; a multi-valued field or a field of another type (text, user, date, ...) cannot place issues.',
      '',
      '**Fix:** identify the board by `State` or by a `ChoiceField` with `allowMultiple: false`.',
    ].join('\n'),
    tags: ['issue-workflow', 'correctness'],
    scope: 'issue-setting',
  },
  check(context) {
    if (context.scope !== 'issue-setting') return []
    const setting = context.issueSetting
    const findings: FindingDraft[] = []
    for (const board of setting.boards) {
      const ref = board.identifyField
      if (!ref || ref.name === 'State') continue
      const field = setting.fields.find((f) => f.name === ref.name)
      if (!field) continue // undefined-field reports it
      const wrongType = field.type !== null && field.type !== 'ChoiceField'
      if (!wrongType && !field.allowMultiple) continue
      findings.push({
        subject: board.name,
        pointer: ref.pointer,
        message: `The board ${quoted(board.name)} is identified by ${quoted(field.name)}, ${wrongType ? `a ${field.type}` : 'a multi-valued field'}: use State or a single-valued ChoiceField.`,
      })
    }
    return findings
  },
})
