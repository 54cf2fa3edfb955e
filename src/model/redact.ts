/**
 * Redaction: the one place where secret values are removed from server payloads. It runs at ingest,
 * before anything is normalized, stored, logged, reported or snapshotted, and again on every snapshot
 * load. It works on the shape of the JSON alone (keys and positions), never on a schema, so it also
 * covers payloads that fail validation. Every function is idempotent and returns a fresh copy, except
 * redactOwned, which redacts JSON the caller has just parsed in place.
 */
import {maskSecrets} from '../util/secret-match.js'
import type {UrlFacts} from './types.js'

/** What a secret value becomes. */
export const REDACTED = '<redacted>'
/** What a URL that cannot be parsed becomes. */
export const REDACTED_URL = '<redacted-url>'
/** What a secret part of a URL (user info, a credential's query value, a path segment) becomes. */
export const URL_MASK = 'REDACTED'
/**
 * What any other query value becomes (every one not on the short list of harmless names): it may be a
 * secret nobody can recognise, but it is not reported as a credential (UrlFacts.secretQueryParams).
 */
export const URL_VALUE_MASK = 'HIDDEN'

/** Values below this depth are replaced: server payloads are a few levels deep, a hostile one may not be. */
const MAX_DEPTH = 64

/**
 * Keys whose value is a secret, in any case and spelling (`accessKey`, `ACCESS_KEY`, `x-api-key`,
 * `Set-Cookie`): a key word anywhere (password, secret, token, API key, credential, private key, cookie,
 * ...); a `...key` word at the end (`sshKey`, `signingKey`; not `userSshKeyAttribute`, which names an
 * LDAP attribute, nor a project's `key`); or one of a few whole keys. A job secret's `name` does not
 * match; its `authorization` is a job-match expression there (isSecretPlace), and a credential anywhere
 * else. Three patterns, the last two tried only when they can match: every key of every payload is
 * tested, on the hot path of loading a snapshot.
 */
const CREDENTIAL_KEY_WORD = /pass(word)?|passwd|secret|token|api[-_]?key|credential|private[-_]?key|cookie|bearer|(?:access|signing|encryption|master)[-_. ]?key/i
const CREDENTIAL_KEY_END = /(?:ssh|auth|client|deploy|license|hmac|session|shared|webhook|gpg|pgp)[-_. ]?keys?$/i
const CREDENTIAL_KEY_WHOLE = /^(?:(?:(?:proxy|x)[-_. ]?)?authorization|auth|pat|pwd|pw|hmac|session[-_. ]?id|sid|otp|pin)$/i
/** The longest key CREDENTIAL_KEY_WHOLE matches (`proxy-authorization`). */
const WHOLE_KEY_MAX = 19

/** Whether a key names a credential, in any case and spelling. */
export function isCredentialKey(key: string): boolean {
  if (CREDENTIAL_KEY_WORD.test(key)) return true
  if ((endsWithLetters(key, 'key') || endsWithLetters(key, 'keys')) && CREDENTIAL_KEY_END.test(key)) return true
  return key.length <= WHOLE_KEY_MAX && CREDENTIAL_KEY_WHOLE.test(key)
}

/** Whether `text` ends with `suffix` (lower-case ASCII letters) in any case: cheaper than a pattern anchored at the end. */
function endsWithLetters(text: string, suffix: string): boolean {
  const offset = text.length - suffix.length
  if (offset < 0) return false
  for (let i = 0; i < suffix.length; i++) if ((text.charCodeAt(offset + i) | 0x20) !== suffix.charCodeAt(i)) return false
  return true
}

/**
 * Keys that match isCredentialKey but hold objects (or a list of them), each judged by its own keys: job
 * secrets, and the security setting's password policy (`{minLength, mustContainUppercase, ...}`, no
 * secret in it; masked whole, the setting failed validation and every check that reads it was skipped).
 */
const SECRET_CONTAINERS: ReadonlySet<string> = new Set(['jobSecrets', 'passwordPolicy'])
/** Keys that hold a URL: their whole string value goes through redactUrl. */
const URL_KEY = /ur[li]$/i
/** A string that starts like a URL with an authority (`scheme://`). */
const URL_START = /^[\s\x00-\x1f]*[a-z][a-z0-9+.-]*:\/\//i
/** URLs inside free text. */
const EMBEDDED_URL = /[a-z][a-z0-9+.-]*:\/\/[^\s<>"]+/gi

type PathKey = string | number

/**
 * A payload of an optional endpoint, redacted for the server data document: `path` is its endpoint
 * path without prefix and leading slash (`settings/security`, `users/6/access-tokens`), which decides
 * the positional rules (token values, groovy script content, users' email addresses) on top of the
 * key rules every payload gets. `owned`: the caller just parsed it and holds it nowhere else.
 */
export function redactServerPayload(path: string, value: unknown, owned = false): unknown {
  const trail = path.split('/')
  // A string payload (an endpoint answering a bare value) is judged by its endpoint's last segment.
  if (typeof value === 'string') return isCredentialKey(trail.at(-1) ?? '') ? maskSecret(value) : redactString(value, trail.at(-1))
  return walk(value, trail, 0, owned)
}

/** A redacted deep copy of a project setting payload (either generation). Never mutates its input. */
export function redactProjectSetting(raw: unknown): unknown {
  return redactDeep(raw, [])
}

/**
 * A redacted deep copy of any server JSON value. `path` is where `value` sits in its document (keys
 * and indexes), so positional rules apply to sub-trees too (e.g. `['buildSetting', 'jobSecrets', 0]`).
 *
 * - job secret values (`jobSecrets[].value`), header values (`headers[].value`) and the `value` of any
 *   object whose `name` looks like a credential → `<redacted>`;
 * - any value under a key like password/secret/token/api key/credential/private key → `<redacted>`;
 * - null stays null and `""` stays `""`, so a missing secret is still visible; booleans are kept;
 * - URLs (values of `...Url` keys, strings starting with `scheme://`, URLs inside text) → redactUrl.
 */
export function redactDeep(value: unknown, path: readonly PathKey[] = []): unknown {
  return walk(value, path.slice(), 0, false)
}

/**
 * redactDeep without the copy, for JSON the caller has just parsed and holds nowhere else (a
 * response body, a snapshot file): the secret values are replaced where they are, and the value
 * itself is returned. Loading 10,000 projects then builds no second tree of every payload, and the
 * unredacted values are unreachable as soon as this returns. Never give it anything shared.
 */
export function redactOwned(value: unknown, path: readonly PathKey[] = []): unknown {
  return walk(value, path.slice(), 0, true)
}

function walk(value: unknown, trail: PathKey[], depth: number, inPlace: boolean): unknown {
  if (typeof value === 'string') return redactString(value, trail[trail.length - 1])
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_DEPTH) return REDACTED
  if (Array.isArray(value)) {
    const out: unknown[] = inPlace ? value : new Array(value.length)
    // A list of header lines (`headers: ["Authorization: Bearer …"]`): each a secret, like a header map's values.
    const last = trail[trail.length - 1]
    const headerLines = typeof last === 'string' && endsWithLetters(last, 'headers')
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      let copy: unknown
      if (item === null || typeof item !== 'object') {
        copy = typeof item === 'string' ? (headerLines ? maskSecret(item) : redactString(item, i)) : item
      } else {
        trail.push(i)
        copy = walk(item, trail, depth + 1, inPlace)
        trail.pop()
      }
      if (!inPlace || copy !== item) out[i] = copy
    }
    return out
  }
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = inPlace ? source : {}
  // A header map (`...headers: {"Authorization": "Bearer …"}`): every value is a header value, as in
  // the list form `headers[].value` (isSecretPlace).
  const last = trail[trail.length - 1]
  const headerMap = typeof last === 'string' && endsWithLetters(last, 'headers')
  for (const key of Object.keys(source)) {
    const child = source[key]
    let copy: unknown
    // null and booleans are never secrets and never change: the most common values, copied as they are.
    if (child === null || typeof child === 'boolean') copy = child
    else if (headerMap || isSecretPlace(source, key, child, trail)) copy = maskSecret(child)
    else if (typeof child === 'string') copy = redactString(child, key)
    else if (typeof child !== 'object') copy = child
    else {
      trail.push(key)
      copy = walk(child, trail, depth + 1, inPlace)
      trail.pop()
    }
    if (!inPlace || copy !== child) setOwn(out, key, copy)
  }
  return out
}

/** Defines an own property, also for `__proto__` (a plain assignment would set the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, {value, enumerable: true, writable: true, configurable: true})
  else target[key] = value
}

/** Keys of personal data that the server data document never keeps (a user is named by login name). */
const PERSONAL_KEY = /e-?mail/i

function isSecretPlace(parent: Record<string, unknown>, key: string, child: unknown, trail: PathKey[]): boolean {
  const n = trail.length
  if (isCredentialKey(key)) {
    if (SECRET_CONTAINERS.has(key) && child !== null && typeof child === 'object') return false
    // An agent's `tokenId` is the database id of the token it uses (a number; the value is in /agent-tokens).
    if (key === 'tokenId' && typeof child === 'number' && trail[0] === 'agents') return false
    // A job secret's `authorization` says which jobs may read it: a job-match expression, no secret.
    return !(key === 'authorization' && n >= 2 && typeof trail[n - 1] === 'number' && trail[n - 2] === 'jobSecrets')
  }
  // Server data (redactServerPayload): the trail starts with the endpoint's path segments.
  if (trail[0] === 'users' && PERSONAL_KEY.test(key)) return true
  if (key === 'content') return trail[0] === 'settings' && trail[1] === 'groovy-scripts'
  if (key !== 'value') return false
  if (n >= 2 && typeof trail[n - 1] === 'number' && (trail[n - 2] === 'jobSecrets' || trail[n - 2] === 'headers')) return true
  // Access-token and agent-token values are live credentials.
  if (n >= 2 && (trail[n - 2] === 'access-tokens' || trail[n - 2] === 'agent-tokens')) return true
  const name = Object.prototype.hasOwnProperty.call(parent, 'name') ? parent.name : undefined
  return typeof name === 'string' && isCredentialKey(name)
}

/** A secret place keeps null, `""` and booleans (they reveal nothing); anything else is masked whole. */
function maskSecret(value: unknown): unknown {
  if (value === null || value === undefined || value === '' || typeof value === 'boolean') return value
  return REDACTED
}

function redactString(value: string, key: PathKey | undefined): string {
  if (value === '') return value
  if (typeof key === 'string' && URL_KEY.test(key)) return redactUrl(value).url
  if (typeof key === 'string' && endsWithLetters(key, 'options')) value = redactOptionText(value)
  if (value.includes('://')) return URL_START.test(value) ? redactUrl(value).url : redactScpCredentials(redactUrlsInText(value))
  if (value.includes('@')) value = redactScpCredentials(value)
  return SCHEMED_VALUE.test(value) ? REDACTED : value
}

/**
 * Free-text command-line options (`runOptions` and `networkOptions` of the Docker executors, the
 * docker provisioners' `runOptions`: options OneDev passes to `docker run` and `docker network
 * create`), judged by what they hold (issue 33: `-e NPM_TOKEN=…` reached the snapshot): the value of
 * an environment or other assignment whose name names a credential (`-e NPM_TOKEN=…`, `--env=API_KEY=…`,
 * `--build-arg`, `--label`, a bare `NAME=…`), and the value of an option whose own name does
 * (`--password …`, `--registry-password=…`, `--secret …`), each → `<redacted>`, quotes kept. The rest
 * of the text is kept as it is: rules read it (`--privileged`, `--cap-add`, `--network host`). Words
 * are split as a shell splits them (quotes, backslashes); a value that is an option itself (`--password-stdin
 * --privileged`) is never taken for a credential.
 */
export function redactOptionText(text: string): string {
  const words = shellWords(text)
  const masks: Array<[number, number]> = []
  const mask = (word: ShellWord, from: number) => {
    if (from < word.chars.length) masks.push([word.chars[from]!.at, word.chars.at(-1)!.at + 1])
  }
  /** Masks the value of `NAME=VALUE` starting at `from` in the word when NAME names a credential; whether it was one. */
  const assignment = (word: ShellWord, from: number): void => {
    const text = word.text.slice(from)
    const eq = text.indexOf('=')
    if (eq > 0 && ASSIGNED_NAME.test(text.slice(0, eq)) && isCredentialKey(text.slice(0, eq))) mask(word, from + eq + 1)
  }
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!
    if (!word.text.startsWith('-')) {
      assignment(word, 0)
      continue
    }
    const eq = word.text.indexOf('=')
    const name = (eq < 0 ? word.text : word.text.slice(0, eq)).replace(/^-+/, '')
    const next = words[i + 1]
    if (eq >= 0) {
      if (isCredentialKey(name)) mask(word, eq + 1)
      else assignment(word, eq + 1)
    } else if (isCredentialKey(name) && next !== undefined && !next.text.startsWith('-')) {
      mask(next, 0)
      i++
    }
  }
  let out = text
  for (const [from, to] of masks.sort((a, b) => b[0] - a[0])) out = out.slice(0, from) + REDACTED + out.slice(to)
  return out
}

/** The name of an assignment (`NPM_TOKEN`, `com.example.api-key`). */
const ASSIGNED_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/

/** A word of a command line: its text as the shell reads it, and where each of its characters is in the line. */
interface ShellWord {
  text: string
  chars: Array<{at: number}>
}

/** The words of a command line, as a POSIX shell splits them: blanks between words, `'…'` literal, `"…"` and `\` escaping. */
function shellWords(line: string): ShellWord[] {
  const words: ShellWord[] = []
  let word: ShellWord | null = null
  let quote: '"' | "'" | null = null
  const add = (char: string, at: number) => {
    word ??= {text: '', chars: []}
    word.text += char
    word.chars.push({at})
  }
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!
    if (quote === "'") {
      if (char === "'") quote = null
      else add(char, i)
    } else if (char === '\\' && i + 1 < line.length && (quote === null || '"\\$`'.includes(line[i + 1]!))) {
      add(line[++i]!, i)
    } else if (quote === '"') {
      if (char === '"') quote = null
      else add(char, i)
    } else if (char === '"' || char === "'") {
      quote = char
      word ??= {text: '', chars: []}
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word)
      word = null
    } else {
      add(char, i)
    }
  }
  if (word !== null) words.push(word)
  return words
}

/** A whole value that is a credential after its scheme word (`Bearer eyJ…`, `Basic dXNl…`), as an Authorization header holds it. */
const SCHEMED_VALUE = /^\s*(?:bearer|basic|token|digest)\s+(?=[^\s]*[0-9+/=._~-])[A-Za-z0-9._~+/=-]{12,}\s*$/i
/** `user:password@host` without a scheme, as scp-style git remotes (`git:pw@host:repo.git`) and connection strings write it. */
const SCP_CREDENTIALS = /(^|[\s"'(<,;=])([^\s@:/"'<>(),;=]+):([^\s@/"'<>]+)@(?=[A-Za-z0-9[])/g

/** Masks the user and password of every scp-style `user:password@host` in a text (`REDACTED@host`). */
export function redactScpCredentials(text: string): string {
  if (!text.includes('@')) return text
  return text.replace(SCP_CREDENTIALS, (match, before: string, user: string) => (/^mailto$/i.test(user) ? match : `${before}${URL_MASK}@`))
}

/** Replaces every URL inside free text by its redacted form. */
export function redactUrlsInText(text: string): string {
  return text.replace(EMBEDDED_URL, (url) => redactUrl(url).url)
}

/**
 * Replaces the given secret values (and their URL-encoded forms) in a message, also where whitespace
 * breaks them (a line break a server put inside a quoted value), then redacts URLs in it.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  const variants = new Set<string>()
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') continue
    variants.add(secret)
    variants.add(encodeURIComponent(secret))
  }
  return redactUrlsInText(maskSecrets(text, variants, REDACTED))
}

// ---------------------------------------------------------------- URLs

/** Query (and fragment) parameter names that carry credentials. */
const SECRET_PARAM =
  /token|secret|passw|^pass$|^pwd$|^pw$|key$|^key|signature|^sig$|credential|^auth|^code$|^hash$|session|^jwt$|^otp$|hmac|^pat$|cookie|bearer/i
const ROUND_TRIP_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:'])
const SLACK_HOST = /(^|\.)slack\.com$/i
const DISCORD_HOST = /(^|\.)discord(app)?\.com$/i

/** A path segment or value that looks like a generated token: long, mixing letters and digits, or a JWT. */
export function isTokenLike(text: string): boolean {
  if (text.length >= 20 && /^[A-Za-z0-9_-]+$/.test(text) && /[A-Za-z]/.test(text) && /[0-9]/.test(text)) return true
  return /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/.test(text)
}

function decode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

function unparsed(): {url: string; facts: UrlFacts} {
  return {url: REDACTED_URL, facts: {scheme: null, host: null, hadUserInfo: false, secretQueryParams: [], secretPath: false}}
}

function parse(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}

/** Query parameter names whose plain values (PLAIN_PARAM_VALUE) are shown: they name a branch, an event, a job, a page, a format. */
const HARMLESS_PARAM = /^(?:ref|branch|tag|event|events|job|type|format|page|per_page|per-page|limit|lang|locale|api-version|v|version)$/i
/** A value short and plain enough to be no secret under a harmless name. */
const PLAIN_PARAM_VALUE = /^[A-Za-z0-9._~/ -]{1,64}$/

/**
 * Masks the values of a query or fragment, keeping the names: a credential's value (the name says so,
 * the value looks like a generated token, or it is a URL or scp-style address carrying credentials)
 * → `name=REDACTED`; any other value → `name=HIDDEN`, except a plain value of a harmless name
 * (`ref=main`, `page=2`). A name that looks like a token is masked whole; an empty value stays empty.
 */
function redactParams(params: string, separator = '&'): string {
  return params
    .split(separator)
    .map((piece) => {
      if (piece === '') return piece
      const eq = piece.indexOf('=')
      const name = eq < 0 ? piece : piece.slice(0, eq)
      const decodedName = decode(name)
      if (isTokenLike(decodedName)) return URL_MASK
      if (eq < 0) return piece
      const value = piece.slice(eq + 1)
      if (value === '' || value === URL_MASK) return piece
      const decodedValue = decode(value)
      if (SECRET_PARAM.test(decodedName) || isTokenLike(decodedValue) || carriesCredential(decodedValue)) return `${name}=${URL_MASK}`
      if (value === URL_VALUE_MASK || (HARMLESS_PARAM.test(decodedName) && PLAIN_PARAM_VALUE.test(decodedValue))) return piece
      return `${name}=${URL_VALUE_MASK}`
    })
    .join(separator)
}

/** A value (decoded) that is or holds a URL or scp-style address with credentials in it (`next=https://bot:pw@…`). */
function carriesCredential(text: string): boolean {
  if (text.includes('://')) {
    const start = text.search(/[a-z][a-z0-9+.-]*:\/\//i)
    const facts = redactUrl(text.slice(start).trim()).facts
    if (facts.hadUserInfo || facts.secretQueryParams.length > 0 || facts.secretPath) return true
  }
  return text.includes('@') && redactScpCredentials(text) !== text
}

const TELEGRAM_BOT = /^bot[0-9]+:./i
const NTFY_HOST = /(^|\.)ntfy\.sh$/i
const HOOK_SEGMENT = /^(?:web)?hooks?$/i

/** A path segment (decoded) that is a credential: token-like, Telegram's `bot<id>:<token>`, a token inside `a:b` or `a@b`, a URL. */
function isSecretSegment(segment: string): boolean {
  if (isTokenLike(segment) || TELEGRAM_BOT.test(segment)) return true
  if (segment.includes('://')) return true
  return /[:@;,=]/.test(segment) && segment.split(/[:@;,=]/).some(isTokenLike)
}

function redactSegments(url: URL): string[] {
  const segments = url.pathname.split('/')
  const host = url.hostname
  if (SLACK_HOST.test(host) && segments[1] === 'services' && segments.length > 2) return ['', 'services', URL_MASK]
  const discord = DISCORD_HOST.test(host) ? discordTokenIndex(segments) : -1
  // ntfy.sh: whoever knows the topic reads and posts its messages (docs.ntfy.sh: "topics are public").
  const ntfyTopic = NTFY_HOST.test(host) && segments.length > 1 && segments[1] !== '' ? 1 : -1
  // After `/hooks/` (Mattermost, Rocket.Chat, Zapier, ...): ids and keys, which hold digits.
  const hooksAt = discord < 0 ? segments.findIndex((segment) => HOOK_SEGMENT.test(segment)) : -1
  const masked = (segment: string, index: number): string => {
    const decoded = decode(segment)
    if (hooksAt >= 0 && index > hooksAt && decoded.length >= 6 && /[0-9]/.test(decoded) && decoded !== URL_MASK) return URL_MASK
    return isSecretSegment(decoded) ? URL_MASK : segment
  }
  return segments.map((segment, index) => {
    if (index === discord || index === ntfyTopic) return URL_MASK
    // Path parameters (`/notify;token=…`, RFC 3986 §3.3) are judged as query values are, the segment before them as any segment.
    const semicolon = segment.indexOf(';')
    if (semicolon >= 0) return `${masked(segment.slice(0, semicolon), index)};${redactParams(segment.slice(semicolon + 1), ';')}`
    return masked(segment, index)
  })
}

/** Index of the token in `/api[/vN]/webhooks/{id}/{token}`, or -1. */
function discordTokenIndex(segments: string[]): number {
  if (segments[1] !== 'api') return -1
  const at = segments[2] === 'webhooks' ? 2 : /^v[0-9]+$/.test(segments[2] ?? '') && segments[3] === 'webhooks' ? 3 : -1
  return at > 0 && segments.length > at + 2 ? at + 2 : -1
}

/**
 * Masks the secret parts of a URL and says what they were: user info → `REDACTED@`, credential-like
 * query parameters → `name=REDACTED`, Slack `/services/...` → `/services/REDACTED`, the Discord
 * webhook token and any token-like path segment → `REDACTED`. Unparseable → `<redacted-url>`.
 * Idempotent: the facts are read from the redacted URL, so redacting it again gives the same result.
 */
export function redactUrl(url: string): {url: string; facts: UrlFacts} {
  let current = maskOnce(url)
  // Settle on a fixed point, which makes redactUrl idempotent by construction. The serialization of
  // special schemes (http, https, ws, wss, ftp) round-trips by the WHATWG URL standard and the masks
  // are themselves never masked again, so their first pass is final (the property tests check it);
  // other schemes may reach their final serialization only after a second parse.
  for (let pass = 0; pass < 4 && current !== null; pass++) {
    const settledAlready = (current.href === url && !current.changed) || ROUND_TRIP_SCHEMES.has(current.url.protocol)
    const next = settledAlready ? {...current, changed: false} : maskOnce(current.href)
    if (next === null) break
    if (next.href === current.href && !next.changed) return {url: next.href, facts: factsOf(next.url)}
    current = next
  }
  return unparsed()
}

function maskOnce(text: string): {href: string; url: URL; changed: boolean} | null {
  const url = parse(text)
  if (url === null) return null
  let changed = false
  if (url.username !== '' || url.password !== '') {
    if (url.username !== URL_MASK || url.password !== '') {
      url.password = ''
      url.username = URL_MASK
      changed = true
    }
  }
  const search = url.search
  if (search.length > 1) {
    const masked = '?' + redactParams(search.slice(1))
    if (masked !== search) {
      url.search = masked
      changed = true
    }
  }
  const hash = url.hash
  if (hash.length > 1) {
    const fragment = hash.slice(1)
    const masked = '#' + (isTokenLike(decode(fragment)) ? URL_MASK : redactParams(fragment))
    if (masked !== hash) {
      url.hash = masked
      changed = true
    }
  }
  const path = url.pathname
  if (path.startsWith('/')) {
    const masked = redactSegments(url).join('/')
    if (masked !== path) {
      url.pathname = masked
      changed = true
    }
  } else if (path !== '' && path !== URL_MASK && (isTokenLike(decode(path)) || path.includes('@'))) {
    // An opaque path (`mailto:...`, `foo:bar`) cannot be set: rebuild the URL around a masked path.
    const rebuilt = parse(`${url.protocol}${URL_MASK}${url.search}${url.hash}`)
    return rebuilt === null ? null : {href: rebuilt.href, url: rebuilt, changed: true}
  }
  return {href: url.href, url, changed}
}

/** The names of the parameters (`name=REDACTED`) masked as credentials among `pieces`, each once. */
function maskedNames(pieces: readonly string[], into: string[] = []): string[] {
  for (const piece of pieces) {
    const eq = piece.indexOf('=')
    if (eq < 0 || piece.slice(eq + 1) !== URL_MASK) continue
    const name = decode(piece.slice(0, eq))
    if (!into.includes(name)) into.push(name)
  }
  return into
}

function factsOf(url: URL): UrlFacts {
  const secretQueryParams = url.search.length > 1 ? maskedNames(url.search.slice(1).split('&')) : []
  const segments = url.pathname.startsWith('/') ? url.pathname.split('/') : [url.pathname]
  const secretPathParams: string[] = []
  for (const segment of segments) if (segment.includes(';')) maskedNames(segment.split(';').slice(1), secretPathParams)
  return {
    scheme: url.protocol.replace(/:$/, '').toLowerCase(),
    host: url.hostname === '' ? null : url.hostname,
    hadUserInfo: url.username !== '' || url.password !== '',
    secretQueryParams,
    secretPath: segments.includes(URL_MASK),
    ...(secretPathParams.length > 0 ? {secretPathParams} : {}),
  }
}

/**
 * Every secret a payload holds, as redaction sees it: each string that redaction changes, and for a
 * URL its secret parts (user info, query values, path segments) on their own, so that a message
 * quoting a part (a server's error text may quote a posted value) can be masked with redactText.
 * For values held in memory only, to clean text derived from them; never store the result.
 * `redact`: the redaction that knows the payload (redactIssueSetting for the issue setting).
 */
export function secretsOf(raw: unknown, redact: (raw: unknown) => unknown = redactDeep): string[] {
  const out = new Set<string>()
  const visit = (value: unknown, redacted: unknown): void => {
    if (typeof value === 'string') {
      if (value === redacted) return
      out.add(value)
      // A part the redacted value still shows (a Slack URL's `services`) is no secret.
      for (const part of urlParts(value)) if (typeof redacted !== 'string' || !redacted.includes(part)) out.add(part)
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, Array.isArray(redacted) ? redacted[i] : undefined))
    } else if (value !== null && typeof value === 'object') {
      const other = redacted !== null && typeof redacted === 'object' ? (redacted as Record<string, unknown>) : {}
      for (const key of Object.keys(value)) visit((value as Record<string, unknown>)[key], Object.prototype.hasOwnProperty.call(other, key) ? other[key] : undefined)
    }
  }
  visit(raw, redact(raw))
  // Short ones too: judging server text looks for a secret of any length (src/model/server-text.ts).
  return [...out]
}

function urlParts(text: string): string[] {
  const url = parse(text.trim())
  if (url === null) return []
  const parts = [decode(url.username), decode(url.password), ...url.pathname.split('/').map(decode)]
  for (const [, value] of url.searchParams) parts.push(value)
  if (url.hash.length > 1) parts.push(decode(url.hash.slice(1)))
  return parts.filter((part) => part.length >= 6)
}
