/**
 * Shared wording and locations for the protection rules (rules/branch-protection, rules/tag-protection,
 * rules/file-protection): where the deciding setting lives, and pointers that resolve in that
 * project's raw payload.
 */
import type {FindingDraft, ProjectContext} from '../engine/rule.js'
import {hasPointer, memberPointer as memberPointerIn} from '../model/pointer.js'
import type {Project} from '../model/types.js'
import {RecentMemo} from '../util/recent.js'
import {
  branchProtectionHierarchy,
  type EffectiveBranchProtection,
  type EffectiveTagProtection,
  effectiveBranchProtection,
  effectiveTagProtection,
  type Located,
  tagProtectionHierarchy,
} from './protection.js'

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

const unique = new WeakMap<readonly string[], readonly string[]>()

/** Checked names, each once, in the configured order (shared: the settings' lists never change during a run). */
export function uniqueNames(names: readonly string[]): readonly string[] {
  let once = unique.get(names)
  if (!once) unique.set(names, (once = [...new Set(names)]))
  return once
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

type Checked<K extends string, E> = ({[key in K]: string} & {effective: E})[]

/**
 * Most protection rules of a project start from the same list: each checked name (under `key`)
 * with what applies to everyone else, names nothing protects left out. It is built once per
 * hierarchy (the engine hands all rules of a project the same one) and shared: do not modify it.
 */
const checkedLists = new RecentMemo<object, {names: readonly string[]; semantics: string; list: unknown}>()

function checkedNames<K extends 'branch' | 'tag', E>(
  key: K,
  hierarchy: object,
  names: readonly string[],
  semantics: string,
  effectiveOf: (name: string) => E | null,
): Checked<K, E> {
  const build = () => {
    const list: Checked<K, E> = []
    for (const name of uniqueNames(names)) {
      const effective = effectiveOf(name)
      if (effective) list.push({[key]: name, effective} as Checked<K, E>[number])
    }
    return list
  }
  const known = checkedLists.get(hierarchy, () => ({names, semantics, list: build()}))
  if (known.names !== names || known.semantics !== semantics) Object.assign(known, {names, semantics, list: build()})
  return known.list as Checked<K, E>
}

/** Each checked branch with the protection that applies to everyone else; unprotected branches are left out (unprotected-branch reports them). */
export function protectedBranches(ctx: ProjectContext<unknown>): Checked<'branch', EffectiveBranchProtection> {
  const hierarchy = branchProtectionHierarchy(ctx.project, ctx.ancestors)
  const {branches, protectionSemantics: semantics} = ctx.settings
  return checkedNames('branch', hierarchy, branches, semantics, (branch) => effectiveBranchProtection(hierarchy, branch, {kind: 'others'}, semantics))
}

/** Each checked tag name with the tag protection that applies to everyone else; unprotected ones are left out. */
export function protectedTags(ctx: ProjectContext<unknown>): Checked<'tag', EffectiveTagProtection> {
  const hierarchy = tagProtectionHierarchy(ctx.project, ctx.ancestors)
  const {tags, protectionSemantics: semantics} = ctx.settings
  return checkedNames('tag', hierarchy, tags, semantics, (tag) => effectiveTagProtection(hierarchy, tag, {kind: 'others'}, semantics))
}
