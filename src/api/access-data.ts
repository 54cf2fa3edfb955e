/**
 * Access data sources (issue 11, onedev-access-reference.md §3.1, §4, §5): the security setting,
 * groups with their memberships, users, and per project (audited or ancestor) its base, group and
 * user authorizations. Everything is optional: an endpoint the server does not offer makes the
 * checks that need it not evaluated. Payloads land, redacted, in the server data document; the
 * typed views are in src/model/access-data.ts.
 *
 * Users: servers from 11.8 to 14.0 list users without ids. There, only the users the audit needs
 * are resolved one by one (GET /users/{id}): root, members of groups, and users with authorizations.
 */
import {SECURITY_KEY, ROOT_USER_ID, userListHasIds} from '../model/access-data.js'
import {ACCESS_ENDPOINTS, PROJECT_ACCESS_ENDPOINTS} from '../model/endpoints.js'
import type {OptionalFetch, OptionalProject} from './optional.js'

const ADMIN_CHECKS = 'administrator, two-factor and user checks'

export const SECURITY = {endpoint: ACCESS_ENDPOINTS.security, checks: 'anonymous access, sign-up, default group and two-factor checks'}
export const GROUPS = {endpoint: ACCESS_ENDPOINTS.groups, checks: 'group, administrator and two-factor checks', paged: true}
export const MEMBERSHIPS = {endpoint: ACCESS_ENDPOINTS.memberships, checks: 'who is in which group (administrators, group grants)'}
export const GROUP_AUTHORIZATIONS = {endpoint: ACCESS_ENDPOINTS.groupAuthorizations, checks: 'what the default group of new users holds'}
export const USERS = {endpoint: ACCESS_ENDPOINTS.users, checks: ADMIN_CHECKS, paged: true}
export const USER = {endpoint: ACCESS_ENDPOINTS.user, checks: ADMIN_CHECKS}
export const [BASE_AUTHORIZATIONS, GROUP_PROJECT_AUTHORIZATIONS, USER_PROJECT_AUTHORIZATIONS] = PROJECT_ACCESS_ENDPOINTS

/** Per-collection state (OptionalFetch.shared). */
interface AccessState {
  /** Whether the users listing has ids; resolves once it was read (true when it could not be). */
  userListHasIds?: Promise<boolean>
  /** Users requested one by one. */
  resolved: Map<number, Promise<unknown>>
}

const STATE_KEY = 'access-data'

function stateOf(fetch: OptionalFetch): AccessState {
  let state = fetch.shared.get(STATE_KEY) as AccessState | undefined
  if (!state) fetch.shared.set(STATE_KEY, (state = {resolved: new Map()}))
  return state
}

/** Reads the users listing once per collection; true when it carries ids (or could not be read). */
function userListing(fetch: OptionalFetch): Promise<boolean> {
  const state = stateOf(fetch)
  state.userListHasIds ??= fetch.get('/users', USERS).then((users) => users === undefined || userListHasIds(users))
  return state.userListHasIds
}

/** On servers whose users listing has no ids: GET /users/{id} for each user id not asked for yet. */
async function resolveUsers(fetch: OptionalFetch, ids: Iterable<number>): Promise<void> {
  if (await userListing(fetch)) return
  const state = stateOf(fetch)
  const pending: Promise<unknown>[] = []
  for (const id of ids) {
    let request = state.resolved.get(id)
    if (!request) state.resolved.set(id, (request = fetch.get(`/users/${id}`, USER)))
    pending.push(request)
  }
  await Promise.all(pending)
}

function numbers(value: unknown, key: string): number[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((item) => {
    const n = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[key] : undefined
    return typeof n === 'number' && Number.isInteger(n) ? [n] : []
  })
}

function groupIds(groups: unknown): number[] {
  return [...new Set(numbers(groups, 'id'))]
}

function defaultGroupId(security: unknown, groups: unknown): number | undefined {
  if (security === null || typeof security !== 'object' || !Array.isArray(groups)) return undefined
  const s = security as Record<string, unknown>
  const name = typeof s.defaultGroupName === 'string' ? s.defaultGroupName : typeof s.defaultLoginGroupName === 'string' ? s.defaultLoginGroupName : undefined
  if (name === undefined) return undefined
  const group = groups.find((g) => g !== null && typeof g === 'object' && (g as Record<string, unknown>).name === name) as Record<string, unknown> | undefined
  return typeof group?.id === 'number' ? group.id : undefined
}

/** Server-wide: the security setting, groups, their memberships, users; the default group's authorizations. */
export async function fetchServerAccess(fetch: OptionalFetch): Promise<void> {
  const security = fetch.get(`/${SECURITY_KEY}`, SECURITY)
  const users = userListing(fetch)
  const groups = await fetch.get('/groups', GROUPS)
  const ids = groupIds(groups)
  const members = Promise.all(
    ids.map(async (id) => {
      const memberships = await fetch.get(`/groups/${id}/memberships`, MEMBERSHIPS)
      await resolveUsers(fetch, numbers(memberships, 'userId'))
    }),
  )
  const defaultGroup = defaultGroupId(await security, groups)
  const held = defaultGroup === undefined ? undefined : fetch.get(`/groups/${defaultGroup}/authorizations`, GROUP_AUTHORIZATIONS)
  // Root is an administrator whatever its groups.
  await Promise.all([members, held, users, resolveUsers(fetch, [ROOT_USER_ID])])
}

/** Per project and ancestor: its own base (or pre-11.11 default role), group and user authorizations. */
export async function fetchProjectAccess(fetch: OptionalFetch, project: OptionalProject): Promise<void> {
  const id = project.id
  const base = project.defaultRoleId !== undefined ? undefined : fetch.get(`/projects/${id}/base-authorizations`, BASE_AUTHORIZATIONS)
  const group = fetch.get(`/projects/${id}/group-authorizations`, GROUP_PROJECT_AUTHORIZATIONS)
  const user = fetch.get(`/projects/${id}/user-authorizations`, USER_PROJECT_AUTHORIZATIONS).then((list) => resolveUsers(fetch, numbers(list, 'userId')))
  await Promise.all([base, group, user])
}
