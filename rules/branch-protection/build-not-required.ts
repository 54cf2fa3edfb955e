import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {DEFAULT_NEW_PROTECTIONS} from '../../src/engine/fix.js'
import {protectionMembersFix} from '../support/fixes.js'
import {at, BRANCH_PROTECTION_UI, describeSources, fixWhere, memberPointer, branchPhrase} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'branch-protection/build-not-required',
    shortDescription: 'The branch protection that applies requires no successful builds',
    fullDescription:
      'Judges the branch protection that applies to an ordinary user on each checked branch and reports it when it lists no required jobs (`jobNames`). Then changes reach the branch without any CI job having passed on them.',
    defaultSeverity: 'low',
    help: [
      '**Risk.** Without required builds, pushes and pull-request merges are accepted even when tests, linters or security scans fail or never ran.',
      '',
      '**Fix.** In *Project Settings → Branch Protection*, edit the protection that applies to the branch and add the jobs under *Required Builds*. Job names are matched exactly (they are not patterns). Check *Require Strict Pull Request Builds* too, so that they must have run on the current merge commit (`onedev-audit fix` sets both).',
      '',
      '**Example.** `{"branches": "main", "jobNames": ["ci", "security-scan"]}`',
    ].join('\n'),
    tags: ['branch-protection'],
    scope: 'project',
    fix: 'suggestion',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const findings: FindingDraft[] = []
    // Which jobs must pass is the owner's decision: offered only when the configuration names them (fix.branchProtection.jobNames).
    const jobs = (context.settings.fix ?? DEFAULT_NEW_PROTECTIONS).branch.jobNames
    for (const {branch, ref, effective} of context.facts.protectedBranches) {
      if (effective.jobNames.length > 0) continue
      const source = effective.sources[0]!
      findings.push({
        subject: branch,
        ...at(context, source, memberPointer(context, source, source.item.pointer, 'jobNames')),
        message:
          `Changes can reach ${branchPhrase(ref)} without a successful build: ${describeSources(context, effective.sources, 'branch protection')} requires no jobs.` +
          ` Add the CI jobs under "Required Builds" on that protection in ${fixWhere(context, source, BRANCH_PROTECTION_UI)}.`,
        // Strictly: builds of an outdated merge commit would not count (branch-protection/strict-builds-not-required).
        fixes:
          jobs.length === 0
            ? []
            : protectionMembersFix(
                context,
                source,
                [['jobNames', jobs], ...(effective.requireStrictBuilds ? [] : [['requireStrictBuilds', true] as const])],
                'suggestion',
                `Require successful builds of ${jobs.map((j) => `"${j}"`).join(', ')}${effective.requireStrictBuilds ? '' : ', strictly'}`,
              ),
      })
    }
    return findings
  },
})
