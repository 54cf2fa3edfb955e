/**
 * Branch and tag protections compared by what they do: for each checked name and each user class
 * the rules already distinguish (everyone else, and every user and group a userMatch names), the
 * effective protection before and after, as the server applies it (first match or merged,
 * inheritance included), read from each side's project facts (src/engine/facts.ts: the checked
 * names, the hierarchies and what applies are the rules' own). Reordering, rewording or moving a
 * protection changes nothing here unless what applies changes.
 */
import type {ProjectFacts} from '../engine/facts.js'
import type {AuditSettings} from '../engine/rule.js'
import type {Project} from '../model/types.js'
import type {CheckedRef} from '../onedev/checked-refs.js'
import {canForcePush} from '../onedev/protection-judgement.js'
import {type EffectiveBranchProtection, type EffectiveTagProtection, effectiveFileProtection, type Hierarchy, type Located, principalClasses} from '../onedev/protection.js'
import {formatReviewRequirement, missingReviews, type ReviewRequirement} from '../onedev/review-requirement.js'
import {describePrincipal, type Principal, samePrincipal} from '../onedev/user-match.js'
import {type Change, change, type Classification, classify, projectRef} from './change.js'

/** One project on both sides, each with its facts (its ancestors, nearest first, on that side). */
export interface ProjectPair {
  before: ProjectFacts
  after: ProjectFacts
}

interface AspectChange {
  aspect: string
  before: string
  after: string
  classification: Classification
  ruleId?: string
}

const allowed = (yes: boolean) => (yes ? 'allowed' : 'prevented')

function flag(aspect: string, before: boolean, after: boolean, ruleId?: string): AspectChange[] {
  if (before === after) return []
  // `before`/`after` say whether the action is allowed: allowing it is the weakening.
  return [{aspect, before: allowed(before), after: allowed(after), classification: classify(after, before), ...(ruleId ? {ruleId} : {})}]
}

function describeSource(project: Project, located: Located<{pointer: string}>, patterns: string | null): string {
  const where = located.projectId === project.id ? '' : ` of ${located.projectPath}`
  return `${located.item.pointer} ("${patterns ?? ''}")${where}`
}

/** Which protection(s) decide, compared by owner and pattern text (not position: reordering is no change). */
function sourcesKey(sources: Located<{branches?: string | null; tags?: string | null}>[]): string {
  return sources.map((s) => `${s.projectId}\u0000${s.item.branches ?? s.item.tags ?? ''}`).join('\u0001')
}

function sourcesText(project: Project, sources: Located<{pointer: string; branches?: string | null; tags?: string | null}>[]): string {
  return sources.map((s) => describeSource(project, s, s.item.branches ?? s.item.tags ?? null)).join(' + ')
}

/**
 * Force push: prevented by the flag, blocked only by the required reviews (current servers reject
 * direct pushes to such a branch), or allowed. Clearing the flag while reviews still block it is a
 * weakening that no finding shows: the next change to the reviewers opens the branch.
 */
const FORCE_PUSH = ['prevented', 'blocked by required reviews', 'allowed']

function forcePushState(effective: EffectiveBranchProtection, settings: AuditSettings): string {
  if (effective.preventForcedPush) return FORCE_PUSH[0]!
  return canForcePush(effective, settings.protectionSemantics) ? FORCE_PUSH[2]! : FORCE_PUSH[1]!
}

function forcePush(before: EffectiveBranchProtection, after: EffectiveBranchProtection, settings: AuditSettings): AspectChange[] {
  const was = forcePushState(before, settings)
  const is = forcePushState(after, settings)
  if (was === is) return []
  const weaker = FORCE_PUSH.indexOf(is) > FORCE_PUSH.indexOf(was)
  return [{aspect: 'force push', before: was, after: is, classification: weaker ? 'weakened' : 'strengthened', ruleId: 'branch-protection/force-push-allowed'}]
}

const jobsText = (jobs: readonly string[]) => (jobs.length === 0 ? 'none' : [...jobs].sort().map((j) => `"${j}"`).join(', '))

type Sourced = {sources: Located<{pointer: string; branches?: string | null; tags?: string | null}>[]}

/** A name some protection applies to on one side only: one change, not one per aspect. */
function presence(pair: ProjectPair, before: Sourced | null, after: Sourced | null, ruleId: string): AspectChange[] {
  if (before === null && after === null) return []
  return [
    {
      aspect: 'protection',
      before: before ? sourcesText(pair.before.project, before.sources) : 'none',
      after: after ? sourcesText(pair.after.project, after.sources) : 'none',
      classification: after === null ? 'weakened' : 'strengthened',
      ruleId,
    },
  ]
}

function branchAspects(
  pair: ProjectPair,
  before: EffectiveBranchProtection | null,
  after: EffectiveBranchProtection | null,
  settings: AuditSettings,
): AspectChange[] {
  if (before === null || after === null) return presence(pair, before, after, 'branch-protection/unprotected-branch')
  const out: AspectChange[] = [
    ...forcePush(before, after, settings),
    ...flag('deletion', !before.preventDeletion, !after.preventDeletion, 'branch-protection/deletion-allowed'),
    // Creating a checked branch that exists touches no rule: such a weakening is low.
    ...flag('creation', !before.preventCreation, !after.preventCreation),
  ]
  const lostReviews = missingReviews(after.reviewRequirement, before.reviewRequirement)
  const gainedReviews = missingReviews(before.reviewRequirement, after.reviewRequirement)
  if (lostReviews.length > 0 || gainedReviews.length > 0) {
    out.push({
      aspect: 'review',
      before: formatReviewRequirement(before.reviewRequirement) || 'none',
      after: formatReviewRequirement(after.reviewRequirement) || 'none',
      classification: classify(lostReviews.length > 0, gainedReviews.length > 0),
      ruleId: 'branch-protection/review-not-required',
    })
  }
  const lostJobs = before.jobNames.filter((j) => !after.jobNames.includes(j))
  const gainedJobs = after.jobNames.filter((j) => !before.jobNames.includes(j))
  if (lostJobs.length > 0 || gainedJobs.length > 0) {
    out.push({
      aspect: 'required builds',
      before: jobsText(before.jobNames),
      after: jobsText(after.jobNames),
      classification: classify(lostJobs.length > 0, gainedJobs.length > 0),
      ruleId: 'branch-protection/build-not-required',
    })
  }
  if (before.signatureRequired !== after.signatureRequired) {
    const text = (required: boolean) => (required ? 'required' : 'not required')
    out.push({
      aspect: 'signatures',
      before: text(before.signatureRequired),
      after: text(after.signatureRequired),
      classification: classify(!after.signatureRequired, !before.signatureRequired),
      ruleId: 'branch-protection/signature-not-required',
    })
  }
  out.push(...buildSpecReviews(before, after))
  if (sourcesKey(before.sources) !== sourcesKey(after.sources)) {
    out.push({aspect: 'decided by', before: sourcesText(pair.before.project, before.sources), after: sourcesText(pair.after.project, after.sources), classification: 'neutral'})
  }
  return out
}

const BUILD_SPEC = '.onedev-buildspec.yml'

/** Reviews a change of the build spec needs from its file protections (what decides which jobs run with which secrets). */
function buildSpecReviews(before: EffectiveBranchProtection, after: EffectiveBranchProtection): AspectChange[] {
  const none: ReviewRequirement = {users: [], groups: []}
  const was = effectiveFileProtection(before, BUILD_SPEC)?.reviewRequirement ?? none
  const is = effectiveFileProtection(after, BUILD_SPEC)?.reviewRequirement ?? none
  const lost = missingReviews(is, was)
  const gained = missingReviews(was, is)
  if (lost.length === 0 && gained.length === 0) return []
  return [
    {
      aspect: `${BUILD_SPEC} review`,
      before: formatReviewRequirement(was) || 'none',
      after: formatReviewRequirement(is) || 'none',
      classification: classify(lost.length > 0, gained.length > 0),
      ruleId: 'file-protection/buildspec-unprotected',
    },
  ]
}

function tagAspects(pair: ProjectPair, before: EffectiveTagProtection | null, after: EffectiveTagProtection | null): AspectChange[] {
  if (before === null || after === null) return presence(pair, before, after, 'tag-protection/unprotected-tags')
  const out: AspectChange[] = [
    ...flag('update', !before.preventUpdate, !after.preventUpdate, 'tag-protection/update-allowed'),
    ...flag('deletion', !before.preventDeletion, !after.preventDeletion, 'tag-protection/deletion-allowed'),
    ...flag('creation', !before.preventCreation, !after.preventCreation, 'tag-protection/unprotected-tags'),
    ...flag('unsigned tags', !before.signatureRequired, !after.signatureRequired, 'tag-protection/signature-not-required'),
  ]
  if (sourcesKey(before.sources) !== sourcesKey(after.sources)) {
    out.push({aspect: 'decided by', before: sourcesText(pair.before.project, before.sources), after: sourcesText(pair.after.project, after.sources), classification: 'neutral'})
  }
  return out
}

/** Every principal class either side distinguishes, `others` first. */
function principalsOf(before: Hierarchy<{enabled: boolean; userMatch: string}>, after: Hierarchy<{enabled: boolean; userMatch: string}>): Principal[] {
  const out = principalClasses(before)
  for (const principal of principalClasses(after)) if (!out.some((p) => samePrincipal(p, principal))) out.push(principal)
  return out
}

/** The same change for several principals is one change naming them all. */
function grouped(
  perPrincipal: {principal: Principal; aspects: AspectChange[]}[],
): {aspect: AspectChange; principals: Principal[]}[] {
  const groups = new Map<string, {aspect: AspectChange; principals: Principal[]}>()
  for (const {principal, aspects} of perPrincipal) {
    for (const aspect of aspects) {
      const key = `${aspect.aspect}\u0000${aspect.before}\u0000${aspect.after}`
      const group = groups.get(key)
      if (group) group.principals.push(principal)
      else groups.set(key, {aspect, principals: [principal]})
    }
  }
  return [...groups.values()]
}

function toChanges(
  kind: 'branch-protection' | 'tag-protection',
  pair: ProjectPair,
  name: string,
  groups: {aspect: AspectChange; principals: Principal[]}[],
): Change[] {
  const noun = kind === 'branch-protection' ? 'Branch' : 'Tag'
  return groups.map(({aspect, principals}) => {
    const names = principals.map(describePrincipal)
    // A weakening for named users or groups only: they now get through what everyone else may not.
    const onlyNamed = !principals.some((p) => p.kind === 'others')
    const ruleId =
      aspect.classification === 'weakened' && onlyNamed && kind === 'branch-protection' ? 'branch-protection/user-bypass' : aspect.ruleId
    return change({
      kind,
      change: 'changed',
      classification: aspect.classification,
      ...(ruleId ? {ruleId} : {}),
      project: projectRef(pair.after.project),
      subject: name,
      aspect: aspect.aspect,
      principals: names,
      before: aspect.before,
      after: aspect.after,
      message: `${noun} "${name}" (${names.join(', ')}): ${aspect.aspect} ${aspect.before} -> ${aspect.after}.`,
    })
  })
}

/** Both sides' checked names, each once, the old side's order first. */
function unionOf(a: readonly CheckedRef[], b: readonly CheckedRef[]): string[] {
  return [...new Set([...a, ...b].map((ref) => ref.name))]
}

/** For each name and each principal class either side distinguishes: what changed, grouped across principals. */
function compareNames<E>(
  kind: 'branch-protection' | 'tag-protection',
  pair: ProjectPair,
  names: string[],
  hierarchies: [Hierarchy<{enabled: boolean; userMatch: string}>, Hierarchy<{enabled: boolean; userMatch: string}>],
  effective: (facts: ProjectFacts, name: string, principal: Principal) => E | null,
  aspects: (before: E | null, after: E | null) => AspectChange[],
): Change[] {
  const principals = principalsOf(...hierarchies)
  return names.flatMap((name) => {
    const perPrincipal = principals.map((principal) => ({principal, aspects: aspects(effective(pair.before, name, principal), effective(pair.after, name, principal))}))
    return toChanges(kind, pair, name, grouped(perPrincipal))
  })
}

export function compareProtections(pair: ProjectPair, settings: AuditSettings): Change[] {
  const {before, after} = pair
  return [
    ...compareNames(
      'branch-protection',
      pair,
      unionOf(before.checkedBranches, after.checkedBranches),
      [before.branchHierarchy, after.branchHierarchy],
      (facts, name, principal) => facts.effectiveBranchProtection(name, principal),
      (was, is) => branchAspects(pair, was, is, settings),
    ),
    ...compareNames(
      'tag-protection',
      pair,
      unionOf(before.checkedTags, after.checkedTags),
      [before.tagHierarchy, after.tagHierarchy],
      (facts, name, principal) => facts.effectiveTagProtection(name, principal),
      (was, is) => tagAspects(pair, was, is),
    ),
  ]
}
