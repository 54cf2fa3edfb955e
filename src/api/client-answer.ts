/**
 * What an answer of the server means to the HTTP client: a success's text, or the error a user can
 * act on. Messages are one line, built from our own words plus the server's text/plain detail,
 * judged whole first (withheld when it may quote a secret or cannot be judged:
 * src/model/server-text.ts), trimmed, control characters escaped.
 */
import {Buffer} from 'node:buffer'
import {STATUS_CODES} from 'node:http'
import type {AuditError, ErrorKind} from '../model/types.js'
import {decodeBody} from '../util/charset.js'
import {oneLine} from '../util/escape.js'
import type {SecretMask} from './client-secret.js'
import type {ApiError, ClientOptions} from './types.js'

export type Method = 'GET' | 'POST'

/** An answer read whole (or up to the limit of an error answer). */
export interface Answer {
  status: number
  contentType: string
  body: Buffer
  retryAfter: string | undefined
  /** False when reading stopped at the limit of an error answer (ERROR_BODY_BYTES) before its end. */
  complete: boolean
}

const DETAIL_MAX_CHARS = 300

/** The bodies of OneDev's 404 for a path no resource matches: Jersey's default message (10.0 and later), none before (onedev-access-reference.md §7). */
const NO_RESOURCE_BODIES = new Set(['HTTP 404 Not Found', ''])

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

/** An HTML page: said so by its Content-Type, or (`sniff`) starting with a tag. */
export function isHtml(answer: Answer, sniff: boolean): boolean {
  if (/\btext\/html\b/i.test(answer.contentType) || /\bapplication\/xhtml/i.test(answer.contentType)) return true
  return sniff && startsWithTag(answer.body)
}

function statusLine(status: number): string {
  const reason = STATUS_CODES[status]
  return reason ? `${status} ${reason}` : String(status)
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

/** The errors of answers that are not what was asked for, and the text of those that are. */
export class AnswerErrors {
  private readonly userIsEmpty: boolean

  /** `htmlPageHint`: what to suggest when an HTML page answers where the API should (ApiPrefix.htmlPageHint). */
  constructor(
    private readonly mask: SecretMask,
    private readonly options: Pick<ClientOptions, 'user' | 'unsafeServerText'>,
    private readonly htmlPageHint: () => string,
  ) {
    this.userIsEmpty = options.user === ''
  }

  /** A failed answer: its error, marked when it is what OneDev gives a path no resource matches (ApiError.noResource). */
  failedAnswer(method: Method, path: string, answer: Answer, apiPath: string, mask: readonly string[] = []): ApiError {
    const noResource = answer.status === 405 || (answer.status === 404 && !isHtml(answer, true) && NO_RESOURCE_BODIES.has(answer.body.toString('utf8').trim()))
    return this.mask.fail(this.statusError(method, path, answer, apiPath, mask), noResource)
  }

  /** A non-success answer → the error a user can act on. */
  statusError(method: Method, path: string, answer: Answer, apiPath: string, mask: readonly string[] = []): AuditError {
    const {status} = answer
    const at = `${method} ${path}: ${statusLine(status)}`
    let kind: ErrorKind
    let message: string
    if (status === 401) {
      kind = 'auth'
      message =
        `${at}: the server refused the credentials or found none${this.detailOf(method, path, answer, mask)}; check ONEDEV_USER and ONEDEV_TOKEN` +
        (this.userIsEmpty ? ' (with an empty ONEDEV_USER, a token the server does not know is treated as anonymous)' : '')
    } else if (status === 403) {
      kind = 'forbidden'
      message =
        `${at}${this.detailOf(method, path, answer, mask)}; the audit needs ${permissionNeeded(apiPath)}; use a token with owner permissions of a user who has it` +
        (this.userIsEmpty ? ' (with an empty ONEDEV_USER, a token the server does not know is treated as anonymous)' : '')
    } else if (status < 500 && status !== 429 && isHtml(answer, true)) {
      return this.htmlError(method, path, answer)
    } else {
      kind = status === 404 ? 'not-found' : 'http'
      message = `${at}${this.detailOf(method, path, answer, mask)}`
    }
    return {kind, message, path, status}
  }

  htmlError(method: Method, path: string, answer: Answer): AuditError {
    return {
      kind: 'not-json',
      message: `${method} ${path}: the server answered an HTML page (status ${answer.status}), not JSON; ${this.htmlPageHint()}`,
      path,
      status: answer.status,
    }
  }

  /** A success answer's text in the charset it names (src/util/charset.ts); an unknown charset or bytes it does not allow refuse the answer. */
  textOf(method: Method, at: string, answer: Answer): string {
    const decoded = decodeBody(answer.body, answer.contentType)
    if ('text' in decoded) return decoded.text
    throw this.mask.fail({kind: 'invalid-payload', message: `${method} ${at}: ${decoded.problem}; nothing of the answer is used`, path: at, status: answer.status})
  }

  /**
   * The server's words, judged whole (bytes, charset and all) before they are cut and put on one line:
   * withheld, with a note, when they may quote a secret of `mask` or the audit's own secret, or when
   * they cannot be judged (src/model/server-text.ts).
   */
  private detailOf(method: Method, path: string, answer: Answer, mask: readonly string[]): string {
    if (isHtml(answer, true)) return ' (an HTML page)'
    const judged = this.mask.judge(answer, mask)
    if ('withheld' in judged) {
      if (judged.text !== null) this.options.unsafeServerText?.(`${method} ${path} ${answer.status}: ${answer.complete ? this.mask.redact(judged.text) : this.mask.redactCut(judged.text)}`)
      return `: ${judged.withheld}`
    }
    const text = oneLine(this.mask.redact(judged.shown), DETAIL_MAX_CHARS)
    return text === '' ? '' : `: ${text}`
  }
}
