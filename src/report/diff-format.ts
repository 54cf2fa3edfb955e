/**
 * The diff formatters: `formatDiff(format, input)` → the report's text, plus warnings for stderr;
 * `loadDiffReport` also writes HTML, whose formatter is imported only then (as for scan: index.ts).
 */
import {textOf} from './chunks.js'
import type {DiffReportInput} from './diff-input.js'
import {formatDiffJson} from './diff-json.js'
import {formatDiffMarkdown} from './diff-markdown.js'
import {formatDiffSarif} from './diff-sarif.js'
import {formatDiffStylish} from './diff-stylish.js'
import type {DiffFormat, FormattedReport, TextFormat} from './input.js'

export type {DiffReportInput} from './diff-input.js'

export function formatDiff(format: TextFormat, input: DiffReportInput): FormattedReport {
  switch (format) {
    case 'sarif':
      return formatDiffSarif(input)
    case 'json':
      return {text: formatDiffJson(input), warnings: []}
    case 'markdown':
      return {text: formatDiffMarkdown(input), warnings: []}
    case 'stylish':
      return {text: formatDiffStylish(input), warnings: []}
    default: {
      const unknown: never = format
      throw new Error(`unknown report format: ${String(unknown)}`)
    }
  }
}

/** Any format's diff report; HTML's and JUnit's formatters are imported only for them. */
export async function loadDiffReport(format: DiffFormat, input: DiffReportInput): Promise<FormattedReport> {
  if (format === 'junit') {
    const {diffJunitChunks} = await import('./diff-junit.js')
    return {text: textOf(diffJunitChunks(input)), warnings: []}
  }
  if (format !== 'html') return formatDiff(format, input)
  const {diffHtmlChunks} = await import('./diff-html.js')
  return {text: textOf(diffHtmlChunks(input)), warnings: []}
}
