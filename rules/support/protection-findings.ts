/**
 * Shared wording and locations for the protection rules (rules/branch-protection, rules/tag-protection,
 * rules/file-protection, rules/access): where the deciding setting lives, pointers that resolve in that
 * project's raw payload, the checked branches and tags each rule starts from, and phrases the server
 * rules use too. The judgements themselves are in src/onedev/; this module only words and locates them.
 */
import type {FindingDraft, ProjectContext} from '../../src/engine/rule.js'
import {hasPointer, memberPointer as memberPointerIn} from '../../src/model/pointer.js'
import type {Project} from '../../src/model/types.js'
import {RecentMemo} from '../../src/util/recent.js'
import {type CheckedRef, checkedBranches, checkedTags} from '../../src/onedev/checked-refs.js'
import {
  branchProtectionHierarchy,
  type EffectiveBranchProtection,
  type EffectiveTagProtection,
  effectiveBranchProtection,
  effectiveTagProtection,
  type Located,
  tagProtectionHierarchy,
} from '../../src/onedev/protection.js'

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

/** Checked branches and tags of the project being judged, computed once per project (its settings never change during a run). */
const checkedRefs = new RecentMemo<Project, {entries: readonly string[]; tagEntries: readonly string[]; branches: CheckedRef[]; tags: CheckedRef[]}>()

function refsOf(ctx: ProjectContext<unknown>) {
  const {branches: entries, tags: tagEntries} = ctx.settings
  const build = () => ({entries, tagEntries, branches: checkedBranches(ctx.project.repository, entries), tags: checkedTags(ctx.project.repository, tagEntries)})
  const known = checkedRefs.get(ctx.project, build)
  if (known.entries !== entries || known.tagEntries !== tagEntries) Object.assign(known, build())
  return known
}

/** The branches the rules judge in this project (issue "judge the branches that really exist"), each with why. */
export function checkedBranchesOf(ctx: ProjectContext<unknown>): readonly CheckedRef[] {
  return refsOf(ctx).branches
}

/** The tags the rules judge in this project. */
export function checkedTagsOf(ctx: ProjectContext<unknown>): readonly CheckedRef[] {
  return refsOf(ctx).tags
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
 * Most protection rules of a project start from the same list: each checked branch with what
 * applies to everyone else, branches nothing protects left out. It is built once per hierarchy (the
 * engine hands all rules of a project the same one) and shared: do not modify it.
 */
const branchLists = new RecentMemo<object, {refs: readonly CheckedRef[]; semantics: string; list: ProtectedBranch[]}>()

export interface ProtectedBranch {
  branch: string
  /** Why it is checked (`default branch`, `matches release/**`). */
  ref: CheckedRef
  effective: EffectiveBranchProtection
}

/** Each checked branch with the protection that applies to everyone else; unprotected branches are left out (unprotected-branch reports them). */
export function protectedBranches(ctx: ProjectContext<unknown>): ProtectedBranch[] {
  const hierarchy = branchProtectionHierarchy(ctx.project, ctx.ancestors)
  const refs = checkedBranchesOf(ctx)
  const semantics = ctx.settings.protectionSemantics
  const build = () => {
    const list: ProtectedBranch[] = []
    for (const ref of refs) {
      const effective = effectiveBranchProtection(hierarchy, ref.name, {kind: 'others'}, semantics)
      if (effective) list.push({branch: ref.name, ref, effective})
    }
    return list
  }
  const known = branchLists.get(hierarchy, () => ({refs, semantics, list: build()}))
  if (known.refs !== refs || known.semantics !== semantics) Object.assign(known, {refs, semantics, list: build()})
  return known.list
}

/**
 * Checked tags that share one gap: the same protection applies to all of them for everyone else.
 * A project with 3,000 release tags under one protection gets one group, so one finding per rule.
 */
export interface ProtectedTagGroup {
  /** The tags, in the server's order. */
  tags: string[]
  effective: EffectiveTagProtection
}

const tagLists = new RecentMemo<object, {refs: readonly CheckedRef[]; semantics: string; list: ProtectedTagGroup[]}>()

/** Checked tags grouped by the tag protection that applies to everyone else; unprotected tags are left out (unprotected-tags reports them). */
export function protectedTagGroups(ctx: ProjectContext<unknown>): ProtectedTagGroup[] {
  const hierarchy = tagProtectionHierarchy(ctx.project, ctx.ancestors)
  const refs = checkedTagsOf(ctx)
  const semantics = ctx.settings.protectionSemantics
  const build = () => {
    const groups = new Map<string, ProtectedTagGroup>()
    for (const ref of refs) {
      const effective = effectiveTagProtection(hierarchy, ref.name, {kind: 'others'}, semantics)
      if (!effective) continue
      const key = effective.sources.map((source) => `${source.projectId}${source.item.pointer}`).join('|')
      const group = groups.get(key)
      if (group) group.tags.push(ref.name)
      else groups.set(key, {tags: [ref.name], effective})
    }
    return [...groups.values()]
  }
  const known = tagLists.get(hierarchy, () => ({refs, semantics, list: build()}))
  if (known.refs !== refs || known.semantics !== semantics) Object.assign(known, {refs, semantics, list: build()})
  return known.list
}

/**
 * A tag group's identity in fingerprints: the tag patterns and user match of the protection(s) that
 * apply, never the tags themselves (a new release tag must not make a new alert) or positions.
 */
export function tagGroupSubject(group: ProtectedTagGroup): string {
  return group.effective.sources.map((source) => `${source.item.tags ?? ''}`).join(' + ')
}

/** `Tag "v1.0"` or `3 tags ("v1", "v2" and "v3")`, to start a sentence. */
export function tagsPhrase(tags: readonly string[]): string {
  return tags.length === 1 ? `Tag "${tags[0]}"` : `${tags.length} tags (${examplesPhrase(tags)})`
}
