/**
 * Shared wording and locations for the protection rules (rules/branch-protection, rules/tag-protection,
 * rules/file-protection, rules/access): where the deciding setting lives, pointers that resolve in that
 * project's raw payload, and phrases the server rules use too. The judgements themselves are in
 * src/onedev/, and what the rules start from (checked branches, protected branches and tag groups) is
 * in the project's facts (`context.facts`, src/engine/facts.ts); this module only words and locates them.
 */
import type {ProtectedTagGroup} from '../../src/engine/facts.js'
import type {FindingDraft, ProjectContext} from '../../src/engine/rule.js'
import {hasPointer, memberPointer as memberPointerIn} from '../../src/model/pointer.js'
import type {Project} from '../../src/model/types.js'
import type {CheckedRef} from '../../src/onedev/checked-refs.js'
import type {Located} from '../../src/onedev/protection.js'
import {mapped} from '../../src/util/collections.js'

export const BRANCH_PROTECTION_UI = 'Project Settings > Branch Protection'
export const TAG_PROTECTION_UI = 'Project Settings > Tag Protection'

function projectOf(ctx: ProjectContext<unknown>, projectId: number): Project | undefined {
  return projectId === ctx.project.id ? ctx.project : ctx.ancestors.find((a) => a.id === projectId)
}

/** `base/member` when the payload has that member, else `base` (pointers must always resolve). */
export function memberPointer(ctx: ProjectContext<unknown>, located: Located<unknown>, base: string, member: string): string {
  const raw = projectOf(ctx, located.projectId)?.raw
  if (member.startsWith('/')) return hasPointer(raw, member) ? member : base
  return memberPointerIn(raw, base, member)
}

/** The finding's location fields for a setting of `located`'s project. */
export function at(ctx: ProjectContext<unknown>, located: Located<unknown>, pointer: string): Pick<FindingDraft, 'pointer' | 'sourceProjectId'> {
  return located.projectId === ctx.project.id ? {pointer} : {pointer, sourceProjectId: located.projectId}
}

/** "this project's" or "parent project acme's" / "ancestor project acme's". */
export function ownerPhrase(ctx: ProjectContext<unknown>, located: Located<unknown>): string {
  if (located.projectId === ctx.project.id) return 'this project'
  const kind = ctx.project.parentId === located.projectId ? 'parent' : 'ancestor'
  return `${kind} project ${located.projectPath}`
}

/** " (inherited from parent project acme)" or '' for the project's own setting. */
export function inheritedSuffix(ctx: ProjectContext<unknown>, located: Located<unknown>): string {
  return located.projectId === ctx.project.id ? '' : ` (inherited from ${ownerPhrase(ctx, located)})`
}

/** Where to fix it: "Project Settings > Branch Protection" of the owning project. */
export function fixWhere(ctx: ProjectContext<unknown>, located: Located<unknown>, ui: string): string {
  return located.projectId === ctx.project.id ? ui : `${ui} of ${ownerPhrase(ctx, located)}`
}

/** `the branch protection /branchProtections/2 ("main release/**")` (+ where it is inherited from). */
export function describeProtection(
  ctx: ProjectContext<unknown>,
  located: Located<{pointer: string}>,
  patterns: string | null,
  noun = 'branch protection',
): string {
  return `the ${noun} ${located.item.pointer} ("${patterns ?? ''}")${inheritedSuffix(ctx, located)}`
}

/** Pointer for "nothing protects this": the list in the project's own payload, else the payload root. */
export function listPointer(project: Project, key: 'branchProtections' | 'tagProtections'): string {
  return hasPointer(project.raw, `/${key}`) ? `/${key}` : ''
}

/** `branch "master" (default branch)`: how findings name a checked branch and why it was checked. */
export function branchPhrase(ref: CheckedRef): string {
  return `branch "${ref.name}" (${ref.reason})`
}

/** At most `max` names, quoted, then "and N more": `"v1", "v2" and 3 more`. */
export function examplesPhrase(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).map((name) => `"${name}"`)
  return names.length > max ? `${shown.join(', ')} and ${names.length - max} more` : listPhrase(shown)
}

/** "a", "a and b", "a, b and c". */
export function listPhrase(parts: string[]): string {
  if (parts.length <= 1) return parts.join('')
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
}

/** "the branch protection X ("main")" for one source, or "none of the N protections that apply (X, Y)" style for several. */
export function describeSources(
  ctx: ProjectContext<unknown>,
  sources: Located<{pointer: string; branches?: string | null; tags?: string | null}>[],
  noun: 'branch protection' | 'tag protection',
): string {
  const text = (l: (typeof sources)[number]) => (noun === 'branch protection' ? l.item.branches : l.item.tags) ?? null
  if (sources.length === 1) return describeProtection(ctx, sources[0]!, text(sources[0]!), noun)
  return `the ${sources.length} ${noun}s that apply together (${sources.map((l) => `${l.item.pointer} ("${text(l) ?? ''}")${inheritedSuffix(ctx, l)}`).join('; ')})`
}

/**
 * A tag group's identity in fingerprints: the tag patterns and user match of the protection(s) that
 * apply, never the tags themselves (a new release tag must not make a new alert) or positions.
 */
export function tagGroupSubject(group: ProtectedTagGroup): string {
  return mapped(group.effective.sources, (source) => `${source.item.tags ?? ''}`).join(' + ')
}

/** `Tag "v1.0"` or `3 tags ("v1", "v2" and "v3")`, to start a sentence. */
export function tagsPhrase(tags: readonly string[]): string {
  return tags.length === 1 ? `Tag "${tags[0]}"` : `${tags.length} tags (${examplesPhrase(tags)})`
}
