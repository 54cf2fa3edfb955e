/**
 * html: one self-contained page to open in a browser, print, or attach to a CI run. The summary
 * (where the settings came from, whether the audit is complete, findings by severity and by rule
 * family), the errors and notices, then every finding in a table that filters and sorts, and the
 * projects with their counts. Tables are plain HTML (the first rows, for reading without
 * JavaScript); the script pages through all rows from the page's JSON data (html-page.ts).
 */
import {SEVERITIES} from '../engine/rule.js'
import {escapeControl} from '../util/escape.js'
import {
  barChartSvg,
  type Column,
  dataTableHtml,
  headerHtml,
  html,
  legendHtml,
  number,
  pageEnd,
  pageStart,
  problemsHtml,
  severityChartSvg,
  timeHtml,
} from './html-page.js'
import type {ReportInput} from './input.js'
import type {Finding, SuppressedFinding} from '../types/report-types.js'
import {safeServerUrl} from '../util/server-url.js'
import {countBySeverity, plural, type SeverityCounts, scopePhrase, severityRank} from './summary.js'
import {errorLine, groupFindings, messageOf, noticeLabel, subjectOf} from './stylish.js'

/** Rows of each table written as HTML (for reading without JavaScript); the script shows them all. */
export const HTML_TABLE_ROWS = 500

/** `branch-protection` of `branch-protection/force-push-allowed`; a plugin's id without a slash is its own family. */
export function ruleFamily(ruleId: string): string {
  const slash = ruleId.indexOf('/')
  return slash > 0 ? ruleId.slice(0, slash) : ruleId
}

function originOf(input: ReportInput): string {
  const {source} = input
  if (source.server) return safeServerUrl(source.server.url)
  return source.snapshot ?? source.file ?? 'unknown server'
}

function facts(input: ReportInput): [string, string][] {
  const {source} = input
  const out: [string, string][] = []
  // A linted file (issue-setting lint) comes from no server.
  if (source.kind !== 'file') out.push(['Server', source.server ? html(safeServerUrl(source.server.url)) : 'unknown'])
  if (source.snapshot !== undefined) out.push(['Snapshot', html(source.snapshot)])
  if (source.file !== undefined) out.push(['File', html(source.file)])
  if (source.kind !== 'file') out.push(['Collected', source.collectedAt !== undefined ? timeHtml(source.collectedAt) : source.kind === 'server' ? 'during this run' : 'unknown'])
  out.push(['Audited', html(scopePhrase(input))])
  const enabled = input.rules.filter((rule) => rule.enabled).length
  out.push(['Rules', `${number(enabled)} enabled of ${number(input.rules.length)}`])
  out.push(['Report written', `${timeHtml(input.generatedAt)} by onedev-audit ${html(input.tool.version)}`])
  return out
}

function verdict(input: ReportInput): string {
  const extras: string[] = []
  if (input.suppressed.length > 0) extras.push(`${number(input.suppressed.length)} suppressed`)
  const errorCount = input.errorCount ?? input.errors.length
  if (errorCount > 0) extras.push(plural(errorCount, 'error'))
  const tail = extras.length > 0 ? ` (${extras.join(', ')})` : ''
  const scope = html(scopePhrase(input))
  return input.findings.length === 0
    ? `<p class="verdict"><strong>No findings</strong> in ${scope}${tail}.</p>\n`
    : `<p class="verdict"><strong>${number(input.findings.length)} ${input.findings.length === 1 ? 'finding' : 'findings'}</strong> in ${scope}${tail}.</p>\n`
}

function summaryHtml(input: ReportInput, counts: SeverityCounts): string {
  const families = new Map<string, SeverityCounts>()
  for (const finding of input.findings) {
    const family = ruleFamily(finding.ruleId)
    let familyCounts = families.get(family)
    if (!familyCounts) families.set(family, (familyCounts = {critical: 0, high: 0, medium: 0, low: 0, info: 0}))
    familyCounts[finding.severity]++
  }
  const total = (c: SeverityCounts) => SEVERITIES.reduce((sum, severity) => sum + c[severity], 0)
  const familyRows = [...families.entries()]
    .sort(([a, ca], [b, cb]) => total(cb) - total(ca) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([family, c]) => ({label: escapeControl(family), segments: SEVERITIES.map((severity) => ({className: severity, value: c[severity]}))}))
  const figures = SEVERITIES.map((severity) => `<div class="figure ${counts[severity] === 0 ? 'zero' : severity}"><strong>${number(counts[severity])}</strong><span>${severity}</span></div>`).join('')
  const byFamily =
    familyRows.length === 0
      ? '<p class="note">None.</p>'
      : `${barChartSvg('Findings by rule family and severity', familyRows)}\n${legendHtml(SEVERITIES.filter((severity) => counts[severity] > 0))}`
  return (
    '<h2 id="summary">Summary</h2>\n' +
    verdict(input) +
    '<div class="cards">\n' +
    `<div class="card">\n<h3>Findings by severity</h3>\n<div class="figures">${figures}</div>\n${severityChartSvg('Findings by severity', counts)}\n</div>\n` +
    `<div class="card">\n<h3>Findings by rule family</h3>\n${byFamily}\n</div>\n` +
    '</div>\n'
  )
}

function problemSections(input: ReportInput): string {
  const errors = input.errors.map((error) => `<span class="label">error</span>${html(errorLine(error))}`)
  const notices = input.notices.map((notice) => `<span class="label">${noticeLabel(notice)}</span>${html(notice.message)}`)
  return (
    problemsHtml('errors', `Errors: ${plural(input.errorCount ?? input.errors.length, 'error')}`, 'Part of the server could not be audited, so what is below is not the whole answer:', errors) +
    problemsHtml('notices', `Notices: ${plural(input.notices.length, 'notice')}`, '', notices)
  )
}

/** A finding's columns in a table: severity, rule, project (or roles, file, server), subject, message. */
export function findingColumns(rules: readonly string[], projects: readonly string[]): Column[] {
  return [
    {title: 'Severity', kind: 'badge', dict: SEVERITIES, filter: 'Severity', className: 'nowrap'},
    {title: 'Rule', kind: 'text', dict: rules, filter: 'Rule', className: 'nowrap mono'},
    {title: 'Project', kind: 'text', dict: projects, filter: 'Project', className: 'where'},
    {title: 'Subject', kind: 'text', className: 'subject'},
    {title: 'Message', kind: 'text', className: 'msg'},
  ]
}

/** A finding's cells for `findingColumns`, given its rule's and project's places in their dictionaries. */
export function findingCells(finding: Finding, rule: number, project: number): (string | number)[] {
  return [severityRank(finding.severity), rule, project, escapeControl(subjectOf(finding)), escapeControl(messageOf(finding))]
}

interface ProjectRow {
  group: number
  counts: SeverityCounts
  total: number
}

/** The rules and projects (roles, files, server) of some findings as the dictionaries of their table's columns. */
function findingDictionaries(findings: readonly Finding[]) {
  const groups = groupFindings(findings)
  const groupOf = new Map<Finding, number>()
  groups.forEach((group, index) => {
    for (const finding of group.findings) groupOf.set(finding, index)
  })
  const ruleIds = [...new Set(findings.map((finding) => finding.ruleId))].sort()
  const ruleIndex = new Map(ruleIds.map((id, index) => [id, index]))
  return {
    groups,
    columns: findingColumns(ruleIds.map(escapeControl), groups.map((group) => escapeControl(group.title))),
    cells: (finding: Finding) => findingCells(finding, ruleIndex.get(finding.ruleId)!, groupOf.get(finding)!),
  }
}

/** `suppressed until 2027-01-01: sonar token is read-only`, `in the baseline`. */
function suppressionReason(reason: SuppressedFinding['reason']): string {
  if (reason.kind === 'baseline') return 'in the baseline'
  const until = reason.expires === undefined ? '' : ` until ${reason.expires}`
  return `suppressed${until}${reason.justification === undefined ? '' : `: ${reason.justification}`}`
}

/** The findings table, the table of projects with their counts (sharing one dictionary of projects), and the suppressed findings. */
function* tablesHtml(input: ReportInput): Generator<string, void, undefined> {
  const {groups, columns, cells} = findingDictionaries(input.findings)
  const projectDict = columns[2]!.dict!
  yield '<h2 id="findings">Findings</h2>\n'
  yield* dataTableHtml({
    id: 'findings',
    noun: 'findings',
    columns,
    items: input.findings,
    cells,
    htmlRows: HTML_TABLE_ROWS,
    search: true,
    empty: 'No findings.',
  })

  // The projects with the most severe findings first.
  const projects: ProjectRow[] = groups.map((group, index) => {
    const counts = countBySeverity(group.findings)
    return {group: index, counts, total: group.findings.length}
  })
  projects.sort((a, b) => {
    for (const severity of SEVERITIES) if (a.counts[severity] !== b.counts[severity]) return b.counts[severity] - a.counts[severity]
    return a.group - b.group
  })
  yield '<h2 id="projects">By project</h2>\n'
  yield '<p class="note">Projects, roles and the server with their findings, the most severe first. With JavaScript on, a project’s name shows its findings in the table above.</p>\n'
  yield* dataTableHtml({
    id: 'projects',
    noun: 'projects',
    columns: [
      {title: 'Project', kind: 'text', dict: projectDict, goto: {table: 'findings', column: 2}, className: 'where'},
      ...SEVERITIES.map((severity): Column => ({title: severity, kind: 'number', className: 'num'})),
      {title: 'Total', kind: 'number', className: 'num'},
    ],
    items: projects,
    cells: (row) => [row.group, ...SEVERITIES.map((severity) => row.counts[severity]), row.total],
    htmlRows: HTML_TABLE_ROWS,
    search: true,
    empty: 'No project has findings.',
  })

  if (input.suppressed.length > 0) {
    const suppressed = findingDictionaries(input.suppressed.map((s) => s.finding))
    const reasons = new Map(input.suppressed.map((s) => [s.finding, escapeControl(suppressionReason(s.reason))]))
    yield '<h2 id="suppressed">Suppressed</h2>\n'
    yield '<p class="note">Findings left out by a suppression in the configuration or by the baseline, with the reason: they are not counted above.</p>\n'
    yield* dataTableHtml({
      id: 'suppressed',
      noun: 'suppressed findings',
      columns: [...suppressed.columns, {title: 'Why', kind: 'text', className: 'msg'}],
      items: input.suppressed.map((s) => s.finding),
      cells: (finding) => [...suppressed.cells(finding), reasons.get(finding)!],
      htmlRows: HTML_TABLE_ROWS,
      search: true,
      empty: '',
    })
  }
}

/** The HTML report's text, in pieces. */
export function* htmlChunks(input: ReportInput): Generator<string, void, undefined> {
  const counts = countBySeverity(input.findings)
  const errorCount = input.errorCount ?? input.errors.length
  yield pageStart(`onedev-audit report: ${originOf(input)}`)
  yield headerHtml({
    title: 'onedev-audit report',
    subtitle: originOf(input),
    facts: facts(input),
    complete: input.errors.length === 0,
    incompleteText: plural(errorCount, 'error'),
    sections: [
      ['summary', 'Summary'],
      ...(input.errors.length > 0 ? [['errors', 'Errors'] as [string, string]] : []),
      ...(input.notices.length > 0 ? [['notices', 'Notices'] as [string, string]] : []),
      ['findings', 'Findings'],
      ['projects', 'By project'],
      ...(input.suppressed.length > 0 ? [['suppressed', 'Suppressed'] as [string, string]] : []),
    ],
  })
  yield problemSections(input)
  yield summaryHtml(input, counts)
  yield* tablesHtml(input)
  yield pageEnd(input.tool.version)
}

