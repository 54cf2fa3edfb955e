/**
 * Optional endpoints: everything beyond the contract's project settings and roles (security and
 * admin settings, groups, users, authorizations, ...; onedev-access-reference.md §7). Each data source
 * is a fetcher that asks for the payloads it needs through `OptionalFetch.get`; collection stores them,
 * redacted, in the model's server data document, and records an endpoint the server does not offer
 * (404, 405) once as not evaluated, never as passed. Fetchers are listed in data-sources.ts.
 */
import type {NotEvaluated} from '../model/types.js'

export interface OptionalGet {
  /** The endpoint as a template for messages and notices, e.g. `/groups/{id}/memberships`. */
  endpoint: string
  /** What is not evaluated without it, e.g. `administrator and two-factor checks`. */
  checks: string
  /** Page through it with offset and count (a listing). */
  paged?: boolean
  /**
   * Other endpoints serving the same data on other server versions, tried in order while the
   * previous one answers 404/405 (e.g. `/sso-providers`, then `/settings/sso-connectors` up to 12.0).
   * The payload is stored under the path that answered; only when none is offered is the endpoint
   * recorded as not evaluated, once, under all its names (`/sso-providers or /settings/sso-connectors`).
   */
  fallbacks?: ReadonlyArray<{path: string; endpoint: string}>
}

export interface OptionalFetch {
  /**
   * GET `path` (under the prefix, e.g. `/settings/security`): the payload, redacted and stored in the
   * server data document under `path` without its leading slash, or undefined when the server does not
   * offer the endpoint (recorded once as not evaluated) or the request failed (recorded as an error).
   * A 204 answer is stored as null. Asking again for a path already asked (by this or another data
   * source) shares the first request and its answer: never modify what it returns.
   */
  get(path: string, spec: OptionalGet): Promise<unknown>
  /** State shared by every fetcher of one collection (e.g. a listing several fetchers wait for), keyed by the fetcher module. */
  readonly shared: Map<string, unknown>
}

/** Reads server-wide data once per collection. */
export type ServerFetcher = (fetch: OptionalFetch) => Promise<void>

/** Reads per-project data, for each audited project and each ancestor it inherits from (once each). */
export type ProjectFetcher = (fetch: OptionalFetch, project: OptionalProject) => Promise<void>

export interface OptionalProject {
  id: number
  path: string
  audited: boolean
  /** Present only on servers before 11.11, whose project JSON carries the single default role (null: none). */
  defaultRoleId?: number | null
}

/** The not-evaluated endpoints of a collection, one per endpoint template. */
export class NotEvaluatedLog {
  private readonly byEndpoint = new Map<string, NotEvaluated>()

  add(entry: NotEvaluated): void {
    if (!this.byEndpoint.has(entry.endpoint)) this.byEndpoint.set(entry.endpoint, entry)
  }

  has(endpoint: string): boolean {
    return this.byEndpoint.has(endpoint)
  }

  /** By endpoint: the same whatever order the answers came in. */
  list(): NotEvaluated[] {
    return [...this.byEndpoint.values()].sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0))
  }
}
