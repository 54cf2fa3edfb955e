import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {DEFAULT_NEW_PROTECTIONS} from '../../src/engine/fix.js'
import {protectionMemberFix} from '../support/fixes.js'
import {at, BRANCH_PROTECTION_UI, describeSources, fixWhere, memberPointer, branchPhrase} from '../support/protection-findings.js'
import {hasReviewers} from '../../src/onedev/review-requirement.js'

export default defineRule({
  meta: {
    id: 'branch-protection/review-not-required',
    shortDescription: 'The branch protection that applies requires no reviewers',
    fullDescription:
      'Judges the branch protection that applies to an ordinary user on each checked branch and reports it when it has no review requirement. Without one, changes can be pushed straight to the branch, and pull requests can be merged without anyone else looking at them.',
    defaultSeverity: 'medium',
    help: [
      '**Risk.** A protection without `reviewRequirement` lets anyone with write access push directly to the branch; a protection with one makes OneDev reject direct pushes ("submit pull request instead") and wait for the required approvals.',
      '',
      '**Fix.** In *Project Settings → Branch Protection*, edit the protection that applies to the branch and fill in *Required Reviewers*, e.g. `group(core-devs):2` (two members of core-devs) or `user(alice) group(security)`.',
      '',
      '**Example.** `{"branches": "main", "reviewRequirement": "group(core-devs):2"}`',
    ].join('\n'),
    tags: ['branch-protection'],
    scope: 'project',
    fix: 'suggestion',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const findings: FindingDraft[] = []
    // Who must review is the owner's decision: offered only when the configuration names them (fix.branchProtection.reviewRequirement).
    const reviewers = (context.settings.fix ?? DEFAULT_NEW_PROTECTIONS).branch.reviewRequirement
    for (const {branch, ref, effective} of context.facts.protectedBranches) {
      if (hasReviewers(effective.reviewRequirement)) continue
      const source = effective.sources[0]!
      findings.push({
        subject: branch,
        ...at(context, source, memberPointer(context, source, source.item.pointer, 'reviewRequirement')),
        message:
          `Changes can reach ${branchPhrase(ref)} without review: ${describeSources(context, effective.sources, 'branch protection')} requires no reviewers, so direct pushes are accepted.` +
          ` Set "Required Reviewers" (e.g. group(core-devs):2) on that protection in ${fixWhere(context, source, BRANCH_PROTECTION_UI)}.`,
        fixes: reviewers === null ? [] : protectionMemberFix(context, source, 'reviewRequirement', reviewers, 'suggestion', `Require reviews from ${reviewers}`),
      })
    }
    return findings
  },
})
