import {tagProtectionsKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {protectionMemberFix} from '../support/fixes.js'
import {at, describeSources, fixWhere, memberPointer, TAG_PROTECTION_UI, tagGroupSubject, tagsPhrase} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'tag-protection/signature-not-required',
    shortDescription: 'The tag protection that applies does not require signed tags',
    fullDescription:
      'Judges the tag protection that applies to an ordinary user for each checked tag name and reports it when it does not require a valid tag signature (`commitSignatureRequired`, `signatureRequired` on 8.0.x).',
    defaultSeverity: 'low',
    help: [
      '**Risk.** Without a required signature, nothing ties a release tag to the person or key that made it.',
      '',
      '**Fix.** In *Project Settings → Tag Protection*, edit the protection that applies and check *Commit Signature Required*; tags must then be created as signed annotated tags (`git tag -s`).',
      '',
      '**Example.** `{"tags": "v*", "commitSignatureRequired": true}`',
    ].join('\n'),
    tags: ['tag-protection', 'release-integrity'],
    scope: 'project',
    fix: 'suggestion',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/tags'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const findings: FindingDraft[] = []
    for (const group of context.facts.protectedTagGroups) {
      const {effective} = group
      if (effective.signatureRequired) continue
      const source = effective.sources[0]!
      findings.push({
        subject: tagGroupSubject(group),
        key: tagProtectionsKey(effective.sources, context.project),
        ...at(context, source, memberPointer(context, source, source.item.pointer, source.item.signaturePointer)),
        message:
          `${tagsPhrase(group.tags)} can be created or updated without a valid signature: ${describeSources(context, effective.sources, 'tag protection')} does not require one.` +
          ` Check "Commit Signature Required" on that protection in ${fixWhere(context, source, TAG_PROTECTION_UI)}.`,
        fixes: protectionMemberFix(context, source, 'signature', true, 'suggestion', 'Check "Commit Signature Required"'),
      })
    }
    return findings
  },
})
