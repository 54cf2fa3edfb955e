/**
 * The text of a server's error answer, judged whole before any of it is shown (an error message on
 * stderr, in a JSON or SARIF report, in `fix`'s outcome lines). A server may quote what it was sent
 * (the audit's own token, a job secret of a posted setting) in forms that are open-ended: HTML
 * entities, Gson's `\u0026`, form encoding, another charset, another Unicode normalization, a line
 * of a multi-line value. So the text is never edited around a secret: it is shown (with whatever
 * looks like a credential masked) or withheld whole, with a note saying how long it was and why.
 *
 * When in doubt, nothing is shown. In doubt means any of:
 * - the answer was not read whole (longer than the client reads of an error: a secret may sit where
 *   the cut fell);
 * - its charset (Content-Type `charset=`, or a byte-order mark) is unknown, or the bytes are not
 *   valid in it;
 * - the decoded text holds a NUL (binary, or a charset other than the one declared);
 * - a secret given is found in any reading of the text: as is; HTML entities decoded (every named one,
 *   with or without its semicolon, and numeric ones); JSON escapes decoded; form-decoded; and those
 *   combined; each reading compatibility-normalized (NFKC: an NFD or full-width echo matches),
 *   stripped of invisible format characters (zero-width spaces, bidi marks) and lower-cased, and
 *   searched for the secret treated the same way with whitespace counting for nothing on either side
 *   (a secret broken by a line break or a run of spaces is found: src/util/secret-match.ts), for each line of a
 *   multi-line secret (4 characters or more), and for the secret's base64 and base64url. A secret is
 *   looked for whatever its length: a secret of 1-3 characters withholds every text holding those
 *   characters, which is most of them.
 * - the text quotes a JSON member named like a credential with its value (`"smtpPassword": "…"`): a
 *   setting echoed, whose secrets the audit never read (`smtpPassword=…`, as a bean's toString writes
 *   it, has its value masked in a text that is shown).
 * What is not recognised: a part of a secret other than a whole line, or a secret in a form not listed
 * (encrypted, hashed, reversed). Token-like words and credentials after `Bearer`/`Basic`/`token` are
 * masked in a text that is shown, which covers a generated token quoted in part.
 *
 * This module (not redact.ts) holds it because of its HTML entity table (the `entities` package): only
 * live runs, which read error answers, load it.
 */
import {Buffer} from 'node:buffer'
import {decodeHTML} from 'entities/decode'

import {decodeBody} from '../util/charset.js'
import {holdsAnySecret} from '../util/secret-match.js'
import {REDACTED, isCredentialKey, isTokenLike, redactScpCredentials, redactUrlsInText} from './redact.js'

/** An error answer as the client read it. */
export interface ServerAnswer {
  body: Uint8Array
  /** The Content-Type header ('' when absent). */
  contentType: string
  /** False when the client stopped reading before its end. */
  complete: boolean
}

/** Shown: the text, safe to print (credentials masked; control characters are the caller's to escape). Withheld: a note, and the decoded text for an explicit unsafe debug request (null when it could not be decoded). */
export type ServerText = {shown: string} | {withheld: string; text: string | null}

/** Why a text is withheld: it may quote a secret. */
export const MAY_QUOTE_A_SECRET = 'it may quote a secret'

/** The note that stands for a withheld answer. */
export function withheldNote(bytes: number, complete: boolean, reason: string): string {
  const size = `${complete ? '' : 'more than '}${bytes.toLocaleString('en-US')} bytes`
  return `(the server's answer: ${size}, not shown: ${reason}; --debug-unsafe-server-text prints it)`
}

/** Judges an error answer's bytes against the secrets that must not be shown (see the module's comment). */
export function judgeServerAnswer(answer: ServerAnswer, secrets: readonly string[]): ServerText {
  const bytes = answer.body.length
  const decoded = decodeBody(answer.body, answer.contentType)
  if ('problem' in decoded) return {withheld: withheldNote(bytes, answer.complete, decoded.problem), text: null}
  if (!answer.complete) return {withheld: withheldNote(bytes, false, 'it was not read whole'), text: decoded.text}
  if (decoded.text.includes('\u0000')) return {withheld: withheldNote(bytes, true, `it holds NUL characters (not ${decoded.encoding} text)`), text: decoded.text}
  const judged = judgeText(decoded.text, secrets)
  return judged === null ? {withheld: withheldNote(bytes, true, MAY_QUOTE_A_SECRET), text: decoded.text} : {shown: judged}
}

/**
 * Text a server sent, safe to show: the note of a withheld text when it may quote one of `secrets`,
 * else the text with whatever looks like a credential masked. Call it on the WHOLE text, before it
 * is shortened: a secret cut in half is no longer found.
 */
export function redactServerText(text: string, secrets: readonly string[]): string {
  return judgeText(text, secrets) ?? withheldNote(Buffer.byteLength(text, 'utf8'), true, MAY_QUOTE_A_SECRET)
}

/** The text with credentials masked, or null when it may quote a secret. */
function judgeText(text: string, secrets: readonly string[]): string | null {
  if (quotesKeyedCredential(text)) return null
  const needles = secrets.flatMap(needlesOf)
  if (needles.length > 0) {
    const html = decodeHTML(text)
    const json = decodeJson(text)
    const readings = [text, html, json, decodeForm(text), decodeForm(decodeJson(html)), decodeHTML(json)].map(fold)
    // Whitespace counts for nothing: a server that broke a quoted secret over lines still quotes it.
    if (holdsAnySecret(readings, needles)) return null
  }
  const out = maskAssignedCredentials(redactScpCredentials(text)).replace(SCHEMED_CREDENTIAL, (_, word: string, between: string) => `${word}${between}${REDACTED}`)
  return redactUrlsInText(out.replace(TOKEN_CANDIDATE, (word) => (isTokenLike(word) ? REDACTED : word)))
}

/**
 * A JSON member with a non-empty string value (`"smtpPassword": "…`), the key at most 64 characters.
 * The match ends where the value starts, so a member quoted inside another's value is found too.
 */
const QUOTED_MEMBER = /"((?:[^"\\\n]|\\.){1,64})"\s*:\s*"(?!")/g
/**
 * `key=value` as a Java bean's toString writes it (`SmtpImapConnector{smtpPassword=…, timeout=60}`):
 * masked to the end of the field (a comma, a semicolon, a closing bracket or the line's end) when the
 * key names a credential.
 */
const ASSIGNMENT = /\b([A-Za-z][\w.-]{0,63})\s*=\s*/g
const FIELD_END = /[,;)}\]\r\n]/g

function maskAssignedCredentials(text: string): string {
  let out = ''
  let at = 0
  for (const match of text.matchAll(ASSIGNMENT)) {
    if (match.index < at || !isCredentialKey(match[1]!)) continue
    const start = match.index + match[0].length
    FIELD_END.lastIndex = start
    const end = FIELD_END.exec(text)?.index ?? text.length
    if (end === start) continue
    out += text.slice(at, start) + REDACTED
    at = end
  }
  return out + text.slice(at)
}

/**
 * Whether the text quotes the value of a JSON member named like a credential (redact.ts
 * isCredentialKey): a setting the audit has not read (or not yet), echoed in an error answer with its
 * password, client secret or refresh token. Only the audit's own secrets are known, and a password a
 * person chose has no token shape: such a text is withheld whole. Looked for as is, HTML entities
 * decoded and JSON escapes decoded.
 */
function quotesKeyedCredential(text: string): boolean {
  for (const reading of new Set([text, decodeHTML(text), decodeJson(text)])) {
    for (const match of reading.matchAll(QUOTED_MEMBER)) if (isCredentialKey(decodeJson(match[1]!))) return true
  }
  return false
}

/** Lines of a multi-line secret shorter than this are not looked for on their own (the whole secret always is). */
const MIN_LINE_LENGTH = 4

/** What to look for of one secret, folded as the readings are: the whole, each line, its base64 forms. */
function needlesOf(secret: string): string[] {
  if (typeof secret !== 'string') return []
  const whole = fold(secret).trim()
  if (whole === '') return []
  const out = [whole]
  if (/[\r\n]/.test(secret)) {
    for (const line of secret.split(/\r\n|\r|\n/)) {
      const folded = fold(line).trim()
      if (folded.length >= MIN_LINE_LENGTH && folded !== whole) out.push(folded)
    }
  }
  for (const form of base64Forms(secret)) out.push(form.toLowerCase())
  return out
}

/** Invisible format characters (Unicode category Cf: zero-width spaces and joiners, bidi marks, the soft hyphen). */
const FORMAT_CHARACTERS = /\p{Cf}/gu

/** One reading as compared: NFKC, format characters removed, whitespace collapsed, lower case. */
function fold(text: string): string {
  return text.normalize('NFKC').replace(FORMAT_CHARACTERS, '').replace(/\s+/g, ' ').toLowerCase()
}

/** A credential after its scheme word (`Bearer abc…`, `Basic dXNl…`, `token: abc…`). */
const SCHEMED_CREDENTIAL = /\b(bearer|basic|token)(\s*[:=]?\s*)[A-Za-z0-9._~+/=-]{4,}/gi
/** A word that may be a generated token (isTokenLike judges it): long, or a JWT's three parts. */
const TOKEN_CANDIDATE = /[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]{8,}){2}|[A-Za-z0-9_-]{20,}/g

const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g
const JSON_SHORT_ESCAPE: Readonly<Record<string, string>> = {'"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t'}
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g

function decodeJson(text: string): string {
  return text.replace(JSON_ESCAPE, (_, hex?: string, short?: string) => (hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : JSON_SHORT_ESCAPE[short as string]))
}

/** `application/x-www-form-urlencoded` decoding; a run of `%XX` that is not UTF-8 stays as it is. */
function decodeForm(text: string): string {
  return text.replace(/\+/g, ' ').replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
}

function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  const padded = bytes.toString('base64')
  const url = bytes.toString('base64url')
  return [padded, padded.replace(/=+$/, ''), url, url.padEnd(padded.length, '=')]
}
