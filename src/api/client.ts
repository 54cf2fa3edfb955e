/**
 * The HTTP client: the only code that speaks to a OneDev server (undici 7).
 *
 * One keep-alive dispatcher per client (an `Agent`, or an `EnvHttpProxyAgent` when HTTP(S)_PROXY is
 * set, which honours NO_PROXY). TLS verification stays on unless `insecure`; extra CAs come from
 * NODE_EXTRA_CA_CERTS, which Node applies because no `ca` is ever passed here.
 *
 * Every failure becomes an ApiError carrying an AuditError value with the request's path (prefix +
 * path, no query, no base URL) and status. Messages are one line, built from our own words plus the
 * server's text/plain detail, judged whole first (withheld when it may quote a secret or cannot be
 * judged: src/model/server-text.ts), trimmed, control characters escaped. Nothing
 * from the request headers is ever put into a message or a debug line.
 */
import {Buffer} from 'node:buffer'
import {STATUS_CODES} from 'node:http'
import {Agent, EnvHttpProxyAgent, type Dispatcher} from 'undici'
import {judgeServerAnswer} from '../model/server-text.js'
import type {AuditError, ErrorKind} from '../model/types.js'
import {ApiError, DEFAULT_MAX_LISTING_BYTES, DEFAULT_MAX_LISTING_ITEMS, failureReason, tooDeepError, type ApiClient, type ClientOptions, type PagingOptions, type Query, type Schedule} from './types.js'
import {decodeBody} from '../util/charset.js'
import {oneLine} from '../util/escape.js'
import {MAX_SERVER_DEPTH, nestedDeeper} from '../util/json.js'
import {createLimiter} from '../util/limit.js'
import {maskSecrets} from '../util/secret-match.js'

/** The Content-Type of what the client sends: JSON, said to be UTF-8 (JSON.stringify escapes lone surrogates, so it always is). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** The contract's prefix: tried first when none is given. */
export const CONTRACT_API_PREFIX = '/api'
/** Where every current OneDev server answers (onedev-reference.md §1.1): tried when the contract's gives a web page. */
export const CURRENT_API_PREFIX = '/~api'
/** The server refuses larger pages (406, onedev-reference.md §1.3). */
export const MAX_PAGE_SIZE = 100
export const RETRY_AFTER_CAP_MS = 60_000
const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_RETRIES = 3
const DEFAULT_MAX_BODY_BYTES = 50 * 1024 * 1024
const DEFAULT_CONNECTIONS = 8
const DEFAULT_RETRY_BASE_MS = 200
const DEFAULT_RETRY_MAX_MS = 10_000
/** How much of an error answer is read for its detail. */
const ERROR_BODY_BYTES = 64 * 1024
const DETAIL_MAX_CHARS = 300

/** The bodies of OneDev's 404 for a path no resource matches: Jersey's default message (10.0 and later), none before (onedev-access-reference.md §7). */
const NO_RESOURCE_BODIES = new Set(['HTTP 404 Not Found', ''])

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504])
const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
])
const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

type Method = 'GET' | 'POST'

interface Answer {
  status: number
  contentType: string
  body: Buffer
  retryAfter: string | undefined
  /** False when reading stopped at the limit of an error answer (ERROR_BODY_BYTES) before its end. */
  complete: boolean
}

/** An attempt that got no usable answer. */
interface Failure {
  error: AuditError
  retryable: boolean
  /** Short label for debug lines: a code, `timeout`, `too-large`. */
  label: string
}

interface Exchange {
  method: Method
  path: string
  query?: Query
  body?: string
  /** The largest body accepted for a success answer. */
  limit: number
}

/** `~api/` → `/~api`, `` → ``, `//api//` → `/api`. */
export function normalizeApiPrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+/, '').replace(/\/+$/, '')
  return trimmed === '' ? '' : `/${trimmed}`
}

/** Retry-After (delay-seconds or HTTP-date) → ms, capped; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (text === '') return undefined
  let ms: number
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000
  else {
    const at = Date.parse(text)
    if (Number.isNaN(at)) return undefined
    ms = at - now
  }
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, Math.round(ms)))
}

/** Exponential backoff with full jitter: uniform in [0, min(cap, base·2^(retry-1))]. `retry` counts from 1. */
export function backoffDelay(retry: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, retry - 1))
  return Math.round(random() * ceiling)
}

/** Which permission a 403 on this path (without prefix) means the audit lacks. */
export function permissionNeeded(path: string): string {
  if (/^\/roles(\/|$)/.test(path)) return 'administrator rights (GET /roles is admin-only)'
  if (/^\/settings\/issue$/.test(path)) return 'administrator rights (the global issue setting is admin-only)'
  const setting = /^\/projects\/(\d+)\/setting$/.exec(path)
  if (setting) return `the manage-project permission on project ${setting[1]} or one of its ancestors`
  const repository = /^\/repositories\/(\d+)\//.exec(path)
  if (repository) return `the read-code permission on project ${repository[1]}`
  if (/^\/(settings|groups|users|sso-providers|agents|agent-tokens)(\/|$)/.test(path)) return 'administrator rights (this endpoint is admin-only)'
  const authorizations = /^\/projects\/(\d+)\/(base|group|user)-authorizations$/.exec(path)
  if (authorizations) return `the manage-project permission on project ${authorizations[1]} or one of its ancestors`
  if (/^\/issues(\/|$)/.test(path)) return 'administrator rights (notify reads and writes confidential issues in every project)'
  if (/^\/projects(\/|$)/.test(path)) return 'access to that project'
  return 'a permission this endpoint requires'
}

function createDispatcher(options: ClientOptions): Dispatcher {
  const connections = Math.max(1, options.connections ?? DEFAULT_CONNECTIONS)
  const agentOptions = {
    connections,
    keepAliveTimeout: 10_000,
    ...(options.insecure ? {connect: {rejectUnauthorized: false}} : {}),
  }
  const env = process.env
  const proxied = Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy)
  if (!proxied) return new Agent(agentOptions)
  return new EnvHttpProxyAgent({
    ...agentOptions,
    ...(options.insecure ? {requestTls: {rejectUnauthorized: false}} : {}),
  })
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const {code, cause} = error as {code?: unknown; cause?: unknown}
  if (typeof code === 'string') return code
  return cause === undefined ? undefined : errorCode(cause)
}

/** Whether the body's first character other than white space is `<` (an HTML page), as `trimStart` judges white space. */
export function startsWithTag(body: Buffer): boolean {
  // Bodies starting with ASCII are judged by their first byte other than ASCII white space; others
  // (a byte-order mark, non-breaking spaces) by their first 512 bytes decoded.
  for (let index = 0; index < body.length && index < 512; index++) {
    const byte = body[index]!
    if (byte === 0x20 || (byte >= 0x09 && byte <= 0x0d)) continue
    if (byte < 0x80) return byte === 0x3c
    break
  }
  return body.toString('utf8', 0, 512).trimStart().startsWith('<')
}

/** Bytes in MiB as a user gives them (`512`, `0.5`). */
function megabytes(bytes: number): string {
  return String(Math.round((bytes / (1024 * 1024)) * 1000) / 1000)
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

export function createClient(options: ClientOptions): ApiClient {
  let base: URL
  try {
    base = new URL(options.baseUrl)
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
  const origin = base.origin
  const basePath = base.pathname.replace(/\/+$/, '')
  const probing = options.apiPrefix === undefined
  let prefix = normalizeApiPrefix(options.apiPrefix ?? CONTRACT_API_PREFIX)
  // The prefix probe (ClientOptions.apiPrefix): 'idle' until the first request, which probes;
  // requests started meanwhile wait for `probed`. `noApi` is the error of a probe that found neither.
  let probeState: 'idle' | 'running' | 'settled' = probing ? 'idle' : 'settled'
  let probed: Promise<void> = Promise.resolve()
  let noApi: AuditError | undefined
  /**
   * The probe judged /api on an answer that tells (not a connection failure, 429 or 5xx). Without one,
   * the run stays on /api without a second try, and an HTML page later still suggests /~api.
   */
  let probeJudged = false
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const retries = Math.max(0, options.retries ?? DEFAULT_RETRIES)
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const maxListingItems = options.maxListingItems ?? DEFAULT_MAX_LISTING_ITEMS
  const maxListingBytes = options.maxListingBytes ?? DEFAULT_MAX_LISTING_BYTES
  /** Bytes of listing pages read so far, all listings together (maxListingBytes). */
  let listedBytes = 0
  const retryBaseMs = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_MS
  const retryMaxMs = options.retryMaxDelayMs ?? DEFAULT_RETRY_MAX_MS
  const deadlineAt = options.deadlineMs === undefined ? undefined : Date.now() + options.deadlineMs
  const debug = options.debug
  const dispatcher = createDispatcher(options)
  const gate = createLimiter(Math.max(1, options.connections ?? DEFAULT_CONNECTIONS))
  const userIsEmpty = options.user === ''

  const basic = Buffer.from(`${options.user}:${options.secret}`, 'utf8').toString('base64')
  const headers: Record<string, string> = {
    authorization: `Basic ${basic}`,
    accept: 'application/json',
    'user-agent': 'onedev-audit',
  }
  // Every form the secret could take in an echo: as is, URL-encoded, JSON-escaped, in the Basic header.
  const secretForms = [...new Set([options.secret, encodeURIComponent(options.secret), JSON.stringify(options.secret).slice(1, -1), basic])]
    .filter((form) => form.length > 0)
    .sort((a, b) => b.length - a.length)
  // Our own words never hold the secret; the final pass over whole messages skips forms so short
  // that masking them would mangle ordinary words.
  const longSecretForms = secretForms.filter((form) => form.length >= 4)

  let requestCount = 0

  /** Each form masked, also where the server broke it with whitespace (a line break inside an echoed token). */
  function maskForms(text: string, forms: string[]): string {
    return maskSecrets(text, forms, '<redacted>')
  }

  /** Removes any form of the secret from text that reached us from the server. */
  function redact(text: string): string {
    return maskForms(text, secretForms)
  }

  /** redact, and a start of a form of the secret (4 characters or more) where the text ends: where reading an answer stopped. */
  function redactCut(text: string): string {
    const masked = redact(text)
    for (const form of longSecretForms) {
      for (let length = Math.min(form.length - 1, masked.length); length >= 4; length--) {
        if (masked.endsWith(form.slice(0, length))) return `${masked.slice(0, -length)}<redacted>`
      }
    }
    return masked
  }

  function fail(error: AuditError, noResource = false): ApiError {
    return new ApiError({...error, message: maskForms(error.message, longSecretForms)}, noResource)
  }

  /** A failed answer: its error, marked when it is what OneDev gives a path no resource matches (ApiError.noResource). */
  function failedAnswer(method: Method, path: string, answer: Answer, apiPath: string, mask: readonly string[] = []): ApiError {
    const noResource = answer.status === 405 || (answer.status === 404 && !isHtml(answer, true) && NO_RESOURCE_BODIES.has(answer.body.toString('utf8').trim()))
    return fail(statusError(method, path, answer, apiPath, mask), noResource)
  }

  function fullPathOf(path: string, under = prefix): string {
    return under + (path.startsWith('/') ? path : `/${path}`)
  }

  function queryString(query: Query | undefined): string {
    if (!query) return ''
    const params = new URLSearchParams()
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value))
    const text = params.toString()
    return text === '' ? '' : `?${text}`
  }

  /**
   * The server's words, judged whole (bytes, charset and all) before they are cut and put on one line:
   * withheld, with a note, when they may quote a secret of `mask` or the audit's own secret, or when
   * they cannot be judged (src/model/server-text.ts).
   */
  function detailOf(method: Method, path: string, answer: Answer, mask: readonly string[]): string {
    if (isHtml(answer, true)) return ' (an HTML page)'
    const judged = judgeServerAnswer(answer, [options.secret, basic, ...mask])
    if ('withheld' in judged) {
      if (judged.text !== null) options.unsafeServerText?.(`${method} ${path} ${answer.status}: ${answer.complete ? redact(judged.text) : redactCut(judged.text)}`)
      return `: ${judged.withheld}`
    }
    const text = oneLine(redact(judged.shown), DETAIL_MAX_CHARS)
    return text === '' ? '' : `: ${text}`
  }

  function isHtml(answer: Answer, sniff: boolean): boolean {
    if (/\btext\/html\b/i.test(answer.contentType) || /\bapplication\/xhtml/i.test(answer.contentType)) return true
    return sniff && startsWithTag(answer.body)
  }

  function statusLine(status: number): string {
    const reason = STATUS_CODES[status]
    return reason ? `${status} ${reason}` : String(status)
  }

  function htmlError(method: Method, path: string, answer: Answer): AuditError {
    // After a probe judged /api to be the API, this page is something else (a login page, a proxy).
    // A given prefix that is neither of OneDev's is probably the mistake: say where OneDev answers.
    const hint =
      prefix === CONTRACT_API_PREFIX && !(probing && probeJudged)
        ? 'this is what a wrong API prefix gives: current OneDev servers need --api-prefix /~api'
        : !probing && prefix !== CURRENT_API_PREFIX
          ? `nothing answers like the API under the given prefix "${oneLine(prefix, 100)}": current OneDev servers answer under ${CURRENT_API_PREFIX} and the contract under ${CONTRACT_API_PREFIX}; leave out --api-prefix and ONEDEV_API_PREFIX and the audit finds it`
          : 'check the server URL and --api-prefix (a login page or a proxy may be answering instead of the API)'
    return {
      kind: 'not-json',
      message: `${method} ${path}: the server answered an HTML page (status ${answer.status}), not JSON; ${hint}`,
      path,
      status: answer.status,
    }
  }

  /** A non-success answer → the error a user can act on. */
  function statusError(method: Method, path: string, answer: Answer, apiPath: string, mask: readonly string[] = []): AuditError {
    const {status} = answer
    const at = `${method} ${path}: ${statusLine(status)}`
    let kind: ErrorKind
    let message: string
    if (status === 401) {
      kind = 'auth'
      message =
        `${at}: the server refused the credentials or found none${detailOf(method, path, answer, mask)}; check ONEDEV_USER and ONEDEV_TOKEN` +
        (userIsEmpty ? ' (with an empty ONEDEV_USER, a token the server does not know is treated as anonymous)' : '')
    } else if (status === 403) {
      kind = 'forbidden'
      message =
        `${at}${detailOf(method, path, answer, mask)}; the audit needs ${permissionNeeded(apiPath)}; use a token with owner permissions of a user who has it` +
        (userIsEmpty ? ' (with an empty ONEDEV_USER, a token the server does not know is treated as anonymous)' : '')
    } else if (status < 500 && status !== 429 && isHtml(answer, true)) {
      return htmlError(method, path, answer)
    } else {
      kind = status === 404 ? 'not-found' : 'http'
      message = `${at}${detailOf(method, path, answer, mask)}`
    }
    return {kind, message, path, status}
  }

  function failureOf(method: Method, path: string, error: unknown, timer: {fired: boolean; byDeadline: boolean; budget: number}): Failure {
    const at = `${method} ${path}`
    if (timer.fired) {
      const message = timer.byDeadline
        ? `${at}: the overall deadline of ${options.deadlineMs} ms was reached during the request`
        : `${at}: no complete answer within ${timer.budget} ms`
      return {error: {kind: 'timeout', message, path}, retryable: !timer.byDeadline, label: 'timeout'}
    }
    const code = errorCode(error)
    if (code !== undefined && TLS_CODES.has(code)) {
      return {
        error: {
          kind: 'network',
          message: `${at}: TLS verification failed (${code}); add your CA with NODE_EXTRA_CA_CERTS, or use --insecure at your own risk`,
          path,
        },
        retryable: false,
        label: code,
      }
    }
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return {error: {kind: 'timeout', message: `${at}: timed out (${code})`, path}, retryable: true, label: code}
    }
    if (code === 'ENOTFOUND') {
      return {error: {kind: 'network', message: `${at}: could not resolve the server's host name (ENOTFOUND)`, path}, retryable: false, label: code}
    }
    if (code !== undefined && RETRYABLE_CODES.has(code)) {
      const what = code === 'UND_ERR_SOCKET' ? 'the connection closed before the answer was complete' : 'connection failed'
      return {error: {kind: 'network', message: `${at}: ${what} (${code})`, path}, retryable: true, label: code}
    }
    const detail = error instanceof Error ? oneLine(redact(error.message), 200) : ''
    return {
      error: {kind: 'network', message: `${at}: request failed (${code ?? (error instanceof Error ? error.name : 'error')})${detail ? `: ${detail}` : ''}`, path},
      retryable: false,
      label: code ?? 'error',
    }
  }

  function remaining(): number {
    return deadlineAt === undefined ? Number.POSITIVE_INFINITY : deadlineAt - Date.now()
  }

  function interrupted(method: Method, path: string): Failure {
    return {error: {kind: 'interrupted', message: `${method} ${path}: interrupted`, path}, retryable: false, label: 'interrupted'}
  }

  // Requests in flight, each aborted at once when the run is interrupted (one listener for all).
  const inFlight = new Set<Receiver>()
  options.signal?.addEventListener(
    'abort',
    () => {
      for (const receiver of inFlight) receiver.cancel()
    },
    {once: true},
  )

  function attempt(request: Exchange, path: string, display: string): Promise<{answer: Answer} | {failure: Failure}> {
    return gate(() => {
      if (options.signal?.aborted) return Promise.resolve({failure: interrupted(request.method, path)})
      const budget = Math.min(timeoutMs, remaining())
      if (budget <= 0) {
        return Promise.resolve({
          failure: {
            error: {kind: 'timeout', message: `${request.method} ${path}: the overall deadline of ${options.deadlineMs} ms was reached`, path},
            retryable: false,
            label: 'deadline',
          },
        })
      }
      requestCount++
      return new Promise((resolve) => {
        const receiver = new Receiver(request, path, display, budget, budget < timeoutMs, resolve)
        inFlight.add(receiver)
        try {
          dispatcher.dispatch(
            {
              origin,
              path: basePath + display,
              method: request.method,
              headers: request.body === undefined ? headers : {...headers, 'content-type': JSON_CONTENT_TYPE},
              body: request.body,
            },
            receiver,
          )
        } catch (error) {
          receiver.onResponseError(undefined, error as Error)
        }
      })
    })
  }

  /**
   * One attempt's answer, read straight from undici's dispatcher (no stream, no AbortSignal): the
   * body is gathered up to its limit, and the attempt is cut off when its budget (the timeout, or
   * what is left of the overall deadline) runs out, headers and body together, or on interruption.
   */
  class Receiver implements Dispatcher.DispatchHandler {
    private controller: Dispatcher.DispatchController | undefined
    private readonly timer: ReturnType<typeof setTimeout>
    private readonly started = Date.now()
    private settled = false
    private status = 0
    private contentType = ''
    private retryAfter: string | undefined
    private limit = 0
    private chunks: Buffer[] = []
    private size = 0

    constructor(
      private readonly request: Exchange,
      private readonly path: string,
      private readonly display: string,
      private readonly budget: number,
      private readonly byDeadline: boolean,
      private readonly resolve: (outcome: {answer: Answer} | {failure: Failure}) => void,
    ) {
      this.timer = setTimeout(() => this.stop(this.timedOut()), budget)
    }

    onRequestStart(controller: Dispatcher.DispatchController): void {
      this.controller = controller
      // Settled before undici started it (timed out or interrupted while connecting): abort it now.
      if (this.settled) controller.abort(new Error('abandoned'))
    }

    onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, responseHeaders: Record<string, string | string[] | undefined>): void {
      // 1xx interim answers are not the answer.
      if (this.settled || statusCode < 200) return
      this.status = statusCode
      this.contentType = headerValue(responseHeaders['content-type']) ?? ''
      this.retryAfter = headerValue(responseHeaders['retry-after'])
      const success = statusCode === 200 || statusCode === 204
      this.limit = success ? this.request.limit : ERROR_BODY_BYTES
      const declared = Number(headerValue(responseHeaders['content-length']))
      if (success && Number.isFinite(declared) && declared > this.limit) this.stop(tooLarge(this.request.method, this.path, statusCode), `${statusCode} too-large`)
    }

    onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
      if (this.settled) return
      if (this.size + chunk.length > this.limit) {
        if (this.status === 200 || this.status === 204) {
          this.stop(tooLarge(this.request.method, this.path, this.status), String(this.status))
          return
        }
        this.chunks.push(chunk.subarray(0, this.limit - this.size))
        this.size = this.limit
        this.finish(false)
        this.controller?.abort(new Error('enough'))
        return
      }
      this.size += chunk.length
      this.chunks.push(chunk)
    }

    onResponseEnd(): void {
      if (!this.settled) this.finish(true)
    }

    onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
      if (this.settled) return
      const failure = options.signal?.aborted ? interrupted(this.request.method, this.path) : failureOf(this.request.method, this.path, error, {fired: false, byDeadline: this.byDeadline, budget: this.budget})
      this.settle({failure}, failure.label)
    }

    /** The run was interrupted: the request is cancelled. */
    cancel(): void {
      this.stop(interrupted(this.request.method, this.path))
    }

    private timedOut(): Failure {
      return failureOf(this.request.method, this.path, undefined, {fired: true, byDeadline: this.byDeadline, budget: this.budget})
    }

    /** Ends the attempt with a failure and closes its connection (the abort's own error is expected). */
    private stop(failure: Failure, label = failure.label): void {
      if (this.settled) return
      this.settle({failure}, label)
      this.controller?.abort(new Error('abandoned'))
    }

    private finish(complete: boolean): void {
      const chunks = this.chunks
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size)
      this.chunks = []
      this.settle({answer: {status: this.status, contentType: this.contentType, body, retryAfter: this.retryAfter, complete}}, String(this.status))
    }

    private settle(outcome: {answer: Answer} | {failure: Failure}, label: string): void {
      this.settled = true
      clearTimeout(this.timer)
      inFlight.delete(this)
      debug?.(`${this.request.method} ${this.display} ${label} ${Date.now() - this.started}ms`)
      this.resolve(outcome)
    }
  }

  function tooLarge(method: Method, path: string, status: number): Failure {
    return {
      error: {kind: 'too-large', message: `${method} ${path}: the answer is larger than the limit of ${maxBodyBytes} bytes`, path, status},
      retryable: false,
      label: 'too-large',
    }
  }

  async function pause(retry: number, delay: number, label: string, last: () => AuditError): Promise<void> {
    if (delay >= remaining()) {
      const error = last()
      throw fail({
        ...error,
        kind: 'timeout',
        message: `${error.message} (no retry: the overall deadline of ${options.deadlineMs} ms would pass)`,
      })
    }
    debug?.(`retry ${retry}/${retries} after ${delay}ms: ${label}`)
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(handle)
        resolve()
      }
      const handle = setTimeout(() => {
        options.signal?.removeEventListener('abort', wake)
        resolve()
      }, delay)
      options.signal?.addEventListener('abort', wake, {once: true})
    })
  }

  /**
   * A web page where the API should answer: an HTML page, or a redirect (as to a login page); the API
   * never answers either. Answers that mean the same under any prefix (401 and 403 are about the
   * credentials; 429 and 5xx about the server's state) are not judged.
   */
  function webPage(answer: Answer): string | undefined {
    if (answer.status >= 500 || [204, 401, 403, 429].includes(answer.status)) return undefined
    if (isHtml(answer, !/\bjson\b/i.test(answer.contentType))) return 'an HTML page'
    return answer.status >= 300 && answer.status < 400 ? 'a redirect' : undefined
  }

  /**
   * Every request goes through here. Without a given prefix, the first one probes it (see
   * ClientOptions.apiPrefix) and the others wait for the outcome: one probe, however many start at once.
   */
  function exchange(request: Exchange): Promise<{answer: Answer; path: string}> {
    return probeState === 'settled' && noApi === undefined ? send(request, prefix) : exchangeWhileProbing(request)
  }

  async function exchangeWhileProbing(request: Exchange): Promise<{answer: Answer; path: string}> {
    if (probeState === 'idle') {
      probeState = 'running'
      let settle = () => {}
      probed = new Promise<void>((resolve) => (settle = resolve))
      try {
        return await probe(request)
      } finally {
        probeState = 'settled'
        settle()
      }
    }
    if (probeState === 'running') await probed
    // Not sent: the probe found no API. The error is the probe's, with this request's path.
    if (noApi) throw fail({...noApi, path: fullPathOf(request.path)})
    return send(request, prefix)
  }

  /** Sends under the contract's prefix; on a web page, once more under the current servers' one. */
  async function probe(request: Exchange): Promise<{answer: Answer; path: string}> {
    const tried = prefix
    const first = await send(request, tried)
    probeJudged = first.answer.status < 500 && first.answer.status !== 429
    const firstPage = webPage(first.answer)
    if (firstPage === undefined) return first
    const firstTry = `${request.method} ${first.path} answered ${firstPage} (status ${first.answer.status})`
    const alternative = CURRENT_API_PREFIX
    const at = fullPathOf(request.path, alternative)
    let second: {answer: Answer; path: string}
    try {
      second = await send(request, alternative)
    } catch (error) {
      if (error instanceof ApiError && error.error.kind === 'interrupted') throw error
      const reason = error instanceof ApiError ? failureReason(error.error) : 'request failed'
      throw fail((noApi = neitherError(first, `${firstTry}, and ${request.method} ${at} failed: ${reason}`)))
    }
    const secondPage = webPage(second.answer)
    if (secondPage !== undefined) {
      throw fail((noApi = neitherError(first, `${firstTry}, and ${request.method} ${at} answered ${secondPage} (status ${second.answer.status})`)))
    }
    prefix = alternative
    options.onPrefixFound?.({tried, answered: firstPage, using: alternative})
    return second
  }

  function neitherError(first: {answer: Answer; path: string}, tries: string): AuditError {
    return {
      kind: 'not-json',
      message: `${tries}: neither is OneDev's REST interface; check --url (the server's base URL, e.g. https://onedev.example.com), or give the prefix with --api-prefix`,
      path: first.path,
      status: first.answer.status,
    }
  }

  async function send(request: Exchange, under: string): Promise<{answer: Answer; path: string}> {
    const path = fullPathOf(request.path, under)
    const display = path + queryString(request.query)
    for (let retry = 0; ; retry++) {
      const outcome = await attempt(request, path, display)
      if ('answer' in outcome) {
        const {answer} = outcome
        if (request.method === 'GET' && RETRYABLE_STATUSES.has(answer.status) && retry < retries) {
          const delay = parseRetryAfter(answer.retryAfter) ?? backoffDelay(retry + 1, retryBaseMs, retryMaxMs)
          await pause(retry + 1, delay, String(answer.status), () => statusError(request.method, path, answer, request.path))
          continue
        }
        return {answer, path}
      }
      const {failure} = outcome
      // A POST is retried only when the connection was refused, i.e. nothing reached the server.
      const mayRetry = request.method === 'GET' || failure.label === 'ECONNREFUSED'
      if (failure.retryable && mayRetry && retry < retries) {
        await pause(retry + 1, backoffDelay(retry + 1, retryBaseMs, retryMaxMs), failure.label, () => failure.error)
        continue
      }
      throw fail(failure.error)
    }
  }

  async function getJson(path: string, query?: Query, schedule?: Schedule): Promise<unknown> {
    return (await getJsonSized(path, query, schedule)).value
  }

  /**
   * getJson, with the size of the body it parsed. The slot `schedule` gives is held until the answer
   * is read and its status judged, not while it is decoded and parsed.
   */
  async function getJsonSized(path: string, query?: Query, schedule: Schedule = (request) => request()): Promise<{value: unknown; bytes: number}> {
    const {answer, path: at} = await schedule(async () => {
      const exchanged = await exchange({method: 'GET', path, query, limit: maxBodyBytes})
      if (exchanged.answer.status !== 200) throw failedAnswer('GET', exchanged.path, exchanged.answer, path)
      if (isHtml(exchanged.answer, true)) throw fail(htmlError('GET', exchanged.path, exchanged.answer))
      return exchanged
    })
    const text = textOf('GET', at, answer)
    let value: unknown
    try {
      // An empty or blank body is no JSON either: JSON.parse refuses it.
      value = JSON.parse(text)
    } catch {
      throw fail({
        kind: 'not-json',
        message: `GET ${at}: status 200 but the body is not valid JSON (truncated, or not an API answer)`,
        path: at,
        status: 200,
      })
    }
    if (nestedDeeper(value, MAX_SERVER_DEPTH)) throw fail(tooDeepError('GET', at, 200, MAX_SERVER_DEPTH))
    return {value, bytes: answer.body.length}
  }

  async function getText(path: string, query?: Query, mask?: readonly string[]): Promise<string | null> {
    const {answer, path: at} = await exchange({method: 'GET', path, query, limit: maxBodyBytes})
    if (answer.status === 204) return null
    if (answer.status !== 200) throw failedAnswer('GET', at, answer, path, mask)
    if (isHtml(answer, false)) throw fail(htmlError('GET', at, answer))
    return textOf('GET', at, answer)
  }

  /** A success answer's text in the charset it names (src/api/charset.ts); an unknown charset or bytes it does not allow refuse the answer. */
  function textOf(method: Method, at: string, answer: Answer): string {
    const decoded = decodeBody(answer.body, answer.contentType)
    if ('text' in decoded) return decoded.text
    throw fail({kind: 'invalid-payload', message: `${method} ${at}: ${decoded.problem}; nothing of the answer is used`, path: at, status: answer.status})
  }

  /** POSTs `body` as it is (JSON text, or a raw string a resource takes whole) and returns the answer's text. */
  async function postText(path: string, body: string, mask?: readonly string[]): Promise<string> {
    const {answer, path: at} = await exchange({method: 'POST', path, body, limit: maxBodyBytes})
    if (answer.status !== 200 && answer.status !== 204) throw failedAnswer('POST', at, answer, path, mask)
    // A web page answering 200 (a wrong prefix reaching the web UI) did not take the body.
    if (answer.status === 200 && isHtml(answer, false)) throw fail(htmlError('POST', at, answer))
    return answer.body.length === 0 ? '' : textOf('POST', at, answer)
  }

  async function postJson(path: string, body: unknown, mask?: readonly string[]): Promise<void> {
    await postText(path, JSON.stringify(body), mask)
  }

  async function paged(path: string, query?: Query, pagingOptions?: PagingOptions): Promise<unknown[]> {
    const schedule = pagingOptions?.schedule
    const pageSize = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(pagingOptions?.pageSize ?? MAX_PAGE_SIZE)))
    const maxPages = pagingOptions?.maxPages ?? 10_000
    // Read when needed: the first page may settle the prefix (the probe).
    const at = () => fullPathOf(path)
    const items: unknown[] = []
    let previous: unknown[] = []
    let previousFirst: string | undefined
    let previousLength = 0
    for (let page = 0; ; page++) {
      if (page >= maxPages) {
        throw fail({
          kind: 'paging',
          message: `GET ${at()}: still full pages after ${maxPages} pages of ${pageSize}; stopped paging`,
          path: at(),
        })
      }
      const {value: data, bytes} = await getJsonSized(path, {...query, offset: page * pageSize, count: pageSize}, schedule)
      listedBytes += bytes
      if (listedBytes > maxListingBytes) {
        throw fail({
          kind: 'paging',
          message: `GET ${at()}: stopped paging at offset ${page * pageSize}: the listings of this run passed ${megabytes(maxListingBytes)} MiB (--max-listing-mb), which bounds the memory they take; a server paging without end, or raise the limit`,
          path: at(),
          status: 200,
        })
      }
      if (!Array.isArray(data)) {
        throw fail({kind: 'invalid-payload', message: `GET ${at()}: expected a JSON array, got ${typeof data === 'object' ? (data === null ? 'null' : 'an object') : typeof data}`, path: at(), status: 200})
      }
      if (data.length > pageSize) {
        throw fail({
          kind: 'paging',
          message: `GET ${at()}: the server returned ${data.length} items for count=${pageSize}; it does not page as expected`,
          path: at(),
          status: 200,
        })
      }
      // A repeat is only possible when the first items agree: compare whole pages only then.
      const first = data.length > 0 ? JSON.stringify(data[0]) : undefined
      if (first !== undefined && first === previousFirst && data.length === previousLength) {
        if (JSON.stringify(data) === JSON.stringify(previous)) {
          throw fail({
            kind: 'paging',
            message: `GET ${at()}: the page at offset ${page * pageSize} repeats the previous page (the server ignores offset); stopped paging`,
            path: at(),
            status: 200,
          })
        }
      }
      previous = data
      previousFirst = first
      previousLength = data.length
      if (items.length + data.length > maxListingItems) {
        throw fail({
          kind: 'paging',
          message: `GET ${at()}: stopped paging at offset ${page * pageSize}: the listing passed ${maxListingItems.toLocaleString('en-US')} items (--max-listing-items); a server paging without end, or raise the limit`,
          path: at(),
          status: 200,
        })
      }
      await pagingOptions?.onPage?.(data)
      for (const item of data) items.push(item)
      if (data.length < pageSize) return items
    }
  }

  return {
    getJson,
    getText,
    postJson,
    postText,
    paged,
    get apiPrefix() {
      return prefix
    },
    get requestCount() {
      return requestCount
    },
    close: () => dispatcher.close(),
  }
}
