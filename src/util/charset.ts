/**
 * A body's text in the charset it is sent in, or why not: the one decoder of every answer the client
 * reads (settings, listings, and the error answers src/model/server-text.ts judges). Nothing is
 * guessed and nothing is replaced: bytes the charset does not allow, or a charset no decoder here
 * knows, are a problem, never U+FFFD. A setting decoded with replacement characters and posted back
 * would lose every character replaced, and its read-back, decoded the same way, would look unchanged.
 *
 * Which charset: a byte-order mark, when the body starts with one (the WHATWG Encoding Standard's rule,
 * and Jackson's detection), else the Content-Type's `charset=`, else UTF-8, as JSON is. Labels Java
 * means ISO-8859-1 by are decoded byte for byte, as Java (OneDev's Jetty) encodes them (WHATWG's decoder
 * would read them as windows-1252), and Java's `UTF-16` without a mark is big-endian (WHATWG's label
 * means little-endian).
 */
import {Buffer, isUtf8} from 'node:buffer'
import {TextDecoder} from 'node:util'

/** The labels Java means ISO-8859-1 by. */
const LATIN1 = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'iso_8859-1:1987', 'latin1', 'l1', 'ibm819', 'cp819', 'csisolatin1', 'iso-ir-100', '8859_1', 'iso8859_1'])

/** The charset parameter of a Content-Type, lower-cased, or undefined. */
export function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(contentType)
  const label = (match?.[1] ?? match?.[2])?.trim().toLowerCase()
  return label === undefined || label === '' ? undefined : label
}

/** The text and the encoding it was decoded from (WHATWG's name: `utf-8`, `utf-16le`, `iso-8859-1`...), or a problem in our words (the server's label is not repeated). */
export type Decoded = {text: string; encoding: string} | {problem: string}

/** The encoding a byte-order mark at the start of `body` names, and the mark's length. */
function byteOrderMark(body: Uint8Array): {encoding: string; length: number} | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return {encoding: 'utf-8', length: 3}
  if (body[0] === 0xff && body[1] === 0xfe) return {encoding: 'utf-16le', length: 2}
  if (body[0] === 0xfe && body[1] === 0xff) return {encoding: 'utf-16be', length: 2}
  return undefined
}

/** The body as text, in the charset it is sent in (see the module's comment); a problem otherwise. */
export function decodeBody(body: Uint8Array, contentType: string): Decoded {
  const bom = byteOrderMark(body)
  const label = bom?.encoding ?? charsetOf(contentType) ?? 'utf-8'
  const bytes = Buffer.from(body.buffer, body.byteOffset + (bom?.length ?? 0), body.byteLength - (bom?.length ?? 0))
  if (label === 'utf-8' || label === 'utf8') {
    // The common case, without a TextDecoder: validated, then decoded (Buffer's decoder would replace, not refuse).
    return isUtf8(bytes) ? {text: bytes.toString('utf8'), encoding: 'utf-8'} : {problem: 'the body is not valid UTF-8'}
  }
  if (LATIN1.has(label)) return {text: bytes.toString('latin1'), encoding: 'iso-8859-1'}
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(label === 'utf-16' ? 'utf-16be' : label, {fatal: true, ignoreBOM: true})
  } catch {
    return {problem: "the answer's charset is not one this tool decodes"}
  }
  try {
    return {text: decoder.decode(bytes), encoding: decoder.encoding}
  } catch {
    return {problem: `the body is not valid ${decoder.encoding.toUpperCase()}`}
  }
}
