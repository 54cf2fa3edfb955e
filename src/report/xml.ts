/**
 * XML for the reports OneDev reads (Checkstyle, JUnit): text that is a well-formed XML 1.0 document
 * whatever the server sent. Every string goes through `xmlText` (attribute values, one line) or
 * `xmlLines` (element text, lines joined with newlines): control and bidi characters are shown as
 * escapes as in every other format (src/util/escape.ts), the two characters XML 1.0 does not allow at
 * all (U+FFFE, U+FFFF) too, then `& < > " '` become entities.
 */
import {escapeControl} from '../util/escape.js'

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'

const ENTITY: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;'}

/** One line of text safe in an XML attribute value (quoted with `"`) or element: nothing in it can end the value or form markup. */
export function xmlText(s: string): string {
  return escapeControl(s).replace(/[&<>"'\ufffe\uffff]/g, (char) => ENTITY[char] ?? `\\u${char.charCodeAt(0).toString(16)}`)
}

/** Lines as the text of an element: each line as `xmlText`, joined with newlines (the only control character left). */
export function xmlLines(lines: readonly string[]): string {
  return lines.map(xmlText).join('\n')
}

/** ` name="value"` for each defined attribute, values through `xmlText`. */
export function xmlAttributes(attributes: Record<string, string | number | undefined>): string {
  let out = ''
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) out += ` ${name}="${xmlText(String(value))}"`
  }
  return out
}
