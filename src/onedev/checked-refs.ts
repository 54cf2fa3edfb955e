/**
 * Which branches and tags of a project the protection rules judge: the ones that exist.
 *
 * - Branches: the project's default branch, plus every existing branch that matches an entry of the
 *   `branches` setting (OneDev path patterns: `main`, `release/**`, `hotfix/*`), each with why it is
 *   checked. A repository that is not initialized has no branch to judge.
 * - Tags: every existing tag matching an entry of `tags`, or every existing tag when `tags` is empty.
 * - What the server does not offer (each repository endpoint on its own: a contract-only server, OneDev
 *   before 7.4, or a snapshot of an older version) is replaced: without the default branch, entries
 *   without wildcards are judged as literal names, and `main` when there is none (when the branch list
 *   is known, only those of them that exist, and wildcard entries match it); without the branch list, entries without wildcards are
 *   judged as names; without the tag list, the configured names or the sample `v1.0.0`. A configured
 *   name stands for a branch or tag only when git accepts it (src/onedev/ref-name.ts).
 * - What failed for this project alone (`unreadable`) is replaced by nothing: no invented branch or tag.
 * Pure: the caller decides what to do with an unknown repository (a notice, once).
 */
import type {RepositoryInfo} from '../model/types.js'
import {mapped} from '../util/collections.js'
import {pathMatcher} from './matchers.js'
import {gitAcceptsName} from './ref-name.js'

export interface CheckedRef {
  name: string
  /** Why it is checked, for messages: `default branch`, `matches release/**`, `configured`, ... */
  reason: string
}

/** The branch judged when neither the default branch nor any literal entry is known. */
export const FALLBACK_BRANCH = 'main'
/** The tag name judged when the server cannot list tags and none is configured: stands for release tags. */
export const FALLBACK_TAG = 'v1.0.0'

export function hasWildcard(pattern: string): boolean {
  return pattern.includes('*') || pattern.includes('?')
}

/** Whether collecting a project's branch list is needed for these entries (an entry may name a branch other than the default one). */
export function needsBranchList(entries: readonly string[]): boolean {
  return entries.length > 0
}

/** Each existing name that matches an entry, with the first entry it matches, in the server's order, each once. */
function matching(existing: readonly string[], entries: readonly string[], skip: ReadonlySet<string>): CheckedRef[] {
  const out: CheckedRef[] = []
  const seen = new Set(skip)
  for (const name of existing) {
    if (typeof name !== 'string' || seen.has(name)) continue
    const entry = entries.find((pattern) => pathMatcher(pattern, name))
    if (entry === undefined) continue
    seen.add(name)
    out.push({name, reason: `matches ${entry}`})
  }
  return out
}

/**
 * Literal (wildcard-free) entries, each once, as configured names: only names git accepts (`release/`
 * means `release/**`, and a name git refuses is no branch or tag anyone can have).
 */
function literals(entries: readonly string[], reason: string): CheckedRef[] {
  return mapped([...new Set(entries.filter((entry) => !hasWildcard(entry) && gitAcceptsName(entry)))], (name) => ({name, reason}))
}

export function checkedBranches(repository: RepositoryInfo | null | undefined, entries: readonly string[]): CheckedRef[] {
  // Not initialized, or the default branch failed for this project alone: no branch to judge, none invented.
  if (repository?.defaultBranch === null || repository?.unreadable?.includes('default-branch')) return []
  const existing = repository?.branches ?? null
  const defaultBranch = repository?.defaultBranch
  if (defaultBranch === undefined) {
    const named = literals(entries, 'configured')
    const assumed = named.length > 0 ? named : [{name: FALLBACK_BRANCH, reason: 'assumed default branch'}]
    if (existing === null) return assumed
    // The branch list is known: a finding names a branch that exists, never an assumed one that does not.
    const present = assumed.filter((ref) => existing.includes(ref.name))
    return [...present, ...matching(existing, entries.filter(hasWildcard), new Set(present.map((ref) => ref.name)))]
  }
  const checked: CheckedRef[] = [{name: defaultBranch, reason: 'default branch'}]
  if (entries.length === 0) return checked
  if (existing === null) {
    if (repository?.unreadable?.includes('branches')) return checked
    return [...checked, ...literals(entries, 'configured').filter((b) => b.name !== defaultBranch)]
  }
  return [...checked, ...matching(existing, entries, new Set([defaultBranch]))]
}

export function checkedTags(repository: RepositoryInfo | null | undefined, entries: readonly string[]): CheckedRef[] {
  const unreadable = repository?.unreadable ?? []
  if (repository?.defaultBranch === null || unreadable.includes('default-branch') || unreadable.includes('tags')) return []
  if (!repository || repository.tags === null) {
    const named = literals(entries, 'configured')
    return named.length > 0 ? named : [{name: FALLBACK_TAG, reason: 'sample release tag name'}]
  }
  if (entries.length === 0) return [...new Set(repository.tags.filter((tag) => typeof tag === 'string'))].map((name) => ({name, reason: 'existing tag'}))
  return matching(repository.tags, entries, new Set())
}
