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

/** Containers with this many members get a table of where each starts; smaller ones are added up. */
const LARGE = 32

export class PrettyJsonLines {
  private readonly sizes = new Map<object, number>()
  /**
   * Per container visited, where each member starts (lines after the container's first): built once,
   * so a lookup does not add up the sizes of the members before it again (the server data document
   * has thousands of members: 87 findings there took 0.1 s).
   */
  private readonly starts = new Map<object, Map<string, number> | number[]>()

  constructor(private readonly root: unknown) {}

  /** Lines the value occupies when pretty-printed. */
  private size(value: unknown): number {
    if (value === null || typeof value !== 'object') return 1
    const cached = this.sizes.get(value)
    if (cached !== undefined) return cached
    let lines = 0
    let nested = false
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item !== null && typeof item === 'object') nested = true
        lines += this.size(item)
      }
    } else {
      for (const key of Object.keys(value)) {
        const member = (value as Record<string, unknown>)[key]
        if (member === undefined) continue
        if (member !== null && typeof member === 'object') nested = true
        lines += this.size(member)
      }
    }
    const total = lines === 0 ? 1 : lines + 2
    // A container of primitives is counted again when asked (cheaper than remembering every one).
    if (nested) this.sizes.set(value, total)
    return total
  }

  /** Each item's first line, counted from the array's first line + 1. */
  private itemStarts(array: unknown[]): number[] {
    let known = this.starts.get(array) as number[] | undefined
    if (!known) {
      known = new Array<number>(array.length)
      let offset = 0
      for (let i = 0; i < array.length; i++) {
        known[i] = offset
        offset += this.size(array[i])
      }
      this.starts.set(array, known)
    }
    return known
  }

  /** Each defined member's first line, counted from the object's first line + 1. */
  private memberStarts(record: Record<string, unknown>, keys: string[]): Map<string, number> {
    let known = this.starts.get(record) as Map<string, number> | undefined
    if (!known) {
      known = new Map()
      let offset = 0
      for (const key of keys) {
        const member = record[key]
        if (member === undefined) continue
        known.set(key, offset)
        offset += this.size(member)
      }
      this.starts.set(record, known)
    }
    return known
  }

  /** The 1-based line where the value at `pointer` starts (its key's line, for an object member). */
  lineOf(pointer: string): number {
    return this.positionOf(pointer).line
  }

  /**
   * The 1-based line and column where the value at `pointer` starts (its key, for an object member):
   * a value `depth` levels down is indented by two spaces per level.
   */
  positionOf(pointer: string): {line: number; column: number} {
    const tokens = pointerTokens(pointer) ?? []
    let line = 1
    let depth = 0
    const at = () => ({line, column: 2 * depth + 1})
    let current: unknown = this.root
    for (const token of tokens) {
      if (current === null || typeof current !== 'object') return at()
      let offset = line + 1
      if (Array.isArray(current)) {
        if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return at()
        const index = Number(token)
        if (index < LARGE) for (let i = 0; i < index; i++) offset += this.size(current[i])
        else offset += this.itemStarts(current)[index]!
        current = current[index]
      } else {
        const record = current as Record<string, unknown>
        if (!Object.prototype.hasOwnProperty.call(record, token) || record[token] === undefined) return at()
        let table = this.starts.get(record) as Map<string, number> | undefined
        if (!table) {
          const keys = Object.keys(record)
          if (keys.length < LARGE) {
            for (const key of keys) {
              if (key === token) break
              if (record[key] !== undefined) offset += this.size(record[key])
            }
          } else {
            table = this.memberStarts(record, keys)
          }
        }
        if (table) offset += table.get(token)!
        current = record[token]
      }
      line = offset
      depth++
    }
    return at()
  }
}
