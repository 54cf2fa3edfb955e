/**
 * `JSON.stringify(value, null, 2)`, written piece by piece: the long arrays of a report (findings,
 * SARIF results) are `LazyArray`s whose items are built and serialized only when the writer gets
 * to them, so a report of 50,000 findings is never one 40 MB string. The text is byte-for-byte what
 * `JSON.stringify(value, null, 2)` gives for the same plain value.
 */

/** A JSON array whose items are produced (and mapped) while it is written. */
export class LazyArray<T = unknown> {
  constructor(
    readonly items: Iterable<T>,
    readonly map?: (item: T) => unknown,
    /** The text of `map(item)` at a depth, written by hand (see `jsonString`); undefined: serialize `map(item)` instead. */
    readonly text?: (item: T, depth: number) => string | undefined,
  ) {}
}

/** A JSON object with a lazy part somewhere inside (plain values are serialized whole). */
export class LazyObject {
  constructor(readonly properties: Readonly<Record<string, unknown>>) {}
}

/** How a formatter builds the containers of a document: plain values at once, or lazy ones for writing. */
export interface JsonBuilder {
  /** `text`, for the lazy builder: `map(item)`'s text written by hand, faster than serializing it (LazyArray). */
  list<T>(items: readonly T[], map: (item: T) => unknown, text?: (item: T, depth: number) => string | undefined): unknown
  /** An object holding a lazy list somewhere inside. */
  object(properties: Record<string, unknown>): unknown
}

export const EAGER: JsonBuilder = {list: (items, map) => items.map(map), object: (properties) => properties}
export const LAZY: JsonBuilder = {list: (items, map, text) => new LazyArray(items, map, text), object: (properties) => new LazyObject(properties)}

const INDENT = '  '

/** What JSON.stringify escapes in a string (any surrogate: a paired one is left to JSON.stringify too). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/

/** JSON.stringify(text) for a string, without calling it when nothing needs escaping (most report strings). */
export function jsonString(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`
}

/** JSON.stringify(value) for a number. */
export function jsonNumber(value: number): string {
  return Number.isFinite(value) ? `${value}` : 'null'
}

/** The line break and indentation of each depth: `\n` and two spaces per level. */
export function indentOf(depth: number): string {
  return INDENTS[depth] ?? `\n${INDENT.repeat(depth)}`
}

const INDENTS = Array.from({length: 8}, (_, depth) => `\n${INDENT.repeat(depth)}`)

/**
 * One plain value at a nesting depth: JSON.stringify's text, its inner lines indented to the depth.
 * The value is serialized inside `depth` one-item arrays and cut out of them, which indents it in the
 * same pass (a second pass over the text to indent it cost a quarter more).
 */
function plain(value: unknown, depth: number): string {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return 'null'
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (depth === 0) return JSON.stringify(value, null, INDENT)
  let wrapped: unknown = value
  for (let level = 0; level < depth; level++) wrapped = [wrapped]
  const text = JSON.stringify(wrapped, null, INDENT)
  // Level i opens with `[`, a newline and 2(i + 1) spaces, and closes with a newline, 2i spaces and `]`.
  return text.slice(2 * depth + depth * (depth + 1), text.length - (2 * depth + depth * (depth - 1)))
}

/** Whether JSON.stringify leaves this property out of an object. */
const omitted = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol'

/** The pretty-printed JSON text of `value` in pieces (no final newline). */
export function* prettyJson(value: unknown, depth = 0): Generator<string, void, undefined> {
  if (value instanceof LazyObject) {
    const inner = `\n${INDENT.repeat(depth + 1)}`
    let open = '{'
    for (const key of Object.keys(value.properties)) {
      const property = value.properties[key]
      if (omitted(property)) continue
      const head = `${open}${inner}${JSON.stringify(key)}: `
      open = ','
      if (property instanceof LazyObject || property instanceof LazyArray) {
        yield head
        yield* prettyJson(property, depth + 1)
      } else {
        yield head + plain(property, depth + 1)
      }
    }
    yield open === '{' ? '{}' : `\n${INDENT.repeat(depth)}}`
  } else if (value instanceof LazyArray) {
    const inner = `\n${INDENT.repeat(depth + 1)}`
    const map = (value as LazyArray).map
    const text = (value as LazyArray).text
    let open = '['
    for (const raw of value.items) {
      const written = text?.(raw, depth + 1)
      if (written !== undefined) {
        yield open + inner + written
        open = ','
        continue
      }
      const item = map ? map(raw) : raw
      if (item instanceof LazyObject || item instanceof LazyArray) {
        yield open + inner
        yield* prettyJson(item, depth + 1)
      } else {
        yield open + inner + plain(item, depth + 1)
      }
      open = ','
    }
    yield open === '[' ? '[]' : `\n${INDENT.repeat(depth)}]`
  } else {
    yield plain(value, depth)
  }
}

/** A JSON document: its text in pieces, ending with one newline. */
export function* jsonDocument(value: unknown): Generator<string, void, undefined> {
  yield* prettyJson(value)
  yield '\n'
}
