/**
 * A body's text in the charset its Content-Type names (UTF-8 when it names none, as JSON is), or
 * why not. Nothing is guessed and nothing is replaced: bytes the charset does not allow, or a
 * charset no decoder here knows, are a refusal, never U+FFFD. A setting decoded with replacement
 * characters and posted back would lose every character replaced, and its read-back, decoded the
 * same way, would look unchanged.
 */
import {type Buffer, isUtf8} from 'node:buffer'
import {TextDecoder} from 'node:util'

/** The labels Java (and so OneDev's Jetty) means ISO-8859-1 by: decoded byte for byte (WHATWG's decoder would read them as windows-1252). */
const LATIN1 = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'iso_8859-1:1987', 'latin1', 'l1', 'ibm819', 'cp819', 'csisolatin1', 'iso-ir-100', '8859_1', 'iso8859_1'])

/** The charset parameter of a Content-Type, lower-cased, or undefined. */
export function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType)
  const label = (match?.[1] ?? match?.[2])?.trim().toLowerCase()
  return label === undefined || label === '' ? undefined : label
}

export type Decoded = {text: string} | {problem: string}

/** The body as text, in the charset of `contentType`; a problem (our words, the label cut short) otherwise. */
export function decodeBody(body: Buffer, contentType: string): Decoded {
  const label = charsetOf(contentType) ?? 'utf-8'
  if (label === 'utf-8' || label === 'utf8') {
    if (!isUtf8(body)) return {problem: 'the body is not valid UTF-8'}
    const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf
    return {text: body.toString('utf8', bom ? 3 : 0)}
  }
  if (LATIN1.has(label)) return {text: body.toString('latin1')}
  // Java's UTF-16 is big-endian unless a byte-order mark says otherwise; WHATWG's label means little-endian.
  const encoding = label === 'utf-16' ? (body[0] === 0xff && body[1] === 0xfe ? 'utf-16le' : 'utf-16be') : label
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(encoding, {fatal: true})
  } catch {
    return {problem: `the answer's charset ${JSON.stringify(label.slice(0, 40))} is not one this tool decodes`}
  }
  try {
    return {text: decoder.decode(body)}
  } catch {
    return {problem: `the body is not valid ${decoder.encoding} (the charset the answer names)`}
  }
}

/** The Content-Type of what the client sends: JSON, said to be UTF-8 (JSON.stringify escapes lone surrogates, so it always is). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'
