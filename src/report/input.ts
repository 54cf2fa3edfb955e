/**
 * What every formatter gets: the audit's outcome and the run's facts. Formatters are pure:
 * `ReportInput → text`.
 */
import type {ComplianceDetail} from '../engine/compliance.js'
import type {ReportNotice} from '../engine/coverage.js'
import type {RuleMeta} from '../engine/rule.js'
import type {AuditError} from '../model/types.js'
import type {LocationSource} from './locate.js'
import type {ComplianceFramework, Finding, Severity, Source, SuppressedFinding} from '../types/report-types.js'

/** The formats written by code every run loads; html's is imported when asked for (src/report/index.ts). */
export type TextFormat = 'sarif' | 'json' | 'stylish' | 'markdown'
export type ReportFormat = TextFormat | 'html'
/** What scan writes besides: OneDev's code problems (checkstyle), test results (junit) and OSCAL Assessment Results (oscal), imported when asked for. */
export type ScanFormat = ReportFormat | 'checkstyle' | 'junit' | 'oscal'
/** What diff writes: one JUnit test case per weakening besides the formats of every command. */
export type DiffFormat = ReportFormat | 'junit'

/** The formats of every command that reports findings (issue-setting lint and apply). */
export const REPORT_FORMATS: readonly ReportFormat[] = ['stylish', 'json', 'sarif', 'markdown', 'html']
export const SCAN_FORMATS: readonly ScanFormat[] = [...REPORT_FORMATS, 'checkstyle', 'junit', 'oscal']
export const DIFF_FORMATS: readonly DiffFormat[] = [...REPORT_FORMATS, 'junit']

export interface ReportRule {
  meta: RuleMeta
  /** The effective severity (the configuration's override, else the rule's default). */
  severity: Severity
  enabled: boolean
}

export interface ReportInput {
  tool: {name: 'onedev-audit'; version: string; informationUri?: string}
  source: Source
  /** ISO date-time. */
  generatedAt: string
  /** ISO date-time: when the run began (the OSCAL result's `start`); default `generatedAt`. */
  startedAt?: string
  /** Active findings, most severe first (the engine's order, kept). */
  findings: Finding[]
  suppressed: SuppressedFinding[]
  errors: AuditError[]
  /**
   * How many errors there were, when `errors` collapsed repeated request failures into one entry
   * (stylish and markdown): summaries count failures, not lines. Default: `errors.length`.
   */
  errorCount?: number
  notices: ReportNotice[]
  /** Every known rule with its effective severity. */
  rules: ReportRule[]
  /** Projects judged (whose setting was read) and roles; `notRead`: audited projects whose setting could not be read. */
  counts: {projects: number; roles: number; notRead?: number}
  /** Audited projects whose repository is not initialized (nothing to judge on branches and tags). */
  uninitialized?: {id: number; path: string}[]
  /** Raw payloads for locations. */
  locations?: LocationSource
  /** SARIF runAutomationDetails.id; default `onedev-audit/<server host or 'snapshot'>/`. */
  category?: string
  /** Colour in stylish output. */
  color?: boolean
  /** Stylish and markdown list every notice, instead of grouping the not-evaluated ones by family (notices.ts). */
  verbose?: boolean
  /**
   * The compliance controls per framework (src/engine/compliance.ts), when the command judged them
   * (scan): the JSON report's `compliance`, markdown's tables, the console's line per framework,
   * and SARIF's control tags on the rules.
   */
  compliance?: ComplianceFramework[]
  /** From the same judgement: the findings that fail each control, those excused, and why rules were not judged (junit, oscal). */
  complianceDetail?: ComplianceDetail
  /**
   * checkstyle: the snapshot folder whose files the findings point into, as the names in the report
   * start (relative to the working directory, `/`-separated, `''` for the working directory itself).
   */
  snapshotRoot?: string
}

export interface FormattedReport {
  /** The report, ending with one newline. */
  text: string
  /** Things to tell the user on stderr (e.g. SARIF results left out). */
  warnings: string[]
}
