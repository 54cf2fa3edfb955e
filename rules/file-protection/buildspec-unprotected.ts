import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {effectiveFileProtection} from '../../src/onedev/protection.js'
import {at, BRANCH_PROTECTION_UI, describeSources, fixWhere, memberPointer, branchPhrase} from '../support/protection-findings.js'
import {hasReviewers} from '../../src/onedev/review-requirement.js'

/** `BuildSpec.BLOB_PATH`: where OneDev reads a project's CI definition. */
const BUILD_SPEC = '.onedev-buildspec.yml'

export default defineRule({
  meta: {
    id: 'file-protection/buildspec-unprotected',
    shortDescription: 'The build spec can be changed on a checked branch without review',
    fullDescription:
      'On each checked branch, looks at the branch protection that applies to an ordinary user and reports it when `.onedev-buildspec.yml` can change without a reviewer: neither the protection itself nor a file protection whose paths match the build spec requires reviewers. The build spec decides what CI jobs run, with which secrets and on which agents.',
    defaultSeverity: 'high',
    help: [
      '**Risk.** Whoever can change `.onedev-buildspec.yml` on a branch decides what its CI jobs execute, and jobs on that branch may use secrets authorized for it. A required build does not help: the build runs the changed build spec itself.',
      '',
      '**Fix.** In *Project Settings → Branch Protection*, edit the protection that applies to the branch and either set *Required Reviewers*, or add a *File Protection* with *Paths* `.onedev-buildspec.yml` and *Reviewers* such as `group(ci-owners)`.',
      '',
      '**Example.** `"fileProtections": [{"paths": ".onedev-buildspec.yml", "reviewRequirement": "group(ci-owners)", "jobNames": []}]`',
    ].join('\n'),
    tags: ['file-protection'],
    scope: 'project',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const findings: FindingDraft[] = []
    for (const {branch, ref, effective} of context.facts.protectedBranches) {
      if (hasReviewers(effective.reviewRequirement)) continue
      const fileProtection = effectiveFileProtection(effective, BUILD_SPEC)
      if (fileProtection && hasReviewers(fileProtection.reviewRequirement)) continue
      const source = effective.sources[0]!
      const fileSource = fileProtection?.sources[0]
      const location = fileSource
        ? at(context, fileSource, memberPointer(context, fileSource, fileSource.item.pointer, 'reviewRequirement'))
        : at(context, source, memberPointer(context, source, source.item.pointer, 'fileProtections'))
      findings.push({
        subject: branch,
        ...location,
        message:
          `The build spec ${BUILD_SPEC} can be changed on ${branchPhrase(ref)} without review: ${describeSources(context, effective.sources, 'branch protection')} requires no reviewers` +
          (fileSource
            ? `, and the file protection ${fileSource.item.pointer} ("${fileSource.item.paths ?? ''}") that matches it only requires builds, which run the changed build spec itself.`
            : ' and has no file protection for it.') +
          ` Add a file protection with Paths ${BUILD_SPEC} and Reviewers (e.g. group(ci-owners)) to that protection in ${fixWhere(context, fileSource ?? source, BRANCH_PROTECTION_UI)}.`,
      })
    }
    return findings
  },
})
