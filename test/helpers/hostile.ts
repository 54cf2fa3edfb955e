/**
 * The hostile corpus: values a server, a file or a colleague may hand the tool, each with where it
 * comes from, read by every test that judges how they are handled. One section per concern; each
 * section is self-contained so that they merge side by side.
 */
import {Buffer} from 'node:buffer'

// ---------------------------------------------------------------------------------------- odd input
// Resources and odd input (issue 25): numbers and keys that JSON.parse/JSON.stringify do not carry
// exactly, charsets other than UTF-8, values nested deeper than any setting, listings without end.

/**
 * Number tokens a Java server may write (Jackson writes a double as `1.0`; a long beyond 2^53, or any
 * token a proxy or a hand-edited setting holds) and what JSON.stringify(JSON.parse(token)) makes of each.
 */
export const NUMBER_TOKENS: ReadonlyArray<{token: string; roundTrip: string; why: string}> = [
  {token: '12345678901234567891e0', roundTrip: '12345678901234567000', why: 'an integer beyond 2^53 in exponent form (the issue\'s maxArtifactBytes)'},
  {token: '9007199254740993', roundTrip: '9007199254740992', why: '2^53 + 1: a Java long JavaScript rounds to its neighbour'},
  {token: '1.0', roundTrip: '1', why: 'how Jackson writes a double holding a whole number'},
  {token: '1E2', roundTrip: '100', why: 'an exponent in capitals'},
  {token: '-0', roundTrip: '0', why: 'negative zero'},
  {token: '0.1000000000000000055511151231257827', roundTrip: '0.1', why: 'more digits than a double keeps'},
  {token: '1e400', roundTrip: 'null', why: 'beyond a double: JSON.stringify writes null'},
]

/** An object whose keys look like numbers: JavaScript moves them to the front of the object. */
export const NUMBER_LIKE_KEYS_TEXT = '{"zeta": 1, "10": "ten", "alpha": 2, "2": "two"}'

/** A secret only ISO-8859-1 carries in one byte a character: served as ISO-8859-1, decoded as UTF-8 it becomes U+FFFD. */
export const LATIN1_SECRET = 'pÄSS-wörd'

/** `text` in the given charset, as a server that honours its own Content-Type would send it. */
export function encodeAs(text: string, charset: 'iso-8859-1' | 'utf-16be-bom' | 'utf-16le'): Buffer {
  if (charset === 'iso-8859-1') return Buffer.from(text, 'latin1')
  if (charset === 'utf-16le') return Buffer.from(text, 'utf16le')
  // Java's "UTF-16" encoder: big-endian with a byte-order mark.
  const le = Buffer.from(text, 'utf16le')
  const be = Buffer.alloc(le.length + 2)
  be[0] = 0xfe
  be[1] = 0xff
  for (let i = 0; i < le.length; i += 2) {
    be[i + 2] = le[i + 1]!
    be[i + 3] = le[i]!
  }
  return be
}

/** A charset label no decoder knows. */
export const UNKNOWN_CHARSET = 'x-klingon-1'

/** Bytes that are not UTF-8 (a lone continuation byte, an overlong slash), in a body that says it is. */
export const INVALID_UTF8 = Buffer.from([0x22, 0x61, 0x80, 0xc0, 0xaf, 0x22])

/** A JSON value nested `depth` levels deep (lists within objects), as text: JSON.parse reads it, recursive code overflows its stack. */
export function deeplyNested(depth = 3000, leaf = '"bottom"'): string {
  return '{"a":['.repeat(depth) + leaf + ']}'.repeat(depth)
}

/**
 * One page of a listing that never ends: `count` distinct roles at `offset`, each padded so that the
 * page is about `pageBytes` long (the pages were 600 KB). Every page differs from the last.
 */
export function endlessRolesPage(offset: number, count: number, pageBytes = 600 * 1024): string {
  const padding = 'x'.repeat(Math.max(0, Math.floor(pageBytes / Math.max(1, count)) - 80))
  const roles = Array.from({length: count}, (_, i) => ({id: offset + i + 1, name: `endless-${offset + i + 1}`, description: padding, manageProject: false}))
  return JSON.stringify(roles)
}
