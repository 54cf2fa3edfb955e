/**
 * Server-wide login and transport settings judged the way OneDev applies them
 * (onedev-access-reference.md §3): CORS origins (exact match, credentials allowed), plain-text LDAP
 * and HTTP, group names synced from an identity provider, and who is an administrator.
 */

/** `http://...` (any case). */
export function isPlainHttp(url: string | null): boolean {
  return url !== null && /^\s*http:\/\//i.test(url)
}

/**
 * A URL as its owner typed it: redaction normalizes URLs (`https://a.example` is stored as
 * `https://a.example/`), so a bare origin loses that trailing slash again for messages.
 */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#\s]+)\/$/i, '$1')
}

/** `ldap://...` (any case): a simple bind sends passwords in clear. `ldaps://` is fine. */
export function isPlainLdap(url: string | null): boolean {
  return url !== null && /^\s*ldap:\/\//i.test(url)
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/

/**
 * The domain a server's own origins live under: its host without the first label when it has three
 * or more (`onedev.acme.example` → `acme.example`), else the host itself (`acme.example`, an IP
 * address, `localhost`). No public suffix list: for `git.acme.co.uk` this gives `acme.co.uk`.
 */
export function siteDomain(host: string): string {
  const lower = host.toLowerCase().replace(/\.$/, '')
  if (IPV4.test(lower) || lower.includes(':') || lower.startsWith('[')) return lower
  const labels = lower.split('.')
  return labels.length >= 3 ? labels.slice(1).join('.') : lower
}

function hostOf(url: string): string | null {
  try {
    const host = new URL(url).hostname
    return host === '' ? null : host.toLowerCase()
  } catch {
    return null
  }
}

export type CorsOriginIssue =
  /** `http://`: a network attacker can inject script into that origin and use the user's session */
  | 'plain-http'
  /** `null`: sandboxed iframes, `data:` and `file:` pages send it, so any page can claim it */
  | 'null'
  /** a host outside the server's own domain */
  | 'foreign'

/**
 * What is wrong with one entry of `corsAllowedOrigins`, or null. OneDev answers a listed Origin with
 * `Access-Control-Allow-Origin: <origin>` and `Access-Control-Allow-Credentials: true`, so the page
 * of a listed origin can call the API with the visitor's session. `serverUrl` decides the server's
 * own domain; without it only `http://` and `null` are judged. Entries that are not origins (`*`,
 * garbage) never match a browser's Origin and are not judged.
 */
export function corsOriginIssue(origin: string, serverUrl: string | null): CorsOriginIssue | null {
  const trimmed = origin.trim()
  if (trimmed.toLowerCase() === 'null') return 'null'
  if (/^http:\/\//i.test(trimmed)) return 'plain-http'
  const host = hostOf(trimmed)
  if (host === null || serverUrl === null) return null
  const serverHost = hostOf(serverUrl)
  if (serverHost === null) return null
  const domain = siteDomain(serverHost)
  return host === domain || host.endsWith(`.${domain}`) ? null : 'foreign'
}

/** `@type` of an LDAP `groupRetrieval` that syncs no group. */
export const DO_NOT_RETRIEVE_GROUPS = 'DoNotRetrieveGroups'

/**
 * Administrators (§6): the root user (id 1) and the members of groups with `administrator=true`,
 * except disabled users. `membersOf` gives a group's member ids, or undefined when its memberships
 * were not read (then only root and the members read so far are known).
 */
export function administratorIds(
  groups: ReadonlyArray<{id: number; administrator: boolean}>,
  membersOf: (groupId: number) => readonly number[] | undefined,
  disabled: (userId: number) => boolean,
): Set<number> {
  const ids = new Set<number>()
  if (!disabled(ROOT_ID)) ids.add(ROOT_ID)
  for (const group of groups) {
    if (!group.administrator) continue
    for (const userId of membersOf(group.id) ?? []) if (!disabled(userId)) ids.add(userId)
  }
  return ids
}

/** `User.ROOT_ID`. */
export const ROOT_ID = 1
