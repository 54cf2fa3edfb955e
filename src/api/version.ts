/**
 * The server's version (GET {prefix}/version/server, OneDev 10.2.0 and later; src/model/server-version.ts):
 * one request per collection. The version decides the judgements that OneDev changed between
 * releases (src/onedev/versions.ts). A server that does not offer the endpoint (404 or 405, a OneDev
 * before 10.2.0) is recorded once as not offered, which is itself what it tells: those judgements
 * are then made by the reading that exposes more, and a notice says so.
 */
import {VERSION_ENDPOINT} from '../model/server-version.js'
import type {OptionalFetch} from './optional.js'

export const SERVER_VERSION = {
  endpoint: VERSION_ENDPOINT,
  checks: 'the judgements that depend on the OneDev version (made by the reading that exposes more instead)',
  text: true,
}

/** Asks the server its version; collection stores the answer (server-version.ts reads it). */
export async function fetchServerVersion(fetch: OptionalFetch): Promise<void> {
  await fetch.get(VERSION_ENDPOINT, SERVER_VERSION)
}
