/**
 * Making hostile strings safe to show. Every string that came from a server (project paths, role
 * names, branch names, messages built from them) goes through one of these before it reaches a
 * terminal, a log or a markdown document.
 */

const NAMED: Record<string, string> = {
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
}

/**
 * C0 and C1 control characters, DEL, bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069), the line and paragraph separators (U+2028, U+2029) and lone surrogates.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
/** Every character UNSAFE may match (any surrogate, not only lone ones): a quick first test. */
// eslint-disable-next-line no-control-regex
const MAYBE_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/

function visibleEscape(char: string): string {
  const named = NAMED[char]
  if (named) return named
  const code = char.charCodeAt(0)
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * Shows control characters as visible escapes: ESC (and so every ANSI sequence) as `\x1b`, a
 * newline as `\n`, a right-to-left override as `\u202e`. Backslashes are left alone.
 */
export function escapeControl(s: string): string {
  // Almost every string is clean: one pass with a plain character class, then the full pattern
  // (whose surrogate look-arounds are slow) only where there is something to escape.
  return MAYBE_UNSAFE.test(s) ? s.replace(UNSAFE, visibleEscape) : s
}

const MARKDOWN_SPECIAL = /[\\`*_[\]|~]/g
const HTML_SPECIAL: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;'}

/**
 * Text safe to place anywhere inline in GitHub-flavoured markdown (a table cell, a heading, a list
 * item): control characters escaped, markdown punctuation backslash-escaped, `<`, `>` and `&` as
 * entities so no HTML can form, a leading `#` escaped, and `@` followed by a zero-width space so a
 * name like `@org/team` from the server cannot mention anyone in a pull request comment.
 */
export function escapeMarkdown(s: string): string {
  return escapeControl(s)
    .replace(MARKDOWN_SPECIAL, (char) => `\\${char}`)
    .replace(/[&<>]/g, (char) => HTML_SPECIAL[char] ?? char)
    .replace(/^(\s*)#/, '$1\\#')
    .replace(/@/g, '@\u200b')
}

/**
 * One line of at most `max` characters: whitespace runs (newlines included) collapsed to one space,
 * trimmed, other control characters escaped, and cut with `…` when longer.
 */
export function oneLine(s: string, max = 200): string {
  const line = escapeControl(s.replace(/\s+/g, ' ').trim())
  if (line.length <= max) return line
  if (max <= 0) return ''
  let cut = max - 1
  // Do not split a surrogate pair.
  if (cut > 0 && /[\ud800-\udbff]/.test(line.charAt(cut - 1))) cut--
  return `${line.slice(0, cut)}…`
}
