import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {protectionMemberFix} from '../support/fixes.js'
import {forcePushBlockedByReviews} from '../../src/onedev/protection.js'
import {at, BRANCH_PROTECTION_UI, describeSources, fixWhere, memberPointer, branchPhrase} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'branch-protection/force-push-allowed',
    shortDescription: 'The branch protection that applies allows forced pushes',
    fullDescription:
      'Judges the branch protection that applies to an ordinary user on each checked branch (first match over the project and its parents on current servers, all matching protections merged on servers up to 8.1) and reports it when Prevent Forced Push is off. A forced push rewrites history: reviewed commits can be replaced and evidence removed.',
    defaultSeverity: 'high',
    help: [
      '**Risk.** With `preventForcedPush` off, OneDev accepts non-fast-forward updates of the branch, so anyone with write access can rewrite or drop published, reviewed commits.',
      '',
      'On current servers a branch whose protection requires reviewers rejects every direct push, forced ones included; such findings are reported with a lower severity, because the protection then hangs on the review requirement alone.',
      '',
      '**Fix.** In *Project Settings → Branch Protection* (of the project that holds the protection), edit the protection that applies to the branch and check *Prevent Forced Push*.',
      '',
      '**Example.** `{"branches": "main", "userMatch": "anyone", "preventForcedPush": true}`',
    ].join('\n'),
    tags: ['branch-protection'],
    scope: 'project',
    fix: 'fix',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const semantics = context.settings.protectionSemantics
    const findings: FindingDraft[] = []
    for (const {branch, ref, effective} of context.facts.protectedBranches) {
      if (effective.preventForcedPush) continue
      const source = effective.sources[0]!
      const blocked = forcePushBlockedByReviews(effective, semantics)
      findings.push({
        subject: branch,
        ...at(context, source, memberPointer(context, source, source.item.pointer, 'preventForcedPush')),
        ...(blocked ? {severity: 'low' as const} : {}),
        message:
          `Forced pushes to ${branchPhrase(ref)} are not prevented by ${describeSources(context, effective.sources, 'branch protection')}` +
          (blocked
            ? ': they are rejected today only because the branch requires reviews; if the review requirement is removed, anyone with write access can rewrite its history.'
            : ', so anyone with write access can rewrite its history.') +
          ` Check "Prevent Forced Push" on that protection in ${fixWhere(context, source, BRANCH_PROTECTION_UI)}.`,
        fixes: protectionMemberFix(context, source, 'preventForcedPush', true, 'fix', 'Check "Prevent Forced Push"'),
      })
    }
    return findings
  },
})
