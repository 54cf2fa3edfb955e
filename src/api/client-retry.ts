/**
 * Retries of the HTTP client: a GET is tried again after a connection failure, a timeout, 429, 502,
 * 503 or 504 (`retries` times, default 3), after the server's Retry-After (capped at 60 s) or an
 * exponential backoff with full jitter; a POST only when the connection was refused (nothing reached
 * the server). No retry waits past the overall deadline; an interruption ends the wait at once.
 */
import type {AuditError} from '../model/types.js'
import type {Answer, AnswerErrors} from './client-answer.js'
import {type Attempts, type Exchange, queryString} from './client-attempt.js'
import type {SecretMask} from './client-secret.js'
import type {ClientOptions} from './types.js'

export const RETRY_AFTER_CAP_MS = 60_000
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504])

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

/** An answer, and the path (prefix and path, no query) it answered. */
export interface Sent {
  answer: Answer
  path: string
}

export interface RetrySettings {
  retries: number
  retryBaseMs: number
  retryMaxMs: number
}

/** Sends requests, retrying what may succeed on another try. */
export class Sender {
  constructor(
    private readonly attempts: Attempts,
    private readonly errors: AnswerErrors,
    private readonly mask: SecretMask,
    private readonly options: Pick<ClientOptions, 'signal' | 'deadlineMs'>,
    private readonly settings: RetrySettings,
  ) {}

  /** `request` at `path` (its prefix and path): its answer, whatever the status, once no retry is due; an ApiError when none came. */
  async send(request: Exchange, path: string): Promise<Sent> {
    const {retries, retryBaseMs, retryMaxMs} = this.settings
    const display = path + queryString(request.query)
    for (let retry = 0; ; retry++) {
      const outcome = await this.attempts.attempt(request, path, display)
      if ('answer' in outcome) {
        const {answer} = outcome
        if (request.method === 'GET' && RETRYABLE_STATUSES.has(answer.status) && retry < retries) {
          const delay = parseRetryAfter(answer.retryAfter) ?? backoffDelay(retry + 1, retryBaseMs, retryMaxMs)
          await this.pause(retry + 1, delay, String(answer.status), () => this.errors.statusError(request.method, path, answer, request.path))
          continue
        }
        return {answer, path}
      }
      const {failure} = outcome
      // A POST is retried only when the connection was refused, i.e. nothing reached the server.
      const mayRetry = request.method === 'GET' || failure.label === 'ECONNREFUSED'
      if (failure.retryable && mayRetry && retry < retries) {
        await this.pause(retry + 1, backoffDelay(retry + 1, retryBaseMs, retryMaxMs), failure.label, () => failure.error)
        continue
      }
      throw this.mask.fail(failure.error)
    }
  }

  /** Waits `delay` ms before retry number `retry`; fails with the `last` error, as a timeout, when the overall deadline would pass first. */
  private async pause(retry: number, delay: number, label: string, last: () => AuditError): Promise<void> {
    if (delay >= this.attempts.remaining()) {
      const error = last()
      throw this.mask.fail({
        ...error,
        kind: 'timeout',
        message: `${error.message} (no retry: the overall deadline of ${this.options.deadlineMs} ms would pass)`,
      })
    }
    this.attempts.debug?.(`retry ${retry}/${this.settings.retries} after ${delay}ms: ${label}`)
    const signal = this.options.signal
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(handle)
        resolve()
      }
      const handle = setTimeout(() => {
        signal?.removeEventListener('abort', wake)
        resolve()
      }, delay)
      signal?.addEventListener('abort', wake, {once: true})
    })
  }
}
