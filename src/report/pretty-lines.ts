/**
 * Lines of JSON pointers in `JSON.stringify(value, null, 2)`, computed from the value itself
 * without producing the text: a primitive or an empty container takes one line; a non-empty one
 * takes its opening line, its members' lines and its closing line. Line counts of subtrees are
 * memoized, so locating many findings in one large payload costs one pass over it.
 *
 * Values are parsed JSON (no toJSON, no functions); `undefined` members are skipped as
 * JSON.stringify skips them. A pointer that does not resolve gives the line of its deepest existing
 * parent, like the text locator in pointer-line.ts.
 */
import {pointerTokens} from './pointer-line.js'

export class PrettyJsonLines {
  private readonly sizes = new WeakMap<object, number>()

  constructor(private readonly root: unknown) {}

  /** Lines the value occupies when pretty-printed. */
  private size(value: unknown): number {
    if (value === null || typeof value !== 'object') return 1
    const cached = this.sizes.get(value)
    if (cached !== undefined) return cached
    let lines = 0
    if (Array.isArray(value)) {
      for (const item of value) lines += this.size(item)
    } else {
      for (const key of Object.keys(value)) {
        const member = (value as Record<string, unknown>)[key]
        if (member !== undefined) lines += this.size(member)
      }
    }
    const total = lines === 0 ? 1 : lines + 2
    this.sizes.set(value, total)
    return total
  }

  /** The 1-based line where the value at `pointer` starts (its key's line, for an object member). */
  lineOf(pointer: string): number {
    const tokens = pointerTokens(pointer) ?? []
    let line = 1
    let current: unknown = this.root
    for (const token of tokens) {
      if (current === null || typeof current !== 'object') return line
      let offset = line + 1
      if (Array.isArray(current)) {
        if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return line
        const index = Number(token)
        for (let i = 0; i < index; i++) offset += this.size(current[i])
        current = current[index]
      } else {
        const record = current as Record<string, unknown>
        if (!Object.prototype.hasOwnProperty.call(record, token) || record[token] === undefined) return line
        for (const key of Object.keys(record)) {
          if (key === token) break
          if (record[key] !== undefined) offset += this.size(record[key])
        }
        current = record[token]
      }
      line = offset
    }
    return line
  }
}
