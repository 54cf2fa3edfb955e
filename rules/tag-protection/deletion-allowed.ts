import {tagProtectionsKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {protectionMemberFix} from '../support/fixes.js'
import {at, describeSources, fixWhere, memberPointer, TAG_PROTECTION_UI, tagGroupSubject, tagsPhrase} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'tag-protection/deletion-allowed',
    shortDescription: 'The tag protection that applies allows deleting tags',
    fullDescription:
      'Judges the tag protection that applies to an ordinary user for each checked tag name and reports it when Prevent Deletion is off. A deleted release tag can be created again on other code unless creation is also prevented, and its history is gone.',
    defaultSeverity: 'medium',
    help: [
      '**Risk.** With `preventDeletion` off, anyone with write access can delete a release tag; together with allowed creation that is another way to move it.',
      '',
      '**Fix.** In *Project Settings → Tag Protection*, edit the protection that applies and check *Prevent Deletion*.',
      '',
      '**Example.** `{"tags": "v*", "preventDeletion": true}`',
    ].join('\n'),
    tags: ['tag-protection', 'release-integrity'],
    scope: 'project',
    fix: 'fix',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/tags'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const findings: FindingDraft[] = []
    for (const group of context.facts.protectedTagGroups) {
      const {effective} = group
      if (effective.preventDeletion) continue
      const source = effective.sources[0]!
      findings.push({
        subject: tagGroupSubject(group),
        key: tagProtectionsKey(effective.sources, context.project),
        ...at(context, source, memberPointer(context, source, source.item.pointer, 'preventDeletion')),
        message:
          `${tagsPhrase(group.tags)} can be deleted: ${describeSources(context, effective.sources, 'tag protection')} does not prevent deletion.` +
          ` Check "Prevent Deletion" on that protection in ${fixWhere(context, source, TAG_PROTECTION_UI)}.`,
        fixes: protectionMemberFix(context, source, 'preventDeletion', true, 'fix', 'Check "Prevent Deletion"'),
      })
    }
    return findings
  },
})
