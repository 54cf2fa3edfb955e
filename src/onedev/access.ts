/**
 * Who can do what on a project, as the server computes it (onedev-access-reference.md §4.2, §6).
 * Pure: it reads the model (project tree, roles, protections) and the typed access views of the
 * server data document, and decides. It keeps nothing: the lookups a run asks for again and again
 * (the AccessIndex, each project's authorizations, principals and branch access) are derived once
 * by the facts of src/engine/facts.ts and handed in.
 *
 * - Principals: anonymous users, every logged-in user ("everyone"), each group, each user,
 *   administrators (root, enabled members of `administrator` groups, and on servers before 11.9.2
 *   every logged-in user when the default login group is an administrator group).
 * - Grants: the roles of base (default) authorizations, group authorizations (for members) and user
 *   authorizations of the project and every ancestor (a union: a child cannot lower them).
 *   Anonymous users get base roles only when anonymous access is on, and only read-type
 *   permissions. Disabled users hold nothing.
 * - Per branch: the branch protection that applies to the principal (first match, or merged on
 *   servers up to 8.1), and whether they can push without review or required builds, force-push,
 *   delete or create it; which job secrets they can read by controlling the build spec of a job
 *   the secret's authorization admits.
 */
import {
  type Authorization,
  type Group,
  groupsOf,
  membershipsOf,
  type ProjectAuthorizations,
  ROOT_USER_ID,
  securitySettingOf,
  type SecuritySetting,
  type User,
  usersOf,
} from '../model/access-data.js'
import type {AuditModel, JobSecret, Project, Role} from '../model/types.js'
import type {CheckedRef} from './checked-refs.js'
import {branchTruth, type JobMatchExpression, onBranchMatches, type SecretAuthorizationAssessment} from './job-match.js'
import {pathMatcher} from './matchers.js'
import {gitAcceptsName} from './ref-name.js'
import {type BranchHierarchy, type EffectiveBranchProtection, effectiveBranchProtectionWhen, effectiveFileProtection, type ProtectionSemantics} from './protection.js'
import {canForcePush} from './protection-judgement.js'
import {hasReviewers} from './review-requirement.js'
import {namedPrincipals, type UserMatch} from './user-match.js'

// ---------------------------------------------------------------- role permissions (onedev-reference.md §4)

function rawFlag(role: Role, key: string): boolean {
  const raw = role.raw
  return raw !== null && typeof raw === 'object' && (raw as Record<string, unknown>)[key] === true
}

/** Implies WriteCode: manage project, pull requests, code comments or workspaces, or code privilege WRITE. */
export function roleWritesCode(role: Role): boolean {
  return role.manageProject || role.managePullRequests || role.manageCodeComments || rawFlag(role, 'manageWorkspaces') || role.codePrivilege === 'WRITE'
}

export function roleReadsCode(role: Role): boolean {
  return roleWritesCode(role) || role.codePrivilege === 'READ' || rawFlag(role, 'createWorkspaces')
}

/** May run some job: manage project, manage builds, or a job privilege with run or manage job. */
export function roleRunsJobs(role: Role): boolean {
  return role.manageProject || role.manageBuilds || role.jobPrivileges.some((p) => p.runJob || p.manageJob)
}

/**
 * May upload build caches: upload cache, or what implies it, manage builds or manage project (v16.5.6
 * Role.java:468, ManageBuilds.java:11, ManageProject.java:10). False on a server before 10.1.0 (the role
 * has no uploadCache member), which uploads no build cache.
 */
export function roleUploadsCache(role: Role): boolean {
  return role.uploadCache !== null && (role.uploadCache || role.manageBuilds || role.manageProject)
}

/**
 * May publish packages: package privilege WRITE, or manage project (v16.5.6 Role.java:447,
 * WritePack.java, ManageProject.java:10). False on a server before 10.0.0 (no packPrivilege member), which has no packages.
 */
export function roleWritesPacks(role: Role): boolean {
  return role.packPrivilege !== null && (role.packPrivilege === 'WRITE' || role.manageProject)
}

/** The broadest thing a base role gives every logged-in user, for access/base-role-broad and sign-up. */
export type Breadth = 'manage' | 'write' | 'jobs' | 'children-or-issues' | 'read' | 'access'

export function roleBreadth(role: Role): Breadth {
  if (role.manageProject) return 'manage'
  if (roleWritesCode(role)) return 'write'
  if (roleRunsJobs(role) || role.manageBuilds) return 'jobs'
  if (role.createChildren || role.manageIssues) return 'children-or-issues'
  if (roleReadsCode(role)) return 'read'
  return 'access'
}

// ---------------------------------------------------------------- principals and grants

export type PrincipalKind = 'anonymous' | 'everyone' | 'group' | 'user' | 'administrator'

export interface Grant {
  role: Role
  /** The project whose authorization grants it (the audited project or an ancestor). */
  project: Project
  /** How: a base role, a group's authorization (with the group's name), a user authorization. */
  source: 'base' | 'default-role' | 'group' | 'user' | 'default-login-group'
  groupName?: string
  authorization: Authorization
}

export const CAPABILITIES = ['read-code', 'write-code', 'push-without-review', 'force-push', 'delete-branch', 'create-branch', 'run-jobs', 'manage-project', 'administer'] as const
export type CapabilityId = (typeof CAPABILITIES)[number] | `read-secret:${string}`

export interface Via {
  role: string
  project: string | null
}

export interface PrincipalAccess {
  kind: PrincipalKind
  name: string
  userId?: number
  /** Roles held on the project (own or inherited), each with where it comes from. */
  grants: Grant[]
  /** Why the principal is an administrator (null: not one). */
  administrator: string | null
  /** How protections see them: their login name and direct groups (null name: not a named user). */
  match: {user: string | null; groups: string[]; anonymous: boolean}
}

export interface AccessData {
  security: SecuritySetting | undefined
  groups: Group[] | undefined
  users: User[] | undefined
  /** What could not be judged for lack of data (for messages and the access command). */
  missing: string[]
}

/** The security setting, groups and users of the server data document, each parsed (not remembered). */
export function accessDataOf(model: AuditModel): AccessData {
  const security = securitySettingOf(model)
  const groups = groupsOf(model)
  const users = usersOf(model)
  const missing: string[] = []
  if (!security) missing.push('security setting')
  if (!groups) missing.push('groups')
  if (!users) missing.push('users')
  return {security, groups, users, missing}
}

/** The project and every ancestor known to the model, nearest first (stops on a cycle). */
export function projectChain(model: AuditModel, project: Project): Project[] {
  const chain = [project]
  const seen = new Set([project.id])
  let parentId = project.parentId
  while (parentId !== null && !seen.has(parentId)) {
    seen.add(parentId)
    const parent = model.projectsById.get(parentId)
    if (!parent) break
    chain.push(parent)
    parentId = parent.parentId
  }
  return chain
}

export interface ChainAuthorizations {
  base: {authorization: Authorization; project: Project}[]
  group: {authorization: Authorization; project: Project}[]
  user: {authorization: Authorization; project: Project}[]
  /** Which lists were not read for some project of the chain. */
  missing: Set<'base' | 'group' | 'user'>
}

/**
 * Every authorization of the project and its ancestors. `own` reads one project's own authorizations
 * (projectAuthorizationsOf; the facts of a run keep each ancestor's: it is in the chain of many).
 */
export function chainAuthorizations(model: AuditModel, project: Project, own: (p: Project) => ProjectAuthorizations): ChainAuthorizations {
  const value: ChainAuthorizations = {base: [], group: [], user: [], missing: new Set()}
  for (const p of projectChain(model, project)) {
    const lists = own(p)
    for (const kind of ['base', 'group', 'user'] as const) {
      const list = lists[kind]
      if (list === undefined) value.missing.add(kind)
      else for (const authorization of list) value[kind].push({authorization, project: p})
    }
  }
  return value
}

// ---------------------------------------------------------------- the server-wide index

export interface Administrator {
  user: User
  /** Why: `root`, or the administrator groups. */
  reasons: string[]
}

/**
 * What every principal of every project is looked up in: the model's roles, groups, users and
 * administrators, by id and by name. Built once per model judged (src/engine/facts.ts); read only.
 */
export interface AccessIndex {
  data: AccessData
  roles: ReadonlyMap<number, Role>
  /** Groups by id (the first of an id). */
  groups: ReadonlyMap<number, Group>
  /** Each user's direct groups, in the order of the groups listing. */
  groupIdsByUser: ReadonlyMap<number, readonly number[]>
  /** Users (with an id) by id (the first of an id). */
  users: ReadonlyMap<number, User>
  /** The ids of the users (with an id) of each lower-cased login name. */
  userIdsByName: ReadonlyMap<string, readonly number[]>
  /**
   * Every enabled administrator, by user id: root, and members of administrator groups. undefined
   * when groups, memberships or users were not read. (On servers before 11.9.2 an administrator
   * default login group makes every logged-in user one: see everyoneIsAdministrator.)
   */
  administrators: readonly Administrator[] | undefined
  administratorsById: ReadonlyMap<number, Administrator>
}

export function accessIndexOf(model: AuditModel): AccessIndex {
  const data = accessDataOf(model)
  const groups = new Map<number, Group>()
  const groupIdsByUser = new Map<number, number[]>()
  for (const group of data.groups ?? []) {
    if (!groups.has(group.id)) groups.set(group.id, group)
    for (const membership of membershipsOf(model, group.id) ?? []) {
      const ids = groupIdsByUser.get(membership.userId)
      if (!ids) groupIdsByUser.set(membership.userId, [group.id])
      else if (ids[ids.length - 1] !== group.id) ids.push(group.id)
    }
  }
  const users = new Map<number, User>()
  const userIdsByName = new Map<string, number[]>()
  for (const user of data.users ?? []) {
    if (user.id === null) continue
    if (!users.has(user.id)) users.set(user.id, user)
    const name = user.name.toLowerCase()
    const ids = userIdsByName.get(name)
    if (ids) ids.push(user.id)
    else userIdsByName.set(name, [user.id])
  }
  const administrators = administratorsOf(model, data)
  return {
    data,
    roles: new Map(model.roles.map((role) => [role.id, role])),
    groups,
    groupIdsByUser,
    users,
    userIdsByName,
    administrators,
    administratorsById: new Map((administrators ?? []).map((a) => [a.user.id!, a])),
  }
}

/** The enabled users of a group (by its memberships); undefined when its memberships were not read. */
function membersOf(model: AuditModel, group: Group, users: readonly User[]): User[] | undefined {
  const memberships = membershipsOf(model, group.id)
  if (!memberships) return undefined
  const byId = new Map(users.filter((u) => u.id !== null).map((u) => [u.id!, u]))
  return memberships.flatMap((m) => {
    const user = byId.get(m.userId)
    return user ? [user] : [{pointer: m.pointer, id: m.userId, name: `user #${m.userId}`, fullName: null, disabled: false, type: 'ORDINARY' as const}]
  })
}

function administratorsOf(model: AuditModel, data: AccessData): Administrator[] | undefined {
  if (!data.groups || !data.users) return undefined
  const byId = new Map<number, Administrator>()
  const root = data.users.find((u) => u.id === ROOT_USER_ID)
  if (root && !root.disabled) byId.set(ROOT_USER_ID, {user: root, reasons: ['root']})
  for (const group of data.groups.filter((g) => g.administrator)) {
    const members = membersOf(model, group, data.users)
    if (!members) return undefined
    for (const user of members) {
      if (user.disabled || user.id === null) continue
      const entry = byId.get(user.id) ?? {user, reasons: []}
      entry.reasons.push(`group ${group.name}`)
      byId.set(user.id, entry)
    }
  }
  return [...byId.values()].sort((a, b) => a.user.id! - b.user.id!)
}

/** The default login group of servers before 11.9.2: every logged-in user counts as a member. */
export function defaultLoginGroup(data: AccessData): Group | undefined {
  const name = data.security?.defaultLoginGroupName
  return name ? data.groups?.find((g) => g.name === name) : undefined
}

export function everyoneIsAdministrator(data: AccessData): boolean {
  return defaultLoginGroup(data)?.administrator === true
}

/**
 * The principals of a project and the roles each holds on it (own or inherited), from the
 * authorizations of its chain. Users listed: those with a user authorization on the chain, those
 * named in `extraUsers` (e.g. named by branch protections or asked for), and administrators.
 * Disabled users hold nothing and are left out.
 */
export function principalsOf(index: AccessIndex, chain: ChainAuthorizations, extraUsers: readonly string[] = []): PrincipalAccess[] {
  const {data} = index
  const grantOf = (entry: {authorization: Authorization; project: Project}, source: Grant['source'], groupName?: string): Grant[] => {
    const role = index.roles.get(entry.authorization.roleId)
    return role ? [{role, project: entry.project, source: entry.authorization.kind === 'default-role' ? 'default-role' : source, ...(groupName ? {groupName} : {}), authorization: entry.authorization}] : []
  }
  const groupName = (id: number) => index.groups.get(id)?.name ?? `group #${id}`
  const base = chain.base.flatMap((entry) => grantOf(entry, 'base'))
  const computeGroupGrants = (groupId: number, source: Grant['source']) => chain.group.filter((e) => e.authorization.groupId === groupId).flatMap((e) => grantOf(e, source, groupName(groupId)))
  // A group's grants are the same for the group and each member listed (read-only, so shared): the
  // chain's group authorizations taken apart by group in one pass, in their order.
  const byGroup = new Map<number, Grant[]>()
  for (const entry of chain.group) {
    const id = entry.authorization.groupId
    if (id === undefined) continue
    const grants = grantOf(entry, 'group', groupName(id))
    const known = byGroup.get(id)
    if (known) known.push(...grants)
    else byGroup.set(id, grants)
  }
  const noGrants: Grant[] = []
  const groupGrants = (groupId: number, source: Grant['source'] = 'group'): Grant[] => (source === 'group' ? (byGroup.get(groupId) ?? noGrants) : computeGroupGrants(groupId, source))
  const loginGroup = defaultLoginGroup(data)
  const everyoneAdmin = everyoneIsAdministrator(data)
  const everyoneGrants = [...base, ...(loginGroup ? groupGrants(loginGroup.id, 'default-login-group') : [])]
  const principals: PrincipalAccess[] = []
  if (data.security?.enableAnonymousAccess) {
    principals.push({kind: 'anonymous', name: 'anonymous', grants: base, administrator: null, match: {user: null, groups: [], anonymous: true}})
  }
  principals.push({
    kind: 'everyone',
    name: 'everyone',
    grants: everyoneGrants,
    administrator: everyoneAdmin ? `every logged-in user is in the default login group ${loginGroup!.name}, an administrator group` : null,
    match: {user: null, groups: loginGroup ? [loginGroup.name] : [], anonymous: false},
  })
  const groupIds = new Set<number>([...chain.group.map((e) => e.authorization.groupId!).filter((id) => id !== undefined), ...(data.groups ?? []).filter((g) => g.administrator).map((g) => g.id)])
  for (const id of [...groupIds].sort((a, b) => a - b)) {
    const group = index.groups.get(id)
    const name = groupName(id)
    principals.push({
      kind: 'group',
      name,
      grants: [...groupGrants(id), ...everyoneGrants],
      administrator: group?.administrator ? `group ${name} is an administrator group` : everyoneAdmin ? principals[principals.length - 1]!.administrator : null,
      match: {user: null, groups: loginGroup && loginGroup.name !== name ? [name, loginGroup.name] : [name], anonymous: false},
    })
  }
  const admins = index.administratorsById
  const userIds = new Set<number>(chain.user.map((e) => e.authorization.userId!).filter((id) => id !== undefined))
  if (data.users) for (const name of extraUsers) for (const id of index.userIdsByName.get(name.toLowerCase()) ?? []) userIds.add(id)
  for (const id of admins.keys()) userIds.add(id)
  for (const id of [...userIds].sort((a, b) => a - b)) {
    const user = index.users.get(id)
    if (user?.disabled) continue
    const name = user?.name ?? `user #${id}`
    const memberOf = index.groupIdsByUser.get(id) ?? []
    const admin = admins.get(id)
    principals.push({
      kind: admin ? 'administrator' : 'user',
      name,
      userId: id,
      grants: [...chain.user.filter((e) => e.authorization.userId === id).flatMap((e) => grantOf(e, 'user')), ...memberOf.flatMap((g) => groupGrants(g)), ...everyoneGrants],
      administrator: admin ? admin.reasons.join(', ') : everyoneAdmin ? principals[1]!.administrator : null,
      match: {user: name, groups: [...memberOf.map(groupName), ...(loginGroup ? [loginGroup.name] : [])], anonymous: false},
    })
  }
  return principals
}

// ---------------------------------------------------------------- capabilities

/** Read-type permissions only for anonymous users (§6 ANON_OK). */
function applicable(principal: PrincipalAccess, permission: 'read' | 'write'): boolean {
  return principal.kind !== 'anonymous' || permission === 'read'
}

export function grantsFor(principal: PrincipalAccess, test: (role: Role) => boolean, permission: 'read' | 'write' = 'write'): Grant[] {
  if (!applicable(principal, permission)) return []
  return principal.grants.filter((g) => test(g.role))
}

export function viaOf(principal: PrincipalAccess, grants: readonly Grant[]): Via[] {
  if (principal.administrator !== null) return [{role: 'administrator', project: null}]
  const seen = new Set<string>()
  const out: Via[] = []
  for (const g of grants) {
    const key = `${g.role.name}\u0000${g.project.path}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({role: g.role.name, project: g.project.path})
  }
  return out
}

export function canWriteCode(principal: PrincipalAccess): boolean {
  return principal.administrator !== null || grantsFor(principal, roleWritesCode).length > 0
}

/** Whether a userMatch applies to the principal (except clauses first; `anyone` matches anonymous users too). */
export function userMatchApplies(userMatch: UserMatch, principal: PrincipalAccess): boolean {
  const matches = (c: UserMatch['criteria'][number]) =>
    c.kind === 'anyone' ||
    (c.kind === 'user' && principal.match.user !== null && principal.match.user.toLowerCase() === c.name.toLowerCase()) ||
    (c.kind === 'group' && principal.match.groups.includes(c.name))
  if (userMatch.exceptions.some(matches)) return false
  return userMatch.criteria.some(matches)
}

export interface BranchAccess {
  effective: EffectiveBranchProtection | null
  /** Update the branch with no review and no required build (for them). */
  pushWithoutReview: boolean
  /** The same, for a change of the build spec `.onedev-buildspec.yml` (file protections included). */
  buildSpecWithoutReview: boolean
  forcePush: boolean
  delete: boolean
  create: boolean
}

export const BUILD_SPEC = '.onedev-buildspec.yml'

/** What a principal with code write can do on one branch under the protection that applies to them. */
export function branchAccess(hierarchy: BranchHierarchy, branch: string, principal: PrincipalAccess, semantics: ProtectionSemantics): BranchAccess {
  const effective = effectiveBranchProtectionWhen(hierarchy, branch, (m) => userMatchApplies(m, principal), semantics)
  if (!effective) return {effective, pushWithoutReview: true, buildSpecWithoutReview: true, forcePush: true, delete: true, create: true}
  const pushWithoutReview = !hasReviewers(effective.reviewRequirement) && effective.jobNames.length === 0
  const file = effectiveFileProtection(effective, BUILD_SPEC)
  const buildSpecWithoutReview = pushWithoutReview && (!file || (!hasReviewers(file.reviewRequirement) && file.jobNames.length === 0))
  return {effective, pushWithoutReview, buildSpecWithoutReview, forcePush: canForcePush(effective, semantics), delete: !effective.preventDeletion, create: !effective.preventCreation}
}

// ---------------------------------------------------------------- job secrets

/** Whether a job secret's authorization may admit a build on `branch` (unknown counts as yes: the safer reading). */
function secretAdmitsBranch(assessment: SecretAuthorizationAssessment, branch: string): boolean {
  if (assessment.breadth === 'invalid') return false
  if (assessment.breadth === 'any-job' || assessment.text === null) return true
  if (assessment.patternSet) return assessment.patternSet.matches(branch, pathMatcher)
  return assessment.expression ? branchTruth(assessment.expression, (patterns) => patterns.some((p) => onBranchMatches(p, branch))) !== 'false' : false
}

/**
 * A generic new branch name, and one per wildcard branch pattern of the authorization: names a pusher
 * could create, so only names git accepts (a pattern beginning with `/` matches none of those).
 */
function newBranchCandidates(assessment: SecretAuthorizationAssessment): string[] {
  const patterns = assessment.patternSet ? assessment.patternSet.includes : assessment.expression ? branchPatternsOfExpression(assessment.expression) : []
  const names = patterns.filter((p) => /[*?]/.test(p)).map((p) => p.replace(/\*\*/g, 'x/y').replace(/\*/g, 'x').replace(/\?/g, 'x'))
  return [...new Set(['onedev-audit-probe', ...names])].filter(gitAcceptsName)
}

function branchPatternsOfExpression(expression: JobMatchExpression): string[] {
  switch (expression.type) {
    case 'on-branch':
      return expression.patterns
    case 'and':
    case 'or':
      return [...branchPatternsOfExpression(expression.left), ...branchPatternsOfExpression(expression.right)]
    case 'not':
      return []
    default:
      return []
  }
}

/** A job secret of the project or an ancestor, with the branches its authorization admits: the same for every principal. */
export interface SecretReach {
  secret: JobSecret
  /** The project whose setting holds the secret. */
  owner: Project
  /** The checked branches it admits, in order. */
  branches: string[]
  /** New branch names it admits (none of them an existing checked branch), in order. */
  newBranches: string[]
}

/** Every job secret of the project and its ancestors (nearest first), with what its authorization admits. */
export function secretReach(
  project: Project,
  ancestors: readonly Project[],
  branches: readonly CheckedRef[],
  assess: (secret: JobSecret) => SecretAuthorizationAssessment,
): SecretReach[] {
  const existing = new Set(branches.map((b) => b.name))
  return [project, ...ancestors].flatMap((owner) =>
    (owner.setting?.jobSecrets ?? []).map((secret) => {
      const assessment = assess(secret)
      return {
        secret,
        owner,
        branches: branches.filter((ref) => secretAdmitsBranch(assessment, ref.name)).map((ref) => ref.name),
        newBranches: newBranchCandidates(assessment).filter((name) => !existing.has(name) && secretAdmitsBranch(assessment, name)),
      }
    }),
  )
}

export interface SecretRoute {
  secret: JobSecret
  /** The project whose setting holds the secret. */
  owner: Project
  /** `push` to an existing checked branch without review, or `create` a new branch (creation skips review and builds). */
  how: 'push' | 'create'
  branch: string
}

/**
 * How a principal with code write can get a job secret into a job whose build spec they control:
 * push a build spec change to a checked branch the secret admits with no review or required build
 * for them, or create a new branch the secret admits (creation skips review and build checks).
 * One route per secret name (the first found). Running an existing job is not reading the secret.
 * `access` answers what the principal can do on a branch (branchAccess).
 */
export function secretRoutes(reach: readonly SecretReach[], principal: PrincipalAccess, access: (branch: string) => BranchAccess): SecretRoute[] {
  if (!canWriteCode(principal)) return []
  const routes: SecretRoute[] = []
  const done = new Set<string>()
  for (const {secret, owner, branches, newBranches} of reach) {
    if (done.has(secret.name)) continue
    const pushed = branches.find((branch) => access(branch).buildSpecWithoutReview)
    const created = pushed === undefined ? newBranches.find((branch) => access(branch).create) : undefined
    const route: SecretRoute | undefined = pushed !== undefined ? {secret, owner, how: 'push', branch: pushed} : created !== undefined ? {secret, owner, how: 'create', branch: created} : undefined
    if (route) {
      done.add(secret.name)
      routes.push(route)
    }
  }
  return routes
}

// ---------------------------------------------------------------- the access table

export interface Capability {
  id: CapabilityId
  via: Via[]
}

export interface PrincipalCapabilities {
  kind: PrincipalKind
  name: string
  capabilities: Capability[]
}

/**
 * Every capability of a principal on a project and branch, each with the grants it comes from.
 * `access` answers what they can do on a branch (branchAccess), `routes` how they reach job secrets
 * from `branch` (secretRoutes).
 */
export function capabilitiesOf(principal: PrincipalAccess, branch: CheckedRef | null, access: (branch: string) => BranchAccess, routes: readonly SecretRoute[]): Capability[] {
  const out: Capability[] = []
  const add = (id: CapabilityId, grants: readonly Grant[] | null) => {
    if (grants !== null && (principal.administrator !== null || grants.length > 0)) out.push({id, via: viaOf(principal, grants)})
  }
  const read = grantsFor(principal, roleReadsCode, 'read')
  const write = grantsFor(principal, roleWritesCode)
  const admin = principal.administrator !== null
  add('read-code', read)
  add('write-code', write)
  if (branch && (admin || write.length > 0)) {
    const onBranch = access(branch.name)
    if (onBranch.pushWithoutReview) add('push-without-review', write)
    if (onBranch.forcePush) add('force-push', write)
    if (onBranch.delete) add('delete-branch', write)
    if (onBranch.create) add('create-branch', write)
  }
  add('run-jobs', grantsFor(principal, roleRunsJobs))
  for (const route of routes) add(`read-secret:${route.secret.name}`, write)
  add('manage-project', grantsFor(principal, (r) => r.manageProject))
  if (admin) out.push({id: 'administer', via: [{role: 'administrator', project: null}]})
  return out
}

// ---------------------------------------------------------------- where roles are held

export interface RoleHolding {
  /** Projects whose base authorizations (or pre-11.11 default role) give it to every logged-in user. */
  base: Set<string>
  groups: Set<number>
  users: Set<number>
  /** Every project where it is granted, by path. */
  projects: Set<string>
}

export interface RoleHoldings {
  /** By role id; a role absent here is held by nobody in what was read. */
  byRole: Map<number, RoleHolding>
  /** How many projects' authorizations were read. */
  projectsRead: number
}

const AUTHORIZATIONS_KEY = /^projects\/(\d+)\/(base|group|user)-authorizations$/
const OTHER_AUTHORIZATIONS_KEY = /^(groups|users|access-tokens)\/(\d+)\/authorizations$/

/**
 * Where each role is held: every base, group, user and access-token authorization in the server data
 * document, and the default roles of servers before 11.11. undefined when no project's
 * authorizations were read (role holdings cannot be judged).
 */
export function roleHoldingsOf(model: AuditModel): RoleHoldings | undefined {
  const data = model.serverData
  if (!data) return undefined
  const byRole = new Map<number, RoleHolding>()
  const holding = (roleId: number) => {
    let h = byRole.get(roleId)
    if (!h) byRole.set(roleId, (h = {base: new Set(), groups: new Set(), users: new Set(), projects: new Set()}))
    return h
  }
  const pathOf = (id: number) => model.projectsById.get(id)?.path ?? `#${id}`
  const read = new Set<number>()
  for (const key of Object.keys(data)) {
    const project = AUTHORIZATIONS_KEY.exec(key)
    const other = project ? null : OTHER_AUTHORIZATIONS_KEY.exec(key)
    if (!project && !other) continue
    const list = data[key]
    if (!Array.isArray(list)) continue
    if (project) read.add(Number(project[1]))
    for (const item of list) {
      if (item === null || typeof item !== 'object') continue
      const a = item as Record<string, unknown>
      if (typeof a.roleId !== 'number') continue
      const h = holding(a.roleId)
      const projectId = project ? Number(project[1]) : typeof a.projectId === 'number' ? a.projectId : undefined
      if (projectId !== undefined) h.projects.add(pathOf(projectId))
      const kind = project ? project[2] : other![1] === 'groups' ? 'group' : other![1] === 'users' ? 'user' : 'token'
      if (kind === 'base' && projectId !== undefined) h.base.add(pathOf(projectId))
      else if (kind === 'group') {
        const id = project ? a.groupId : Number(other![2])
        if (typeof id === 'number') h.groups.add(id)
      } else if (kind === 'user') {
        const id = project ? a.userId : Number(other![2])
        if (typeof id === 'number') h.users.add(id)
      } else if (kind === 'token' && typeof a.tokenId === 'number') h.users.add(-a.tokenId)
    }
  }
  for (const project of model.projectsById.values()) {
    if (project.defaultRoleId === undefined) continue
    read.add(project.id)
    if (project.defaultRoleId === null) continue
    const h = holding(project.defaultRoleId)
    h.base.add(project.path)
    h.projects.add(project.path)
  }
  if (read.size === 0) return undefined
  return {byRole, projectsRead: read.size}
}

/** How messages name a principal: `every logged-in user`, `group Developers`, `user alice`, `administrator root`. */
export function describePrincipalAccess(principal: Pick<PrincipalAccess, 'kind' | 'name'>): string {
  switch (principal.kind) {
    case 'anonymous':
      return 'anonymous users'
    case 'everyone':
      return 'every logged-in user'
    default:
      return `${principal.kind} ${principal.name}`
  }
}

/** Login names that the enabled branch protections' user matches name (they may get another protection). */
export function protectionUserNames(hierarchy: BranchHierarchy): string[] {
  const names = new Set<string>()
  for (const {item, userMatch} of hierarchy) {
    if (!item.enabled || !userMatch) continue
    for (const p of namedPrincipals(userMatch)) if (p.kind === 'user') names.add(p.name)
  }
  return [...names]
}

/** The principals who can write code on the project (anonymous users never can), from principalsOf. */
export function codeWriters(principals: readonly PrincipalAccess[]): PrincipalAccess[] {
  return principals.filter((p) => p.kind !== 'anonymous' && canWriteCode(p))
}
