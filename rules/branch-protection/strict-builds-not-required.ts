/**
 * Branch protections that require builds but accept pull-request builds of an outdated merge commit.
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {requirableJobs} from '../../src/onedev/protection.js'
import {protectionMemberFix} from '../support/fixes.js'
import {at, BRANCH_PROTECTION_UI, branchPhrase, describeSources, examplesPhrase, fixWhere, memberPointer} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'branch-protection/strict-builds-not-required',
    shortDescription: 'The branch protection that applies requires builds but not strict pull request builds',
    fullDescription:
      'Judges the branch protection that applies to an ordinary user on each checked branch and reports it when it requires jobs (its own or its file ' +
      "protections') but not Require Strict Pull Request Builds. Then a pull request can be merged on builds of a merge commit that the target branch " +
      'has since moved past: the result that lands was never built by the required jobs.',
    defaultSeverity: 'low',
    help: [
      '## Risk',
      'When the target branch gets new commits, OneDev recalculates a pull request\'s merge commit. Without *Require Strict Pull Request Builds*',
      'it still accepts the required builds that ran on the previous merge commit (v16.5.6 PullRequest.java:1113–1127, BranchProtection.java:224–227;',
      'the setting exists since 8.0.0, BranchProtection.java:61, and servers up to 8.1 turned it on when any matching protection had it,',
      'Project.java:1181). Two pull requests that pass on their own can then land together as a result that fails, or that no required job,',
      'security scan included, ever ran on.',
      '',
      '## Fix',
      'In *Project Settings → Branch Protection*, edit the protection that applies to the branch and check *Require Strict Pull Request Builds*:',
      'a pull request is then mergeable only when its required builds ran on its current merge commit (re-run them after the branch moves).',
      '',
      '## Example',
      '```json',
      '{"branches": "main", "jobNames": ["ci"], "requireStrictBuilds": false}   // reported',
      '{"branches": "main", "jobNames": ["ci"], "requireStrictBuilds": true}    // fine',
      '{"branches": "main", "jobNames": [], "requireStrictBuilds": false}       // fine here: no required builds (branch-protection/build-not-required)',
      '```',
    ].join('\n'),
    tags: ['branch-protection', 'ci'],
    scope: 'project',
    fix: 'suggestion',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const findings: FindingDraft[] = []
    for (const {branch, ref, effective} of context.facts.protectedBranches) {
      if (effective.requireStrictBuilds) continue
      const jobs = requirableJobs(effective)
      if (jobs.length === 0) continue
      const source = effective.sources[0]!
      findings.push({
        subject: branch,
        ...at(context, source, memberPointer(context, source, source.item.pointer, 'requireStrictBuilds')),
        message:
          `Pull requests into ${branchPhrase(ref)} can be merged on builds of an outdated merge commit: ${describeSources(context, effective.sources, 'branch protection')} ` +
          `requires builds of ${examplesPhrase(jobs)} but not strict pull request builds.` +
          ` Check "Require Strict Pull Request Builds" on that protection in ${fixWhere(context, source, BRANCH_PROTECTION_UI)}.`,
        fixes: protectionMemberFix(context, source, 'requireStrictBuilds', true, 'suggestion', 'Check "Require Strict Pull Request Builds"'),
      })
    }
    return findings
  },
})
