import {nameKey} from '../../src/engine/identity.js'
import type {FindingDraft} from '../../src/engine/rule.js'
import {defineRule} from '../../src/engine/rule.js'
import {quoted} from '../../src/issue-setting/workflow.js'

export default defineRule({
  meta: {
    id: 'issue-setting/board-columns',
    shortDescription: 'A board has fewer than two columns, or a column that is not a value of its field.',
    fullDescription:
      'A board needs at least two columns to move issues between them (OneDev\'s UI requires two). When a board is identified by a choice field with specified choices, each column must be one of those choices (null stands for the empty value).',
    defaultSeverity: 'medium',
    help: [
      'Boards move issues by dragging them between columns, each column a value of the board\'s `identifyField`. With fewer than two columns there is nothing to move between; OneDev\'s UI refuses such a board and the REST endpoint may reject it with 400 "At least two columns need to be defined". A column that is not one of the choice field\'s values never holds an issue.',
      '',
      '**Fix:** list at least two columns, each a state (for `State`) or a choice of the identify field, or `null` for the field\'s empty value.',
    ].join('\n'),
    tags: ['issue-workflow', 'correctness'],
    scope: 'issue-setting',
  },
  check(context) {
    if (context.scope !== 'issue-setting') return []
    const setting = context.issueSetting
    const findings: FindingDraft[] = []
    for (const board of setting.boards) {
      if (board.columns.length < 2) {
        findings.push({
          subject: board.name,
          key: 'too-few',
          pointer: board.columns.length > 0 ? `${board.pointer}/columns` : board.pointer,
          message: `The board ${quoted(board.name)} has ${board.columns.length === 0 ? 'no column' : 'only one column'}: define at least two.`,
        })
      }
      const field = setting.fields.find((f) => f.name === board.identifyField?.name)
      if (!field || field.choices === null) continue
      const choices = new Set(field.choices)
      for (const column of board.columns) {
        if (column.name === null || choices.has(column.name)) continue
        findings.push({
          subject: board.name,
          key: nameKey('column', column.name),
          pointer: column.pointer,
          severity: 'medium',
          message: `The board ${quoted(board.name)} has a column ${quoted(column.name)}, which is not a choice of its field ${quoted(field.name)}: it will never hold an issue.`,
        })
      }
    }
    return findings
  },
})
