/**
 * JSON.parse with a useful error: `file:line:column: invalid JSON: what was expected`. Node 20's own
 * messages often give no position, and they quote the input, which may hold a secret: on failure a
 * small scanner finds where the text goes wrong and says why in its own words, quoting nothing.
 */

/** A JSON object: not null, not a list. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * JSON with the members of every object sorted (by UTF-16 code units), no whitespace, numbers and
 * strings as JSON.stringify writes them: RFC 8785's canonical form (JCS) of a JSON value, so equal
 * values give equal text whatever their key order or layout. Members whose value JSON.stringify
 * leaves out (undefined) are left out here too: the text is that of the value as written and read back.
 * `known`: the text of some objects, made before by this function (an undo record rewritten as each
 * project is settled: its projects' records, which do not change once made), used as it is.
 */
export function canonicalJson(value: unknown, known?: ReadonlyWeakMap<object, string>): string {
  if (Array.isArray(value)) return `[${value.map((item) => (omittedMember(item) ? 'null' : canonicalJson(item, known))).join(',')}]`
  if (!isObject(value)) return JSON.stringify(value) ?? 'null'
  return (
    known?.get(value) ??
    `{${Object.keys(value)
      .filter((key) => !omittedMember(value[key]))
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key], known)}`)
      .join(',')}}`
  )
}

/**
 * canonicalJson's text of `value` in pieces (their concatenation is that text), its objects and lists
 * split down to `depth` levels, below which each is one piece: for a reader that consumes text piece
 * by piece (a hash) and need not build a large value's text whole.
 */
export function* canonicalPieces(value: unknown, depth: number, known?: ReadonlyWeakMap<object, string>): Generator<string, void, undefined> {
  const cached = isObject(value) ? known?.get(value) : undefined
  if (depth <= 0 || cached !== undefined || (!Array.isArray(value) && !isObject(value))) {
    yield cached ?? canonicalJson(value, known)
    return
  }
  if (Array.isArray(value)) {
    yield '['
    for (const [i, item] of value.entries()) {
      if (i > 0) yield ','
      yield* canonicalPieces(omittedMember(item) ? null : item, depth - 1, known)
    }
    yield ']'
    return
  }
  const keys = Object.keys(value)
    .filter((key) => !omittedMember(value[key]))
    .sort()
  yield '{'
  for (const [i, key] of keys.entries()) {
    yield `${i > 0 ? ',' : ''}${JSON.stringify(key)}:`
    yield* canonicalPieces(value[key], depth - 1, known)
  }
  yield '}'
}

/** What canonicalJson reads of a WeakMap. */
export type ReadonlyWeakMap<K extends object, V> = Pick<WeakMap<K, V>, 'get' | 'has'>

/** What JSON.stringify leaves out of an object (and writes as null in a list). */
const omittedMember = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol'

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message)
    this.name = 'JsonSyntaxError'
  }
}

/** Offset and reason of the first syntax error in `text`, or null when it is valid JSON. */
export function findJsonSyntaxError(text: string): {offset: number; reason: string} | null {
  let i = 0
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const fail = (reason: string): never => {
    throw {offset: i, reason}
  }
  const describe = () => (i >= text.length ? 'end of input' : 'character')
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length
    else fail(`unexpected ${describe()}`)
  }
  const string = () => {
    const start = i
    i++ // opening quote
    while (i < text.length) {
      const c = text[i]!
      if (c === '"') {
        i++
        return
      }
      if (c === '\\') {
        const next = text[i + 1]
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape in a string')
          i += 6
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2
        else fail('bad escape in a string')
      } else if (c < ' ') fail('control character in a string (escape it)')
      else i++
    }
    i = start
    fail('unterminated string')
  }
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))
    if (!match || match[0] === '' || match[0] === '-') fail(`unexpected ${describe()}`)
    i += match![0].length
  }
  const value = (depth: number): void => {
    if (depth > 512) fail('nested too deeply')
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        if (text[i] !== '"') fail(i >= text.length ? 'unexpected end of input' : 'expected a property name in double quotes')
        string()
        ws()
        if (text[i] !== ':') fail(i >= text.length ? 'unexpected end of input' : "expected ':' after a property name")
        i++
        value(depth + 1)
        ws()
        if (text[i] === ',') {
          i++
          ws()
          if (text[i] === '}') fail("trailing comma before '}'")
          continue
        }
        if (text[i] === '}') {
          i++
          return
        }
        fail(i >= text.length ? 'unexpected end of input' : "expected ',' or '}'")
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return
      }
      for (;;) {
        value(depth + 1)
        ws()
        if (text[i] === ',') {
          i++
          ws()
          if (text[i] === ']') fail("trailing comma before ']'")
          continue
        }
        if (text[i] === ']') {
          i++
          return
        }
        fail(i >= text.length ? 'unexpected end of input' : "expected ',' or ']'")
      }
    }
    if (c === '"') return string()
    if (c === 't') return literal('true')
    if (c === 'f') return literal('false')
    if (c === 'n') return literal('null')
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number()
    fail(`unexpected ${describe()}`)
  }
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1
    value(0)
    ws()
    if (i < text.length) fail('unexpected content after the JSON value')
    return null
  } catch (error) {
    if (error && typeof error === 'object' && 'offset' in error) return error as {offset: number; reason: string}
    throw error
  }
}

/**
 * How deep any JSON a server answers may nest: OneDev's deepest payloads (an issue setting's field
 * specs, a job executor) nest about ten levels. Code that walks a value recursively (redaction,
 * comparison, copying, JSON.stringify itself) overflows its stack some thousands of levels down:
 * a deeper value is refused where it comes in, so that none of it has to be guarded.
 */
export const MAX_SERVER_DEPTH = 64
/** How deep a file may nest: what the tool writes holds server payloads a few levels down. */
export const MAX_FILE_DEPTH = 128

/**
 * Whether a parsed JSON value nests deeper than `max` levels (objects and lists; a scalar is level 0).
 * Walked with a stack of its own, not recursion: it is what makes recursion safe afterwards. It visits
 * objects and lists only, so it costs a fraction of the parse (the text scan below is for saying where).
 */
export function nestedDeeper(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false
  const stack: unknown[] = [value]
  const depths: number[] = [1]
  while (stack.length > 0) {
    const current = stack.pop() as Record<string, unknown> | unknown[]
    const depth = depths.pop()!
    if (depth > max) return true
    const children = Array.isArray(current) ? current : Object.values(current)
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        stack.push(child)
        depths.push(depth + 1)
      }
    }
  }
  return false
}

/** The offset of the first `{` or `[` that opens a level deeper than `max`, or null. Strings are skipped. */
export function tooDeep(text: string, max: number): number | null {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === 0x22) break
        if (d === 0x5c) i++
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return i
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    }
  }
  return null
}

export function lineAndColumn(text: string, offset: number): {line: number; column: number} {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return {line, column: offset - before.lastIndexOf('\n')}
}

/**
 * Parses JSON; a syntax error becomes `label:line:column: invalid JSON: reason`, a value nested
 * deeper than `maxDepth` levels (MAX_FILE_DEPTH, MAX_SERVER_DEPTH) `label:line:column: nested deeper than N levels`.
 */
export function parseJson(text: string, label: string, maxDepth = MAX_FILE_DEPTH): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // JSON.parse's own message quotes the input, which may hold a secret: say where, in our words.
    const found = findJsonSyntaxError(text) ?? {offset: 0, reason: 'not valid JSON'}
    const {line, column} = lineAndColumn(text, found.offset)
    throw new JsonSyntaxError(`${label}:${line}:${column}: invalid JSON: ${found.reason}`, line, column)
  }
  if (nestedDeeper(value, maxDepth)) {
    const {line, column} = lineAndColumn(text, tooDeep(text, maxDepth) ?? 0)
    throw new JsonSyntaxError(`${label}:${line}:${column}: nested deeper than ${maxDepth} levels, which nothing this tool reads is: refused`, line, column)
  }
  return value
}
