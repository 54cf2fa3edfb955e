import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {protectionMemberFix} from '../support/fixes.js'
import {at, BRANCH_PROTECTION_UI, describeSources, fixWhere, memberPointer, branchPhrase} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'branch-protection/signature-not-required',
    shortDescription: 'The branch protection that applies does not require signed commits',
    fullDescription:
      'Judges the branch protection that applies to an ordinary user on each checked branch and reports it when it does not require a valid commit signature (`commitSignatureRequired`, `signatureRequired` on 8.0.x). Without signatures the author shown on a commit is only a claim.',
    defaultSeverity: 'medium',
    help: [
      '**Risk.** Git author and committer names are free text. Requiring a valid signature on the head commit of every push ties changes to a key OneDev knows.',
      '',
      '**Fix.** In *Project Settings → Branch Protection*, edit the protection that applies to the branch and check *Commit Signature Required*. Users add their GPG or SSH signing keys in *My Settings*; set up OneDev\'s own signing key (*Administration → GPG Signing Key*) so that merges done by OneDev are signed too.',
      '',
      '**Example.** `{"branches": "main", "commitSignatureRequired": true}`',
    ].join('\n'),
    tags: ['branch-protection'],
    scope: 'project',
    fix: 'suggestion',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/branches'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const findings: FindingDraft[] = []
    for (const {branch, ref, effective} of context.facts.protectedBranches) {
      if (effective.signatureRequired) continue
      const source = effective.sources[0]!
      findings.push({
        subject: branch,
        ...at(context, source, memberPointer(context, source, source.item.pointer, source.item.signaturePointer)),
        message:
          `Unsigned commits can be pushed to ${branchPhrase(ref)}: ${describeSources(context, effective.sources, 'branch protection')} does not require a valid commit signature.` +
          ` Check "Commit Signature Required" on that protection in ${fixWhere(context, source, BRANCH_PROTECTION_UI)}.`,
        fixes: protectionMemberFix(context, source, 'signature', true, 'suggestion', 'Check "Commit Signature Required"'),
      })
    }
    return findings
  },
})
