/** Reports as pieces of text: what the formatters produce and the writers consume. */

/** A report's text in pieces, in order, and warnings for stderr (known before the first piece). */
export interface ReportChunks {
  chunks: Iterable<string>
  warnings: string[]
}

/** The whole text of the pieces (for tests and small reports). */
export function textOf(chunks: Iterable<string>): string {
  let text = ''
  for (const chunk of chunks) text += chunk
  return text
}

/** Lines as text, each followed by a newline: `${lines.join('\n')}\n`. */
export function* linesText(lines: Iterable<string>): Generator<string, void, undefined> {
  let none = true
  for (const line of lines) {
    none = false
    yield `${line}\n`
  }
  if (none) yield '\n'
}

/**
 * Lines as text without the blank lines at the end, then one newline:
 * `${lines.join('\n').replace(/\n+$/, '')}\n`. The last line with text is held back until the next
 * one shows it was not the last.
 */
export function* trimmedLinesText(lines: Iterable<string>): Generator<string, void, undefined> {
  let held = ''
  let pending = ''
  let first = true
  for (const line of lines) {
    pending += first ? line : `\n${line}`
    first = false
    if (/[^\n]/.test(line)) {
      if (held !== '') yield held
      held = pending
      pending = ''
    }
  }
  yield `${(held + pending).replace(/\n+$/, '')}\n`
}
