/**
 * lineOfPointer: the 1-based line where the value at an RFC 6901 JSON pointer starts in a JSON text
 * (for an object member, the line of its key). A small scanner, no parser: it walks only the path
 * the pointer names and skips everything else, so it works on any formatting, and when the pointer
 * goes further than the text it answers the line of the deepest part that exists (or line 1).
 */

/** Splits an RFC 6901 pointer into unescaped reference tokens; null when it is not a pointer. */
export function pointerTokens(pointer: string): string[] | null {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) return null
  const tokens = pointer.slice(1).split('/')
  return pointer.includes('~') ? tokens.map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~')) : tokens
}

/** Offsets of the first character of every line after the first. */
function lineStarts(text: string): number[] {
  const starts: number[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) starts.push(i + 1)
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1)
  }
  return starts
}

function lineAt(starts: number[], offset: number): number {
  let low = 0
  let high = starts.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (starts[mid]! <= offset) low = mid + 1
    else high = mid
  }
  return low + 1
}

class Scanner {
  constructor(readonly text: string) {}

  /** Index of the next non-whitespace character at or after `i`. */
  skipSpace(i: number): number {
    const {text} = this
    while (i < text.length) {
      const c = text.charCodeAt(i)
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break
      i++
    }
    return i
  }

  /** `i` at an opening quote: index just past the closing quote, or -1 when unterminated. */
  skipString(i: number): number {
    const {text} = this
    for (let j = i + 1; j < text.length; j++) {
      const c = text.charCodeAt(j)
      if (c === 92) j++
      else if (c === 34) return j + 1
    }
    return -1
  }

  /** `i` at the start of a value: index just past it, or -1 when the text ends first. Iterative, so deep nesting cannot overflow the stack. */
  skipValue(i: number): number {
    const {text} = this
    let depth = 0
    let j = i
    while (j < text.length) {
      const c = text.charCodeAt(j)
      if (c === 34) {
        j = this.skipString(j)
        if (j < 0) return -1
        if (depth === 0) return j
        continue
      }
      if (c === 123 || c === 91) depth++
      else if (c === 125 || c === 93) {
        if (depth === 0) return j > i ? j : -1
        depth--
        if (depth === 0) return j + 1
      } else if (depth === 0 && (c === 44 || c === 58 || c === 32 || c === 9 || c === 10 || c === 13)) {
        return j > i ? j : -1
      }
      j++
    }
    return depth === 0 && j > i ? j : -1
  }

  decodeString(start: number, end: number): string | null {
    try {
      const value: unknown = JSON.parse(this.text.slice(start, end))
      return typeof value === 'string' ? value : null
    } catch {
      return null
    }
  }

  /**
   * `i` at `{`: the offsets of the key and the value of the LAST member named `name` (as
   * JSON.parse keeps the last duplicate), or null.
   */
  findMember(i: number, name: string): {key: number; value: number} | null {
    const {text} = this
    let found: {key: number; value: number} | null = null
    let j = this.skipSpace(i + 1)
    while (j < text.length && text.charCodeAt(j) !== 125) {
      if (text.charCodeAt(j) !== 34) return found
      const keyEnd = this.skipString(j)
      if (keyEnd < 0) return found
      const key = this.decodeString(j, keyEnd)
      let k = this.skipSpace(keyEnd)
      if (text.charCodeAt(k) !== 58) return found
      k = this.skipSpace(k + 1)
      if (key === name) found = {key: j, value: k}
      const valueEnd = this.skipValue(k)
      if (valueEnd < 0) return found
      j = this.skipSpace(valueEnd)
      if (text.charCodeAt(j) === 44) j = this.skipSpace(j + 1)
      else break
    }
    return found
  }

  /** `i` at `[`: the offset of element `index`, or null. */
  findElement(i: number, index: number): number | null {
    const {text} = this
    let j = this.skipSpace(i + 1)
    let n = 0
    while (j < text.length && text.charCodeAt(j) !== 93) {
      if (n === index) return j
      const valueEnd = this.skipValue(j)
      if (valueEnd < 0) return null
      j = this.skipSpace(valueEnd)
      if (text.charCodeAt(j) === 44) j = this.skipSpace(j + 1)
      else break
      n++
    }
    return null
  }
}

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/

/** Offset where the value (or member key) named by the pointer starts, or of its deepest existing parent. */
export function offsetOfPointer(text: string, pointer: string): number {
  const tokens = pointerTokens(pointer)
  const scanner = new Scanner(text)
  let value = scanner.skipSpace(0)
  if (value >= text.length) return 0
  let best = value
  if (!tokens) return best
  for (const token of tokens) {
    const c = text.charCodeAt(value)
    if (c === 123) {
      const member = scanner.findMember(value, token)
      if (!member) return best
      best = member.key
      value = member.value
    } else if (c === 91) {
      if (!ARRAY_INDEX.test(token)) return best
      const element = scanner.findElement(value, Number(token))
      if (element === null) return best
      best = element
      value = element
    } else {
      return best
    }
  }
  return best
}

/** The 1-based line of the value at `pointer` in `jsonText` (of the key, for an object member). */
export function lineOfPointer(jsonText: string, pointer: string): number {
  return lineAt(lineStarts(jsonText), offsetOfPointer(jsonText, pointer))
}

/** A JSON text with its line table, for many lookups in one text. */
export class JsonLines {
  private readonly starts: number[]
  constructor(readonly text: string) {
    this.starts = lineStarts(text)
  }

  lineOf(pointer: string): number {
    return lineAt(this.starts, offsetOfPointer(this.text, pointer))
  }

  /** The 1-based line and column (in UTF-16 code units) where the value at `pointer` starts. */
  positionOf(pointer: string): {line: number; column: number} {
    const offset = offsetOfPointer(this.text, pointer)
    const line = lineAt(this.starts, offset)
    return {line, column: offset - (line === 1 ? 0 : this.starts[line - 2]!) + 1}
  }
}
