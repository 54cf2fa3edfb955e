/**
 * html: one self-contained page to open in a browser, print, or attach to a CI run. Its top answers
 * the reader's question: the verdict (how bad: findings by severity, a badge in the colour of the
 * worst; how complete: an incomplete audit says so first, with what could not be read right below),
 * then the top risks (the most severe finding of each of the worst rules); then the notices, where
 * the settings came from, charts, the compliance controls (what each rule found, in words), every
 * finding in a table that filters and sorts, and the projects with their counts. Markdown code spans
 * in messages show as code. Tables are plain HTML (the first rows, for reading without JavaScript);
 * the script pages through all rows from the page's JSON data (html-page.ts).
 */
import {SEVERITIES} from '../engine/rule.js'
import {escapeControl} from '../util/escape.js'
import {
  barChartSvg,
  type Column,
  type Badge,
  codeHtml,
  dataTableHtml,
  factsHtml,
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
import type {ReportInput, ReportRule} from './input.js'
import type {ComplianceControl, ComplianceFramework, ControlRule, ControlStatus, Finding, SuppressedFinding} from '../types/report-types.js'
import {safeServerUrl} from '../util/server-url.js'
import {CONTROL_STATUSES} from '../engine/compliance.js'
import {complianceCounts, exceptionText, STATUS_TEXT} from './compliance.js'
import {type ShownNotice, shownNotices} from './notices.js'
import {countBySeverity, findingNoun, incompleteLead, judgedPhrase, plural, type SeverityCounts, scopePhrase, severityRank, verdictExtras, versionPhrase} from './summary.js'
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
  const version = versionPhrase(source)
  if (version !== null) out.push(['OneDev version', typeof source.server?.version === 'string' ? html(source.server.version) : 'unknown'])
  if (source.snapshot !== undefined) out.push(['Snapshot', html(source.snapshot)])
  if (source.file !== undefined) out.push(['File', html(source.file)])
  if (source.kind !== 'file') out.push(['Collected', source.collectedAt !== undefined ? timeHtml(source.collectedAt) : source.kind === 'server' ? 'during this run' : 'unknown'])
  out.push(['Audited', html(scopePhrase(input))])
  const enabled = input.rules.filter((rule) => rule.enabled).length
  out.push(['Rules', `${number(enabled)} enabled of ${number(input.rules.length)}`])
  out.push(['Report written', `${timeHtml(input.generatedAt)} by onedev-audit ${html(input.tool.version)}`])
  return out
}

/** The most severe findings shown at the top of the page ("top risks"); every finding is in the table below. */
export const TOP_RISKS = 5

const worstSeverity = (counts: SeverityCounts) => SEVERITIES.find((severity) => counts[severity] > 0)

/**
 * The badge beside the title answers "how bad, how complete" at a glance: an incomplete audit in red,
 * else the worst severity found in its colour, and green only when a complete audit found nothing
 * (amber when some checks were not evaluated).
 */
function badgeOf(input: ReportInput, counts: SeverityCounts): Badge {
  const lead = incompleteLead(input)
  if (lead !== null) return {text: lead, tone: 'bad', href: '#errors'}
  const worst = worstSeverity(counts)
  if (worst === undefined) {
    const none = `No ${findingNoun(input)}s`
    return verdictExtras(input).includes('some checks not evaluated') ? {text: `${none}; some checks not evaluated`, tone: 'warn', href: '#notices'} : {text: none, tone: 'good'}
  }
  const tone = worst === 'critical' || worst === 'high' ? 'bad' : worst === 'medium' ? 'warn' : 'info'
  const total = input.findings.length
  return {text: `${number(counts[worst])} ${worst}${total > counts[worst] ? ` of ${number(total)} findings` : counts[worst] === 1 ? ' finding' : ' findings'}`, tone, href: '#top-risks'}
}

/**
 * The verdict, first on the page: how bad (the findings by severity) and how complete (an incomplete
 * audit says so before anything it found; a complete one what it judged), in the badge's colour.
 */
function verdictHtml(input: ReportInput, counts: SeverityCounts, badge: Badge): string {
  const scope = html(scopePhrase(input))
  const lead = incompleteLead(input)
  const found = SEVERITIES.filter((severity) => counts[severity] > 0).map((severity) => `${number(counts[severity])} ${severity}`)
  const noun = findingNoun(input)
  const findings = input.findings.length === 0 ? `No ${noun}s` : `${number(input.findings.length)} ${input.findings.length === 1 ? noun : `${noun}s`}: ${found.join(', ')}`
  let headline: string
  let body: string
  if (lead !== null) {
    const extras = verdictExtras(input, false)
    headline = html(lead)
    body = `${judgedPhrase(input, scope)}${extras.length > 0 ? `, ${extras.join(', ')}` : ''}. What could not be read is listed right below: what follows is not the whole answer.`
  } else {
    const extras = verdictExtras(input)
    const enabled = input.rules.filter((rule) => rule.enabled).length
    headline = findings
    body = `Audit complete: judged ${scope} with ${plural(enabled, 'enabled rule')}${extras.length > 0 ? `; ${extras.join(', ')}` : ''}.`
  }
  const figures = SEVERITIES.map((severity) => `<div class="figure ${counts[severity] === 0 ? 'zero' : severity}"><strong>${number(counts[severity])}</strong><span>${severity}</span></div>`).join('')
  return `<section class="verdict-box tone-${badge.tone}" id="verdict">\n<p class="headline">${headline}</p>\n<p class="verdict">${body}</p>\n<div class="figures">${figures}</div>\n</section>\n`
}

/**
 * The most severe findings of different rules: each rule's most severe finding (the first of its
 * severity), most severe first, at most TOP_RISKS, with how many more findings the rule has. Distinct
 * risks, not 5 copies of one rule's finding on 5 projects.
 */
export function topRisks(findings: readonly Finding[]): {finding: Finding; more: number}[] {
  const ranked = findings.map((finding, index) => ({finding, index})).sort((a, b) => severityRank(a.finding.severity) - severityRank(b.finding.severity) || a.index - b.index)
  const perRule = new Map<string, number>()
  for (const finding of findings) perRule.set(finding.ruleId, (perRule.get(finding.ruleId) ?? 0) + 1)
  const top: {finding: Finding; more: number}[] = []
  const seen = new Set<string>()
  for (const {finding} of ranked) {
    if (top.length === TOP_RISKS) break
    if (seen.has(finding.ruleId)) continue
    seen.add(finding.ruleId)
    top.push({finding, more: perRule.get(finding.ruleId)! - 1})
  }
  return top
}

/** The top risks: severity, what (code spans as code), where, the rule and how many more it found; the rest are in the table. */
function topRisksHtml(input: ReportInput): string {
  if (input.findings.length === 0) return ''
  const top = topRisks(input.findings)
  const where = (finding: Finding) => (finding.project ? finding.project.path : finding.role ? `role ${finding.role.name}` : (finding.file ?? 'server'))
  const items = top.map(
    ({finding, more}) =>
      `<li><span class="badge b-${finding.severity}">${finding.severity}</span><span class="what">${codeHtml(messageOf(finding))}</span>` +
      `<span class="where">${html(where(finding))}<span class="mono">${html(finding.ruleId)}</span>${more > 0 ? `<span class="more">and ${number(more)} more of this rule</span>` : ''}</span></li>`,
  )
  return (
    `<h2 id="top-risks">Top risks</h2>\n<p class="note">Each is the most severe finding of one rule, the most severe rules first; <a href="#findings">Findings</a> lists all ${number(input.findings.length)}.</p>\n` +
    `<ol class="risks">\n${items.join('\n')}\n</ol>\n`
  )
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
  const byFamily =
    familyRows.length === 0
      ? '<p class="note">None.</p>'
      : `${barChartSvg('Findings by rule family and severity', familyRows)}\n${legendHtml(SEVERITIES.filter((severity) => counts[severity] > 0))}`
  return (
    '<h2 id="summary">Findings at a glance</h2>\n' +
    '<div class="cards">\n' +
    `<div class="card">\n<h3>Findings by severity</h3>\n${severityChartSvg('Findings by severity', counts)}\n</div>\n` +
    `<div class="card">\n<h3>Findings by rule family</h3>\n${byFamily}\n</div>\n` +
    '</div>\n'
  )
}

function errorsHtml(input: ReportInput): string {
  const errors = input.errors.map((error) => `<span class="label">error</span>${html(errorLine(error))}`)
  return problemsHtml('errors', `Errors: ${plural(input.errorCount ?? input.errors.length, 'error')}`, 'Part of the server could not be audited, so what is below is not the whole answer:', errors)
}

function noticesHtml(input: ReportInput): string {
  const notice = (n: ShownNotice) =>
    `<span class="label">${noticeLabel(n)}</span>${html(n.message)}${n.items ? `\n<ul>${n.items.map((item) => `<li>${html(item)}</li>`).join('')}</ul>` : ''}`
  // Grouped as on the console (notices.ts); every notice stays one click away, as the JSON report keeps them.
  const shown = shownNotices(input.notices, input.verbose === true)
  const notices = shown.map(notice)
  if (shown.length < input.notices.length) {
    notices.push(`<details><summary>Every notice, one by one (${number(input.notices.length)})</summary>\n<ul>\n${input.notices.map((n) => `<li>${notice(n)}</li>`).join('\n')}\n</ul>\n</details>`)
  }
  return problemsHtml('notices', `Notices: ${plural(input.notices.length, 'notice')}`, '', notices)
}

/** The judged statuses, failing first: the order of the compliance tables' status column and chart. */
const JUDGED: readonly ControlStatus[] = ['fail', 'not-evaluated', 'exception', 'pass']
/** Projects named in a control's row; the rest are counted. */
const CONTROL_PROJECTS = 5

/** How each rule's line in a control's row begins: what the audit found of what the rule looks for. */
const FOUND: Record<ControlRule['status'], string> = {fail: 'Found', exception: 'Found, suppressed', 'not-evaluated': 'Not evaluated', pass: 'None found'}

/**
 * What the audit found for each rule of a control, in words: what the rule looks for (its short
 * description, the rule id as code), whether it was found, and the counts, why it was not evaluated,
 * or the suppressions that make it an exception. `Found: The branch protection that applies allows
 * forced pushes (\`branch-protection/force-push-allowed\`): 2 findings, 1 in the baseline`. ≈: approximately.
 */
function controlFound(control: ComplianceControl, describe: (ruleId: string) => string): string[] {
  return control.rules.map((rule) => {
    const what = `${FOUND[rule.status]}: ${describe(rule.id)} (\`${rule.id}\`${rule.approximate === undefined ? '' : ' ≈'})`
    const counts = [
      ...(rule.findings > 0 ? [plural(rule.findings, 'finding')] : []),
      ...(rule.baselined > 0 ? [`${rule.baselined} in the baseline`] : []),
      ...(rule.suppressed > 0 ? [`${rule.suppressed} suppressed`] : []),
    ]
    const exceptions = (control.exceptions ?? []).filter((e) => e.rule === rule.id).map((e) => exceptionText(e, false))
    const details = [...(counts.length > 0 ? [counts.join(', ')] : []), ...(rule.notEvaluated === undefined ? [] : [rule.notEvaluated]), ...exceptions]
    return escapeControl(details.length > 0 ? `${what}: ${details.join('; ')}` : what)
  })
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
function* complianceHtml(frameworks: readonly ComplianceFramework[], rules: readonly ReportRule[]): Generator<string, void, undefined> {
  const descriptions = new Map(rules.map((rule) => [rule.meta.id, rule.meta.shortDescription.replace(/\.$/, '')]))
  const describe = (ruleId: string) => descriptions.get(ruleId) ?? ruleId
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
        {title: 'What the audit found', kind: 'lines', code: true, className: 'found lines'},
        {title: 'Findings that fail it', kind: 'number', className: 'num'},
        {title: 'Projects that fail it', kind: 'text', className: 'projects'},
      ],
      items: judged,
      cells: (control) => [
        `${control.id}${control.approximate ? ' ≈' : ''}`,
        control.title,
        JUDGED.indexOf(control.status),
        controlFound(control, describe),
        control.findings + control.baselined,
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
    {title: 'Message', kind: 'text', code: true, className: 'msg'},
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

/**
 * The HTML report's text, in pieces. The top answers the reader's question: the verdict (how bad, how
 * complete), what could not be read, the few most severe findings; then the rest.
 */
export function* htmlChunks(input: ReportInput): Generator<string, void, undefined> {
  const counts = countBySeverity(input.findings)
  const badge = badgeOf(input, counts)
  yield pageStart(`onedev-audit report: ${originOf(input)}`)
  yield headerHtml({
    title: 'onedev-audit report',
    subtitle: originOf(input),
    badge,
    sections: [
      ['verdict', 'Verdict'],
      ...(input.errors.length > 0 ? [['errors', 'Errors'] as [string, string]] : []),
      ...(input.findings.length > 0 ? [['top-risks', 'Top risks'] as [string, string]] : []),
      ...(input.notices.length > 0 ? [['notices', 'Notices'] as [string, string]] : []),
      ['about', 'About this audit'],
      ['summary', 'At a glance'],
      ...(input.compliance && input.compliance.length > 0 ? [['compliance', 'Compliance'] as [string, string]] : []),
      ['findings', 'Findings'],
      ['projects', 'By project'],
      ...(input.suppressed.length > 0 ? [['suppressed', 'Suppressed'] as [string, string]] : []),
    ],
  })
  yield verdictHtml(input, counts, badge)
  yield errorsHtml(input)
  yield topRisksHtml(input)
  yield noticesHtml(input)
  yield `<h2 id="about">About this audit</h2>\n${factsHtml(facts(input))}`
  yield summaryHtml(input, counts)
  if (input.compliance && input.compliance.length > 0) yield* complianceHtml(input.compliance, input.rules)
  yield* tablesHtml(input)
  yield pageEnd(input.tool.version)
}
