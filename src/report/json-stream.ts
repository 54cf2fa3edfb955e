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
  ) {}
}

/** A JSON object with a lazy part somewhere inside (plain values are serialized whole). */
export class LazyObject {
  constructor(readonly properties: Readonly<Record<string, unknown>>) {}
}

/** How a formatter builds the containers of a document: plain values at once, or lazy ones for writing. */
export interface JsonBuilder {
  list<T>(items: readonly T[], map: (item: T) => unknown): unknown
  /** An object holding a lazy list somewhere inside. */
  object(properties: Record<string, unknown>): unknown
}

export const EAGER: JsonBuilder = {list: (items, map) => items.map(map), object: (properties) => properties}
export const LAZY: JsonBuilder = {list: (items, map) => new LazyArray(items, map), object: (properties) => new LazyObject(properties)}

const INDENT = '  '

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
    let open = '['
    for (const raw of value.items) {
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
