import {nameKey, transitionKey} from '../../src/engine/identity.js'
import type {FindingDraft} from '../../src/engine/rule.js'
import {defineRule} from '../../src/engine/rule.js'
import type {NameRef} from '../../src/model/issue-setting.js'
import {defines, fieldNames, quoted, transitionLabel} from '../../src/issue-setting/workflow.js'

/** `{Assignee}` in authorizedRoles: the users named by that field. */
const FIELD_ROLE = /^\{(.+)\}$/

export default defineRule({
  meta: {
    id: 'issue-setting/undefined-field',
    shortDescription: 'A transition, the issue list, a board or a field condition names a field that does not exist.',
    fullDescription:
      'removeFields and promptFields of transitions, `{Field}` entries of authorizedRoles, listFields, board displayFields and identifyField, and field show conditions name issue fields. State and Iteration are built in; every other name must be defined in fieldSpecs. OneDev does not check these names when the setting is posted.',
    defaultSeverity: 'high',
    help: [
      'A name that is not a defined field is silently ignored by OneDev: a transition that should clear a field leaves it, a prompt is skipped, a `{Field}` role authorizes nobody, a list or board column disappears. A board whose `identifyField` is unknown cannot show columns at all.',
      '',
      '**Fix:** correct the name to one of `fieldSpecs` (or `State`, `Iteration`), or define the field.',
    ].join('\n'),
    tags: ['issue-workflow', 'correctness'],
    scope: 'issue-setting',
  },
  check(context) {
    if (context.scope !== 'issue-setting') return []
    const setting = context.issueSetting
    if (!defines(setting, 'fieldSpecs')) return []
    const fields = fieldNames(setting)
    const findings: FindingDraft[] = []
    // `list` names the list the reference is in by what holds it (a transition, a board, a field), not by position.
    const report = (ref: NameRef, where: string, list: string) => {
      if (fields.has(ref.name)) return
      findings.push({
        subject: ref.name,
        key: list,
        pointer: ref.pointer,
        message: `${where} names the field ${quoted(ref.name)}, which fieldSpecs does not define (State and Iteration are built in). Correct the name or add the field.`,
      })
    }
    for (const transition of setting.transitions) {
      const where = `The transition ${transition.pointer} (${transitionLabel(transition)})`
      const key = transitionKey(transition)
      for (const ref of transition.removeFields) report(ref, where, `${key} removeFields`)
      for (const ref of transition.promptFields) report(ref, where, `${key} promptFields`)
      for (const role of transition.authorizedRoles ?? []) {
        const match = FIELD_ROLE.exec(role.name)
        if (match) report({name: match[1]!, pointer: role.pointer}, `An authorized role of the transition ${transition.pointer} (${transitionLabel(transition)})`, `${key} authorizedRoles`)
      }
    }
    for (const ref of setting.listFields) report(ref, 'listFields', 'listFields')
    for (const board of setting.boards) {
      const where = `The board ${quoted(board.name)}`
      if (board.identifyField && board.identifyField.name !== 'State') {
        // Only State or a defined choice field identifies columns; Iteration is not a column field.
        if (!setting.fields.some((field) => field.name === board.identifyField!.name)) {
          findings.push({
            subject: board.identifyField.name,
            key: `${nameKey('board', board.name)} identifyField`,
            pointer: board.identifyField.pointer,
            message: `${where} is identified by the field ${quoted(board.identifyField.name)}, which fieldSpecs does not define: use State or a single-valued choice field.`,
          })
        }
      }
      for (const ref of board.displayFields) report(ref, where, `${nameKey('board', board.name)} displayFields`)
    }
    for (const field of setting.fields) {
      if (field.showConditionField) report(field.showConditionField, `The show condition of the field ${quoted(field.name)}`, `${nameKey('field', field.name)} showCondition`)
    }
    return findings
  },
})
