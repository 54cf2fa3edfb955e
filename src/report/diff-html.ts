/**
 * html for `diff`: the same page as the scan report (html-page.ts), for what changed between OLD
 * and NEW: the changes (weakened, strengthened, neutral) and the new and fixed findings, each in a
 * table that filters and sorts.
 */
import type {Change} from '../diff/diff-types.js'
import {SEVERITIES} from '../engine/rule.js'
import {escapeControl} from '../util/escape.js'
import {changeGroup, diffSummary, type DiffReportInput, diffVerdict, sideWhere, summaryPhrase} from './diff-input.js'
import {findingCells, findingColumns, HTML_TABLE_ROWS} from './html.js'
import {type Badge, dataTableHtml, factsHtml, headerHtml, html, number, pageEnd, pageStart, problemsHtml, severityChartSvg, timeHtml} from './html-page.js'
import type {Finding} from '../types/report-types.js'
import {safeServerUrl} from '../util/server-url.js'
import {plural, severityRank} from './summary.js'
import {errorLine} from './stylish.js'

const CLASSIFICATIONS = ['weakened', 'strengthened', 'neutral'] as const
const FINDING_STATES = ['new', 'fixed'] as const
/** A change's severity, or none (neutral and strengthened changes often have none). */
const SEVERITY_OR_NONE = [...SEVERITIES, '']

interface FindingChange {
  state: (typeof FINDING_STATES)[number]
  finding: Finding
}

/** Where each change and finding belongs (projects by path, then roles, then the server), as one dictionary. */
function whereDictionary(items: readonly Pick<Change, 'project' | 'role'>[]): {dict: string[]; index: Map<string, number>} {
  const rank = (title: string) => (title === 'roles' ? 1 : title === 'server' ? 2 : 0)
  const titles = [...new Set(items.map(changeGroup))].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
  return {dict: titles.map(escapeControl), index: new Map(titles.map((title, i) => [title, i]))}
}

/**
 * The badge beside the title: an incomplete comparison in red; else the weakenings in the colour of
 * the worst; green only when nothing was weakened.
 */
function diffBadge(lead: string | null, summary: ReturnType<typeof diffSummary>): Badge {
  if (lead !== null) return {text: lead, tone: 'bad', href: '#errors'}
  const worst = SEVERITIES.find((severity) => summary.weakenedBySeverity[severity] > 0)
  if (summary.weakened === 0 || worst === undefined) return {text: 'Nothing weakened', tone: 'good'}
  return {text: `${number(summary.weakened)} weakened`, tone: worst === 'critical' || worst === 'high' ? 'bad' : worst === 'medium' ? 'warn' : 'info', href: '#changes'}
}

/** The diff's HTML report, in pieces. */
export function* diffHtmlChunks(input: DiffReportInput): Generator<string, void, undefined> {
  const {result} = input
  const summary = diffSummary(result)
  const sideText = (side: DiffReportInput['old']) => sideWhere(side, safeServerUrl)
  // A side's collection time as the scan report shows it (2026-11-22 10:00 UTC).
  const sideHtml = (side: DiffReportInput['old']) => html(sideText(side)) + (side.collectedAt ? ` (collected ${timeHtml(side.collectedAt)})` : '')
  yield pageStart(`onedev-audit diff: ${sideText(input.new)}`)
  const sideProjects = (side: DiffReportInput['old']) => (side.projects === undefined ? 'unknown' : number(side.projects))
  const verdict = diffVerdict(result, 'above')
  yield headerHtml({
    title: 'onedev-audit diff',
    subtitle: `${sideText(input.old)} → ${sideText(input.new)}`,
    badge: diffBadge(verdict.lead, summary),
    sections: [
      ['summary', 'Summary'],
      ...(result.errors.length > 0 ? [['errors', 'Errors'] as [string, string]] : []),
      ...(result.notices.length > 0 ? [['notices', 'Notices'] as [string, string]] : []),
      ['changes', 'Changes'],
      ['new-findings', 'New and fixed findings'],
    ],
  })
  yield factsHtml([
    ['From (OLD)', sideHtml(input.old)],
    ['To (NEW)', sideHtml(input.new)],
    ['Projects', `${sideProjects(input.old)} → ${sideProjects(input.new)}`],
    ['Report written', `${timeHtml(input.generatedAt)} by onedev-audit ${html(input.tool.version)}`],
  ])
  yield problemsHtml(
    'errors',
    `Errors: ${plural(result.errors.length, 'error')}`,
    'Part of the server could not be read, so changes there are unknown:',
    result.errors.map((error) => `<span class="label">${error.side.toUpperCase()}</span>${html(errorLine(error))}`),
  )
  yield problemsHtml('notices', `Notices: ${plural(result.notices.length, 'notice')}`, '', result.notices.map((notice) => `<span class="label">warning</span>${html(notice.message)}`))

  const figure = (value: number, name: string) => `<div class="figure"><strong>${number(value)}</strong><span>${name}</span></div>`
  yield '<h2 id="summary">Summary</h2>\n'
  const nothing = summary.weakened + summary.strengthened + summary.neutral === 0
  if (verdict.lead !== null) yield `<p class="verdict"><strong>${html(verdict.lead)}</strong> (listed above). ${html(verdict.found)}.</p>\n`
  else yield nothing ? `<p class="verdict"><strong>No change</strong> (${number(summary.findings.unchanged)} unchanged findings).</p>\n` : `<p class="verdict">${html(summaryPhrase(summary))}.</p>\n`
  yield (
    '<div class="cards">\n' +
    `<div class="card">\n<h3>Changes and findings</h3>\n<div class="figures">${figure(summary.weakened, 'weakened')}${figure(summary.strengthened, 'strengthened')}${figure(summary.neutral, 'neutral')}</div>\n` +
    `<div class="figures">${figure(summary.findings.new, 'new findings')}${figure(summary.findings.fixed, 'fixed findings')}${figure(summary.findings.unchanged, 'unchanged findings')}</div>\n</div>\n` +
    `<div class="card">\n<h3>Weakened by severity</h3>\n${severityChartSvg('Weakened settings and new findings by severity', summary.weakenedBySeverity)}\n</div>\n` +
    '</div>\n'
  )

  const findingChanges: FindingChange[] = [
    ...result.findings.new.map((finding) => ({state: 'new' as const, finding})),
    ...result.findings.fixed.map((finding) => ({state: 'fixed' as const, finding})),
  ]
  const where = whereDictionary([...result.changes, ...findingChanges.map((item) => item.finding)])
  const ruleIds = [...new Set([...result.changes.flatMap((change) => (change.ruleId === undefined ? [] : [change.ruleId])), ...findingChanges.map((item) => item.finding.ruleId)])].sort()
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]))
  const ruleDict = [...ruleIds.map(escapeControl), '']

  yield '<h2 id="changes">Changes</h2>\n'
  yield* dataTableHtml<Change>({
    id: 'changes',
    noun: 'changes',
    columns: [
      {title: 'Change', kind: 'badge', dict: CLASSIFICATIONS, filter: 'Change', className: 'nowrap'},
      {title: 'Severity', kind: 'badge', dict: SEVERITY_OR_NONE, filter: 'Severity', className: 'nowrap'},
      {title: 'Project', kind: 'text', dict: where.dict, filter: 'Project', className: 'where'},
      {title: 'What changed', kind: 'text', code: true, className: 'msg'},
      {title: 'Rule', kind: 'text', dict: ruleDict, filter: 'Rule', className: 'nowrap mono'},
    ],
    items: result.changes,
    cells: (change) => [
      CLASSIFICATIONS.indexOf(change.classification),
      change.severity === undefined ? SEVERITIES.length : severityRank(change.severity),
      where.index.get(changeGroup(change))!,
      escapeControl(change.message),
      change.ruleId === undefined ? ruleIds.length : ruleIndex.get(change.ruleId)!,
    ],
    htmlRows: HTML_TABLE_ROWS,
    search: true,
    empty: 'No setting changed in meaning.',
  })

  yield '<h2 id="new-findings">New and fixed findings</h2>\n'
  yield* dataTableHtml<FindingChange>({
    id: 'finding-changes',
    noun: 'findings',
    columns: [{title: 'Finding', kind: 'badge', dict: FINDING_STATES, filter: 'Finding', className: 'nowrap'}, ...findingColumns(ruleDict, where.dict)],
    items: findingChanges,
    cells: ({state, finding}) => [FINDING_STATES.indexOf(state), ...findingCells(finding, ruleIndex.get(finding.ruleId)!, where.index.get(changeGroup(finding))!)],
    htmlRows: HTML_TABLE_ROWS,
    search: true,
    empty: `No finding is new or fixed (${plural(summary.findings.unchanged, 'finding')} unchanged).`,
  })
  yield pageEnd(input.tool.version)
}

