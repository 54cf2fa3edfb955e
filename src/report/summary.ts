/** Counts and phrases the formatters share. */
import {SEVERITIES} from '../engine/rule.js'
import type {ReportInput} from './input.js'
import type {Finding, Severity, Source, Summary} from '../types/report-types.js'

export type SeverityCounts = Record<Severity, number>

export function countBySeverity(findings: readonly Finding[]): SeverityCounts {
  const counts: SeverityCounts = {critical: 0, high: 0, medium: 0, low: 0, info: 0}
  for (const finding of findings) counts[finding.severity]++
  return counts
}

export function summaryOf(input: ReportInput): Summary {
  return {
    projects: input.counts.projects,
    roles: input.counts.roles,
    rules: input.rules.filter((rule) => rule.enabled).length,
    findings: input.findings.length,
    bySeverity: countBySeverity(input.findings),
    suppressed: input.suppressed.length,
    errors: input.errors.length,
    uninitialized: input.uninitialized?.length ?? 0,
  }
}

export const severityRank = (severity: Severity): number => SEVERITIES.indexOf(severity)

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`
}

/**
 * What the verdict line adds to its count of findings: `2 suppressed`, `1 error`, and `some checks not evaluated`
 * when any was, so that nothing not evaluated looks passed. Not escaped.
 */
export function verdictExtras(input: Pick<ReportInput, 'suppressed' | 'errors' | 'errorCount' | 'notices'>): string[] {
  const extras: string[] = []
  if (input.suppressed.length > 0) extras.push(`${input.suppressed.length} suppressed`)
  const errorCount = input.errorCount ?? input.errors.length
  if (errorCount > 0) extras.push(plural(errorCount, 'error'))
  if (input.notices.some((notice) => notice.kind === 'not-evaluated')) extras.push('some checks not evaluated')
  return extras
}

/** `40 projects and 9 roles`, or the linted file for issue-setting lint. Not escaped. */
export function scopePhrase(input: Pick<ReportInput, 'counts' | 'source' | 'uninitialized'>): string {
  if (input.source.kind === 'file') return input.source.file ?? 'the issue setting'
  const empty = input.uninitialized?.length ?? 0
  const projects = plural(input.counts.projects, 'project') + (empty > 0 ? ` (${empty} with an empty repository)` : '')
  return `${projects} and ${plural(input.counts.roles, 'role')}`
}

/** The server's host (with port), lower-cased, or null. */
export function serverHost(source: Source): string | null {
  if (!source.server) return null
  try {
    const host = new URL(source.server.url).host.toLowerCase()
    return host === '' ? null : host
  } catch {
    return null
  }
}
