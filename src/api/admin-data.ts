/**
 * Server hardening data sources (issue 14, onedev-access-reference.md §3.2, §3.3, §5): job executors,
 * groovy scripts, the system setting, the external authenticator (204 = none), SSO providers (or the
 * SSO connectors of servers up to 12.0), and each user's access tokens. Everything is optional: an
 * endpoint the server does not offer makes the checks that need it not evaluated. Payloads land,
 * redacted at ingest (registry passwords, the LDAP manager password, client secrets, token values,
 * groovy script content), in the server data document; the typed views are in src/model/admin-data.ts.
 *
 * Never read: /settings/ssh (the server's SSH host key): nothing in it is worth the risk. The mail
 * service (its passwords and refresh tokens redacted as they arrive) is read by mail-data.ts.
 */
import {ROOT_USER_ID} from '../model/access-data.js'
import {HARDENING_ENDPOINTS} from '../model/endpoints.js'
import type {OptionalFetch} from './optional.js'

export const JOB_EXECUTORS = {endpoint: HARDENING_ENDPOINTS.jobExecutors, checks: 'job executor checks (server/shell-executor, server/docker-socket, server/no-executor)'}
export const GROOVY_SCRIPTS = {endpoint: HARDENING_ENDPOINTS.groovyScripts, checks: 'groovy script checks (server/groovy-script-unrestricted)'}
export const SYSTEM = {endpoint: HARDENING_ENDPOINTS.system, checks: 'server URL checks (server/plain-http-url, the server\'s own domain for server/cors-credentials)'}
export const AUTHENTICATOR = {endpoint: HARDENING_ENDPOINTS.authenticator, checks: 'LDAP checks (server/ldap-plaintext, server/idp-admin-group)'}
export const SSO_PROVIDERS = {
  endpoint: HARDENING_ENDPOINTS.ssoProviders,
  checks: 'SSO group sync checks (server/idp-admin-group)',
  fallbacks: [{path: HARDENING_ENDPOINTS.ssoConnectors, endpoint: HARDENING_ENDPOINTS.ssoConnectors}],
}
/** Read by the access data source too (one request for both): CORS origins and the password policy. */
export const SECURITY = {endpoint: HARDENING_ENDPOINTS.security, checks: 'CORS and password policy checks (server/cors-credentials, server/no-password-policy)'}
/** The same listing the access data source reads (one request for both). */
export const USERS = {endpoint: HARDENING_ENDPOINTS.users, checks: 'access token checks (server/token-no-expiry)', paged: true}
/** Read by the access data source too: who is an administrator (root and members of administrator groups). */
export const GROUPS = {endpoint: HARDENING_ENDPOINTS.groups, checks: 'administrator checks (server/idp-admin-group, the high severity of server/token-no-expiry)', paged: true}
export const MEMBERSHIPS = {endpoint: HARDENING_ENDPOINTS.memberships, checks: 'administrator checks (the high severity of server/token-no-expiry)'}
export const ACCESS_TOKENS = {endpoint: HARDENING_ENDPOINTS.accessTokens, checks: 'access token checks (server/token-no-expiry)'}

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
