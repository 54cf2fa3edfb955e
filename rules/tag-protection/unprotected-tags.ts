import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {newTagProtectionFixes} from '../support/fixes.js'
import {examplesPhrase, listPointer, TAG_PROTECTION_UI} from '../support/protection-findings.js'
import {nearMisses} from '../../src/onedev/protection-judgement.js'

export default defineRule({
  meta: {
    id: 'tag-protection/unprotected-tags',
    shortDescription: 'Release tags have no tag protection',
    fullDescription:
      'Checks the project\'s existing tags (those matching the setting `tags`, or all of them when it is empty; where the server cannot list tags, the configured names or the sample `v1.0.0`) and reports, in one finding, those to which no enabled tag protection applies for an ordinary user, counting protections inherited from parent projects. Unprotected tags can be created, moved and deleted by anyone with write access, so a release tag can be pointed at different code.',
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
    fix: 'fix',
    requires: ['/repositories/{id}/default-branch', '/repositories/{id}/tags'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    const unprotected: string[] = []
    for (const {name} of context.facts.checkedTags) if (!context.facts.effectiveTagProtection(name, {kind: 'others'})) unprotected.push(name)
    if (unprotected.length === 0) return []
    // One finding for all of them: the gap is the same, and a new release tag must not open a new alert.
    const hints = nearMisses(context.facts.tagHierarchy, unprotected[0]!)
    const what = unprotected.length === 1 ? `tag "${unprotected[0]}"` : `${unprotected.length} tags (${examplesPhrase(unprotected)})`
    const findings: FindingDraft[] = [
      {
        subject: 'tags',
        pointer: listPointer(context.project, 'tagProtections'),
        message:
          `No enabled tag protection applies to ${what} for everyone else, so anyone with write access can create, move or delete ${unprotected.length === 1 ? 'it' : 'them'}.` +
          (hints.length > 0 ? ` Near misses: ${hints.join('; ')}.` : '') +
          ` Add a protection covering ${unprotected.length === 1 ? `"${unprotected[0]}"` : 'them'} (e.g. Tags: v*) in ${TAG_PROTECTION_UI}.`,
        fixes: newTagProtectionFixes(context, unprotected),
      },
    ]
    return findings
  },
})
