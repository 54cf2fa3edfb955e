import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {protectionMemberFix} from '../support/fixes.js'
import {at, BRANCH_PROTECTION_UI, describeSources, fixWhere, memberPointer, branchPhrase} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'branch-protection/deletion-allowed',
    shortDescription: 'The branch protection that applies allows deleting the branch',
    fullDescription:
      'Judges the branch protection that applies to an ordinary user on each checked branch and reports it when Prevent Deletion is off. Deleting a protected branch and creating it again is a way around its history and its pull-request workflow.',
    defaultSeverity: 'medium',
    help: [
      '**Risk.** With `preventDeletion` off, anyone with write access can delete the branch (from the UI, the REST API or `git push --delete`). A review requirement does not stop a deletion.',
      '',
      '**Fix.** In *Project Settings → Branch Protection*, edit the protection that applies to the branch and check *Prevent Deletion*.',
      '',
      '**Example.** `{"branches": "main", "preventDeletion": true}`',
    ].join('\n'),
    tags: ['branch-protection'],
    scope: 'project',
    fix: 'fix',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const findings: FindingDraft[] = []
    for (const {branch, ref, effective} of context.facts.protectedBranches) {
      if (effective.preventDeletion) continue
      const source = effective.sources[0]!
      findings.push({
        subject: branch,
        ...at(context, source, memberPointer(context, source, source.item.pointer, 'preventDeletion')),
        message:
          `Branch "${branch}" (${ref.reason}) can be deleted: ${describeSources(context, effective.sources, 'branch protection')} does not prevent deletion.` +
          ` Check "Prevent Deletion" on that protection in ${fixWhere(context, source, BRANCH_PROTECTION_UI)}.`,
        fixes: protectionMemberFix(context, source, 'preventDeletion', true, 'fix', 'Check "Prevent Deletion"'),
      })
    }
    return findings
  },
})
