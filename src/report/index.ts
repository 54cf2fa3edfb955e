/**
 * The formatters: `reportChunks(format, input)` → the report's text in pieces, written as they come
 * (src/util/fs.ts), plus warnings for stderr; `formatReport` is the same text as one string.
 */
import {type ReportChunks, textOf} from './chunks.js'
import type {FormattedReport, ReportFormat, ReportInput} from './input.js'
import {htmlChunks} from './html.js'
import {jsonChunks} from './json.js'
import {markdownChunks} from './markdown.js'
import {sarifChunks} from './sarif.js'
import {stylishChunks} from './stylish.js'

export type {ReportChunks} from './chunks.js'
export type {FormattedReport, ReportFormat, ReportInput, ReportRule} from './input.js'
export {REPORT_FORMATS} from './input.js'
export type {FindingLocation, LocationSource} from './locate.js'
export {createLocator, lineOfPointer, locateFindings, locationSourceFromModel} from './locate.js'
export {buildJsonReport, REPORT_SCHEMA_URI} from './json.js'
export {buildSarif, MAX_SARIF_RESULTS, SARIF_SCHEMA_URI} from './sarif.js'

export function reportChunks(format: ReportFormat, input: ReportInput): ReportChunks {
  switch (format) {
    case 'sarif':
      return sarifChunks(input)
    case 'json':
      return {chunks: jsonChunks(input), warnings: []}
    case 'markdown':
      return {chunks: markdownChunks(input), warnings: []}
    case 'stylish':
      return {chunks: stylishChunks(input), warnings: []}
    case 'html':
      return {chunks: htmlChunks(input), warnings: []}
    default: {
      const unknown: never = format
      throw new Error(`unknown report format: ${String(unknown)}`)
    }
  }
}

/** The whole report as one string. */
export function formatReport(format: ReportFormat, input: ReportInput): FormattedReport {
  const {chunks, warnings} = reportChunks(format, input)
  return {text: textOf(chunks), warnings}
}
