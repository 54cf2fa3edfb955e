/**
 * The server's version, read by one request when a command needs it before the collection reads it
 * (CONTRACTS.md, branch `versions`: `server.version`, null when unknown). OneDev answers
 * `GET /version/server` from 10.2.0 on with the bare version text, e.g. `16.5.6`, under
 * application/json (v10.2.0 server-core/src/main/java/io/onedev/server/rest/resource/VersionResource.java:17-22;
 * v16.5.6 :18-23: the method returns a String, which Jersey writes as it is). Older servers (8.x,
 * 10.0.0 to 10.1.6) have no such resource: 404.
 */
import {bareText, VERSION_ENDPOINT as VERSION_PATH, versionText} from '../model/server-version.js'
import {ApiError, type ApiClient, failureReason} from './types.js'

/** The version, or null with why it is unknown (one phrase, safe to print). */
export type ServerVersion = {version: string; why?: undefined} | {version: null; why: string}

/** GET /version/server: the version, or null and why (an error other than a missing resource or a refusal is thrown). */
export async function readServerVersion(client: ApiClient): Promise<ServerVersion> {
  let text: string | null
  try {
    text = await client.getText(VERSION_PATH)
  } catch (error) {
    if (error instanceof ApiError && error.error.kind !== 'auth' && error.error.kind !== 'interrupted') {
      return {version: null, why: error.noResource ? `GET ${client.apiPrefix}${VERSION_PATH} is not offered, as before OneDev 10.2` : `GET ${client.apiPrefix}${VERSION_PATH}: ${failureReason(error.error)}`}
    }
    throw error
  }
  // The bare text; a JSON string too, should a proxy or a later version quote it (as the collection reads it).
  const answer = bareText(text ?? '')
  const version = versionText(answer)
  if (version !== null) return {version}
  // What it answered instead is server text of any length: never shown (as the collection keeps it: model/server-version.ts).
  return {version: null, why: `GET ${client.apiPrefix}${VERSION_PATH} answered no version number`}
}
