/**
 * Whether a change of a project's own protection lists could make the protection that applies to a
 * name the audit did NOT check weaker. The proof (proof.ts) and compareModels (weakened.ts) judge the
 * checked branches and tags only; under first match, a protection enabled, added, or applying to more
 * users than before now wins for EVERY name its pattern matches, ahead of later protections, and a
 * protection removed or disabled hands its names to the next one (or to none). Enabling a weak
 * disabled `**` ahead of a strict `release/*` would leave every `release/` branch the audit did not
 * list unprotected without any finding saying so.
 *
 * The test is conservative, never exhaustive: the lists before and after are aligned (common head and
 * tail; what is between is paired in place when both sides have as many items, else removed and
 * added), and
 * - a protection that now applies where it did not (enabled, added, a broader user match, a changed
 *   pattern) must be at least as strict, on every field the rules judge, as every enabled protection
 *   after it (its own project's, then its ancestors') whose pattern could match the same names;
 * - a protection that no longer applies where it did (removed, disabled, a narrower or different user
 *   match or pattern) must have asked for nothing, or never have applied (an unchanged protection
 *   ahead of it surely matches every name and user it does: src/onedev/protection-judgement.ts).
 * Servers that merge every matching protection (up to 8.1) only add what a new one asks: there a
 * protection that now applies weakens nothing, and one that no longer applies must have asked nothing.
 */
import type {BranchProtection, Project, TagProtection} from '../model/types.js'
import {isLiteralPath, pathMatcher} from '../onedev/matchers.js'
import {
  branchProtectionHierarchy,
  type ParsedBranchProtection,
  type ParsedProtection,
  parseEachTime,
  type ProtectionSemantics,
  tagProtectionHierarchy,
} from '../onedev/protection.js'
import {coversEveryone, shadowerOf} from '../onedev/protection-judgement.js'
import {hasReviewers} from '../onedev/review-requirement.js'
import {formatUserMatch, type UserMatch} from '../onedev/user-match.js'

type Guarded = BranchProtection | TagProtection

interface ListKind<P extends ParsedProtection<Guarded>> {
  noun: 'branch' | 'tag'
  plural: 'branches' | 'tags'
  /** What `stricter` asks that `weaker` does not (field names as the UI says them); `weaker` null: no protection. */
  lacks(weaker: P | null, stricter: P): string[]
  patternText(protection: P): string | null
}

const flagLacks = <T>(weaker: T | null, stricter: T, flags: ReadonlyArray<[keyof T, string]>): string[] =>
  flags.filter(([flag]) => stricter[flag] === true && weaker?.[flag] !== true).map(([, label]) => label)

/** Stable text of a value, pointers left out (they move when an item is added or removed ahead). */
const withoutPointers = (value: unknown): string => JSON.stringify(value, (key, v: unknown) => (key === 'pointer' || key === 'signaturePointer' ? undefined : v))

const BRANCH: ListKind<ParsedBranchProtection> = {
  noun: 'branch',
  plural: 'branches',
  patternText: (p) => p.item.branches,
  lacks(weaker, stricter) {
    const s = stricter.item
    const w = weaker?.item ?? null
    const out = flagLacks(w, s, [
      ['preventForcedPush', 'Prevent Forced Push'],
      ['preventDeletion', 'Prevent Deletion'],
      ['preventCreation', 'Prevent Creation'],
      ['signatureRequired', 'Signature Required'],
    ])
    if (hasReviewers(stricter.reviewRequirement) && w?.reviewRequirement !== s.reviewRequirement) out.push('Required Reviewers')
    if (s.jobNames.some((job) => !w?.jobNames.includes(job))) out.push('Required Builds')
    if (s.fileProtections.length > 0 && withoutPointers(w?.fileProtections) !== withoutPointers(s.fileProtections)) out.push('File Protections')
    return out
  },
}

const TAG: ListKind<ParsedProtection<TagProtection>> = {
  noun: 'tag',
  plural: 'tags',
  patternText: (p) => p.item.tags,
  lacks: (weaker, stricter) =>
    flagLacks(weaker?.item ?? null, stricter.item, [
      ['preventUpdate', 'Prevent Update'],
      ['preventDeletion', 'Prevent Deletion'],
      ['preventCreation', 'Prevent Creation'],
      ['signatureRequired', 'Signature Required'],
    ]),
}

const applies = (p: ParsedProtection<Guarded>) => p.item.enabled && p.patterns !== null && p.userMatch !== null

/** The names a pattern set matches when it is a list of literal names (isLiteralPath, no exclusion); null otherwise. */
function literalNames(p: ParsedProtection<Guarded>): string[] | null {
  const set = p.patterns
  return set && set.excludes.length === 0 && set.includes.every(isLiteralPath) ? set.includes : null
}

/** Whether two protections' patterns could match one name: true unless one side is literal names the other matches none of. */
function mayOverlap(a: ParsedProtection<Guarded>, b: ParsedProtection<Guarded>): boolean {
  const apart = (literal: ParsedProtection<Guarded>, other: ParsedProtection<Guarded>) =>
    literalNames(literal)?.every((name) => !other.patterns!.matches(name, pathMatcher)) ?? false
  return !apart(a, b) && !apart(b, a)
}

/** Whether `after` applies to every user `before` applies to: its criteria include before's, its exceptions are among before's. */
function usersIncluded(before: UserMatch, after: UserMatch): boolean {
  const texts = (criteria: UserMatch['criteria']) => criteria.map((c) => formatUserMatch({criteria: [c], exceptions: []}))
  const afterCriteria = texts(after.criteria)
  const beforeExceptions = texts(before.exceptions)
  return (coversEveryone(after) || texts(before.criteria).every((c) => afterCriteria.includes(c))) && texts(after.exceptions).every((e) => beforeExceptions.includes(e))
}

function describe<P extends ParsedProtection<Guarded>>(kind: ListKind<P>, p: P, owner: number): string {
  return `the ${kind.noun} protection "${kind.patternText(p) ?? ''}"${p.projectId === owner ? '' : ` of project ${p.projectPath}`}`
}

/** One step of a change of the owner's own list: a protection lost or gained where it applies, or kept in place (maybe asking less). */
type Step<P> = {step: 'lost'; p: P} | {step: 'gained'; p: P} | {step: 'kept'; was: P; now: P}

/**
 * The owner's protections before and after, aligned (common head and tail; what is between is paired
 * in place when both sides have as many items, else removed and added), as steps in order; and how
 * many items of the head are unchanged.
 */
function stepsOf<P extends ParsedProtection<Guarded>>(kind: ListKind<P>, before: readonly P[], after: readonly P[], owner: number): {steps: Step<P>[]; head: number} {
  const ownBefore = before.filter((p) => p.projectId === owner)
  const ownAfter = after.filter((p) => p.projectId === owner)
  const same = (a: P, b: P) => withoutPointers(a.item) === withoutPointers(b.item)
  let head = 0
  while (head < ownBefore.length && head < ownAfter.length && same(ownBefore[head]!, ownAfter[head]!)) head++
  let tail = 0
  while (tail < ownBefore.length - head && tail < ownAfter.length - head && same(ownBefore.at(-1 - tail)!, ownAfter.at(-1 - tail)!)) tail++
  const left = ownBefore.slice(head, ownBefore.length - tail)
  const right = ownAfter.slice(head, ownAfter.length - tail)
  const steps: Step<P>[] = []
  if (left.length === right.length) {
    left.forEach((was, i) => {
      const now = right[i]!
      const samePlace = applies(was) && applies(now) && kind.patternText(was) === kind.patternText(now) && usersIncluded(was.userMatch!, now.userMatch!)
      if (samePlace) {
        steps.push({step: 'kept', was, now})
        if (formatUserMatch(was.userMatch!) !== formatUserMatch(now.userMatch!)) steps.push({step: 'gained', p: now})
      } else {
        steps.push({step: 'lost', p: was}, {step: 'gained', p: now})
      }
    })
  } else {
    for (const was of left) steps.push({step: 'lost', p: was})
    for (const now of right) steps.push({step: 'gained', p: now})
  }
  return {steps, head}
}

function compare<P extends ParsedProtection<Guarded>>(kind: ListKind<P>, before: readonly P[], after: readonly P[], owner: number, semantics: ProtectionSemantics): string | null {
  const {steps, head} = stepsOf(kind, before, after, owner)

  /** `added` (at `index` of the list after) now applies where it did not: it must not shadow a stricter one. */
  const nowApplies = (added: P, index: number): string | null => {
    if (!applies(added) || semantics === 'merged') return null
    for (const later of after.slice(index + 1)) {
      if (!applies(later) || !mayOverlap(added, later)) continue
      const missing = kind.lacks(added, later)
      if (missing.length > 0) return `${describe(kind, added, owner)} would apply ahead of ${describe(kind, later, owner)}, without its ${missing.join(', ')}`
    }
    return null
  }
  /** `gone` no longer applies where it did: what it asked must be nothing, or it never applied. */
  const noLongerApplies = (gone: P): string | null => {
    if (!applies(gone) || kind.lacks(null, gone).length === 0) return null
    const shadower = semantics === 'first-match' ? shadowerOf(before, before.indexOf(gone)) : null
    return shadower !== null && before.indexOf(shadower) < head ? null : `${kind.plural} that ${describe(kind, gone, owner)} protects now could lose its ${kind.lacks(null, gone).join(', ')}`
  }
  const reasonOf = (step: Step<P>): string | null => {
    if (step.step === 'lost') return noLongerApplies(step.p)
    if (step.step === 'gained') return nowApplies(step.p, after.indexOf(step.p))
    const missing = kind.lacks(step.now, step.was)
    return missing.length > 0 ? `${describe(kind, step.now, owner)} would no longer ask ${missing.join(', ')}` : null
  }
  for (const step of steps) {
    const reason = reasonOf(step)
    if (reason !== null) return reason
  }
  return null
}

/**
 * Whether the change of `owner`'s own setting from `before` to `after` makes one of its protections
 * apply where it did not (enabled, added, applying to more users, another pattern). Only such a
 * protection can take names away from a later one, its ancestors' included: otherwise what the
 * ancestors hold cannot make the change weaken anything (applying reads them live only then).
 */
export function protectionNowApplies(before: Project, after: Project, semantics: ProtectionSemantics): boolean {
  if (semantics === 'merged') return false
  const gains = <P extends ParsedProtection<Guarded>>(kind: ListKind<P>, was: readonly P[], now: readonly P[]) =>
    stepsOf(kind, was, now, before.id).steps.some((step) => step.step === 'gained' && applies(step.p))
  return (
    gains(BRANCH, branchProtectionHierarchy(before, [], parseEachTime), branchProtectionHierarchy(after, [], parseEachTime)) ||
    gains(TAG, tagProtectionHierarchy(before, [], parseEachTime), tagProtectionHierarchy(after, [], parseEachTime))
  )
}

/**
 * The first way the change of `owner`'s own setting from `before` to `after` could weaken the
 * protection of a branch or tag the audit did not check, in words; null when none can.
 */
export function uncheckedNamesWeakened(before: Project, after: Project, ancestors: readonly Project[], semantics: ProtectionSemantics): string | null {
  // Parsed afresh: this runs once per change that proved out, over one project's chain.
  const parse = parseEachTime
  return (
    compare(BRANCH, branchProtectionHierarchy(before, ancestors, parse), branchProtectionHierarchy(after, ancestors, parse), before.id, semantics) ??
    compare(TAG, tagProtectionHierarchy(before, ancestors, parse), tagProtectionHierarchy(after, ancestors, parse), before.id, semantics)
  )
}
