/**
 * The formatters: `reportChunks(format, input)` → the report's text in pieces, written as they come
 * (src/util/fs.ts), plus warnings for stderr; `formatReport` is the same text as one string.
 * `loadReportChunks` also writes HTML, whose formatter is imported only then.
 */
import {type ReportChunks, textOf} from './chunks.js'
import type {FormattedReport, ReportInput, ScanFormat, TextFormat} from './input.js'
import {jsonChunks} from './json.js'
import {markdownChunks} from './markdown.js'
import {sarifChunks} from './sarif.js'
import {stylishChunks} from './stylish.js'

export type {ReportChunks} from './chunks.js'
export type {DiffFormat, FormattedReport, ReportFormat, ReportInput, ReportRule, ScanFormat, TextFormat} from './input.js'
export {DIFF_FORMATS, REPORT_FORMATS, SCAN_FORMATS} from './input.js'
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
 * only for HTML: loaded by every scan, it cost about 3 % of the example scan's CPU. Checkstyle's and
 * JUnit's, for OneDev's report steps, and OSCAL's are imported only for them too.
 */
export async function loadReportChunks(format: ScanFormat, input: ReportInput): Promise<ReportChunks> {
  switch (format) {
    case 'html': {
      const {htmlChunks} = await import('./html.js')
      return {chunks: htmlChunks(input), warnings: []}
    }
    case 'checkstyle': {
      const {checkstyleChunks} = await import('./checkstyle.js')
      return checkstyleChunks(input)
    }
    case 'junit': {
      const {junitChunks} = await import('./junit.js')
      return junitChunks(input)
    }
    case 'oscal': {
      const {oscalChunks} = await import('./oscal.js')
      return oscalChunks(input)
    }
    default:
      return reportChunks(format, input)
  }
}

/** The whole report as one string. */
export function formatReport(format: TextFormat, input: ReportInput): FormattedReport {
  const {chunks, warnings} = reportChunks(format, input)
  return {text: textOf(chunks), warnings}
}
