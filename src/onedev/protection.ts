/**
 * Which branch, tag or file protection applies (onedev-reference.md §3.1–§3.6), as pure functions.
 *
 * A hierarchy is the project's own protections followed by each ancestor's, nearest first
 * (`Project#getHierarchyBranchProtections`), each with its texts parsed. Current servers take the
 * FIRST enabled protection whose userMatch applies to the acting user and whose pattern set matches
 * the name; servers up to v8.1.x merged every such protection (OR of the flags, union of jobs and
 * file protections, merged reviewers). When nothing applies the server allows everything: these
 * functions return null.
 *
 * A pattern set, userMatch or review requirement the server's parser would reject cannot be saved
 * through OneDev, so it can only come from a damaged payload. The safer reading is taken: such a
 * protection never applies, and such a review requirement asks for no one (more findings, never
 * fewer). Nothing here throws on server text, and nothing here remembers anything: the rules read
 * hierarchies and answers through the facts of src/engine/facts.ts, which derive each once per project.
 */
import type {BranchProtection, FileProtection, Project, TagProtection} from '../model/types.js'
import {mapped} from '../util/collections.js'
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

/**
 * How the texts of protections are parsed. `parseEachTime` parses on every call; the facts of a run
 * (src/engine/facts.ts) parse each distinct text once. Callers say which (there is no default, so
 * nothing parses each time unasked). Parsed values are shared: never modify them.
 */
export interface ProtectionParsers {
  /** null when the pattern set does not parse. */
  patternSet(text: string | null): PatternSet | null
  /** null when the userMatch does not parse. */
  userMatch(text: string): UserMatch | null
  /** A review requirement that does not parse asks for no one (the safer reading). */
  reviewRequirement(text: string | null): ReviewRequirement
}

export const parseEachTime: ProtectionParsers = {
  patternSet: tryParsePatternSet,
  userMatch: tryParseUserMatch,
  reviewRequirement: (text) => tryParseReviewRequirement(text) ?? {users: [], groups: []},
}

/** A protection of a hierarchy with its texts parsed; `patterns` or `userMatch` null: it does not parse, so it never applies. */
export interface ParsedProtection<T> extends Located<T> {
  patterns: PatternSet | null
  userMatch: UserMatch | null
}

export interface ParsedFileProtection extends Located<FileProtection> {
  patterns: PatternSet | null
  reviewRequirement: ReviewRequirement
}

export interface ParsedBranchProtection extends ParsedProtection<BranchProtection> {
  reviewRequirement: ReviewRequirement
  fileProtections: ParsedFileProtection[]
}

export type Hierarchy<T> = ParsedProtection<T>[]
export type BranchHierarchy = ParsedBranchProtection[]

type Guarded = {enabled: boolean; userMatch: string}

/** The project's own branch protections, then each ancestor's (ancestors nearest first), parsed. */
export function branchProtectionHierarchy(project: Project, ancestors: readonly Project[], parse: ProtectionParsers): BranchHierarchy {
  const hierarchy: BranchHierarchy = []
  for (const owner of [project, ...ancestors]) {
    for (const item of owner.setting?.branchProtections ?? []) {
      hierarchy.push({
        item,
        projectId: owner.id,
        projectPath: owner.path,
        patterns: parse.patternSet(item.branches),
        userMatch: parse.userMatch(item.userMatch),
        reviewRequirement: parse.reviewRequirement(item.reviewRequirement),
        fileProtections: mapped(item.fileProtections, (file) => ({
          item: file,
          projectId: owner.id,
          projectPath: owner.path,
          patterns: parse.patternSet(file.paths),
          reviewRequirement: parse.reviewRequirement(file.reviewRequirement),
        })),
      })
    }
  }
  return hierarchy
}

/** The project's own tag protections, then each ancestor's, parsed. */
export function tagProtectionHierarchy(project: Project, ancestors: readonly Project[], parse: ProtectionParsers): Hierarchy<TagProtection> {
  const hierarchy: Hierarchy<TagProtection> = []
  for (const owner of [project, ...ancestors]) {
    for (const item of owner.setting?.tagProtections ?? []) {
      hierarchy.push({item, projectId: owner.id, projectPath: owner.path, patterns: parse.patternSet(item.tags), userMatch: parse.userMatch(item.userMatch)})
    }
  }
  return hierarchy
}

/** Whether an enabled protection applies to this name and principal. */
export function protectionApplies(protection: ParsedProtection<Guarded>, name: string, principal: Principal): boolean {
  const {item, userMatch, patterns} = protection
  if (!item.enabled || !userMatch || !patterns) return false
  return appliesTo(userMatch, principal) && patterns.matches(name, pathMatcher)
}

function applying<T extends ParsedProtection<Guarded>>(hierarchy: readonly T[], name: string, principal: Principal, semantics: ProtectionSemantics): T[] {
  if (semantics === 'first-match') {
    const first = hierarchy.find((p) => protectionApplies(p, name, principal))
    return first ? [first] : []
  }
  return hierarchy.filter((p) => protectionApplies(p, name, principal))
}

/**
 * Every class of user the userMatch expressions of the (enabled) protections distinguish:
 * `others` first, then every named user (case-insensitively distinct) and every named group.
 */
export function principalClasses(hierarchy: Hierarchy<Guarded>): Principal[] {
  const principals: Principal[] = [{kind: 'others'}]
  for (const {item, userMatch} of hierarchy) {
    if (!item.enabled || !userMatch) continue
    for (const named of namedPrincipals(userMatch)) {
      const known = principals.some((p) => samePrincipal(p, named))
      if (!known) principals.push(named)
    }
  }
  return principals
}

export interface EffectiveBranchProtection {
  /** The protections that decide, in hierarchy order: exactly one under first-match. */
  sources: ParsedBranchProtection[]
  preventForcedPush: boolean
  preventDeletion: boolean
  preventCreation: boolean
  signatureRequired: boolean
  reviewRequirement: ReviewRequirement
  jobNames: string[]
  /** File protections of every source, in order. */
  fileProtections: ParsedFileProtection[]
  /** Pull-request builds must have run on the current merge commit (merged servers OR the flag: v8.0.0 Project.java:1181). */
  requireStrictBuilds: boolean
}

export function effectiveBranchProtection(hierarchy: BranchHierarchy, branch: string, principal: Principal, semantics: ProtectionSemantics): EffectiveBranchProtection | null {
  const sources = applying(hierarchy, branch, principal, semantics)
  return sources.length === 0 ? null : combineBranchProtections(sources)
}

/**
 * The branch protection that applies to a user described by a predicate over userMatch expressions
 * (e.g. a real user with their group memberships, src/onedev/access.ts).
 */
export function effectiveBranchProtectionWhen(
  hierarchy: BranchHierarchy,
  branch: string,
  matchesUser: (userMatch: UserMatch) => boolean,
  semantics: ProtectionSemantics,
): EffectiveBranchProtection | null {
  const applies = (p: ParsedBranchProtection) => p.item.enabled && p.userMatch !== null && p.patterns !== null && matchesUser(p.userMatch) && p.patterns.matches(branch, pathMatcher)
  if (semantics === 'first-match') {
    const first = hierarchy.find(applies)
    return first ? combineBranchProtections([first]) : null
  }
  const sources = hierarchy.filter(applies)
  return sources.length === 0 ? null : combineBranchProtections(sources)
}

function combineBranchProtections(sources: ParsedBranchProtection[]): EffectiveBranchProtection {
  const fileProtections: ParsedFileProtection[] = []
  for (const source of sources) for (const file of source.fileProtections) fileProtections.push(file)
  return {
    sources,
    preventForcedPush: sources.some((s) => s.item.preventForcedPush),
    preventDeletion: sources.some((s) => s.item.preventDeletion),
    preventCreation: sources.some((s) => s.item.preventCreation),
    signatureRequired: sources.some((s) => s.item.signatureRequired),
    reviewRequirement: mergeReviewRequirements(mapped(sources, (s) => s.reviewRequirement)),
    jobNames: [...new Set(sources.flatMap((s) => s.item.jobNames))],
    fileProtections,
    requireStrictBuilds: sources.some((s) => s.item.requireStrictBuilds),
  }
}

export interface EffectiveTagProtection {
  sources: ParsedProtection<TagProtection>[]
  preventUpdate: boolean
  preventDeletion: boolean
  preventCreation: boolean
  signatureRequired: boolean
}

export function effectiveTagProtection(hierarchy: Hierarchy<TagProtection>, tag: string, principal: Principal, semantics: ProtectionSemantics): EffectiveTagProtection | null {
  const sources = applying(hierarchy, tag, principal, semantics)
  if (sources.length === 0) return null
  return {
    sources,
    preventUpdate: sources.some((s) => s.item.preventUpdate),
    preventDeletion: sources.some((s) => s.item.preventDeletion),
    preventCreation: sources.some((s) => s.item.preventCreation),
    signatureRequired: sources.some((s) => s.item.signatureRequired),
  }
}

export interface EffectiveFileProtection {
  /** Every file protection whose paths match the file, in order. */
  sources: ParsedFileProtection[]
  reviewRequirement: ReviewRequirement
  jobNames: string[]
}

/**
 * What the file protections of the applying branch protection(s) require for one file: every file
 * protection whose paths match contributes (reviewers merged, jobs unioned; `BranchProtection#getFileProtection`).
 * null when none matches.
 */
export function effectiveFileProtection(effective: EffectiveBranchProtection, path: string): EffectiveFileProtection | null {
  const sources = effective.fileProtections.filter((f) => f.patterns?.matches(path, pathMatcher) ?? false)
  if (sources.length === 0) return null
  return {
    sources,
    reviewRequirement: mergeReviewRequirements(mapped(sources, (s) => s.reviewRequirement)),
    jobNames: [...new Set(sources.flatMap((s) => s.item.jobNames))],
  }
}

/**
 * The jobs a pull request into the branch may have to pass: the protection's own required jobs and
 * those of its file protections, which count when a changed file matches
 * (`BranchProtection#getBuildRequirement`, v16.5.6 BranchProtection.java:375–381). Strict builds
 * (`requireStrictBuilds`) take effect only when there are some (PullRequest.java:1115).
 */
export function requirableJobs(effective: EffectiveBranchProtection): string[] {
  return [...new Set([...effective.jobNames, ...effective.fileProtections.flatMap((f) => f.item.jobNames)])]
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
