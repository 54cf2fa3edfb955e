import type {FindingDraft} from '../../src/engine/rule.js'
import {defineRule} from '../../src/engine/rule.js'
import {quoted} from '../../src/issue-setting/workflow.js'

const LISTS = [
  {kind: 'state', key: 'states'},
  {kind: 'field', key: 'fields'},
  {kind: 'board', key: 'boards'},
] as const

export default defineRule({
  meta: {
    id: 'issue-setting/duplicate-name',
    shortDescription: 'Two states, two fields or two boards share a name.',
    fullDescription:
      'States, fields and boards are referred to by name everywhere (transitions, boards, queries, issues). OneDev\'s UI refuses duplicates, but a setting posted over REST is not checked, and a duplicate makes every reference to that name ambiguous.',
    defaultSeverity: 'high',
    help: [
      'Transitions, board columns, list columns, queries and existing issues refer to states and fields **by name**. The REST endpoint accepts two states, fields or boards with the same name, after which which one a reference means is undefined.',
      '',
      '**Fix:** rename or remove the later entry so each state, field and board name appears once.',
    ].join('\n'),
    tags: ['issue-workflow', 'correctness'],
    scope: 'issue-setting',
  },
  check(context) {
    if (context.scope !== 'issue-setting') return []
    const findings: FindingDraft[] = []
    for (const {kind, key} of LISTS) {
      const first = new Map<string, string>()
      for (const item of context.issueSetting[key]) {
        const earlier = first.get(item.name)
        if (earlier === undefined) {
          first.set(item.name, item.pointer)
          continue
        }
        findings.push({
          subject: item.name,
          // The 2nd, 3rd ... entry of that name: the engine numbers identical findings in their order.
          key: kind,
          pointer: `${item.pointer}/name`,
          message: `The ${kind} name ${quoted(item.name)} is already used at ${earlier}: references to it are ambiguous. Rename or remove one of them.`,
        })
      }
    }
    return findings
  },
})
