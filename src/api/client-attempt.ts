/**
 * One attempt of a request (undici 7): one keep-alive dispatcher per client (an `Agent`, or an
 * `EnvHttpProxyAgent` when HTTP(S)_PROXY is set, which honours NO_PROXY), at most `connections`
 * attempts at once, each cut off by its timeout, the overall deadline or an interruption. TLS
 * verification stays on unless `insecure`; extra CAs come from NODE_EXTRA_CA_CERTS, which Node
 * applies because no `ca` is ever passed here. What does not end in an answer becomes a Failure
 * (its error, and whether a retry may help); retries are client-retry.ts's.
 */
import {Buffer} from 'node:buffer'
import {Agent, EnvHttpProxyAgent, type Dispatcher} from 'undici'
import type {AuditError} from '../model/types.js'
import {oneLine} from '../util/escape.js'
import {createLimiter, type Limiter} from '../util/limit.js'
import type {Answer, Method} from './client-answer.js'
import type {SecretMask} from './client-secret.js'
import type {ClientOptions, Query} from './types.js'

/** The Content-Type of what the client sends: JSON, said to be UTF-8 (JSON.stringify escapes lone surrogates, so it always is). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'
export const DEFAULT_CONNECTIONS = 8
/** How much of an error answer is read for its detail. */
const ERROR_BODY_BYTES = 64 * 1024

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

/** A request to send: the path under the prefix (without it), and what a success answer may weigh. */
export interface Exchange {
  method: Method
  path: string
  query?: Query
  body?: string
  /** The largest body accepted for a success answer. */
  limit: number
}

/** An attempt that got no usable answer. */
export interface Failure {
  error: AuditError
  retryable: boolean
  /** Short label for debug lines: a code, `timeout`, `too-large`. */
  label: string
}

export type Outcome = {answer: Answer} | {failure: Failure}

/** Where the server is: its origin, and the path of its base URL (without a trailing `/`), which every request path follows. */
export interface ServerBase {
  origin: string
  basePath: string
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

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** The query part of a request's target: `?name=value&...` of the values given, or nothing. */
export function queryString(query: Query | undefined): string {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value))
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

function interrupted(method: Method, path: string): Failure {
  return {error: {kind: 'interrupted', message: `${method} ${path}: interrupted`, path}, retryable: false, label: 'interrupted'}
}

/** The attempts of one client: the dispatcher, the gate of its connections, what is in flight, the overall deadline. */
export class Attempts {
  /** Attempts sent so far. */
  count = 0
  /** The largest body accepted for a success answer. */
  readonly maxBodyBytes: number
  /** Receives one line per attempt: method, path, status, time. Never headers or bodies. */
  readonly debug: ((line: string) => void) | undefined
  readonly #dispatcher: Dispatcher
  readonly #gate: Limiter
  readonly #headers: Record<string, string>
  readonly #timeoutMs: number
  readonly #deadlineAt: number | undefined
  /** Attempts in flight, each aborted at once when the run is interrupted (one listener for all). */
  readonly #inFlight = new Set<Receiver>()

  constructor(
    readonly options: ClientOptions,
    private readonly server: ServerBase,
    private readonly mask: SecretMask,
    settings: {timeoutMs: number; maxBodyBytes: number},
  ) {
    this.#timeoutMs = settings.timeoutMs
    this.maxBodyBytes = settings.maxBodyBytes
    this.debug = options.debug
    this.#deadlineAt = options.deadlineMs === undefined ? undefined : Date.now() + options.deadlineMs
    this.#dispatcher = createDispatcher(options)
    this.#gate = createLimiter(Math.max(1, options.connections ?? DEFAULT_CONNECTIONS))
    this.#headers = {
      authorization: mask.authorization,
      accept: 'application/json',
      'user-agent': 'onedev-audit',
    }
    options.signal?.addEventListener(
      'abort',
      () => {
        for (const receiver of this.#inFlight) receiver.cancel()
      },
      {once: true},
    )
  }

  /** Milliseconds left before the overall deadline (infinite without one). */
  remaining(): number {
    return this.#deadlineAt === undefined ? Number.POSITIVE_INFINITY : this.#deadlineAt - Date.now()
  }

  /** One attempt at `path` (the prefix and the path; `display` adds the query), once a connection of the pool is free. */
  attempt(request: Exchange, path: string, display: string): Promise<Outcome> {
    return this.#gate(() => {
      if (this.options.signal?.aborted) return Promise.resolve({failure: interrupted(request.method, path)})
      const budget = Math.min(this.#timeoutMs, this.remaining())
      if (budget <= 0) {
        return Promise.resolve({
          failure: {
            error: {kind: 'timeout', message: `${request.method} ${path}: the overall deadline of ${this.options.deadlineMs} ms was reached`, path},
            retryable: false,
            label: 'deadline',
          },
        })
      }
      this.count++
      return new Promise((resolve) => {
        const receiver = new Receiver(this, request, path, display, budget, budget < this.#timeoutMs, resolve)
        this.#inFlight.add(receiver)
        try {
          this.#dispatcher.dispatch(
            {
              origin: this.server.origin,
              path: this.server.basePath + display,
              method: request.method,
              headers: request.body === undefined ? this.#headers : {...this.#headers, 'content-type': JSON_CONTENT_TYPE},
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

  close(): Promise<void> {
    return this.#dispatcher.close()
  }

  /** A receiver settled: no longer in flight. */
  settled(receiver: Receiver): void {
    this.#inFlight.delete(receiver)
  }

  tooLarge(method: Method, path: string, status: number): Failure {
    return {
      error: {kind: 'too-large', message: `${method} ${path}: the answer is larger than the limit of ${this.maxBodyBytes} bytes`, path, status},
      retryable: false,
      label: 'too-large',
    }
  }

  /** An attempt that ended without an answer: timed out (`timer.fired`), or the error undici gave. */
  failureOf(method: Method, path: string, error: unknown, timer: {fired: boolean; byDeadline: boolean; budget: number}): Failure {
    const at = `${method} ${path}`
    if (timer.fired) {
      const message = timer.byDeadline
        ? `${at}: the overall deadline of ${this.options.deadlineMs} ms was reached during the request`
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
    const detail = error instanceof Error ? oneLine(this.mask.redact(error.message), 200) : ''
    return {
      error: {kind: 'network', message: `${at}: request failed (${code ?? (error instanceof Error ? error.name : 'error')})${detail ? `: ${detail}` : ''}`, path},
      retryable: false,
      label: code ?? 'error',
    }
  }
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
    private readonly attempts: Attempts,
    private readonly request: Exchange,
    private readonly path: string,
    private readonly display: string,
    private readonly budget: number,
    private readonly byDeadline: boolean,
    private readonly resolve: (outcome: Outcome) => void,
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
    if (success && Number.isFinite(declared) && declared > this.limit) this.stop(this.attempts.tooLarge(this.request.method, this.path, statusCode), `${statusCode} too-large`)
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return
    if (this.size + chunk.length > this.limit) {
      if (this.status === 200 || this.status === 204) {
        this.stop(this.attempts.tooLarge(this.request.method, this.path, this.status), String(this.status))
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
    const failure = this.attempts.options.signal?.aborted
      ? interrupted(this.request.method, this.path)
      : this.attempts.failureOf(this.request.method, this.path, error, {fired: false, byDeadline: this.byDeadline, budget: this.budget})
    this.settle({failure}, failure.label)
  }

  /** The run was interrupted: the request is cancelled. */
  cancel(): void {
    this.stop(interrupted(this.request.method, this.path))
  }

  private timedOut(): Failure {
    return this.attempts.failureOf(this.request.method, this.path, undefined, {fired: true, byDeadline: this.byDeadline, budget: this.budget})
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

  private settle(outcome: Outcome, label: string): void {
    this.settled = true
    clearTimeout(this.timer)
    this.attempts.settled(this)
    this.attempts.debug?.(`${this.request.method} ${this.display} ${label} ${Date.now() - this.started}ms`)
    this.resolve(outcome)
  }
}
