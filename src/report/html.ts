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
import type {ComplianceControl, ComplianceFramework, ControlStatus, Finding, SuppressedFinding} from '../types/report-types.js'
import {safeServerUrl} from '../util/server-url.js'
import {CONTROL_STATUSES} from '../engine/compliance.js'
import {complianceCounts, exceptionText, STATUS_TEXT} from './compliance.js'
import {type ShownNotice, shownNotices} from './notices.js'
import {countBySeverity, incompleteLead, judgedPhrase, plural, type SeverityCounts, scopePhrase, severityRank, verdictExtras} from './summary.js'
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
  const scope = html(scopePhrase(input))
  const lead = incompleteLead(input)
  if (lead !== null) {
    const extras = verdictExtras(input, false)
    return `<p class="verdict"><strong>${html(lead)}</strong> (listed above). ${judgedPhrase(input, scope)}${extras.length > 0 ? `, ${extras.join(', ')}` : ''}.</p>\n`
  }
  const extras = verdictExtras(input)
  const tail = extras.length > 0 ? ` (${extras.join(', ')})` : ''
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
  const notice = (n: ShownNotice) =>
    `<span class="label">${noticeLabel(n)}</span>${html(n.message)}${n.items ? `\n<ul>${n.items.map((item) => `<li>${html(item)}</li>`).join('')}</ul>` : ''}`
  // Grouped as on the console (notices.ts); every notice stays one click away, as the JSON report keeps them.
  const shown = shownNotices(input.notices, input.verbose === true)
  const notices = shown.map(notice)
  if (shown.length < input.notices.length) {
    notices.push(`<details><summary>Every notice, one by one (${number(input.notices.length)})</summary>\n<ul>\n${input.notices.map((n) => `<li>${notice(n)}</li>`).join('\n')}\n</ul>\n</details>`)
  }
  return (
    problemsHtml('errors', `Errors: ${plural(input.errorCount ?? input.errors.length, 'error')}`, 'Part of the server could not be audited, so what is below is not the whole answer:', errors) +
    problemsHtml('notices', `Notices: ${plural(input.notices.length, 'notice')}`, '', notices)
  )
}

/** The judged statuses, failing first: the order of the compliance tables' status column and chart. */
const JUDGED: readonly ControlStatus[] = ['fail', 'not-evaluated', 'exception', 'pass']
/** Projects named in a control's row; the rest are counted. */
const CONTROL_PROJECTS = 5

/** `access/direct-push: fail (2) · branch-protection/unprotected-branch: pass`, with why a rule was not evaluated (≈: approximately). */
function controlRules(control: ComplianceControl): string {
  return control.rules
    .map((rule) => {
      const apart = [...(rule.baselined > 0 ? [`${rule.baselined} baselined`] : []), ...(rule.suppressed > 0 ? [`${rule.suppressed} suppressed`] : [])]
      const count = rule.findings > 0 ? ` (${[`${rule.findings}`, ...apart].join(', ')})` : apart.length > 0 ? ` (${apart.join(', ')})` : ''
      const exceptions = (control.exceptions ?? []).filter((e) => e.rule === rule.id).map(exceptionText)
      return `${rule.id}${rule.approximate === undefined ? '' : ' ≈'}: ${STATUS_TEXT[rule.status]}${count}${rule.notEvaluated === undefined ? '' : `: ${rule.notEvaluated}`}${exceptions.length > 0 ? `: ${exceptions.join('; ')}` : ''}`
    })
    .join(' · ')
}

function controlProjects(control: ComplianceControl): string {
  const named = control.projects.slice(0, CONTROL_PROJECTS).map((project) => project.path)
  const more = control.projects.length - named.length
  return more > 0 ? `${named.join(', ')} and ${number(more)} more` : named.join(', ')
}

/** What each status means (src/engine/compliance.ts says it once), and what ≈ marks. */
function statusLegendHtml(): string {
  const items = CONTROL_STATUSES.map(({status, label, meaning}) => `<li><span class="badge b-${status}">${html(label)}</span> ${html(meaning)}.</li>`)
  return `<ul class="statuses">\n${items.join('\n')}\n</ul>\n<p class="note">≈: a rule evidences the control only approximately.</p>\n`
}

/**
 * A table per framework of the controls some rule judges, with their status (a control passes only
 * when every rule of it ran over everything it needs and found nothing), and the manual ones listed
 * apart.
 */
function* complianceHtml(frameworks: readonly ComplianceFramework[]): Generator<string, void, undefined> {
  yield '<h2 id="compliance">Compliance</h2>\n'
  yield statusLegendHtml()
  for (const framework of frameworks) {
    const {pass, fail, exception, notEvaluated, manual} = framework.counts
    yield `<h3>${html(framework.label)}</h3>\n<p>${html(framework.name)} ${html(framework.version)}: ${html(complianceCounts(framework))}.</p>\n`
    const segments = [
      {className: 'fail', value: fail},
      {className: 'not-evaluated', value: notEvaluated},
      {className: 'exception', value: exception},
      {className: 'pass', value: pass},
      {className: 'manual', value: manual},
    ]
    yield `${barChartSvg(`${framework.label}: controls by status`, [{label: 'controls', segments}])}\n${legendHtml(['fail', 'not-evaluated', 'exception', 'pass', 'manual'])}\n`
    const judged = framework.controls.filter((control) => control.status !== 'manual')
    yield* dataTableHtml({
      id: `compliance-${framework.framework.replace(/[^a-z0-9-]/gi, '')}`,
      noun: 'controls',
      columns: [
        {title: 'Control', kind: 'text', className: 'nowrap mono'},
        {title: 'Title', kind: 'text', className: 'title'},
        {title: 'Status', kind: 'badge', dict: JUDGED.map((status) => STATUS_TEXT[status]), filter: 'Status', className: 'nowrap'},
        {title: 'Findings', kind: 'number', className: 'num'},
        {title: 'Baselined', kind: 'number', className: 'num'},
        {title: 'Suppressed', kind: 'number', className: 'num'},
        {title: 'Rules', kind: 'text', className: 'rules'},
        {title: 'Projects that fail it', kind: 'text', className: 'projects'},
      ],
      items: judged,
      cells: (control) => [
        `${control.id}${control.approximate ? ' ≈' : ''}`,
        control.title,
        JUDGED.indexOf(control.status),
        control.findings,
        control.baselined,
        control.suppressed,
        escapeControl(controlRules(control)),
        escapeControl(controlProjects(control)),
      ],
      htmlRows: judged.length,
      search: true,
      empty: 'No rule of this audit judges a control of this framework.',
    })
    const manualControls = framework.controls.filter((control) => control.status === 'manual')
    if (manualControls.length > 0) {
      const rows = manualControls.map((control) => `<tr><td class="nowrap mono">${html(control.id)}</td><td>${html(control.title)}</td><td>${html(control.note ?? '')}</td></tr>`)
      yield (
        `<details class="manual"><summary>${plural(manualControls.length, 'manual control')}: no rule judges ${manualControls.length === 1 ? 'it' : 'them'} from OneDev’s settings</summary>\n` +
        `<div class="table-wrap"><table>\n<thead><tr><th>Control</th><th>Title</th><th>Note</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table></div>\n</details>\n`
      )
    }
  }
}

/** A finding's columns in a table: severity, rule, project (or roles, file, server), subject, message. */
export function findingColumns(rules: readonly string[], projects: readonly string[]): Column[] {
  return [
    {title: 'Severity', kind: 'badge', dict: SEVERITIES, filter: 'Severity', className: 'nowrap'},
    {title: 'Rule', kind: 'text', dict: rules, filter: 'Rule', className: 'mono rule'},
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
    what: 'Audit',
    complete: input.errors.length === 0,
    incompleteText: plural(errorCount, 'error'),
    sections: [
      ['summary', 'Summary'],
      ...(input.errors.length > 0 ? [['errors', 'Errors'] as [string, string]] : []),
      ...(input.notices.length > 0 ? [['notices', 'Notices'] as [string, string]] : []),
      ...(input.compliance && input.compliance.length > 0 ? [['compliance', 'Compliance'] as [string, string]] : []),
      ['findings', 'Findings'],
      ['projects', 'By project'],
      ...(input.suppressed.length > 0 ? [['suppressed', 'Suppressed'] as [string, string]] : []),
    ],
  })
  yield problemSections(input)
  yield summaryHtml(input, counts)
  if (input.compliance && input.compliance.length > 0) yield* complianceHtml(input.compliance)
  yield* tablesHtml(input)
  yield pageEnd(input.tool.version)
}

