import {transitionKey, withSortedStates} from '../../src/engine/identity.js'
import type {FindingDraft} from '../../src/engine/rule.js'
import {defineRule} from '../../src/engine/rule.js'
import {transitionLabel} from '../../src/issue-setting/workflow.js'

/** Resolves in the file: the authorizedRoles list when the file has it, else the transition. */
function pointerIn(raw: unknown, pointer: string, fallback: string): string {
  let current: any = raw
  for (const token of pointer.slice(1).split('/')) {
    if (current === null || typeof current !== 'object' || !(token in current)) return fallback
    current = current[token]
  }
  return pointer
}

export default defineRule({
  meta: {
    id: 'issue-setting/transition-any-user',
    shortDescription: 'A manual transition may be performed by any user.',
    fullDescription:
      'A ManualSpec transition (or a legacy PressButtonTrigger) with no authorizedRoles lets every logged-in user with access to the issue perform it, for example closing or reopening any issue.',
    defaultSeverity: 'low',
    help: [
      'An empty (or absent) `authorizedRoles` on a manual transition means **any user** who can see the issue may press the button. Name the roles that may move issues (role names, `<Issue Submitter>`, or `{Field}` for the users of a user-choice field).',
      '',
      '```json',
      '{"@type": "ManualSpec", "fromStates": ["In Review"], "toStates": ["Closed"], "authorizedRoles": ["Developer", "<Issue Submitter>"]}',
      '```',
    ].join('\n'),
    tags: ['issue-workflow', 'access-control'],
    scope: 'issue-setting',
  },
  check(context) {
    if (context.scope !== 'issue-setting') return []
    const findings: FindingDraft[] = []
    for (const transition of context.issueSetting.transitions) {
      if (transition.authorizedRoles === null || transition.authorizedRoles.length > 0) continue
      const label = transitionLabel(transition)
      findings.push({
        subject: transitionLabel(withSortedStates(transition)),
        key: transitionKey(transition),
        pointer: pointerIn(context.issueSetting.raw, transition.authorizedRolesPointer, transition.pointer),
        message: `The manual transition ${transition.pointer} (${label}) has no authorized roles, so any user with access to an issue may perform it: list the roles allowed in authorizedRoles.`,
      })
    }
    return findings
  },
})
