/**
 * The facts rules share, derived once, in one place (issue 21; as ESLint and Scorecard do: compute
 * the raw facts once and let every check read them). src/onedev/ decides and keeps nothing; this
 * module calls it and remembers the answers for as long as they can be asked for again, and no longer.
 *
 * ServerFacts: one per model judged, made by whoever judges it (evaluate(), the ArrivalEvaluator:
 * one for the projects judged on arrival, one for the final model at `finish`; each side of a diff;
 * the access command), dropped with the run. Rules of the role, server and issue-setting scopes get
 * it as `context.facts`; project rules as `context.facts.server`. Derived on first use:
 * - `access`: the AccessIndex (src/onedev/access.ts): roles, groups, each user's groups, users by id
 *   and by login name, administrators;
 * - `roleHoldings`: where each role is held (role rules);
 * - `authorizationsOf(project)`: a project's own base, group and user authorizations;
 *   `chainAuthorizations(project)` joins them up the chain. Kept for the run only for the projects
 *   read as an ancestor (each is one of many chains); a leaf's are parsed when asked and dropped with
 *   the ProjectFacts that asked (10,000 leaves of a large server are not held to the end of the run);
 * - `parsers` and `secretAuthorization(authorization)`: each distinct pattern set, userMatch, review
 *   requirement and job-secret authorization text parsed (assessed) once: the same few texts recur in
 *   thousands of projects. At most 10,000 texts of each kind are kept; others are parsed each time.
 *
 * ProjectFacts: one per project judged, made with the project's target (src/engine/evaluate.ts) and
 * dropped when its rules are done, so what it remembers never grows with the number of projects (the
 * arrival pipeline judges projects as they come and keeps memory flat). Rules get it as `context.facts`.
 * Derived on first use, for that project with its ancestors (nearest first):
 * - `branchHierarchy`, `tagHierarchy`: the protections that may apply, parsed;
 * - `checkedBranches`, `checkedTags`: the names the rules judge (src/onedev/checked-refs.ts);
 * - `effectiveBranchProtection(branch, principal)`, `effectiveTagProtection(tag, principal)`: what
 *   applies, per principal class (`{kind: 'others'}` is everyone else) and name;
 * - `protectedBranches`, `protectedTagGroups`: each checked name with what applies to everyone else;
 * - `chainAuthorizations`, `codeWriters`: who can write code on it (undefined without access data);
 * - `branchAccess(branch, principal)`, `secretRoutes(principal)`: per principal of `codeWriters`;
 * - `capabilities(branch, principalName)`: the access command's table (not remembered).
 *
 * Every value is shared by all the rules that ask: never modify one.
 */
import {type ProjectAuthorizations, projectAuthorizationsOf} from '../model/access-data.js'
import type {AuditModel, Project, SecretAuthorization, TagProtection} from '../model/types.js'
import {
  type AccessIndex,
  accessIndexOf,
  type BranchAccess,
  branchAccess,
  capabilitiesOf,
  type ChainAuthorizations,
  chainAuthorizations,
  codeWriters,
  type PrincipalAccess,
  type PrincipalCapabilities,
  principalsOf,
  protectionUserNames,
  type RoleHoldings,
  roleHoldingsOf,
  type SecretReach,
  secretReach,
  type SecretRoute,
  secretRoutes,
} from '../onedev/access.js'
import {type CheckedRef, checkedBranches, checkedTags} from '../onedev/checked-refs.js'
import {assessSecretAuthorization, type SecretAuthorizationAssessment} from '../onedev/job-match.js'
import {serverRelease} from '../onedev/versions.js'
import type {PatternSet} from '../onedev/pattern-set.js'
import {
  type BranchHierarchy,
  branchProtectionHierarchy,
  type EffectiveBranchProtection,
  type EffectiveTagProtection,
  effectiveBranchProtection,
  effectiveTagProtection,
  type Hierarchy,
  parseEachTime,
  type ProtectionParsers,
  type ProtectionSemantics,
  tagProtectionHierarchy,
} from '../onedev/protection.js'
import type {ReviewRequirement} from '../onedev/review-requirement.js'
import type {Principal, UserMatch} from '../onedev/user-match.js'
import {mapped} from '../util/collections.js'

/** What the facts read of the audit's settings (AuditSettings in src/engine/rule.ts has them). */
export interface FactsSettings {
  branches: readonly string[]
  tags: readonly string[]
  protectionSemantics: ProtectionSemantics
}

/** How many distinct texts of each kind a run keeps parsed: hostile input cannot grow it without limit. */
const MAX_TEXTS = 10_000

/** What was parsed from each distinct text, up to MAX_TEXTS texts (the rest are parsed each time). */
class ParsedTexts<V> {
  private readonly known = new Map<string, V>()

  get(text: string, parse: () => V): V {
    const known = this.known.get(text)
    if (known !== undefined || this.known.has(text)) return known as V
    const value = parse()
    if (this.known.size < MAX_TEXTS) this.known.set(text, value)
    return value
  }
}

export class ServerFacts {
  /** Each distinct protection text parsed once (null texts each time: they parse to nothing at once). */
  readonly parsers: ProtectionParsers
  private readonly secretTexts = new ParsedTexts<SecretAuthorizationAssessment>()
  /** The own authorizations of the projects read as another project's ancestor, by project id. */
  private readonly ancestorAuthorizations = new Map<number, ProjectAuthorizations>()
  private accessIndex?: AccessIndex
  private holdings?: {value: RoleHoldings | undefined}

  constructor(
    readonly model: AuditModel,
    readonly settings: FactsSettings,
  ) {
    const patternSets = new ParsedTexts<PatternSet | null>()
    const userMatches = new ParsedTexts<UserMatch | null>()
    const reviews = new ParsedTexts<ReviewRequirement>()
    this.parsers = {
      patternSet: (text) => (text === null ? parseEachTime.patternSet(text) : patternSets.get(text, () => parseEachTime.patternSet(text))),
      userMatch: (text) => userMatches.get(text, () => parseEachTime.userMatch(text)),
      reviewRequirement: (text) => (text === null ? parseEachTime.reviewRequirement(text) : reviews.get(text, () => parseEachTime.reviewRequirement(text))),
    }
  }

  /** Roles, groups, memberships, users and administrators, looked up by id and name. */
  get access(): AccessIndex {
    return (this.accessIndex ??= accessIndexOf(this.model))
  }

  /** Where each role is held; undefined when no project's authorizations were read. */
  get roleHoldings(): RoleHoldings | undefined {
    return (this.holdings ??= {value: roleHoldingsOf(this.model)}).value
  }

  /**
   * The project's own authorizations (not its ancestors'): remembered when the project was read as
   * an ancestor (every descendant's chain reads it again), parsed again otherwise (a leaf is asked
   * by its own rules and by the few server rules that walk every project, and is not kept for them).
   */
  authorizationsOf(project: Project): ProjectAuthorizations {
    return this.ancestorAuthorizations.get(project.id) ?? projectAuthorizationsOf(this.model, project)
  }

  /** Every authorization of the project and its ancestors (not remembered: ProjectFacts keeps its own). */
  chainAuthorizations(project: Project): ChainAuthorizations {
    return chainAuthorizations(this.model, project, (p) => (p === project ? this.authorizationsOf(p) : this.ancestorAuthorizationsOf(p)))
  }

  private ancestorAuthorizationsOf(ancestor: Project): ProjectAuthorizations {
    let known = this.ancestorAuthorizations.get(ancestor.id)
    if (!known) this.ancestorAuthorizations.set(ancestor.id, (known = projectAuthorizationsOf(this.model, ancestor)))
    return known
  }

  /** How far a job secret's authorization reaches (src/onedev/job-match.ts), assessed once per distinct text. */
  secretAuthorization(authorization: SecretAuthorization): SecretAuthorizationAssessment {
    // The run's release decides what an empty authorization means (the same for every text of the run).
    return this.secretTexts.get(secretAuthorizationKey(authorization), () => assessSecretAuthorization(authorization, serverRelease(this.model)))
  }
}

/** The kind and text of an authorization as one key (its pointer does not change the assessment). */
function secretAuthorizationKey(authorization: SecretAuthorization): string {
  const text = authorization.kind === 'branches' ? authorization.branches : authorization.expression
  return text === null ? authorization.kind : `${authorization.kind}\u0000${text}`
}

/** A checked branch with the protection that applies to everyone else on it. */
export interface ProtectedBranch {
  branch: string
  /** Why it is checked (`default branch`, `matches release/**`). */
  ref: CheckedRef
  effective: EffectiveBranchProtection
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

/** A principal class as a key: everyone else, or a named user or group. */
function principalKey(principal: Principal): string {
  return principal.kind === 'others' ? '' : `${principal.kind}\u0000${principal.name}`
}

/** The answer for `key` then `name`, computed once. */
function answer<V>(answers: Map<string, Map<string, V>>, key: string, name: string, compute: () => V): V {
  let byName = answers.get(key)
  if (!byName) answers.set(key, (byName = new Map()))
  if (byName.has(name)) return byName.get(name) as V
  const value = compute()
  byName.set(name, value)
  return value
}

export class ProjectFacts {
  private branches?: BranchHierarchy
  private tags?: Hierarchy<TagProtection>
  private checkedBranchList?: CheckedRef[]
  private checkedTagList?: CheckedRef[]
  private branchAnswers?: Map<string, Map<string, EffectiveBranchProtection | null>>
  private tagAnswers?: Map<string, Map<string, EffectiveTagProtection | null>>
  private protectedBranchList?: ProtectedBranch[]
  private protectedTagList?: ProtectedTagGroup[]
  private chain?: ChainAuthorizations
  private writers?: {value: PrincipalAccess[] | undefined}
  private accessAnswers?: Map<PrincipalAccess, Map<string, BranchAccess>>
  private reach?: SecretReach[]

  constructor(
    readonly server: ServerFacts,
    readonly project: Project,
    /** Ancestors with known settings, nearest first. */
    readonly ancestors: readonly Project[],
  ) {}

  private get semantics(): ProtectionSemantics {
    return this.server.settings.protectionSemantics
  }

  /** The project's branch protections, then each ancestor's, parsed. */
  get branchHierarchy(): BranchHierarchy {
    return (this.branches ??= branchProtectionHierarchy(this.project, this.ancestors, this.server.parsers))
  }

  get tagHierarchy(): Hierarchy<TagProtection> {
    return (this.tags ??= tagProtectionHierarchy(this.project, this.ancestors, this.server.parsers))
  }

  /** The branches the rules judge in this project, each with why. */
  get checkedBranches(): readonly CheckedRef[] {
    return (this.checkedBranchList ??= checkedBranches(this.project.repository, this.server.settings.branches))
  }

  /** The tags the rules judge in this project. */
  get checkedTags(): readonly CheckedRef[] {
    return (this.checkedTagList ??= checkedTags(this.project.repository, this.server.settings.tags))
  }

  /** The branch protection that applies to `principal` on `branch` (null: none, everything is allowed). */
  effectiveBranchProtection(branch: string, principal: Principal): EffectiveBranchProtection | null {
    return answer((this.branchAnswers ??= new Map()), principalKey(principal), branch, () => effectiveBranchProtection(this.branchHierarchy, branch, principal, this.semantics))
  }

  effectiveTagProtection(tag: string, principal: Principal): EffectiveTagProtection | null {
    return answer((this.tagAnswers ??= new Map()), principalKey(principal), tag, () => effectiveTagProtection(this.tagHierarchy, tag, principal, this.semantics))
  }

  /** Each checked branch with what applies to everyone else; branches nothing protects are left out (unprotected-branch reports them). */
  get protectedBranches(): readonly ProtectedBranch[] {
    return (this.protectedBranchList ??= this.checkedBranches.flatMap((ref) => {
      const effective = this.effectiveBranchProtection(ref.name, {kind: 'others'})
      return effective ? [{branch: ref.name, ref, effective}] : []
    }))
  }

  /** Checked tags grouped by the tag protection that applies to everyone else; unprotected tags are left out (unprotected-tags reports them). */
  get protectedTagGroups(): readonly ProtectedTagGroup[] {
    if (this.protectedTagList) return this.protectedTagList
    const groups = new Map<string, ProtectedTagGroup>()
    for (const ref of this.checkedTags) {
      const effective = this.effectiveTagProtection(ref.name, {kind: 'others'})
      if (!effective) continue
      const key = mapped(effective.sources, (source) => `${source.projectId}${source.item.pointer}`).join('|')
      const group = groups.get(key)
      if (group) group.tags.push(ref.name)
      else groups.set(key, {tags: [ref.name], effective})
    }
    return (this.protectedTagList = [...groups.values()])
  }

  /** Every authorization of the project and its ancestors. */
  get chainAuthorizations(): ChainAuthorizations {
    return (this.chain ??= this.server.chainAuthorizations(this.project))
  }

  /**
   * The principals who can write code on the project (anonymous users never can), with the users
   * named by its branch protections; undefined when some authorization list of the project or an
   * ancestor was not read (the rules that need them stay silent).
   */
  get codeWriters(): readonly PrincipalAccess[] | undefined {
    return (this.writers ??= {value: this.computeCodeWriters()}).value
  }

  private computeCodeWriters(): PrincipalAccess[] | undefined {
    // Without the server data document no group or user authorizations were read (a snapshot of 10,000
    // projects without access data: the chains were 40 ms of building and keeping lists for nothing).
    if (!this.server.model.serverData || this.chainAuthorizations.missing.size > 0) return undefined
    return codeWriters(this.principals())
  }

  /** The principals of the project (principalsOf), with the users its branch protections name and `extraUsers`. Not remembered. */
  principals(extraUsers: readonly string[] = []): PrincipalAccess[] {
    return principalsOf(this.server.access, this.chainAuthorizations, [...protectionUserNames(this.branchHierarchy), ...extraUsers])
  }

  /** What a principal with code write can do on `branch` under the protection that applies to them. */
  branchAccess(branch: string, principal: PrincipalAccess): BranchAccess {
    let byBranch = (this.accessAnswers ??= new Map()).get(principal)
    if (!byBranch) this.accessAnswers.set(principal, (byBranch = new Map()))
    let known = byBranch.get(branch)
    if (!known) byBranch.set(branch, (known = branchAccess(this.branchHierarchy, branch, principal, this.semantics)))
    return known
  }

  /** How `principal` can get each job secret of the project and its ancestors into a job whose build spec they control. */
  secretRoutes(principal: PrincipalAccess): SecretRoute[] {
    this.reach ??= secretReach(this.project, this.ancestors, this.checkedBranches, (secret) => this.server.secretAuthorization(secret.authorization))
    return secretRoutes(this.reach, principal, (branch) => this.branchAccess(branch, principal))
  }

  /** `onedev-audit access`: the principals (or the one named) with their capabilities on `branch`. */
  capabilities(branch: CheckedRef | null, principalName?: string): PrincipalCapabilities[] {
    let principals = this.principals(principalName === undefined ? [] : [principalName])
    if (principalName !== undefined) {
      const wanted = principalName.toLowerCase()
      principals = principals.filter((p) => p.name.toLowerCase() === wanted)
    }
    const reach = secretReach(this.project, this.ancestors, branch ? [branch] : [], (secret) => this.server.secretAuthorization(secret.authorization))
    return principals.map((p) => {
      const access = (name: string) => this.branchAccess(name, p)
      return {kind: p.kind, name: p.name, capabilities: capabilitiesOf(p, branch, access, secretRoutes(reach, p, access))}
    })
  }
}
