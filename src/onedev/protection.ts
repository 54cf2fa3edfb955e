/**
 * Which branch, tag or file protection applies (onedev-reference.md §3.1–§3.6), as pure functions.
 *
 * A hierarchy is the project's own protections followed by each ancestor's, nearest first
 * (`Project#getHierarchyBranchProtections`). Current servers take the FIRST enabled protection
 * whose userMatch applies to the acting user and whose pattern set matches the name; servers up to
 * v8.1.x merged every such protection (OR of the flags, union of jobs and file protections, merged
 * reviewers). When nothing applies the server allows everything: these functions return null.
 *
 * A pattern set, userMatch or review requirement the server's parser would reject cannot be saved
 * through OneDev, so it can only come from a damaged payload. The safer reading is taken: such a
 * protection never applies, and such a review requirement asks for no one (more findings, never
 * fewer). Nothing here throws on server text.
 */
import type {BranchProtection, FileProtection, Project, TagProtection} from '../model/types.js'
import {RecentMemo} from '../util/recent.js'
import {pathMatcher} from './matchers.js'
import {type PatternSet, tryParsePatternSet} from './pattern-set.js'
import {hasReviewers, mergeReviewRequirements, type ReviewRequirement, tryParseReviewRequirement} from './review-requirement.js'
import {appliesTo, namedPrincipals, type Principal, samePrincipal, tryParseUserMatch, type UserMatch} from './user-match.js'

/** How several protections matching one name combine: current servers take the first, servers up to 8.1 merged them. */
export type ProtectionSemantics = 'first-match' | 'merged'

/** A protection together with the project whose setting holds it. */
export interface Located<T> {
  item: T
  projectId: number
  projectPath: string
}

export type Hierarchy<T> = Located<T>[]

/** The project's own items followed by each ancestor's (ancestors nearest first). */
function hierarchyOf<T>(project: Project, ancestors: Project[], pick: (p: Project) => T[] | undefined): Hierarchy<T> {
  return [project, ...ancestors].flatMap((p) => (pick(p) ?? []).map((item) => ({item, projectId: p.id, projectPath: p.path})))
}

/**
 * Hierarchies are asked for by every protection rule of a project; the engine hands all of them the
 * same ancestors list, so one is built per project and kind.
 */
interface Hierarchies {
  project: Project
  branch?: Hierarchy<BranchProtection>
  tag?: Hierarchy<TagProtection>
}

const hierarchies = new RecentMemo<Project[], Hierarchies>()

function hierarchiesOf(project: Project, ancestors: Project[]): Hierarchies {
  const entry = hierarchies.get(ancestors, () => ({project}))
  // The same ancestors list handed with another project (not something the engine does): start over.
  return entry.project === project ? entry : {project}
}

export function branchProtectionHierarchy(project: Project, ancestors: Project[]): Hierarchy<BranchProtection> {
  const entry = hierarchiesOf(project, ancestors)
  return (entry.branch ??= hierarchyOf(project, ancestors, (p) => p.setting?.branchProtections))
}

export function tagProtectionHierarchy(project: Project, ancestors: Project[]): Hierarchy<TagProtection> {
  const entry = hierarchiesOf(project, ancestors)
  return (entry.tag ??= hierarchyOf(project, ancestors, (p) => p.setting?.tagProtections))
}

// Parsing once per protection object.
const patternCache = new WeakMap<object, PatternSet | null>()
const userMatchCache = new WeakMap<object, UserMatch | null>()
const reviewCache = new WeakMap<object, ReviewRequirement>()

type Guarded = {enabled: boolean; userMatch: string}

function patternsOf(item: BranchProtection | TagProtection | FileProtection): PatternSet | null {
  if (!patternCache.has(item)) {
    const text = 'branches' in item ? item.branches : 'tags' in item ? item.tags : item.paths
    patternCache.set(item, tryParsePatternSet(text))
  }
  return patternCache.get(item) ?? null
}

/** The parsed userMatch, or null when it does not parse (then the protection never applies). */
export function userMatchOf(item: Guarded): UserMatch | null {
  if (!userMatchCache.has(item)) userMatchCache.set(item, tryParseUserMatch(item.userMatch))
  return userMatchCache.get(item) ?? null
}

/** The parsed pattern set of a branch, tag or file protection; null when it does not parse. */
export function patternSetOf(item: BranchProtection | TagProtection | FileProtection): PatternSet | null {
  return patternsOf(item)
}

/** The parsed review requirement; one that does not parse asks for no one (the safer reading). */
export function reviewRequirementOf(item: {reviewRequirement: string | null}): ReviewRequirement {
  let parsed = reviewCache.get(item)
  if (!parsed) {
    parsed = tryParseReviewRequirement(item.reviewRequirement) ?? {users: [], groups: []}
    reviewCache.set(item, parsed)
  }
  return parsed
}

/** Whether an enabled protection applies to this name and principal. */
export function protectionApplies(item: (BranchProtection | TagProtection) & Guarded, name: string, principal: Principal): boolean {
  if (!item.enabled) return false
  const userMatch = userMatchOf(item)
  const patterns = patternsOf(item)
  if (!userMatch || !patterns) return false
  return appliesTo(userMatch, principal) && patterns.matches(name, pathMatcher)
}

function applying<T extends (BranchProtection | TagProtection) & Guarded>(
  hierarchy: Hierarchy<T>,
  name: string,
  principal: Principal,
  semantics: ProtectionSemantics,
): Located<T>[] {
  if (semantics === 'first-match') {
    const first = hierarchy.find((l) => protectionApplies(l.item, name, principal))
    return first ? [first] : []
  }
  return hierarchy.filter((l) => protectionApplies(l.item, name, principal))
}

/**
 * Every class of user the userMatch expressions of the (enabled) protections distinguish:
 * `others` first, then every named user (case-insensitively distinct) and every named group.
 */
export function principalClasses(hierarchy: Hierarchy<Guarded>): Principal[] {
  const principals: Principal[] = [{kind: 'others'}]
  for (const {item} of hierarchy) {
    if (!item.enabled) continue
    const userMatch = userMatchOf(item)
    if (!userMatch) continue
    for (const named of namedPrincipals(userMatch)) {
      const known = principals.some((p) => samePrincipal(p, named))
      if (!known) principals.push(named)
    }
  }
  return principals
}

export interface EffectiveBranchProtection {
  /** The protections that decide, in hierarchy order: exactly one under first-match. */
  sources: Located<BranchProtection>[]
  preventForcedPush: boolean
  preventDeletion: boolean
  preventCreation: boolean
  signatureRequired: boolean
  reviewRequirement: ReviewRequirement
  jobNames: string[]
  /** File protections of every source, in order. */
  fileProtections: Located<FileProtection>[]
}

/**
 * Answers per hierarchy: every protection rule of a project asks which protection applies to the
 * same branches for the same users. Results are shared, so callers must not modify them. Keyed by
 * semantics and principal, then by the name itself (the configured name strings, whose hashes V8
 * keeps, so a lookup builds no string).
 */
const answers = new RecentMemo<object, Map<string, Map<string, unknown>>>()

function principalKey(principal: Principal, semantics: ProtectionSemantics): string {
  if (principal.kind === 'others') return semantics
  return `${semantics}\u0000${principal.kind}\u0000${principal.name}`
}

function remembered<T>(hierarchy: object, name: string, principal: Principal, semantics: ProtectionSemantics, compute: () => T): T {
  const byPrincipal = answers.get(hierarchy, () => new Map())
  const key = principalKey(principal, semantics)
  let byName = byPrincipal.get(key)
  if (!byName) byPrincipal.set(key, (byName = new Map()))
  if (byName.has(name)) return byName.get(name) as T
  const value = compute()
  byName.set(name, value)
  return value
}

export function effectiveBranchProtection(
  hierarchy: Hierarchy<BranchProtection>,
  branch: string,
  principal: Principal,
  semantics: ProtectionSemantics,
): EffectiveBranchProtection | null {
  return remembered(hierarchy, branch, principal, semantics, () => computeBranchProtection(hierarchy, branch, principal, semantics))
}

/**
 * The branch protection that applies to a user described by a predicate over userMatch expressions
 * (e.g. a real user with their group memberships, src/onedev/access.ts). Not memoized.
 */
export function effectiveBranchProtectionWhen(
  hierarchy: Hierarchy<BranchProtection>,
  branch: string,
  matchesUser: (userMatch: UserMatch) => boolean,
  semantics: ProtectionSemantics,
): EffectiveBranchProtection | null {
  const applies = (l: Located<BranchProtection>) => {
    if (!l.item.enabled) return false
    const userMatch = userMatchOf(l.item)
    const patterns = patternsOf(l.item)
    return userMatch !== null && patterns !== null && matchesUser(userMatch) && patterns.matches(branch, pathMatcher)
  }
  if (semantics === 'first-match') {
    const first = hierarchy.find(applies)
    return first ? combineBranchProtections([first]) : null
  }
  const sources = hierarchy.filter(applies)
  return sources.length === 0 ? null : combineBranchProtections(sources)
}

function computeBranchProtection(
  hierarchy: Hierarchy<BranchProtection>,
  branch: string,
  principal: Principal,
  semantics: ProtectionSemantics,
): EffectiveBranchProtection | null {
  const sources = applying(hierarchy, branch, principal, semantics)
  if (sources.length === 0) return null
  return combineBranchProtections(sources)
}

function combineBranchProtections(sources: Located<BranchProtection>[]): EffectiveBranchProtection {
  const items = sources.map((s) => s.item)
  return {
    sources,
    preventForcedPush: items.some((p) => p.preventForcedPush),
    preventDeletion: items.some((p) => p.preventDeletion),
    preventCreation: items.some((p) => p.preventCreation),
    signatureRequired: items.some((p) => p.signatureRequired),
    reviewRequirement: mergeReviewRequirements(items.map(reviewRequirementOf)),
    jobNames: [...new Set(items.flatMap((p) => p.jobNames))],
    fileProtections: sources.flatMap((s) => s.item.fileProtections.map((item) => ({item, projectId: s.projectId, projectPath: s.projectPath}))),
  }
}

export interface EffectiveTagProtection {
  sources: Located<TagProtection>[]
  preventUpdate: boolean
  preventDeletion: boolean
  preventCreation: boolean
  signatureRequired: boolean
}

export function effectiveTagProtection(
  hierarchy: Hierarchy<TagProtection>,
  tag: string,
  principal: Principal,
  semantics: ProtectionSemantics,
): EffectiveTagProtection | null {
  return remembered(hierarchy, tag, principal, semantics, () => computeTagProtection(hierarchy, tag, principal, semantics))
}

function computeTagProtection(
  hierarchy: Hierarchy<TagProtection>,
  tag: string,
  principal: Principal,
  semantics: ProtectionSemantics,
): EffectiveTagProtection | null {
  const sources = applying(hierarchy, tag, principal, semantics)
  if (sources.length === 0) return null
  const items = sources.map((s) => s.item)
  return {
    sources,
    preventUpdate: items.some((p) => p.preventUpdate),
    preventDeletion: items.some((p) => p.preventDeletion),
    preventCreation: items.some((p) => p.preventCreation),
    signatureRequired: items.some((p) => p.signatureRequired),
  }
}

export interface EffectiveFileProtection {
  /** Every file protection whose paths match the file, in order. */
  sources: Located<FileProtection>[]
  reviewRequirement: ReviewRequirement
  jobNames: string[]
}

/**
 * What the file protections of the applying branch protection(s) require for one file: every file
 * protection whose paths match contributes (reviewers merged, jobs unioned; `BranchProtection#getFileProtection`).
 * null when none matches.
 */
export function effectiveFileProtection(effective: EffectiveBranchProtection, path: string): EffectiveFileProtection | null {
  const sources = effective.fileProtections.filter((l) => patternsOf(l.item)?.matches(path, pathMatcher) ?? false)
  if (sources.length === 0) return null
  return {
    sources,
    reviewRequirement: mergeReviewRequirements(sources.map((s) => reviewRequirementOf(s.item))),
    jobNames: [...new Set(sources.flatMap((s) => s.item.jobNames))],
  }
}

/**
 * Whether a forced push can get through. The pre-receive hook checks preventForcedPush and then,
 * on current servers, rejects every direct push to a branch that requires reviews. Servers that
 * merged protections (≤ 8.1) let a user who alone satisfies the requirement push directly, so
 * there only preventForcedPush counts (the safer reading).
 */
export function forcePushBlockedByReviews(effective: EffectiveBranchProtection, semantics: ProtectionSemantics): boolean {
  return semantics === 'first-match' && hasReviewers(effective.reviewRequirement)
}
