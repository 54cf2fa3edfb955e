import {ownedKey, protectionKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {removeProtectionFix} from '../support/fixes.js'
import {at, BRANCH_PROTECTION_UI, describeProtection, fixWhere} from '../support/protection-findings.js'
import {shadowerOf} from '../../src/onedev/protection-judgement.js'

export default defineRule({
  meta: {
    id: 'branch-protection/shadowed-rule',
    shortDescription: 'A branch protection can never apply because an earlier one always wins',
    fullDescription:
      'On current servers the first enabled branch protection that matches a branch and a user applies, trying the project\'s own protections before its parents\'. This rule finds protections that an earlier protection (in the same project or a child project) always beats, for every branch and user they match, so their settings never take effect. Judged conservatively: only reported when the earlier protection surely matches everything the later one does.',
    defaultSeverity: 'medium',
    help: [
      '**Risk.** A strict protection placed after a broader, weaker one looks like it protects its branches but never applies. A child project\'s broad protection (e.g. `**`) shadows every stricter protection of its parents.',
      '',
      'Servers up to 8.1 merged all matching protections instead; with `protectionSemantics: merged` nothing is shadowed.',
      '',
      '**Fix.** In *Project Settings → Branch Protection*, drag the specific protection above the broad one, or narrow the broad one\'s *Branches* (e.g. add `-main`), or delete the protection that can never apply.',
      '',
      '**Example.** `[{"branches": "**", "preventForcedPush": false}, {"branches": "main", "reviewRequirement": "group(core):2"}]`: the second protection never applies.',
    ].join('\n'),
    tags: ['branch-protection'],
    scope: 'project',
    fix: 'suggestion',
  },
  check(context) {
    if (context.scope !== 'project') return []
    if (context.settings.protectionSemantics === 'merged') return []
    const hierarchy = context.facts.branchHierarchy
    const findings: FindingDraft[] = []
    hierarchy.forEach((shadowed, index) => {
      const shadower = shadowerOf(hierarchy, index)
      if (!shadower) return
      // A pair that lies wholly in ancestors is reported by the audit of the shadower's project, whose
      // hierarchy holds both; only when that project is not audited is it reported here.
      const own = shadowed.projectId === context.project.id || shadower.projectId === context.project.id
      if (!own && context.audited.has(shadower.projectId)) return
      findings.push({
        subject: shadowed.item.branches ?? '',
        key: ownedKey(protectionKey(shadowed.item.branches, shadowed.item.userMatch), {id: shadowed.projectId, path: shadowed.projectPath}, context.project),
        ...at(context, shadowed, shadowed.item.pointer),
        message:
          `${capitalize(describeProtection(context, shadowed, shadowed.item.branches))} never applies: ${describeProtection(context, shadower, shadower.item.branches)} comes first and matches every branch and user it matches, so its settings are never used.` +
          ` Move it above the broader protection or narrow that one in ${fixWhere(context, shadower, BRANCH_PROTECTION_UI)}.`,
        fixes: removeProtectionFix(context, shadowed),
      })
    })
    return findings
  },
})

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
