/**
 * Server hardening data sources (issue 14, onedev-access-reference.md §3.2, §3.3, §5): job executors,
 * groovy scripts, the system setting, the external authenticator (204 = none), SSO providers (or the
 * SSO connectors of servers up to 12.0), and each user's access tokens. Everything is optional: an
 * endpoint the server does not offer makes the checks that need it not evaluated. Payloads land,
 * redacted at ingest (registry passwords, the LDAP manager password, client secrets, token values,
 * groovy script content), in the server data document; the typed views are in src/model/admin-data.ts.
 *
 * Never read: /settings/ssh (the server's SSH host key) and /settings/mail-service (mail passwords and
 * refresh tokens). Nothing in them is worth the risk.
 */
import {ROOT_USER_ID} from '../model/access-data.js'
import type {OptionalFetch} from './optional.js'

export const JOB_EXECUTORS = {endpoint: '/settings/job-executors', checks: 'job executor checks (server/shell-executor, server/docker-socket, server/no-executor)'}
export const GROOVY_SCRIPTS = {endpoint: '/settings/groovy-scripts', checks: 'groovy script checks (server/groovy-script-unrestricted)'}
export const SYSTEM = {endpoint: '/settings/system', checks: 'server URL checks (server/plain-http-url, the server\'s own domain for server/cors-credentials)'}
export const AUTHENTICATOR = {endpoint: '/settings/authenticator', checks: 'LDAP checks (server/ldap-plaintext, server/idp-admin-group)'}
export const SSO_PROVIDERS = {
  endpoint: '/sso-providers',
  checks: 'SSO group sync checks (server/idp-admin-group)',
  fallbacks: [{path: '/settings/sso-connectors', endpoint: '/settings/sso-connectors'}],
}
/** Read by the access data source too (one request for both): CORS origins and the password policy. */
export const SECURITY = {endpoint: '/settings/security', checks: 'CORS and password policy checks (server/cors-credentials, server/no-password-policy)'}
/** The same listing the access data source reads (one request for both). */
export const USERS = {endpoint: '/users', checks: 'access token checks (server/token-no-expiry)', paged: true}
/** Read by the access data source too: who is an administrator (root and members of administrator groups). */
export const GROUPS = {endpoint: '/groups', checks: 'administrator checks (server/idp-admin-group, the high severity of server/token-no-expiry)', paged: true}
export const MEMBERSHIPS = {endpoint: '/groups/{id}/memberships', checks: 'administrator checks (the high severity of server/token-no-expiry)'}
export const ACCESS_TOKENS = {endpoint: '/users/{id}/access-tokens', checks: 'access token checks (server/token-no-expiry)'}

/** Every endpoint this data source reads (the server hardening checks need them), for grouping notices. */
export const SERVER_HARDENING_ENDPOINTS: readonly string[] = [JOB_EXECUTORS, GROOVY_SCRIPTS, SYSTEM, AUTHENTICATOR, SSO_PROVIDERS, ...SSO_PROVIDERS.fallbacks, SECURITY, USERS, GROUPS, MEMBERSHIPS, ACCESS_TOKENS].map((spec) => spec.endpoint)

/** The positive integer `key` of each item of a list. */
function idsOf(list: unknown, key: string): number[] {
  if (!Array.isArray(list)) return []
  return list.flatMap((item) => {
    const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[key] : undefined
    return typeof id === 'number' && Number.isInteger(id) && id > 0 ? [id] : []
  })
}

/** Ids of the users listing; none on servers from 11.8 to 14.0, whose listing has no ids. */
const userIds = (users: unknown) => idsOf(users, 'id')

/**
 * Every listed user's access tokens (metadata only: the values are redacted as they arrive). Where the
 * listing has no ids (11.8 to 14.0), at least root's and the administrators' tokens, the ones that matter most.
 */
async function fetchAccessTokens(fetch: OptionalFetch, administrators: Promise<number[]>): Promise<void> {
  const ids = new Set([...userIds(await fetch.get('/users', USERS)), ROOT_USER_ID, ...(await administrators)])
  await Promise.all([...ids].sort((a, b) => a - b).map((id) => fetch.get(`/users/${id}/access-tokens`, ACCESS_TOKENS)))
}

/** The groups, and the members of administrator groups: their user ids. */
async function fetchAdministrators(fetch: OptionalFetch): Promise<number[]> {
  const groups = await fetch.get('/groups', GROUPS)
  const adminGroups = new Set<number>()
  for (const group of Array.isArray(groups) ? groups : []) {
    const g = group !== null && typeof group === 'object' ? (group as Record<string, unknown>) : {}
    if (g.administrator === true && typeof g.id === 'number' && Number.isInteger(g.id)) adminGroups.add(g.id)
  }
  const memberships = await Promise.all([...adminGroups].map((id) => fetch.get(`/groups/${id}/memberships`, MEMBERSHIPS)))
  return memberships.flatMap((list) => idsOf(list, 'userId'))
}

/** Server-wide hardening settings. */
export async function fetchServerHardening(fetch: OptionalFetch): Promise<void> {
  const administrators = fetchAdministrators(fetch)
  await Promise.all([
    fetch.get(SECURITY.endpoint, SECURITY),
    fetch.get(JOB_EXECUTORS.endpoint, JOB_EXECUTORS),
    fetch.get(GROOVY_SCRIPTS.endpoint, GROOVY_SCRIPTS),
    fetch.get(SYSTEM.endpoint, SYSTEM),
    fetch.get(AUTHENTICATOR.endpoint, AUTHENTICATOR),
    fetch.get(SSO_PROVIDERS.endpoint, SSO_PROVIDERS),
    administrators,
    fetchAccessTokens(fetch, administrators),
  ])
}
