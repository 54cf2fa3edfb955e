/**
 * Principals with code write who can update a checked branch with no review and no required build.
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {describePrincipalList} from '../support/access-findings.js'
import {at, branchPhrase, listPointer} from '../support/protection-findings.js'

const MAX_NAMED = 10

export default defineRule({
  meta: {
    id: 'access/direct-push',
    shortDescription: 'Someone with code write can push to a checked branch without review or required builds',
    fullDescription:
      'For each checked branch, takes every principal who can write code on the project (every logged-in user through base roles, groups, users, administrators; own and inherited grants) and the branch protection that applies to them (first match). ' +
      'Reports the branch when some of them can update it with no reviewer and no required build, naming them (up to 10, then a count). Critical when every logged-in user can.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'A direct push lands on the branch with nobody else looking and no build checking it: one compromised account is enough to ship code, or to change the build spec of jobs that run with secrets.',
      'OneDev exempts nobody from branch protection, administrators included, so whoever the applicable protection does not stop can push.',
      '',
      '## Fix',
      'In *Project Settings → Branch Protection* add (or extend) a protection for the branch whose *Applicable Users* cover them, with *Required Reviewers* or *Required Builds*;',
      'or remove their code write (roles granting code write, manage pull requests, manage code comments or manage project).',
      '',
      '## Example',
      'Base role *Code Writer* and no protection on `main`: every logged-in user can push to main directly (critical).',
    ].join('\n'),
    tags: ['access-control', 'branch-protection'],
    scope: 'project',
    requires: ['/roles', '/projects/{id}/base-authorizations', '/projects/{id}/group-authorizations', '/projects/{id}/user-authorizations', '/settings/security', '/groups', '/groups/{id}/memberships', '/users', '/users/{id}', '/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const {project, facts} = context
    const principals = facts.codeWriters
    if (!principals) return []
    const findings: FindingDraft[] = []
    for (const ref of context.facts.checkedBranches) {
      const pushers = principals.filter((p) => facts.branchAccess(ref.name, p).pushWithoutReview)
      if (pushers.length === 0) continue
      const everyone = pushers.some((p) => p.kind === 'everyone')
      const shown = describePrincipalList(pushers, MAX_NAMED)
      const effective = facts.branchAccess(ref.name, pushers[0]!).effective
      const location = effective ? at(context, effective.sources[0]!, effective.sources[0]!.item.pointer) : {pointer: listPointer(project, 'branchProtections')}
      findings.push({
        subject: ref.name,
        ...location,
        ...(everyone ? {severity: 'critical' as const} : {}),
        message:
          `On ${branchPhrase(ref)}, principals with code write can push without review or required builds: ${shown}. ` +
          'Add a branch protection that applies to them with required reviewers or builds in Project Settings > Branch Protection, or remove their code write.',
      })
    }
    return findings
  },
})
