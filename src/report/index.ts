/**
 * The formatters: `formatReport(format, input)` → the report's text, plus warnings for stderr.
 */
import type {FormattedReport, ReportFormat, ReportInput} from './input.js'
import {formatJson} from './json.js'
import {formatMarkdown} from './markdown.js'
import {formatSarif} from './sarif.js'
import {formatStylish} from './stylish.js'

export type {FormattedReport, ReportFormat, ReportInput, ReportRule} from './input.js'
export {REPORT_FORMATS} from './input.js'
export type {FindingLocation, LocationSource} from './locate.js'
export {createLocator, lineOfPointer, locationSourceFromModel} from './locate.js'
export {buildJsonReport, REPORT_SCHEMA_URI} from './json.js'
export {buildSarif, MAX_SARIF_RESULTS, SARIF_SCHEMA_URI} from './sarif.js'

export function formatReport(format: ReportFormat, input: ReportInput): FormattedReport {
  switch (format) {
    case 'sarif':
      return formatSarif(input)
    case 'json':
      return {text: formatJson(input), warnings: []}
    case 'markdown':
      return {text: formatMarkdown(input), warnings: []}
    case 'stylish':
      return {text: formatStylish(input), warnings: []}
    default: {
      const unknown: never = format
      throw new Error(`unknown report format: ${String(unknown)}`)
    }
  }
}
