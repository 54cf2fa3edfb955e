/** Counts and phrases the formatters share. */
import {SEVERITIES} from '../engine/rule.js'
import type {ReportInput} from './input.js'
import type {Finding, Severity, Source, Summary} from '../types/report-types.js'
import {escapeControl} from '../util/escape.js'

export type SeverityCounts = Record<Severity, number>

export function countBySeverity(findings: readonly Finding[]): SeverityCounts {
  const counts: SeverityCounts = {critical: 0, high: 0, medium: 0, low: 0, info: 0}
  for (const finding of findings) counts[finding.severity]++
  return counts
}

export function summaryOf(input: ReportInput): Summary {
  return {
    complete: input.errors.length === 0,
    verdict: verdictText(input, undefined),
    projects: input.counts.projects,
    notRead: input.counts.notRead ?? 0,
    roles: input.counts.roles,
    rules: input.rules.filter((rule) => rule.enabled).length,
    findings: input.findings.length,
    bySeverity: countBySeverity(input.findings),
    suppressed: input.suppressed.length,
    errors: input.errorCount ?? input.errors.length,
    uninitialized: input.uninitialized?.length ?? 0,
  }
}

/**
 * Which OneDev the audit judged, for what the formats people read say was judged: `OneDev 16.5.6`, or
 * `OneDev version unknown` (not read: an older server, a refusal, a snapshot that predates it); null
 * when the settings came from no server (a linted file, a snapshot without one). Not escaped (the
 * version is checked when read: src/model/server-version.ts).
 */
export function versionPhrase(source: Source): string | null {
  if (source.kind === 'file' || !source.server) return null
  return typeof source.server.version === 'string' ? `OneDev ${source.server.version}` : 'OneDev version unknown'
}

export const severityRank = (severity: Severity): number => SEVERITIES.indexOf(severity)

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`
}

/**
 * What the verdict line adds to its count of findings: `2 suppressed`, `1 error` (when the verdict does
 * not lead with it), and `some checks not evaluated` when any was, so that nothing not evaluated looks
 * passed. Not escaped.
 */
export function verdictExtras(input: Pick<ReportInput, 'suppressed' | 'errors' | 'errorCount' | 'notices'>, withErrors = true): string[] {
  const extras: string[] = []
  const baselined = baselinedCount(input)
  // A baseline says "known", not "accepted": its findings are counted as such, never as suppressed.
  if (input.suppressed.length > baselined) extras.push(`${input.suppressed.length - baselined} suppressed`)
  if (baselined > 0) extras.push(`${baselined} already in the baseline`)
  const errorCount = input.errorCount ?? input.errors.length
  if (withErrors && errorCount > 0) extras.push(plural(errorCount, 'error'))
  if (input.notices.some((notice) => notice.kind === 'not-evaluated')) extras.push('some checks not evaluated')
  return extras
}

/** How many findings the baseline left out (known, not accepted). */
export function baselinedCount(input: Pick<ReportInput, 'suppressed'>): number {
  let count = 0
  for (const {reason} of input.suppressed) if (reason.kind === 'baseline') count++
  return count
}

/**
 * `finding`, or `new finding` when a baseline left known ones out: a scan against a baseline reports
 * what is new, and says so, so that "No findings" never stands for "nothing known".
 */
export function findingNoun(input: Pick<ReportInput, 'suppressed'>): string {
  return baselinedCount(input) > 0 ? 'new finding' : 'finding'
}

/** Where a report lists its errors, for the verdict to point at: ` (listed above)`. */
export type ErrorsListed = 'above' | 'below' | undefined

export function listedNote(listed: ErrorsListed): string {
  return listed === undefined ? '' : ` (listed ${listed})`
}

/**
 * `Audit incomplete: 11 errors`: how an incomplete audit's verdict begins, in every format, before
 * anything it found; null when the audit is complete. Not escaped (no server text).
 */
export function incompleteLead(input: {errors: readonly unknown[]; errorCount?: number}, what = 'Audit'): string | null {
  if (input.errors.length === 0) return null
  return `${what} incomplete: ${plural(input.errorCount ?? input.errors.length, 'error')}`
}

/**
 * What an incomplete audit judged and found, after its lead: `Judged 3 projects (1 more could not be
 * read) and 10 roles: 5 findings (1 critical, …)`, or `…: nothing found in what was judged`. `scope` is
 * scopePhrase's, escaped for the format; the rest holds no server text.
 */
export function judgedPhrase(input: Pick<ReportInput, 'findings' | 'suppressed' | 'counts' | 'source'>, scope: string): string {
  if (input.findings.length > 0) return `Judged ${scope}: ${plural(input.findings.length, findingNoun(input))} (${severityCounts(input.findings)})`
  const nothing = input.source.kind !== 'file' && input.counts.projects === 0 && input.counts.roles === 0
  return `Judged ${scope}: ${nothing ? 'nothing could be judged' : 'nothing found in what was judged'}`
}

/** `1 critical, 2 high, 0 medium, 0 low, 0 info`. */
export function severityCounts(findings: readonly Finding[]): string {
  const counts = countBySeverity(findings)
  return SEVERITIES.map((severity) => `${counts[severity]} ${severity}`).join(', ')
}

/**
 * The verdict as one plain line (stylish's summary line without its mark, the JSON summary's `verdict`):
 * an incomplete audit says so first, then what it judged and found; a complete one what it found.
 * `withVersion` (stylish): which OneDev was judged, after what was (versionPhrase).
 * Escaped for a terminal (scopePhrase may hold a file name).
 */
export function verdictText(input: ReportInput, listed: ErrorsListed, withVersion = false): string {
  const version = withVersion ? versionPhrase(input.source) : null
  const scope = escapeControl(scopePhrase(input) + (version === null ? '' : ` (${version})`))
  const lead = incompleteLead(input)
  const extras = verdictExtras(input, lead === null)
  const tail = extras.length > 0 ? `, ${extras.join(', ')}` : ''
  if (lead !== null) return `${lead}${listedNote(listed)}. ${judgedPhrase(input, scope)}${tail}`
  const noun = findingNoun(input)
  if (input.findings.length === 0) return `No ${noun}s in ${scope}${tail}`
  return `${plural(input.findings.length, noun)} (${severityCounts(input.findings)}) in ${scope}${tail}`
}

/**
 * `40 projects and 9 roles` (the projects judged, with those of an empty repository and those that
 * could not be read: `3 projects (1 with an empty repository; 1 more could not be read)`), or the
 * linted file for issue-setting lint. Not escaped.
 */
export function scopePhrase(input: Pick<ReportInput, 'counts' | 'source' | 'uninitialized'>): string {
  if (input.source.kind === 'file') return input.source.file ?? 'the issue setting'
  const empty = input.uninitialized?.length ?? 0
  const notRead = input.counts.notRead ?? 0
  const notes = [...(empty > 0 ? [`${empty} with an empty repository`] : []), ...(notRead > 0 ? [`${notRead} more could not be read`] : [])]
  const projects = plural(input.counts.projects, 'project') + (notes.length > 0 ? ` (${notes.join('; ')})` : '')
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
