import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {effectiveTagProtection, tagProtectionHierarchy} from '../../src/onedev/protection.js'
import {listPointer, TAG_PROTECTION_UI, uniqueNames} from '../../src/onedev/protection-findings.js'
import {nearMisses} from '../../src/onedev/protection-judgement.js'

export default defineRule({
  meta: {
    id: 'tag-protection/unprotected-tags',
    shortDescription: 'Release tags have no tag protection',
    fullDescription:
      'Checks the tag names of the audit setting `tags` (default `v1.0.0`, standing for release tags) and reports those to which no enabled tag protection applies for an ordinary user, counting protections inherited from parent projects. Unprotected tags can be created, moved and deleted by anyone with write access, so a release tag can be pointed at different code.',
    defaultSeverity: 'high',
    help: [
      '**Risk.** Builds, deployments and users trust release tags. Without a tag protection OneDev lets anyone with write access create a tag with a release name, move an existing tag to another commit, or delete it. New projects have no tag protection.',
      '',
      '**Fix.** Open *Project Settings → Tag Protection* (of the project or a parent project), click *Add*, set *Tags* to your release pattern (e.g. `v*`; patterns are case-sensitive and `*` stays within one `/` segment), leave *Applicable Users* at `anyone`, keep *Prevent Update*, *Prevent Deletion* and *Prevent Creation* checked, and consider *Commit Signature Required*.',
      '',
      '**Example.** `{"tags": "v*", "userMatch": "anyone except group(release-managers)", "preventUpdate": true, "preventDeletion": true, "preventCreation": true}`',
    ].join('\n'),
    tags: ['tag-protection', 'release-integrity'],
    scope: 'project',
  },
  check(context) {
    if (context.scope !== 'project') return []
    const hierarchy = tagProtectionHierarchy(context.project, context.ancestors)
    const findings: FindingDraft[] = []
    for (const tag of uniqueNames(context.settings.tags)) {
      if (effectiveTagProtection(hierarchy, tag, {kind: 'others'}, context.settings.protectionSemantics)) continue
      const hints = nearMisses(hierarchy, tag)
      findings.push({
        subject: tag,
        pointer: listPointer(context.project, 'tagProtections'),
        message:
          `No enabled tag protection applies to tag "${tag}" for everyone else, so anyone with write access can create, move or delete it.` +
          (hints.length > 0 ? ` Near misses: ${hints.join('; ')}.` : '') +
          ` Add a protection covering "${tag}" (e.g. Tags: v*) in ${TAG_PROTECTION_UI}.`,
      })
    }
    return findings
  },
})
