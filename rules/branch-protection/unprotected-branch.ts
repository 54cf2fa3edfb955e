import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {newBranchProtectionFixes} from '../support/fixes.js'
import {BRANCH_PROTECTION_UI, branchPhrase, listPointer} from '../support/protection-findings.js'
import {nearMisses} from '../../src/onedev/protection-judgement.js'

export default defineRule({
  meta: {
    id: 'branch-protection/unprotected-branch',
    shortDescription: 'A checked branch has no branch protection',
    fullDescription:
      'Finds checked branches (each project\'s default branch, plus the existing branches matching the setting `branches`) to which no enabled branch protection applies for an ordinary user, counting the protections the project inherits from its parent projects. OneDev then allows everything on that branch: anyone with write access can force-push, delete it and push without review or builds.',
    defaultSeverity: 'high',
    help: [
      '**Risk.** When no enabled branch protection matches a branch for the pushing user, OneDev applies no restriction at all: force pushes, deletion, and direct pushes without review, signature or successful builds are all accepted. New projects have no branch protection.',
      '',
      '**Which branches are checked** (by every branch-protection rule). Each project\'s default branch, as the server names it (`master`, `develop`, `main`, ...), plus the existing branches that match an entry of the configuration\'s `branches` or of `--branch` (OneDev path patterns such as `release/**`; default: none). Only branches that exist are judged; a repository with no commit yet has none. On a server without the repository endpoints, entries without wildcards are judged as named, else `main`, and the report says so once.',
      '',
      '**How OneDev decides.** The project\'s own protections are tried first, then the parent\'s, then the grandparent\'s. Current servers use the first enabled protection whose *Branches* pattern set matches the branch and whose *Applicable Users* match the user. Patterns are case-sensitive, `*` stays within one `/` segment (`release/*` does not match `release/1/x`; `release/**` does), and `-main` means every branch but `main`.',
      '',
      '**Fix.** Open *Project Settings → Branch Protection* of the project (or of a parent project, to cover all its children), click *Add*, set *Branches* to the branch (e.g. `main`), leave *Applicable Users* at `anyone`, keep *Prevent Forced Push*, *Prevent Deletion* and *Prevent Creation* checked, and add required reviewers and builds.',
      '',
      '**Example.** `branches: "main release/**"`, `userMatch: "anyone"`, `reviewRequirement: "group(core-devs):2"`, `jobNames: ["ci"]`.',
    ].join('\n'),
    tags: ['branch-protection'],
    scope: 'project',
    fix: 'fix',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const {facts} = context
    const findings: FindingDraft[] = []
    for (const ref of context.facts.checkedBranches) {
      const branch = ref.name
      if (facts.effectiveBranchProtection(branch, {kind: 'others'})) continue
      const hints = nearMisses(facts.branchHierarchy, branch)
      findings.push({
        subject: branch,
        pointer: listPointer(context.project, 'branchProtections'),
        message:
          `No enabled branch protection applies to ${branchPhrase(ref)} for everyone else, so anyone with write access can force-push, delete it and push to it without review or builds.` +
          (hints.length > 0 ? ` Near misses: ${hints.join('; ')}.` : '') +
          ` Add a protection for "${branch}" in ${BRANCH_PROTECTION_UI} (Branches: ${branch}, Applicable Users: anyone).`,
        fixes: newBranchProtectionFixes(context, branch),
      })
    }
    return findings
  },
})
