/**
 * The changes the built-in rules offer with their findings (src/engine/fix.ts): edits of the own
 * setting of the project that holds what was judged, written in that payload's generation. A rule
 * offers a change only when it can say it exactly; `onedev-audit fix` then proves it with every rule.
 */
import {DEFAULT_NEW_PROTECTIONS, type FixDraft, type FixEdit, type FixKind} from '../../src/engine/fix.js'
import type {ProjectContext} from '../../src/engine/rule.js'
import {hasPointer, joinPointer, resolvePointer} from '../../src/model/pointer.js'
import type {BranchProtection, JobSecret, PayloadGeneration, Project, SecretAuthorization, TagProtection} from '../../src/model/types.js'
import {parseJobMatch, quoteJobMatchValue, type SecretAuthorizationAssessment} from '../../src/onedev/job-match.js'
import {pathMatcher} from '../../src/onedev/matchers.js'
import {quotePattern} from '../../src/onedev/pattern-set.js'
import type {Located, ParsedProtection} from '../../src/onedev/protection.js'
import {formatUserMatch, type Principal, withoutExceptionFor} from '../../src/onedev/user-match.js'

type Context = ProjectContext<unknown>

/** The project (the judged one or an ancestor) whose own setting holds what `located` came from. */
function holder(ctx: Context, projectId: number): Project | undefined {
  return projectId === ctx.project.id ? ctx.project : ctx.ancestors.find((a) => a.id === projectId)
}

/** `replace` when the payload has the member, `add` when it leaves it to the server's default. */
export function setMember(raw: unknown, item: string, member: string, value: unknown): FixEdit {
  const path = joinPointer(item, member)
  return hasPointer(raw, path) ? {op: 'replace', path, value} : {op: 'add', path, value}
}

/** ` of parent project acme` for an ancestor's setting. */
function heldBy(ctx: Context, located: Located<unknown>): string {
  return located.projectId === ctx.project.id ? '' : ` of project ${located.projectPath}`
}

function describeItem(ctx: Context, located: Located<{pointer: string}>, noun: string, patterns: string | null): string {
  return `the ${noun} ${located.item.pointer} ("${patterns ?? ''}")${heldBy(ctx, located)}`
}

/** The signature member a protection of this generation has (or would have). */
function signatureMember(generation: PayloadGeneration): string {
  return generation === 'legacy' ? 'signatureRequired' : 'commitSignatureRequired'
}

/** One member of a branch or tag protection set to `value`, in the project that holds it. */
export function protectionMemberFix(
  ctx: Context,
  located: Located<BranchProtection | TagProtection>,
  member: string,
  value: unknown,
  kind: FixKind,
  what: string,
): FixDraft[] {
  return protectionMembersFix(ctx, located, [[member, value]], kind, what)
}

/** Members of a branch or tag protection set together (`[member, value]` in order), in the project that holds it. */
export function protectionMembersFix(
  ctx: Context,
  located: Located<BranchProtection | TagProtection>,
  members: ReadonlyArray<readonly [string, unknown]>,
  kind: FixKind,
  what: string,
): FixDraft[] {
  const owner = holder(ctx, located.projectId)
  if (!owner?.setting) return []
  const item = located.item
  const isBranch = 'branches' in item
  const description = `${what} on ${describeItem(ctx, located, isBranch ? 'branch protection' : 'tag protection', isBranch ? item.branches : (item as TagProtection).tags)}`
  const edits = members.map(([member, value]): FixEdit => {
    // The signature flag the payload already has keeps its name (an 8.x payload may be read as current).
    if (member === 'signature' && item.signaturePointer !== item.pointer) return {op: 'replace', path: item.signaturePointer, value}
    return setMember(owner.raw, item.pointer, member === 'signature' ? signatureMember(owner.setting!.generation) : member, value)
  })
  return [{kind, description, edits}]
}

/** A disabled protection enabled again (a suggestion: it may apply to more than the finding's branch). */
export function enableFix(ctx: Context, located: Located<BranchProtection>): FixDraft[] {
  return protectionMemberFix(ctx, located, 'enabled', true, 'suggestion', 'Enable')
}

/** A protection that never applies removed from the project's own list (never one of an ancestor: its other children may use it). */
export function removeProtectionFix(ctx: Context, located: Located<BranchProtection>): FixDraft[] {
  if (located.projectId !== ctx.project.id) return []
  return [{kind: 'suggestion', description: `Remove ${describeItem(ctx, located, 'branch protection', located.item.branches)}, which never applies`, edits: [{op: 'remove', path: located.item.pointer}]}]
}

/** The `except` clause that leaves `principal` out, removed from the protection's user match. */
export function exceptionFix(ctx: Context, located: ParsedProtection<BranchProtection>, principal: Principal, who: string): FixDraft[] {
  const {userMatch} = located
  const text = userMatch ? withoutExceptionFor(userMatch, principal) : null
  if (text === null || text === formatUserMatch(userMatch!)) return []
  return protectionMemberFix(ctx, located, 'userMatch', text, 'suggestion', `Apply to ${who} too (Applicable Users "${text}")`)
}

/**
 * `item` added to the judged project's own list `key`, at each point where it can apply under first
 * match: before the first protection of the list that can apply to the same names (`matches`; so that
 * one no longer wins for the users it names), and after the last; at the end when none can, or when
 * the server merges protections. A payload without the list gets one.
 */
function newProtectionFixes(
  ctx: Context,
  key: 'branchProtections' | 'tagProtections',
  own: ReadonlyArray<ParsedProtection<BranchProtection | TagProtection>>,
  matches: (protection: ParsedProtection<BranchProtection | TagProtection>) => boolean,
  item: Record<string, unknown>,
  what: string,
): FixDraft[] {
  const list = resolvePointer(ctx.project.raw, `/${key}`)
  const applying = own.flatMap((p, index) => (p.item.enabled && p.userMatch !== null && matches(p) ? [index] : []))
  const points = applying.length === 0 || ctx.settings.protectionSemantics === 'merged' ? [own.length] : [...new Set([applying[0]!, applying.at(-1)! + 1])]
  const edits: FixEdit[] = Array.isArray(list)
    ? points.map((index) => ({op: 'add', path: `/${key}/${index === list.length ? '-' : index}`, value: item}))
    : [{op: hasPointer(ctx.project.raw, `/${key}`) ? 'replace' : 'add', path: `/${key}`, value: [item]}]
  return edits.map((edit) => ({kind: 'fix', description: `${what} at ${edit.path}`, edits: [edit]}))
}

/** A wildcard in a name would make the new protection's pattern cover more than the name. */
const WILDCARD = /[*?]/

/**
 * A new branch protection for a branch nothing protects, in the judged project's own setting, as the
 * configuration's `fix.branchProtection` says (default: anyone, forced push, deletion and creation
 * prevented, nothing else required), where it can apply under first match (newProtectionFixes).
 */
export function newBranchProtectionFixes(ctx: Context, branch: string): FixDraft[] {
  const {project} = ctx
  const pattern = WILDCARD.test(branch) ? null : quotePattern(branch)
  if (!project.setting || pattern === null) return []
  const fields = (ctx.settings.fix ?? DEFAULT_NEW_PROTECTIONS).branch
  const item: Record<string, unknown> = {
    enabled: true,
    branches: pattern,
    userMatch: fields.userMatch,
    preventForcedPush: fields.preventForcedPush,
    preventDeletion: fields.preventDeletion,
    preventCreation: fields.preventCreation,
    [signatureMember(project.setting.generation)]: fields.signatureRequired,
    reviewRequirement: fields.reviewRequirement,
    jobNames: fields.jobNames,
    fileProtections: [],
    // Required builds count only when they ran on the current merge commit (branch-protection/strict-builds-not-required).
    requireStrictBuilds: fields.jobNames.length > 0,
  }
  const own = ctx.facts.branchHierarchy.filter((p) => p.projectId === project.id)
  const matches = (p: ParsedProtection<BranchProtection | TagProtection>) => p.patterns?.matches(branch, pathMatcher) ?? false
  return newProtectionFixes(ctx, 'branchProtections', own, matches, item, `Add a branch protection for "${branch}" (Applicable Users: ${fields.userMatch})`)
}

/** The tag pattern set a new tag protection covers: the configuration's `fix.tagProtection.tags`, else its `tags`, else `v*`. */
function newTagPatterns(ctx: Context): string | null {
  const configured = (ctx.settings.fix ?? DEFAULT_NEW_PROTECTIONS).tag.tags
  if (configured !== null) return configured
  if (ctx.settings.tags.length === 0) return 'v*'
  const quoted = ctx.settings.tags.map(quotePattern)
  return quoted.every((q) => q !== null) ? quoted.join(' ') : null
}

/** A new tag protection for tags nothing protects, in the judged project's own setting (`fix.tagProtection`). */
export function newTagProtectionFixes(ctx: Context, tags: readonly string[]): FixDraft[] {
  const {project} = ctx
  const patterns = newTagPatterns(ctx)
  if (!project.setting || patterns === null) return []
  const fields = (ctx.settings.fix ?? DEFAULT_NEW_PROTECTIONS).tag
  const item: Record<string, unknown> = {
    enabled: true,
    tags: patterns,
    userMatch: fields.userMatch,
    preventUpdate: fields.preventUpdate,
    preventDeletion: fields.preventDeletion,
    preventCreation: fields.preventCreation,
    [signatureMember(project.setting.generation)]: fields.signatureRequired,
  }
  const own = ctx.facts.tagHierarchy.filter((p) => p.projectId === project.id)
  const matches = (p: ParsedProtection<BranchProtection | TagProtection>) => tags.some((tag) => p.patterns?.matches(tag, pathMatcher) ?? false)
  return newProtectionFixes(ctx, 'tagProtections', own, matches, item, `Add a tag protection for "${patterns}" (Applicable Users: ${fields.userMatch})`)
}

/**
 * A job secret's authorization narrowed to its project's default branch, in the payload's own terms:
 * `authorizedBranches: main` (8.x) or `authorization: on branch "main"`. A suggestion: builds of other
 * branches that use the secret stop getting it.
 */
export function narrowSecretFix(owner: Project, secret: JobSecret, assess?: (authorization: SecretAuthorization) => SecretAuthorizationAssessment): FixDraft[] {
  const branch = owner.repository?.defaultBranch
  if (!branch || WILDCARD.test(branch)) return []
  let value: string | null
  if (secret.authorization.kind === 'branches') {
    value = quotePattern(branch)
  } else {
    value = `on branch ${quoteJobMatchValue(branch)}`
    // The same few default branches recur across thousands of projects: a run's facts (`assess`)
    // parse each text once. Text the parser refuses fails as it always did.
    const assessed = assess?.({kind: 'job-match', expression: value, pointer: secret.authorization.pointer}).expression
    const parsed = assessed ?? parseJobMatch(value)
    if (parsed.type !== 'on-branch' || parsed.patterns.length !== 1 || parsed.patterns[0] !== branch) value = null
  }
  if (value === null) return []
  const member = secret.authorization.kind === 'branches' ? 'authorizedBranches' : 'authorization'
  return [
    {
      kind: 'suggestion',
      description: `Authorize job secret "${secret.name}" for the default branch "${branch}" only (${member}: ${value})`,
      edits: [setMember(owner.raw, secret.pointer, member, value)],
    },
  ]
}

/** A web hook's or notification's URL moved to https://, keeping the rest of it as the server holds it. */
export function httpsFix(urlPointer: string, what: string): FixDraft[] {
  return [{kind: 'suggestion', description: `Post ${what} over https:// (check that the receiver speaks TLS)`, edits: [{op: 'set-scheme', path: urlPointer, value: 'https'}]}]
}
