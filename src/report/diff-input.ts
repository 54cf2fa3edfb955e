/**
 * What every diff formatter gets (`onedev-audit diff`): both sides, the comparison's result, and
 * the rules for SARIF. Formatters are pure: `DiffReportInput → text`.
 */
import type {DiffResult} from '../diff/diff.js'
import type {Change, DiffSummary, Side} from '../diff/diff-types.js'
import type {ReportRule} from './input.js'
import type {LocationSource} from './locate.js'
import {countBySeverity, type ErrorsListed, incompleteLead, listedNote, type SeverityCounts} from './summary.js'

export interface DiffReportInput {
  tool: {name: 'onedev-audit'; version: string}
  generatedAt: string
  old: Side
  new: Side
  result: DiffResult
  /** Every known rule with its configured severity (SARIF's tool.driver.rules). */
  rules: ReportRule[]
  /** Raw payloads of each side, for SARIF locations. */
  locations: {old?: LocationSource; new?: LocationSource}
  /** SARIF runAutomationDetails.id; default `onedev-audit-diff/<server host>/`. */
  category?: string
  color?: boolean
}

export function weakenedChanges(changes: readonly Change[]): Change[] {
  return changes.filter((c) => c.classification === 'weakened')
}

export function diffSummary(result: DiffResult): DiffSummary {
  const weakened = weakenedChanges(result.changes)
  const bySeverity: SeverityCounts = countBySeverity(result.findings.new)
  for (const change of weakened) bySeverity[change.severity ?? 'info']++
  return {
    weakened: weakened.length + result.findings.new.length,
    strengthened: result.changes.filter((c) => c.classification === 'strengthened').length + result.findings.fixed.length,
    neutral: result.changes.filter((c) => c.classification === 'neutral').length,
    weakenedBySeverity: bySeverity,
    findings: {new: result.findings.new.length, fixed: result.findings.fixed.length, unchanged: result.findings.unchanged.length},
  }
}

/** `3 weakened (1 high, 2 medium), 1 strengthened, 2 neutral; findings: 2 new, 1 fixed, 40 unchanged`. */
export function summaryPhrase(summary: DiffSummary): string {
  const severities = Object.entries(summary.weakenedBySeverity)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`)
    .join(', ')
  const {findings} = summary
  return (
    `${summary.weakened} weakened${severities ? ` (${severities})` : ''}, ${summary.strengthened} strengthened, ${summary.neutral} neutral; ` +
    `findings: ${findings.new} new, ${findings.fixed} fixed, ${findings.unchanged} unchanged`
  )
}

/**
 * The diff's verdict and whether it is good news (a check mark): an incomplete comparison says so first
 * (`lead`, then where its errors are listed) and is never good news; then what it found, `No change (40 unchanged findings)` or the summary
 * phrase. `text` is the whole line. No server text.
 */
export function diffVerdict(result: DiffResult, listed: ErrorsListed): {good: boolean; lead: string | null; found: string; text: string} {
  const summary = diffSummary(result)
  const nothing = summary.weakened + summary.strengthened + summary.neutral === 0
  const lead = incompleteLead({errors: result.errors}, 'Comparison')
  const unchanged = `${summary.findings.unchanged} unchanged findings`
  // Incomplete, and nothing found on both sides or only on one: nothing was compared, which is no "No change".
  const compared = summary.findings.unchanged + summary.findings.new + summary.findings.fixed > 0
  const found = nothing
    ? lead === null
      ? `No change (${unchanged})`
      : compared
        ? `No change in what both sides hold (${unchanged})`
        : 'Nothing could be compared'
    : summaryPhrase(summary)
  return {good: lead === null && summary.weakened === 0, lead, found, text: lead === null ? found : `${lead}${listedNote(listed)}. ${found}`}
}

/** Where a change (or a finding) belongs when grouped: its project's path, `roles`, or `server`. */
export function changeGroup(change: Pick<Change, 'project' | 'role'>): string {
  return change.project ? change.project.path : change.role ? 'roles' : 'server'
}

/** Groups in a stable order (projects by path, then roles), keeping each group's order. */
export function groupChanges(changes: readonly Change[]): {title: string; changes: Change[]}[] {
  const groups = new Map<string, Change[]>()
  for (const change of changes) {
    const title = changeGroup(change)
    groups.set(title, [...(groups.get(title) ?? []), change])
  }
  const rank = (title: string) => (title === 'roles' ? 1 : title === 'server' ? 2 : 0)
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([title, list]) => ({title, changes: list}))
}

/** `snapshot old.json` / `server https://…`. Not escaped. */
export function sideWhere(side: Side, safeUrl: (url: string) => string): string {
  return side.snapshot !== undefined ? `snapshot ${side.snapshot}` : side.server ? `server ${safeUrl(side.server.url)}` : 'unknown'
}

/** `snapshot old.json (collected …)` / `server https://…`. Not escaped. */
export function sideLabel(side: Side, safeUrl: (url: string) => string): string {
  const where = sideWhere(side, safeUrl)
  return side.collectedAt ? `${where} (collected ${side.collectedAt})` : where
}
