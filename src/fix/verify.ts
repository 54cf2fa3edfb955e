/**
 * Verifying what the server sent back after a POST, against what was sent: every edited field holds
 * its new value and every other field is as it was (secrets compared in memory, never shown: a
 * difference is named by its pointer only). The one leeway: an object the change inserts (a new
 * protection) may come back with more members than were sent, the server's defaults for the fields
 * the plan left out; the members that were sent must come back as sent.
 */
import {joinPointer} from '../model/pointer.js'
import {isObject} from '../util/json.js'

const MAX_SHOWN = 5

/** Pointers where `actual` differs from `expected` (at most a few), `''` for the whole document. */
export function differences(actual: unknown, expected: unknown, inserted: ReadonlySet<object> = new Set()): string[] {
  const out: string[] = []
  const visit = (a: unknown, e: unknown, at: string): void => {
    if (out.length >= MAX_SHOWN || a === e) return
    if (Array.isArray(e)) {
      if (!Array.isArray(a) || a.length !== e.length) {
        out.push(at)
        return
      }
      for (let i = 0; i < e.length; i++) visit(a[i], e[i], joinPointer(at, i))
      return
    }
    if (isObject(e)) {
      if (!isObject(a)) {
        out.push(at)
        return
      }
      const keys = Object.keys(e)
      const extra = Object.keys(a).filter((key) => !Object.prototype.hasOwnProperty.call(e, key))
      if (extra.length > 0 && !inserted.has(e)) {
        out.push(joinPointer(at, extra[0]!))
        return
      }
      for (const key of keys) {
        if (!Object.prototype.hasOwnProperty.call(a, key)) out.push(joinPointer(at, key))
        else visit(a[key], e[key], joinPointer(at, key))
      }
      return
    }
    // Two values that are not lists or objects, and not === above (a 1.0 sent that comes back as 1 is the same number).
    out.push(at)
  }
  visit(actual, expected, '')
  return out
}

/** `/a/b, /c and 2 more`, or `the whole setting`. */
export function describePointers(pointers: readonly string[]): string {
  const names = pointers.map((p) => (p === '' ? 'the whole setting' : p))
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}
