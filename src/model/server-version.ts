/**
 * The server's version: GET {prefix}/version/server. OneDev's VersionResource (server-core
 * src/main/java/io/onedev/server/rest/resource/VersionResource.java, first at v10.2.0, :17-22 there and
 * :18-23 at v16.5.6) returns `OneDev.getInstance().getVersion()`, a Java String, under
 * `@Produces(application/json)`. Jersey writes a String with its own text provider, unquoted
 * (onedev-access-reference.md §1, as for the default branch): the body is `16.5.6`, not `"16.5.6"`.
 * The resource checks no permission; the anonymous check (rest/AnonymousCheckFilter.java:37-46 at
 * v16.5.6) lets any logged-in caller read it. Servers before 10.2.0 answer a path no resource
 * matches: 404, which tells an older OneDev.
 *
 * The answer is stored like every optional payload, in the server data document under
 * VERSION_KEY, and the model's `server.version` is what of it reads as a version.
 */
import type {ServerData, ServerInfo} from './types.js'

export const VERSION_ENDPOINT = '/version/server'
/** Its key in the server data document. */
export const VERSION_KEY = 'version/server'

/** The text of a `String` answer: trimmed, and a JSON string's quotes removed (a stub may quote it). */
export function bareText(body: string): string {
  const text = body.trim()
  if (!text.startsWith('"')) return text
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'string' ? parsed.trim() : text
  } catch {
    return text
  }
}

/** What a version answer may look like to be kept and shown: a digit first, then at most 63 of `0-9 A-Z a-z . + -` (`16.5.6`, `11.7.0-SNAPSHOT`). */
const VERSION_TEXT = /^[0-9][0-9A-Za-z.+-]{0,63}$/

/**
 * The version in the server data document, as `server.version`: the answer when it looks like a
 * version, else null (not read, not offered, failed, or an answer that is no version text, which is
 * never shown: it is server text of any length).
 */
export function serverVersionIn(data: ServerData | undefined): string | null {
  return versionText(data?.[VERSION_KEY])
}

/** `value` when it looks like a version text, else null (what a snapshot file says is checked the same way). */
export function versionText(value: unknown): string | null {
  return typeof value === 'string' && VERSION_TEXT.test(value) ? value : null
}

/** The server with the version the collection read (`server.version`: null when it asked and could not read it). */
export function withServerVersion(server: ServerInfo, data: ServerData): ServerInfo {
  return {...server, version: serverVersionIn(data)}
}
