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
   * The answer is a bare string, as OneDev's Jersey writes a resource method's `String` under
   * application/json, unquoted (e.g. `/version/server`): read as text (server-version.ts bareText),
   * not parsed as JSON.
   */
  text?: boolean
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
 * Asks the endpoint of a verdict for another subject than those already asked (e.g. the same
 * repository endpoint for another project), as the request that subject would make anyway (shared
 * with it). Resolves once that request was told (or would not be sent): true, or false when there is
 * no other subject to ask.
 */
export type AskAnotherSubject = () => Promise<boolean>

/** An endpoint with a single subject (no `{id}`), or whose other subjects the collection cannot name. */
export const NO_OTHER_SUBJECT: AskAnotherSubject = () => Promise.resolve(false)

/**
 * Whether the server offers one endpoint (a template, e.g. `/repositories/{id}/tags`), learnt from
 * the answers to requests for it, and from nothing else: what one endpoint answers says nothing
 * about another. The rule:
 * - One 2xx answer proves the endpoint is offered, for good.
 * - Only the answer OneDev gives a path no resource matches counts against it (ApiError.noResource:
 *   405, or 404 with Jersey's `HTTP 404 Not Found` or no body: a "miss"). Any other 404 comes from a
 *   resource that exists and did not find its object: a project deleted during the audit answers
 *   `No row with the given identifier exists: [io.onedev.server.model.Project#12]`. That is the
 *   project's failure, never the endpoint's.
 * - One subject's miss proves nothing about the endpoint (that project, group or user may be the odd
 *   one), and the order answers arrive in depends on --concurrency. So the endpoint is "not offered"
 *   only when two subjects missed and none answered 2xx, or when one missed and there is no other
 *   subject to ask (an endpoint without `{id}`, a single project). A miss nothing explains yet waits
 *   for the requests already asked for the endpoint, one at a time (the others wait for their turn,
 *   holding no slot of the limiter); when none is asked, the collection asks the endpoint for
 *   another subject (AskAnotherSubject: another audited project, the request it would make anyway).
 *   The outcome is the same at any concurrency. A server without the endpoint is asked it for two
 *   subjects (more only when more requests were out at once), whatever the number of projects; once
 *   concluded, nothing asks again.
 * - A miss when the endpoint answered for another subject is the failure of the one it was asked for.
 * Every request that was asked (`ask`) is withdrawn (`admit` says skip) or ends with exactly one of
 * `answered`, `missed` or `failed`.
 */
export class EndpointVerdict {
  private state: 'learning' | 'offered' | 'not offered' = 'learning'
  /** Requests asked and not told yet: waiting for their turn or a slot, or sent. */
  private asked = 0
  /** Requests sent and not told yet. */
  private sent = 0
  private misses = 0
  private firstMissStatus = 0
  private askingAnother = false
  /** The paths asked while learning (AskAnotherSubject asks another); forgotten once known. */
  private subjects = new Set<string>()
  private waiting: Array<() => void> = []

  constructor(
    readonly endpoint: string,
    private readonly askAnotherSubject: AskAnotherSubject,
  ) {}

  /** The status of the first miss (404 or 405), for the not-evaluated notice. */
  get status(): number {
    return this.firstMissStatus
  }

  /** Known not to be offered: nothing asks again (no slot of the limiter is taken for it). */
  get refused(): boolean {
    return this.state === 'not offered'
  }

  /** A request for `path` is asked for, before it waits for a slot: false when the endpoint is known not to be offered. */
  ask(path: string): boolean {
    if (this.refused) return false
    this.asked++
    if (this.state === 'learning') this.subjects.add(path)
    return true
  }

  /** Whether `path` was asked while the endpoint is not known (then it is no other subject). */
  hasAsked(path: string): boolean {
    return this.subjects.has(path)
  }

  /** Outside any slot: resolves when the request may take one (while a miss is unexplained, one request at a time). */
  async turn(): Promise<void> {
    while (this.holding()) await this.change()
  }

  /**
   * In the request's slot, before sending it: `send`; `skip` when the endpoint is known not to be
   * offered (the request is withdrawn); `wait` when another request took the turn meanwhile (give
   * the slot back and wait for `turn` again).
   */
  admit(): 'send' | 'skip' | 'wait' {
    if (this.refused) {
      this.asked--
      return 'skip'
    }
    if (this.holding()) return 'wait'
    this.sent++
    return 'send'
  }

  answered(): void {
    this.told()
    this.conclude('offered')
    this.changed()
  }

  missed(status: number): void {
    this.told()
    if (++this.misses === 1) this.firstMissStatus = status
    if (this.misses >= 2) this.conclude('not offered')
    this.review()
    this.changed()
  }

  failed(): void {
    this.told()
    this.review()
    this.changed()
  }

  /** After a miss: whether the endpoint is offered (the miss is that subject's failure) or not, once known. */
  async settled(): Promise<'offered' | 'not offered'> {
    while (this.state === 'learning') await this.change()
    return this.state
  }

  private conclude(state: 'offered' | 'not offered'): void {
    if (this.state !== 'learning') return
    this.state = state
    this.subjects.clear()
  }

  private told(): void {
    this.asked--
    this.sent--
  }

  /** A miss is not explained yet, and a request for the endpoint is out: the next waits for it. */
  private holding(): boolean {
    return this.state === 'learning' && this.misses > 0 && this.sent > 0
  }

  /** A miss nothing asked can explain: ask another subject, or conclude when there is none. */
  private review(): void {
    if (this.state !== 'learning' || this.misses === 0 || this.asked > 0 || this.askingAnother) return
    this.askingAnother = true
    void this.askAnotherSubject()
      .catch(() => false)
      .then((asked) => {
        this.askingAnother = false
        if (!asked) this.conclude('not offered')
        this.review()
        this.changed()
      })
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
