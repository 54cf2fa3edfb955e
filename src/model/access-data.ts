/**
 * Typed views of the access data in the server data document (model.serverData, redacted at ingest):
 * the security setting, groups, memberships, users and the per-project authorizations
 * (onedev-access-reference.md §3.1, §4, §5). Each view parses the document when asked (the facts of a
 * run, src/engine/facts.ts, ask once) and is `undefined` when the data was not fetched or not offered:
 * rules then stay silent (the not-evaluated notice covers it). Items that do not have the expected
 * shape are left out.
 *
 * Pointers are JSON pointers into the server data document, e.g. `/settings~1security/enforce2FA`,
 * `/groups/1`, `/projects~142~1base-authorizations/0`.
 */
import type {z} from 'zod'

import * as checks from './payload-checks.js'
import {hasOwn, type Parser, parser, validItems} from './parser.js'
import {joinPointer} from './pointer.js'
import type * as S from './server-schemas.js'
import type {AuditModel, Project, ServerData} from './types.js'
import {isObject} from '../util/json.js'

export const SECURITY_KEY = 'settings/security'
export const GROUPS_KEY = 'groups'
export const USERS_KEY = 'users'

export const membershipsKey = (groupId: number) => `groups/${groupId}/memberships`
export const groupAuthorizationsKey = (groupId: number) => `groups/${groupId}/authorizations`
export const userKey = (userId: number) => `users/${userId}`
export type AuthorizationKind = 'base' | 'group' | 'user'
export const projectAuthorizationsKey = (projectId: number, kind: AuthorizationKind) => `projects/${projectId}/${kind}-authorizations`

/** The root user (`User.ROOT_ID`): always an administrator. */
export const ROOT_USER_ID = 1

export interface PasswordPolicy {
  minLength: number | null
  mustContainUppercase: boolean
  mustContainLowercase: boolean
  mustContainNumber: boolean
  mustContainSpecial: boolean
}

export interface SecuritySetting {
  /** `/settings~1security`. */
  pointer: string
  enableAnonymousAccess: boolean
  /** Default `true` on the server (a fresh install lets anyone sign up). */
  enableSelfRegister: boolean
  /** null: any email domain may sign up. */
  allowedSelfRegisterEmailDomain: string | null
  /** The group new users join (v11.9.2+); null when none. */
  defaultGroupName: string | null
  /**
   * Servers before v11.9.2: every logged-in user counts as a member of this group at permission-check
   * time (`defaultLoginGroupName`). null when none or on newer servers.
   */
  defaultLoginGroupName: string | null
  enforce2FA: boolean
  disableInternalLogin: boolean
  corsAllowedOrigins: string[]
  /** null: no policy (or a server before v12 without the key: see `hasPasswordPolicyKey`). */
  passwordPolicy: PasswordPolicy | null
  hasPasswordPolicyKey: boolean
  raw: Record<string, unknown>
}

export interface Group {
  /** `/groups/<index>`. */
  pointer: string
  id: number
  name: string
  administrator: boolean
  createRootProjects: boolean
  enforce2FA: boolean
}

export interface Membership {
  pointer: string
  id: number | null
  userId: number
  groupId: number
}

export type UserType = 'ORDINARY' | 'SERVICE' | 'AI'

export interface User {
  /** `/users/<index>` or `/users~1<id>`. */
  pointer: string
  /** null for an item of a user list without ids (v11.8–v14.0) that was not resolved by id. */
  id: number | null
  /** Login name: how the audit names a user (never by email). */
  name: string
  fullName: string | null
  disabled: boolean
  type: UserType
}

export interface Authorization {
  kind: AuthorizationKind | 'default-role'
  pointer: string
  projectId: number
  roleId: number
  groupId?: number
  userId?: number
}

const SecuritySchema = parser<z.infer<typeof S.SecuritySchema>>(checks.isSecurity)
const GroupSchema = parser<z.infer<typeof S.GroupSchema>>(checks.isGroup)
const MembershipSchema = parser<z.infer<typeof S.MembershipSchema>>(checks.isMembership)
const UserSchema = parser<z.infer<typeof S.UserSchema>>(checks.isUser)
const AuthorizationSchema = parser<z.infer<typeof S.AuthorizationSchema>>(checks.isAuthorization)

/** The valid items of a listing, each with its index; none when the value is not a list. */
const items = <T>(value: unknown, schema: Parser<T>) => validItems(value, schema) ?? []

function has(data: ServerData | undefined, key: string): data is ServerData {
  return data !== undefined && hasOwn(data, key)
}

// ---------------------------------------------------------------- security setting

/** GET /settings/security, or undefined when it was not read. */
export function securitySettingOf(model: Pick<AuditModel, 'serverData'>): SecuritySetting | undefined {
  const data = model.serverData
  if (!has(data, SECURITY_KEY)) return undefined
  const raw = data[SECURITY_KEY]
  const parsed = SecuritySchema.safeParse(raw)
  if (!parsed.success || !isObject(raw)) return undefined
  const s = parsed.data
  const policy = isObject(s.passwordPolicy) ? s.passwordPolicy : null
  const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback)
  return {
    pointer: joinPointer('', SECURITY_KEY),
    enableAnonymousAccess: s.enableAnonymousAccess ?? false,
    enableSelfRegister: s.enableSelfRegister ?? true,
    allowedSelfRegisterEmailDomain: s.allowedSelfRegisterEmailDomain?.trim() ? s.allowedSelfRegisterEmailDomain : null,
    defaultGroupName: s.defaultGroupName ?? null,
    defaultLoginGroupName: s.defaultLoginGroupName ?? null,
    enforce2FA: s.enforce2FA ?? false,
    disableInternalLogin: s.disableInternalLogin ?? false,
    corsAllowedOrigins: (s.corsAllowedOrigins ?? []).filter((origin): origin is string => typeof origin === 'string'),
    passwordPolicy: policy
      ? {
          minLength: typeof policy.minLength === 'number' ? policy.minLength : null,
          mustContainUppercase: bool(policy.mustContainUppercase, true),
          mustContainLowercase: bool(policy.mustContainLowercase, true),
          mustContainNumber: bool(policy.mustContainNumber, true),
          mustContainSpecial: bool(policy.mustContainSpecial, true),
        }
      : null,
    hasPasswordPolicyKey: Object.prototype.hasOwnProperty.call(raw, 'passwordPolicy'),
    raw,
  }
}

// ---------------------------------------------------------------- groups and memberships

/** Every group (GET /groups, de-duplicated by id, first occurrence kept), or undefined when not read. */
export function groupsOf(model: Pick<AuditModel, 'serverData'>): Group[] | undefined {
  const data = model.serverData
  if (!has(data, GROUPS_KEY)) return undefined
  const seen = new Set<number>()
  const out: Group[] = []
  for (const {item, index} of items(data[GROUPS_KEY], GroupSchema)) {
    if (seen.has(item.id)) continue
    seen.add(item.id)
    out.push({
      pointer: joinPointer('', GROUPS_KEY, index),
      id: item.id,
      name: item.name,
      administrator: item.administrator ?? false,
      createRootProjects: item.createRootProjects ?? false,
      enforce2FA: item.enforce2FA ?? false,
    })
  }
  return out
}

/** The memberships of one group (GET /groups/{id}/memberships), or undefined when not read. */
export function membershipsOf(model: Pick<AuditModel, 'serverData'>, groupId: number): Membership[] | undefined {
  const data = model.serverData
  const key = membershipsKey(groupId)
  if (!has(data, key)) return undefined
  return items(data[key], MembershipSchema).map(({item, index}) => ({pointer: joinPointer('', key, index), id: item.id ?? null, userId: item.userId, groupId}))
}

// ---------------------------------------------------------------- users

function userType(item: z.infer<typeof S.UserSchema>): UserType {
  if (item.type === 'SERVICE' || item.type === 'AI') return item.type
  if (item.serviceAccount === true) return 'SERVICE'
  return 'ORDINARY'
}

/**
 * Every user the audit knows: the items of GET /users and the users resolved one by one
 * (GET /users/{id}, on servers whose list has no ids), one per id; list items without id and not
 * resolved are kept with `id: null`. undefined when neither was read.
 */
export function usersOf(model: Pick<AuditModel, 'serverData'>): User[] | undefined {
  const data = model.serverData
  if (!data) return undefined
  const byId = new Map<number, User>()
  let any = false
  // Users resolved by id first: their id comes from the path, whatever the item says.
  for (const key of Object.keys(data)) {
    const match = USER_KEY.exec(key)
    if (!match) continue
    const parsed = UserSchema.safeParse(data[key])
    if (!parsed.success) continue
    any = true
    const id = Number(match[1])
    byId.set(id, toUser(parsed.data, id, joinPointer('', key)))
  }
  const out: User[] = []
  const named = new Set([...byId.values()].map((user) => user.name.toLowerCase()))
  if (has(data, USERS_KEY)) {
    any = true
    for (const {item, index} of items(data[USERS_KEY], UserSchema)) {
      const id = typeof item.id === 'number' ? item.id : null
      if (id !== null ? byId.has(id) : named.has(item.name.toLowerCase())) continue
      const user = toUser(item, id, joinPointer('', USERS_KEY, index))
      if (id !== null) byId.set(id, user)
      else out.push(user)
    }
  }
  if (!any) return undefined
  return [...[...byId.values()].sort((a, b) => a.id! - b.id!), ...out]
}

const USER_KEY = /^users\/(\d+)$/

function toUser(item: z.infer<typeof S.UserSchema>, id: number | null, pointer: string): User {
  return {pointer, id, name: item.name, fullName: item.fullName ?? null, disabled: item.disabled ?? false, type: userType(item)}
}

/** Whether the users list carries ids (false on v11.8–v14.0, where users are resolved one by one). */
export function userListHasIds(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return true
  return value.every((item) => isObject(item) && typeof item.id === 'number')
}

/**
 * Whether the users the audit knows grow with every project collected: servers whose users listing
 * has no ids, where users are resolved one by one as projects' authorizations name them
 * (src/api/access-data.ts). Then no project can be judged before the last one is in.
 */
export function serverDataGrowsWithProjects(data: ServerData | undefined): boolean {
  return has(data, USERS_KEY) && !userListHasIds(data[USERS_KEY])
}

// ---------------------------------------------------------------- authorizations

export interface ProjectAuthorizations {
  /** Base authorizations (or the pre-11.11 default role); undefined when not read. */
  base: Authorization[] | undefined
  group: Authorization[] | undefined
  user: Authorization[] | undefined
}

/**
 * A project's own authorizations (not its ancestors'). Servers before 11.11 have no base
 * authorizations: the project's `defaultRoleId` stands for them.
 */
export function projectAuthorizationsOf(model: Pick<AuditModel, 'serverData'>, project: Pick<Project, 'id'> & {defaultRoleId?: number | null}): ProjectAuthorizations {
  const data = model.serverData
  const list = (kind: AuthorizationKind): Authorization[] | undefined => {
    const key = projectAuthorizationsKey(project.id, kind)
    if (!has(data, key)) return undefined
    return items(data[key], AuthorizationSchema).map(({item, index}) => ({
      kind,
      pointer: joinPointer('', key, index),
      projectId: project.id,
      roleId: item.roleId,
      ...(typeof item.groupId === 'number' ? {groupId: item.groupId} : {}),
      ...(typeof item.userId === 'number' ? {userId: item.userId} : {}),
    }))
  }
  let base = list('base')
  if (base === undefined && project.defaultRoleId !== undefined) {
    base = project.defaultRoleId === null ? [] : [{kind: 'default-role', pointer: '/defaultRoleId', projectId: project.id, roleId: project.defaultRoleId}]
  }
  return {base, group: list('group'), user: list('user')}
}

/** A group's authorizations on every project (GET /groups/{id}/authorizations), or undefined when not read. */
export function groupAuthorizationsOf(model: Pick<AuditModel, 'serverData'>, groupId: number): Authorization[] | undefined {
  const data = model.serverData
  const key = groupAuthorizationsKey(groupId)
  if (!has(data, key)) return undefined
  return items(data[key], AuthorizationSchema)
    .filter(({item}) => typeof item.projectId === 'number')
    .map(({item, index}) => ({kind: 'group' as const, pointer: joinPointer('', key, index), projectId: item.projectId!, roleId: item.roleId, groupId}))
}
