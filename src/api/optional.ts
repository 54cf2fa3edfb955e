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

  /** By endpoint: the same whatever order the answers came in. */
  list(): NotEvaluated[] {
    return [...this.byEndpoint.values()].sort((a, b) => (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0))
  }
}

/**
 * Whether the server offers one endpoint (a template, e.g. `/repositories/{id}/tags`), learnt from
 * the answers to every request for it, and from nothing else: what one endpoint answers says nothing
 * about another. The rule:
 * - One 2xx answer proves the endpoint is offered, for good.
 * - Only the answer OneDev gives a path no resource matches counts against it (ApiError.noResource:
 *   405, or 404 with Jersey's `HTTP 404 Not Found` or no body: a "miss"). Any other 404 comes from a
 *   resource that exists and did not find its object: a project deleted during the audit answers
 *   `No row with the given identifier exists: [io.onedev.server.model.Project#12]`. That is the
 *   project's failure, never the endpoint's.
 * - Requests are concurrent and answers arrive in any order, so the first answer proves nothing (the
 *   first project may be the deleted one). A miss concludes "not offered" only when no request for the
 *   endpoint is still in flight and none ever answered 2xx; until then the miss, and every new
 *   request, waits for those in flight. Once concluded, nothing asks again (one request on a server
 *   without the endpoint, whatever the number of projects).
 * - A miss when the endpoint answered for another project is the failure of the one it was asked for.
 * Every admitted request ends with exactly one of `answered`, `missed` or `failed`.
 */
export class EndpointVerdict {
  private offered = false
  private notOffered = false
  private inFlight = 0
  private misses = 0
  private waiting: Array<() => void> = []
  /** The status of the first miss (404 or 405), for the not-evaluated notice. */
  status = 0

  constructor(readonly endpoint: string) {}

  /** Known not to be offered: nothing asks again (no slot of the limiter is taken for it). */
  get refused(): boolean {
    return this.notOffered
  }

  /** Called in the request's slot, before sending it: false when the endpoint is known not to be offered. */
  async admit(): Promise<boolean> {
    while (this.undecided()) await this.change()
    this.conclude()
    if (this.notOffered) return false
    this.inFlight++
    return true
  }

  answered(): void {
    this.inFlight--
    this.offered = true
    this.changed()
  }

  missed(status: number): void {
    this.inFlight--
    this.misses++
    if (this.status === 0) this.status = status
    this.conclude()
    this.changed()
  }

  failed(): void {
    this.inFlight--
    this.conclude()
    this.changed()
  }

  /** After a miss: whether the endpoint is offered (the miss is that project's failure) or not, once the requests in flight told. */
  async settled(): Promise<'offered' | 'not offered'> {
    while (this.undecided()) await this.change()
    this.conclude()
    return this.offered ? 'offered' : 'not offered'
  }

  /** A miss is not explained yet: requests in flight may still answer 2xx. */
  private undecided(): boolean {
    return !this.offered && !this.notOffered && this.misses > 0 && this.inFlight > 0
  }

  private conclude(): void {
    if (!this.offered && this.misses > 0 && this.inFlight === 0) this.notOffered = true
  }

  private change(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  private changed(): void {
    const waiting = this.waiting
    this.waiting = []
    for (const resolve of waiting) resolve()
  }
}
