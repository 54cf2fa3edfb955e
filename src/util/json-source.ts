/**
 * Writing a JSON value back as the text it was read from said it, wherever it is unchanged.
 *
 * JSON.parse and JSON.stringify do not round-trip: a number is rewritten in JavaScript's shortest
 * form (`12345678901234567891e0` becomes `12345678901234567000`, an integer beyond 2^53 its
 * neighbour, Jackson's `1.0` becomes `1`) and keys that look like numbers move to the front of their
 * object. `stringifyLike(value, text)` writes `value` taking from `text` (the JSON it was parsed from)
 * every unchanged number, string and key as it was written there, in its order, and every unchanged
 * object or list whole, white space included; only what differs is written by JSON.stringify. Node 20's
 * JSON.parse gives no source text, so `text` is read here once more, into where each value lies.
 *
 * The text must be valid JSON (JSON.parse read it) and no deeper than the caller allows: the walk is
 * recursive. An object that names a member twice has no one meaning (JSON.parse keeps the last one, other
 * readers the first): sourceOf says so, and the caller refuses to write it back.
 */

interface Span {
  start: number
  end: number
}

export type SourceNode = Span &
  ({kind: 'object'; members: {key: string; keyText: string; value: SourceNode}[]} | {kind: 'array'; items: SourceNode[]} | {kind: 'scalar'})

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y

/** Where each value of valid JSON `text` lies; `duplicate`: the offset of a member named twice in one object, if any. */
export function sourceOf(text: string): {root: SourceNode; duplicate: number | null} {
  let i = 0
  let duplicate: number | null = null
  const ws = () => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xfeff; c = text.charCodeAt(++i));
  }
  // The offset after the closing quote of the string opening at `start`: the next quote not escaped
  // (an odd run of backslashes before it). No regular expression: one would overflow on a long string.
  const stringEnd = (start: number): number => {
    for (let quote = text.indexOf('"', start + 1); quote >= 0; quote = text.indexOf('"', quote + 1)) {
      let backslashes = 0
      while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++
      if (backslashes % 2 === 0) return quote + 1
    }
    throw new Error('not valid JSON')
  }
  const value = (): SourceNode => {
    ws()
    const start = i
    const c = text[i]
    if (c === '{') {
      i++
      const members: {key: string; keyText: string; value: SourceNode}[] = []
      const seen = new Set<string>()
      ws()
      if (text[i] === '}') return {kind: 'object', start, end: ++i, members}
      for (;;) {
        ws()
        const keyStart = i
        i = stringEnd(i)
        const keyText = text.slice(keyStart, i)
        const key = JSON.parse(keyText) as string
        if (seen.has(key)) duplicate ??= keyStart
        seen.add(key)
        ws()
        i++ // ':'
        members.push({key, keyText, value: value()})
        ws()
        if (text[i++] === '}') return {kind: 'object', start, end: i, members}
      }
    }
    if (c === '[') {
      i++
      const items: SourceNode[] = []
      ws()
      if (text[i] === ']') return {kind: 'array', start, end: ++i, items}
      for (;;) {
        items.push(value())
        ws()
        if (text[i++] === ']') return {kind: 'array', start, end: i, items}
      }
    }
    if (c === '"') {
      i = stringEnd(i)
      return {kind: 'scalar', start, end: i}
    }
    SCALAR.lastIndex = i
    if (!SCALAR.test(text)) throw new Error('not valid JSON')
    i = SCALAR.lastIndex
    return {kind: 'scalar', start, end: i}
  }
  return {root: value(), duplicate}
}

/** The value as JSON, unchanged parts exactly as `text` (parsed into `root` by sourceOf) writes them. */
export function stringifyLike(value: unknown, text: string, root: SourceNode): string {
  return write(value, root, text).json
}

interface Written {
  json: string
  /** Whether the value is the node's as `text` writes it (its text is then the node's own). */
  same: boolean
}

function fresh(value: unknown): Written {
  return {json: JSON.stringify(value) ?? 'null', same: false}
}

function write(value: unknown, node: SourceNode | undefined, text: string): Written {
  if (node === undefined) return fresh(value)
  if (value === null || typeof value !== 'object') {
    if (node.kind !== 'scalar') return fresh(value)
    const raw = text.slice(node.start, node.end)
    return Object.is(JSON.parse(raw), value) ? {json: raw, same: true} : fresh(value)
  }
  if (Array.isArray(value)) return node.kind === 'array' ? writeArray(value, node.items, node, text) : fresh(value)
  if (node.kind !== 'object') return fresh(value)
  const object = value as Record<string, unknown>
  const own = new Set(Object.keys(object))
  const parts: string[] = []
  // The same members (none missing, none added), each the same.
  let same = own.size === node.members.length
  // The members as the text orders them, then those it did not have.
  for (const member of node.members) {
    if (!own.has(member.key)) {
      same = false
      continue
    }
    own.delete(member.key)
    const written = write(object[member.key], member.value, text)
    same &&= written.same
    parts.push(`${member.keyText}:${written.json}`)
  }
  for (const key of own) parts.push(`${JSON.stringify(key)}:${fresh(object[key]).json}`)
  return same ? {json: text.slice(node.start, node.end), same} : {json: `{${parts.join(',')}}`, same}
}

/**
 * A list: items paired with the text's by position from the front while they are the same, and from
 * the back, so that an item inserted or removed in the middle leaves the others written as they were;
 * those left between are paired by position.
 */
function writeArray(items: readonly unknown[], nodes: readonly SourceNode[], node: SourceNode, text: string): Written {
  const out: Written[] = new Array<Written>(items.length)
  let front = 0
  while (front < items.length && front < nodes.length) {
    const written = write(items[front], nodes[front], text)
    out[front] = written
    if (!written.same) break
    front++
  }
  let back = 0
  while (back < items.length - front && back < nodes.length - front) {
    const at = items.length - 1 - back
    const written = write(items[at], nodes[nodes.length - 1 - back], text)
    if (!written.same) break
    out[at] = written
    back++
  }
  for (let i = front; i < items.length - back; i++) out[i] ??= write(items[i], nodes[i < nodes.length - back ? i : -1], text)
  const same = items.length === nodes.length && out.every((written) => written.same)
  return same ? {json: text.slice(node.start, node.end), same} : {json: `[${out.map((written) => written.json).join(',')}]`, same}
}
