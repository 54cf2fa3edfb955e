import {tagProtectionsKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {protectionMemberFix} from '../support/fixes.js'
import {at, describeSources, fixWhere, memberPointer, TAG_PROTECTION_UI, tagGroupSubject, tagsPhrase} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'tag-protection/update-allowed',
    shortDescription: 'The tag protection that applies allows moving tags',
    fullDescription:
      'Judges the tag protection that applies to an ordinary user for each checked tag name and reports it when Prevent Update is off. A moved release tag silently points builds and users at different code.',
    defaultSeverity: 'high',
    help: [
      '**Risk.** With `preventUpdate` off, anyone with write access can force-update an existing tag to another commit; whoever fetches or builds the tag afterwards gets the new code under the old name.',
      '',
      '**Fix.** In *Project Settings → Tag Protection*, edit the protection that applies and check *Prevent Update*.',
      '',
      '**Example.** `{"tags": "v*", "preventUpdate": true}`',
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
      if (effective.preventUpdate) continue
      const source = effective.sources[0]!
      findings.push({
        subject: tagGroupSubject(group),
        key: tagProtectionsKey(effective.sources, context.project),
        ...at(context, source, memberPointer(context, source, source.item.pointer, 'preventUpdate')),
        message:
          `${tagsPhrase(group.tags)} can be moved to another commit: ${describeSources(context, effective.sources, 'tag protection')} does not prevent updates.` +
          ` Check "Prevent Update" on that protection in ${fixWhere(context, source, TAG_PROTECTION_UI)}.`,
        fixes: protectionMemberFix(context, source, 'preventUpdate', true, 'fix', 'Check "Prevent Update"'),
      })
    }
    return findings
  },
})
