/**
 * The HTTP client's contract. src/api/ is the only place that speaks HTTP; everything else gets
 * parsed JSON or an ApiError carrying an AuditError value.
 */
import type {AuditError} from '../model/types.js'

/** Items of one listing: four times the largest OneDev servers known (50,000 projects). */
export const DEFAULT_MAX_LISTING_ITEMS = 200_000
/** Bytes of listing pages read by one client, all listings together: what is listed stays in memory (about 1.5 bytes of heap per byte). */
export const DEFAULT_MAX_LISTING_BYTES = 512 * 1024 * 1024

export interface ClientOptions {
  /** Base URL of the server, e.g. `https://onedev.example.com` (a path part is kept). */
  baseUrl: string
  /**
   * `/api` (the contract) or `/~api` (current servers). Every request path is appended to it.
   * Absent: the prefix is probed. The first request goes to `/api`; when it answers an HTML page or a
   * redirect (a web UI, not the API), the same request is tried once under `/~api`, and when that
   * answers like the API every request of this client uses `/~api` (`onPrefixFound` is told). When
   * neither answers like the API, the request fails with one error naming both tries, and so does
   * every later request. Requests started while the probe runs wait for its outcome. A first answer
   * that tells nothing (a connection failure, 429 or 5xx after the retries) keeps `/api`.
   */
  apiPrefix?: string
  /** Called once when the prefix probe settles on another prefix than the one it tried first. */
  onPrefixFound?: (found: PrefixFound) => void
  /** Login name for HTTP Basic. May be empty when the secret is an access token. */
  user: string
  /** Password or access token. Never printed, logged, stored, or put in a path or body. */
  secret: string
  /** Per-request timeout (default 30 000). */
  timeoutMs?: number
  /** Overall deadline for all requests of this client, in ms from creation (default none). */
  deadlineMs?: number
  /** Retries on connection errors, 429, 502, 503, 504 (default 3). */
  retries?: number
  /** Largest response body accepted (default 50 MiB). */
  maxBodyBytes?: number
  /**
   * Most items one listing may hold (default 200,000: four times the largest OneDev servers known);
   * a listing that passes it stops with an ApiError of kind `paging` (a server paging without end).
   */
  maxListingItems?: number
  /**
   * Most bytes of listing pages this client reads, all listings together (default 512 MiB): what is
   * listed is kept in memory, so this bounds it. Passing it stops that listing (kind `paging`).
   */
  maxListingBytes?: number
  /** Connections in the keep-alive pool (default 8). */
  connections?: number
  /** First retry's backoff ceiling in ms; doubles per retry, full jitter (default 200). */
  retryBaseDelayMs?: number
  /** Largest backoff between retries in ms (default 10 000). Retry-After is honoured up to 60 s. */
  retryMaxDelayMs?: number
  /** Skip TLS verification (the command warns). */
  insecure?: boolean
  /** Aborting it cancels requests in flight and waits between retries; nothing new starts (error kind `interrupted`). */
  signal?: AbortSignal
  /** Receives one line per request: method, path, status, time. Never headers or bodies. */
  debug?: (line: string) => void
  /**
   * Given only when asked for (`--debug-unsafe-server-text`): receives the whole text of each error
   * answer that is withheld from messages (src/model/server-text.ts), the audit's own secret masked,
   * for a person to read on stderr. It may hold any secret of a posted setting: never a report or a file.
   */
  unsafeServerText?: (line: string) => void
}

/** What the prefix probe decided. */
export interface PrefixFound {
  /** The prefix tried first (`/api`). */
  tried: string
  /** What it answered: `an HTML page` or `a redirect`. */
  answered: string
  /** The prefix every request uses now (`/~api`). */
  using: string
}

/** A failed request, as a value: kind, status, URL path, one-line message. */
export class ApiError extends Error {
  /**
   * @param noResource the answer OneDev gives a path that no resource matches: 405, or 404 with
   * Jersey's `HTTP 404 Not Found` (10.0 and later) or no body (8.x) (onedev-access-reference.md §7).
   * The server may not offer the endpoint. Any other 404 comes from a resource that exists and did
   * not find its object (`No row with the given identifier exists: [...Project#12]`).
   */
  constructor(
    readonly error: AuditError,
    readonly noResource = false,
  ) {
    super(error.message)
    this.name = 'ApiError'
  }
}

/**
 * Why a request failed, without the request: its message minus the leading `METHOD /path: ` that
 * every message about one request starts with. The same for every request that failed the same way.
 */
export function failureReason(error: AuditError): string {
  const request = /^(GET|POST) \/\S*?: /.exec(error.message)
  return request ? error.message.slice(request[0].length) : error.message
}

/** An answer nested deeper than MAX_SERVER_DEPTH (src/util/json.ts): refused whole, before any recursive code walks it. */
export function tooDeepError(method: 'GET' | 'POST', path: string, status: number, depth: number): AuditError {
  return {kind: 'invalid-payload', message: `${method} ${path}: the answer is nested deeper than ${depth} levels, which no OneDev payload is; nothing of it is used`, path, status}
}

export type Query = Record<string, string | number | undefined>

/** Runs a request (e.g. through a limiter): what it covers is the exchange up to the answer's body read and its status judged, never the parsing. */
export type Schedule = <T>(request: () => Promise<T>) => Promise<T>

export interface PagingOptions {
  /** Items per page, at most 100 (default 100). */
  pageSize?: number
  maxPages?: number
  /** Runs each page's request (see Schedule); default: at once. */
  schedule?: Schedule
  /** Receives each page as it arrives; the next one is requested once it returned (or its promise settled). */
  onPage?: (items: unknown[]) => void | Promise<void>
}

export interface ApiClient {
  /**
   * GET {prefix}{path}: parsed JSON of a 200 answer; ApiError otherwise. `schedule` runs the request
   * until its answer is read and judged (a limiter's slot is free again before the body is parsed).
   */
  getJson(path: string, query?: Query, schedule?: Schedule): Promise<unknown>
  /**
   * GET {prefix}{path} as text; null for 204 No Content; ApiError for any other non-200. `mask`:
   * values besides the credential (a setting's secrets) that an error's text must never repeat.
   */
  getText(path: string, query?: Query, mask?: readonly string[]): Promise<string | null>
  /** POST {prefix}{path} with a JSON body; resolves on 200; ApiError otherwise, its text masked of `mask` as getText's. */
  postJson(path: string, body: unknown, mask?: readonly string[]): Promise<void>
  /**
   * POST {prefix}{path} with `body` sent as it is (Content-Type application/json, as every body of
   * this client: OneDev reads a resource's `String` parameter as the raw text, a `Long` as JSON); the
   * answer's text ('' for 204) on 200 or 204; ApiError otherwise, its text masked of `mask` as getText's.
   */
  postText(path: string, body: string, mask?: readonly string[]): Promise<string>
  /**
   * Pages through a listing with `offset` and `count` (pageSize, at most 100) until a short page.
   * Stops with an ApiError of kind `paging` when a page repeats the previous one, past maxPages, or
   * past the client's bounds (ClientOptions.maxListingItems, maxListingBytes).
   */
  paged(path: string, query?: Query, options?: PagingOptions): Promise<unknown[]>
  /** The prefix requests go to: the given one, or what the probe settled on (`/api` until it does). */
  readonly apiPrefix: string
  /** Requests sent so far (retries included). */
  readonly requestCount: number
  close(): Promise<void>
}
