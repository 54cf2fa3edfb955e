/**
 * The optional data sources a collection reads besides project settings and roles. A new source is
 * a fetcher here (in its own module of src/api/), a parser of its payloads in src/model/, a pure
 * judgement in src/onedev/, and rules on top.
 */
import {fetchProjectAccess, fetchServerAccess} from './access-data.js'
import {fetchServerHardening} from './admin-data.js'
import {fetchAgents} from './agent-data.js'
import {fetchMail} from './mail-data.js'
import type {ProjectFetcher, ServerFetcher} from './optional.js'
import {fetchServerVersion} from './version.js'

export const SERVER_FETCHERS: readonly ServerFetcher[] = [fetchServerVersion, fetchServerAccess, fetchServerHardening, fetchAgents, fetchMail]

export const PROJECT_FETCHERS: readonly ProjectFetcher[] = [fetchProjectAccess]
