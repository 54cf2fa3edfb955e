/**
 * Judgements the protection rules share: what a principal can do under the protection that
 * applies, what is weaker for a named principal than for everyone else, why a checked name is not
 * covered, and which protection shadows which. Pure; the rules turn these into findings.
 */
import {pathMatcher} from './matchers.js'
import {type EffectiveBranchProtection, type Hierarchy, forcePushBlockedByReviews, type ParsedProtection, type ProtectionSemantics} from './protection.js'
import {hasReviewers, missingReviews} from './review-requirement.js'
import {appliesTo, type Principal, type UserMatch} from './user-match.js'
import type {BranchProtection, TagProtection} from '../model/types.js'
import {mapped} from '../util/collections.js'

export function canForcePush(effective: EffectiveBranchProtection | null, semantics: ProtectionSemantics): boolean {
  return effective === null || (!effective.preventForcedPush && !forcePushBlockedByReviews(effective, semantics))
}

/**
 * What `principal` may do on the branch that everyone else may not, as short phrases
 * ("force-push", "delete it", "push without review", ...). Empty when it is at least as protected.
 */
export function weakerThanOthers(
  forPrincipal: EffectiveBranchProtection | null,
  forOthers: EffectiveBranchProtection | null,
  semantics: ProtectionSemantics,
): string[] {
  if (forOthers === null) return []
  const weaker: string[] = []
  if (canForcePush(forPrincipal, semantics) && !canForcePush(forOthers, semantics)) weaker.push('force-push')
  if (forOthers.preventDeletion && !forPrincipal?.preventDeletion) weaker.push('delete it')
  if (hasReviewers(forOthers.reviewRequirement)) {
    if (!forPrincipal || !hasReviewers(forPrincipal.reviewRequirement)) weaker.push('push without review')
    else {
      const missing = missingReviews(forPrincipal.reviewRequirement, forOthers.reviewRequirement)
      if (missing.length > 0) weaker.push(`merge without ${missing.join(', ')}`)
    }
  }
  if (forOthers.signatureRequired && !forPrincipal?.signatureRequired) weaker.push('push unsigned commits')
  const missingJobs = forOthers.jobNames.filter((job) => !(forPrincipal?.jobNames ?? []).includes(job))
  if (missingJobs.length > 0) weaker.push(`skip the required build${missingJobs.length > 1 ? 's' : ''} ${mapped(missingJobs, (j) => `"${j}"`).join(', ')}`)
  return weaker
}

/** A `*` that is not part of `**`, replaced by `**`: how the writer probably meant it. */
function deepened(pattern: string): string {
  return pattern.replace(/\*+/g, (stars) => (stars.length === 1 ? '**' : stars))
}

type Protection = (BranchProtection | TagProtection) & {branches?: string | null; tags?: string | null}

function patternsText(item: Protection): string | null {
  return 'branches' in item ? (item.branches ?? null) : 'tags' in item ? (item.tags ?? null) : null
}

/**
 * Why no protection applies to `name` for everyone else, when a protection nearly does: a disabled
 * one that matches, a case mismatch, `*` where `**` was meant, or a userMatch that leaves everyone
 * else out. At most three hints.
 */
export function nearMisses(hierarchy: Hierarchy<Protection>, name: string): string[] {
  const hints: string[] = []
  const others: Principal = {kind: 'others'}
  for (const {item, patterns, userMatch} of hierarchy) {
    if (hints.length >= 3) break
    const text = patternsText(item)
    if (!patterns || !userMatch) continue
    const matches = patterns.matches(name, pathMatcher)
    if (matches && !item.enabled) {
      hints.push(`${item.pointer} ("${text}") matches but is disabled`)
    } else if (matches && !appliesTo(userMatch, others)) {
      hints.push(`${item.pointer} ("${text}") matches but its user match "${item.userMatch}" leaves everyone else out`)
    } else if (!matches && item.enabled) {
      if (patterns.excludes.some((e) => pathMatcher(e, name))) continue
      const caseless = patterns.includes.find((p) => pathMatcher(p.toLowerCase(), name.toLowerCase()))
      const shallow = patterns.includes.find((p) => p.includes('*') && !pathMatcher(p, name) && pathMatcher(deepened(p), name))
      if (caseless !== undefined) hints.push(`${item.pointer} has "${caseless}", which does not match "${name}" because matching is case-sensitive`)
      else if (shallow !== undefined) hints.push(`${item.pointer} has "${shallow}", which does not match "${name}" because * stays within one path segment (use "${deepened(shallow)}")`)
    }
  }
  return hints
}

function sameUserMatch(a: UserMatch, b: UserMatch): boolean {
  const key = (c: UserMatch['criteria'][number]) => (c.kind === 'anyone' ? 'anyone' : c.kind === 'user' ? `user:${c.name.toLowerCase()}` : `group:${c.name}`)
  const set = (cs: UserMatch['criteria']) => [...new Set(cs.map(key))].sort().join('\n')
  return set(a.criteria) === set(b.criteria) && set(a.exceptions) === set(b.exceptions)
}

/** Whether a userMatch applies to every user: `anyone`, without an except clause. */
export function coversEveryone(userMatch: UserMatch): boolean {
  return userMatch.exceptions.length === 0 && userMatch.criteria.some((c) => c.kind === 'anyone')
}

/** Whether `wide` (an include without wildcards before a trailing `/**`) surely matches all `narrow` matches. */
function includeCovers(wide: string, narrow: string): boolean {
  const normalized = wide.endsWith('/') ? `${wide}**` : wide
  if (normalized === narrow) return true
  if (normalized === '**') return !narrow.startsWith('/')
  if (normalized.endsWith('/**')) {
    const prefix = normalized.slice(0, -2) // keeps the trailing '/'
    if (/[*?]/.test(prefix)) return false
    return narrow.startsWith(prefix) || narrow === prefix.slice(0, -1)
  }
  return false
}

/**
 * The earlier protection that makes `later` unreachable under first-match, judged conservatively:
 * the earlier one is enabled, has no excludes, its includes cover each of the later one's includes
 * (identical, `**`, or `prefix/**` over `prefix/...`), and its userMatch covers the later one's
 * (`anyone` without except, or the same expression). An exclusion-only later set needs `**`.
 */
export function shadowerOf<E extends ParsedProtection<Protection>>(hierarchy: readonly E[], index: number): E | null {
  const later = hierarchy[index]!
  if (!later.item.enabled) return null
  const laterPatterns = later.patterns
  const laterUsers = later.userMatch
  if (!laterPatterns || !laterUsers) return null
  if (laterPatterns.includes.length === 0 && laterPatterns.excludes.length === 0) return null
  for (let i = 0; i < index; i++) {
    const earlier = hierarchy[i]!
    if (!earlier.item.enabled) continue
    const patterns = earlier.patterns
    const users = earlier.userMatch
    if (!patterns || !users || patterns.excludes.length > 0 || patterns.includes.length === 0) continue
    if (!coversEveryone(users) && !sameUserMatch(users, laterUsers)) continue
    // An exclusion-only set matches (almost) every name: only `**` covers it. (It also matches
    // names with a leading '/', which `**` does not, but git branch and tag names never start with '/'.)
    const targets = laterPatterns.includes.length > 0 ? laterPatterns.includes : ['**']
    if (targets.every((narrow) => patterns.includes.some((wide) => includeCovers(wide, narrow)))) return earlier
  }
  return null
}
