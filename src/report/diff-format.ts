/** The diff formatters: `formatDiff(format, input)` → the report's text, plus warnings for stderr. */
import {textOf} from './chunks.js'
import {diffHtmlChunks} from './diff-html.js'
import type {DiffReportInput} from './diff-input.js'
import {formatDiffJson} from './diff-json.js'
import {formatDiffMarkdown} from './diff-markdown.js'
import {formatDiffSarif} from './diff-sarif.js'
import {formatDiffStylish} from './diff-stylish.js'
import type {FormattedReport, ReportFormat} from './input.js'

export type {DiffReportInput} from './diff-input.js'

export function formatDiff(format: ReportFormat, input: DiffReportInput): FormattedReport {
  switch (format) {
    case 'sarif':
      return formatDiffSarif(input)
    case 'json':
      return {text: formatDiffJson(input), warnings: []}
    case 'markdown':
      return {text: formatDiffMarkdown(input), warnings: []}
    case 'stylish':
      return {text: formatDiffStylish(input), warnings: []}
    case 'html':
      return {text: textOf(diffHtmlChunks(input)), warnings: []}
    default: {
      const unknown: never = format
      throw new Error(`unknown report format: ${String(unknown)}`)
    }
  }
}
