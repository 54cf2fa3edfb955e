/**
 * The audit's own secret (password or access token) in the HTTP client: the Basic credentials it
 * sends, and every form it could take in an echo of the server (as is, URL-encoded, JSON-escaped, in
 * the Basic header), masked as `<redacted>` in whatever reaches a message or a debug line.
 */
import {Buffer} from 'node:buffer'
import {judgeServerAnswer, type ServerAnswer, type ServerText} from '../model/server-text.js'
import type {AuditError} from '../model/types.js'
import {maskSecrets} from '../util/secret-match.js'
import {ApiError} from './types.js'

/** Each form masked, also where the server broke it with whitespace (a line break inside an echoed token). */
function maskForms(text: string, forms: readonly string[]): string {
  return maskSecrets(text, forms, '<redacted>')
}

export class SecretMask {
  readonly #secret: string
  readonly #basic: string
  /** Every form of the secret, longest first. */
  readonly #forms: string[]
  /**
   * Our own words never hold the secret; the final pass over whole messages skips forms so short
   * that masking them would mangle ordinary words.
   */
  readonly #longForms: string[]

  constructor(user: string, secret: string) {
    this.#secret = secret
    this.#basic = Buffer.from(`${user}:${secret}`, 'utf8').toString('base64')
    this.#forms = [...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), this.#basic])]
      .filter((form) => form.length > 0)
      .sort((a, b) => b.length - a.length)
    this.#longForms = this.#forms.filter((form) => form.length >= 4)
  }

  /** The Authorization header's value. */
  get authorization(): string {
    return `Basic ${this.#basic}`
  }

  /** A text of the server judged whole (src/model/server-text.ts): withheld when it may quote the secret, the Basic credentials or a value of `mask`. */
  judge(answer: ServerAnswer, mask: readonly string[]): ServerText {
    return judgeServerAnswer(answer, [this.#secret, this.#basic, ...mask])
  }

  /** Removes any form of the secret from text that reached us from the server. */
  redact(text: string): string {
    return maskForms(text, this.#forms)
  }

  /** redact, and a start of a form of the secret (4 characters or more) where the text ends: where reading an answer stopped. */
  redactCut(text: string): string {
    const masked = this.redact(text)
    for (const form of this.#longForms) {
      for (let length = Math.min(form.length - 1, masked.length); length >= 4; length--) {
        if (masked.endsWith(form.slice(0, length))) return `${masked.slice(0, -length)}<redacted>`
      }
    }
    return masked
  }

  /** The ApiError of a failure, its message masked once more whole (ApiError.noResource: see there). */
  fail(error: AuditError, noResource = false): ApiError {
    return new ApiError({...error, message: maskForms(error.message, this.#longForms)}, noResource)
  }
}
