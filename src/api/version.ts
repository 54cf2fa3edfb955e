/**
 * The server's version (GET {prefix}/version/server, OneDev 10.2.0 and later; src/model/server-version.ts):
 * one request per collection. The version decides the judgements that OneDev changed between
 * releases (src/onedev/versions.ts). A server that does not offer the endpoint (404 or 405, a OneDev
 * before 10.2.0) is recorded once as not offered, which is itself what it tells: those judgements
 * are then made by the reading that exposes more, and a notice says so.
 *
 * readServerVersion asks it once more for a command that needs it when no collection read it (notify
 * with a snapshot that predates it), read as the collection reads it.
 */
import {bareText, VERSION_ENDPOINT, versionText} from '../model/server-version.js'
import type {OptionalFetch} from './optional.js'
import {ApiError, type ApiClient, failureReason} from './types.js'

export const SERVER_VERSION = {
  endpoint: VERSION_ENDPOINT,
  checks: 'the judgements that depend on the OneDev version (made by the reading that exposes more instead)',
  text: true,
}

/** Asks the server its version; collection stores the answer (server-version.ts reads it). */
export async function fetchServerVersion(fetch: OptionalFetch): Promise<void> {
  await fetch.get(VERSION_ENDPOINT, SERVER_VERSION)
}

/** The version, or null with why it is unknown (one phrase, safe to print). */
export type ServerVersion = {version: string; why?: undefined} | {version: null; why: string}

/** GET /version/server: the version, or null and why (an error other than a missing resource or a refusal is thrown). */
export async function readServerVersion(client: ApiClient): Promise<ServerVersion> {
  let text: string | null
  try {
    text = await client.getText(VERSION_ENDPOINT)
  } catch (error) {
    if (error instanceof ApiError && error.error.kind !== 'auth' && error.error.kind !== 'interrupted') {
      return {version: null, why: error.noResource ? `GET ${client.apiPrefix}${VERSION_ENDPOINT} is not offered, as before OneDev 10.2` : `GET ${client.apiPrefix}${VERSION_ENDPOINT}: ${failureReason(error.error)}`}
    }
    throw error
  }
  // The bare text; a JSON string too, should a proxy or a later version quote it (as the collection reads it).
  const answer = bareText(text ?? '')
  const version = versionText(answer)
  if (version !== null) return {version}
  // What it answered instead is server text of any length: never shown (as the collection keeps it: model/server-version.ts).
  return {version: null, why: `GET ${client.apiPrefix}${VERSION_ENDPOINT} answered no version number`}
}
