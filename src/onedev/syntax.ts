/** Small lexing helpers shared by OneDev's little languages (pattern sets, userMatch, review requirements). */

/** Java's StringUtils.unescape (`\\(.)` → `$1`): `.` does not match line terminators, so those stay escaped. */
export function unescape(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const next = text[i + 1]
    if (text[i] === '\\' && next !== undefined && !'\n\r\u0085\u2028\u2029'.includes(next)) {
      out += next
      i++
    } else {
      out += text[i]
    }
  }
  return out
}

/**
 * Reads the ANTLR token `Value: '(' ('\\'. | ~[()\\])+? ')'` starting at `start` (a '('): at least
 * one character, `\` escapes the next one, an unescaped '(' is an error. Returns the unescaped
 * value and the index after ')'; calls `fail` with a message otherwise.
 */
export function readParenValue(text: string, start: number, fail: (message: string) => never): {value: string; end: number} {
  let j = start + 1
  let raw = ''
  while (j < text.length && text[j] !== ')') {
    if (text[j] === '\\') {
      if (j + 1 >= text.length) break
      raw += text.slice(j, j + 2)
      j += 2
    } else if (text[j] === '(') {
      return fail(`unescaped "(" at position ${j + 1}`)
    } else {
      raw += text[j]
      j++
    }
  }
  if (j >= text.length) return fail(`unterminated "(" at position ${start + 1}`)
  if (raw.length === 0) return fail(`empty name at position ${start + 1}`)
  return {value: unescape(raw), end: j + 1}
}
