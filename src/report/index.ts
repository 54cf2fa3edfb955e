/**
 * The formatters: `reportChunks(format, input)` → the report's text in pieces, written as they come
 * (src/util/fs.ts), plus warnings for stderr; `formatReport` is the same text as one string.
 * `loadReportChunks` also writes HTML, whose formatter is imported only then.
 */
import {type ReportChunks, textOf} from './chunks.js'
import type {FormattedReport, ReportFormat, ReportInput, TextFormat} from './input.js'
import {jsonChunks} from './json.js'
import {markdownChunks} from './markdown.js'
import {sarifChunks} from './sarif.js'
import {stylishChunks} from './stylish.js'

export type {ReportChunks} from './chunks.js'
export type {FormattedReport, ReportFormat, ReportInput, ReportRule, TextFormat} from './input.js'
export {REPORT_FORMATS} from './input.js'
export type {FindingLocation, LocationSource} from './locate.js'
export {createLocator, lineOfPointer, locateFindings, locationSourceFromModel} from './locate.js'
export {buildJsonReport, REPORT_SCHEMA_URI} from './json.js'
export {buildSarif, MAX_SARIF_RESULTS, SARIF_SCHEMA_URI} from './sarif.js'

export function reportChunks(format: TextFormat, input: ReportInput): ReportChunks {
  switch (format) {
    case 'sarif':
      return sarifChunks(input)
    case 'json':
      return {chunks: jsonChunks(input), warnings: []}
    case 'markdown':
      return {chunks: markdownChunks(input), warnings: []}
    case 'stylish':
      return {chunks: stylishChunks(input), warnings: []}
    default: {
      const unknown: never = format
      throw new Error(`unknown report format: ${String(unknown)}`)
    }
  }
}

/**
 * Any format's report in pieces. The HTML formatter, with its style sheet and script, is imported
 * only for HTML: loaded by every scan, it cost about 3 % of the example scan's CPU.
 */
export async function loadReportChunks(format: ReportFormat, input: ReportInput): Promise<ReportChunks> {
  if (format !== 'html') return reportChunks(format, input)
  const {htmlChunks} = await import('./html.js')
  return {chunks: htmlChunks(input), warnings: []}
}

/** The whole report as one string. */
export function formatReport(format: TextFormat, input: ReportInput): FormattedReport {
  const {chunks, warnings} = reportChunks(format, input)
  return {text: textOf(chunks), warnings}
}
