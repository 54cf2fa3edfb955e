/**
 * The HTTP client: the only code that speaks to a OneDev server (undici 7). createClient puts
 * together its parts, each in its own module:
 * - client-attempt.ts: one attempt of a request (the keep-alive dispatcher, proxies and TLS, the
 *   pool's connections, timeouts, the overall deadline, interruption, the body limit);
 * - client-retry.ts: retries (which failures, Retry-After, backoff);
 * - client-prefix.ts: the API prefix, probed by the first request when none is given;
 * - client-answer.ts: what an answer means (the error a user can act on, with the server's detail);
 * - client-requests.ts: getJson, getText, postText (what a success must be);
 * - client-listing.ts: paged listings within the client's bounds;
 * - client-secret.ts: the credentials, and the audit's own secret masked in everything from the server.
 *
 * Every failure becomes an ApiError carrying an AuditError value with the request's path (prefix +
 * path, no query, no base URL) and status. Messages are one line, built from our own words plus the
 * server's text/plain detail, judged whole first (withheld when it may quote a secret or cannot be
 * judged: src/model/server-text.ts), trimmed, control characters escaped. Nothing
 * from the request headers is ever put into a message or a debug line.
 */
import {AnswerErrors} from './client-answer.js'
import {Attempts, type ServerBase} from './client-attempt.js'
import {Listings} from './client-listing.js'
import {ApiPrefix} from './client-prefix.js'
import {Requests} from './client-requests.js'
import {Sender} from './client-retry.js'
import {SecretMask} from './client-secret.js'
import {ApiError, DEFAULT_MAX_LISTING_BYTES, DEFAULT_MAX_LISTING_ITEMS, type ApiClient, type ClientOptions} from './types.js'

export {permissionNeeded, startsWithTag} from './client-answer.js'
export {MAX_PAGE_SIZE} from './client-listing.js'
export {CONTRACT_API_PREFIX, CURRENT_API_PREFIX, normalizeApiPrefix} from './client-prefix.js'
export {backoffDelay, parseRetryAfter, RETRY_AFTER_CAP_MS} from './client-retry.js'

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_RETRIES = 3
const DEFAULT_MAX_BODY_BYTES = 50 * 1024 * 1024
const DEFAULT_RETRY_BASE_MS = 200
const DEFAULT_RETRY_MAX_MS = 10_000

/** The server's origin and base path, from a URL that is http(s) and carries no credentials; an ApiError (kind `config`) otherwise. */
function serverBase(baseUrl: string): ServerBase {
  let base: URL
  try {
    base = new URL(baseUrl)
  } catch {
    throw new ApiError({kind: 'config', message: 'the server URL is not a valid URL'})
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ApiError({kind: 'config', message: `the server URL must start with http:// or https://`})
  }
  if (base.username !== '' || base.password !== '') {
    throw new ApiError({
      kind: 'config',
      message: 'the server URL must not contain credentials: pass them with ONEDEV_USER and ONEDEV_TOKEN',
    })
  }
  return {origin: base.origin, basePath: base.pathname.replace(/\/+$/, '')}
}

export function createClient(options: ClientOptions): ApiClient {
  const server = serverBase(options.baseUrl)
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const mask = new SecretMask(options.user, options.secret)
  // The hint of an HTML page depends on the prefix, which the probe may change.
  const errors = new AnswerErrors(mask, options, (): string => prefix.htmlPageHint())
  const attempts = new Attempts(options, server, mask, {timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBodyBytes})
  const sender = new Sender(attempts, errors, mask, options, {
    retries: Math.max(0, options.retries ?? DEFAULT_RETRIES),
    retryBaseMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_MS,
    retryMaxMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_MAX_MS,
  })
  const prefix = new ApiPrefix(options, sender, mask)
  const requests = new Requests(prefix, errors, mask, maxBodyBytes)
  const listings = new Listings(
    {
      getJsonSized: (path, query, schedule) => requests.getJsonSized(path, query, schedule),
      fullPath: (path) => prefix.fullPath(path),
      fail: (error) => mask.fail(error),
    },
    {maxListingItems: options.maxListingItems ?? DEFAULT_MAX_LISTING_ITEMS, maxListingBytes: options.maxListingBytes ?? DEFAULT_MAX_LISTING_BYTES},
  )

  return {
    getJson: (path, query, schedule) => requests.getJson(path, query, schedule),
    getText: (path, query, mask) => requests.getText(path, query, mask),
    postJson: (path, body, mask) => requests.postJson(path, body, mask),
    postText: (path, body, mask) => requests.postText(path, body, mask),
    paged: (path, query, pagingOptions) => listings.paged(path, query, pagingOptions),
    get apiPrefix() {
      return prefix.current
    },
    get requestCount() {
      return attempts.count
    },
    close: () => attempts.close(),
  }
}
