/**
 * markdown: for CI job summaries and pull-request comments. Every server string is escaped for
 * markdown and HTML, so a project named `<img src=x onerror=…>` or `| x |` renders as text.
 */
import type {AuditError} from '../model/types.js'
import {SEVERITIES} from '../engine/rule.js'
import {escapeMarkdown} from '../util/escape.js'
import {trimmedLinesText} from './chunks.js'
import {CONTROL_STATUSES} from '../engine/compliance.js'
import {complianceCounts, exceptionText} from './compliance.js'
import type {ReportInput} from './input.js'
import type {ComplianceControl, ControlStatus, Finding} from '../types/report-types.js'
import {shownNotices} from './notices.js'
import {countBySeverity, findingNoun, incompleteLead, judgedPhrase, plural, scopePhrase, verdictExtras, versionPhrase} from './summary.js'
import {safeServerUrl} from '../util/server-url.js'
import {groupFindings, messageOf, subjectOf} from './stylish.js'

/** Findings listed in full; the rest are counted (job summaries hold 1 MiB, comments 65,536 characters). */
export const MARKDOWN_MAX_FINDINGS = 500

const md = escapeMarkdown

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`
}

function sourceLine(input: ReportInput): string {
  const {source} = input
  const parts: string[] = []
  const version = versionPhrase(source)
  if (source.server) parts.push(`Server: ${md(safeServerUrl(source.server.url))}${version === null ? '' : ` (${md(version)})`}`)
  if (source.snapshot !== undefined) parts.push(`Snapshot: ${md(source.snapshot)}`)
  if (source.file !== undefined) parts.push(`File: ${md(source.file)}`)
  if (source.collectedAt !== undefined) parts.push(`collected ${md(source.collectedAt)}`)
  parts.push(`onedev-audit ${md(input.tool.version)}, ${md(input.generatedAt)}`)
  return parts.join(' · ')
}

function errorItem(error: AuditError): string {
  const where = error.path ?? error.project?.path
  const status = error.status === undefined ? '' : ` (HTTP ${error.status})`
  return `- ${where === undefined ? '' : `${md(where)}: `}${md(error.message)}${status}`
}

function findingRow(finding: Finding): string[] {
  return [`**${finding.severity}**`, md(finding.ruleId), md(subjectOf(finding)), md(messageOf(finding))]
}

const STATUS_MARK: Record<ControlStatus, string> = {fail: '✖ fail', pass: '✔ pass', exception: 'exception', 'not-evaluated': 'not evaluated', manual: 'manual'}

/** A control's status cell: the status, with why it was not evaluated, or the suppressions that make it an exception. */
function statusCell(control: ComplianceControl): string {
  if (control.status === 'not-evaluated') {
    const why = control.rules.find((rule) => rule.notEvaluated !== undefined)?.notEvaluated
    return why === undefined ? STATUS_MARK[control.status] : `${STATUS_MARK[control.status]}: ${md(why)}`
  }
  if (control.status === 'exception') return `${STATUS_MARK[control.status]}: ${(control.exceptions ?? []).map((e) => md(exceptionText(e))).join('; ')}`
  return STATUS_MARK[control.status]
}

/** `3`, or `3 (2 baselined, 1 suppressed)`. */
function findingsCell(control: ComplianceControl): string {
  const apart = [...(control.baselined > 0 ? [`${control.baselined} baselined`] : []), ...(control.suppressed > 0 ? [`${control.suppressed} suppressed`] : [])]
  return apart.length > 0 ? `${control.findings} (${apart.join(', ')})` : `${control.findings}`
}

/** A table per framework: the controls some rule judges (manual ones counted), ≈ marking approximate ones; then what each status means. */
function* complianceLines(input: ReportInput): Generator<string, void, undefined> {
  if (!input.compliance || input.compliance.length === 0) return
  yield* ['## Compliance', '']
  for (const framework of input.compliance) {
    yield* [`### ${md(framework.label)}`, '', `${md(framework.name)} ${md(framework.version)}: ${complianceCounts(framework)}.`, '']
    const judged = framework.controls.filter((control) => control.status !== 'manual')
    yield* [row(['Control', 'Title', 'Status', 'Findings']), row(['---', '---', '---', '---:'])]
    for (const control of judged) yield row([`${md(control.id)}${control.approximate ? ' ≈' : ''}`, md(control.title), statusCell(control), findingsCell(control)])
    yield ''
    const manual = framework.controls.length - judged.length
    yield `${plural(manual, 'more control')} ${manual === 1 ? 'is' : 'are'} manual: no rule judges ${manual === 1 ? 'it' : 'them'} from OneDev's settings. ≈: a rule evidences the control approximately.`
    yield ''
  }
  yield* ['What the statuses mean:', '']
  for (const {label, meaning} of CONTROL_STATUSES) yield `- **${label}**: ${md(meaning)}.`
  yield ''
}

/** The errors, right after the verdict they make incomplete. */
function* errorLines(input: ReportInput): Generator<string, void, undefined> {
  yield* ['## Errors', '', 'Part of the server could not be audited, so what follows is not the whole answer:', '']
  for (const error of input.errors) yield errorItem(error)
  yield ''
}

function* markdownLines(input: ReportInput): Generator<string, void, undefined> {
  const counts = countBySeverity(input.findings)
  const scope = md(scopePhrase(input))
  yield* ['# onedev-audit report', '', sourceLine(input), '']

  // An incomplete audit says so first, then what failed (the errors, right below), then what it judged.
  const lead = incompleteLead(input)
  if (lead !== null) {
    const extras = verdictExtras(input, false)
    yield `✖ **${lead}** (listed below). ${judgedPhrase(input, scope)}${extras.length > 0 ? `, ${extras.join(', ')}` : ''}.`
    yield ''
    yield* errorLines(input)
  } else {
    const extras = verdictExtras(input)
    const tail = extras.length > 0 ? ` (${extras.join(', ')})` : ''
    const noun = findingNoun(input)
    yield input.findings.length === 0 ? `✔ **No ${noun}s** in ${scope}${tail}.` : `✖ **${plural(input.findings.length, noun)}** in ${scope}${tail}.`
    yield ''
  }

  yield* [row(['Severity', 'Findings']), row(['---', '---:'])]
  for (const severity of SEVERITIES) yield row([severity, counts[severity]])
  yield ''

  yield* complianceLines(input)

  const groups = groupFindings(input.findings)
  if (groups.length > 0) {
    yield* ['## By project', '']
    yield* [row(['Project', ...SEVERITIES]), row(['---', ...SEVERITIES.map(() => '---:')])]
    for (const group of groups) {
      const groupCounts = countBySeverity(group.findings)
      yield row([md(group.title), ...SEVERITIES.map((severity) => groupCounts[severity])])
    }
    yield ''

    yield* ['## Findings', '']
    let listed = 0
    for (const group of groups) {
      if (listed >= MARKDOWN_MAX_FINDINGS) break
      const shown = group.findings.slice(0, MARKDOWN_MAX_FINDINGS - listed)
      listed += shown.length
      yield* [`### ${md(group.title)}`, '']
      yield* [row(['Severity', 'Rule', 'Subject', 'Message']), row(['---', '---', '---', '---'])]
      for (const finding of shown) yield row(findingRow(finding))
      yield ''
    }
    if (listed < input.findings.length) {
      yield* [`${input.findings.length - listed} more findings are not listed here; the JSON and SARIF reports have them all.`, '']
    }
  }

  if (input.notices.length > 0) {
    yield* ['## Notices', '']
    for (const notice of shownNotices(input.notices, input.verbose === true)) {
      yield `- ${md(notice.message)}`
      for (const item of notice.items ?? []) yield `  - ${md(item)}`
    }
    yield ''
  }
}

/** The markdown report's text, line by line. */
export function markdownChunks(input: ReportInput): Iterable<string> {
  return trimmedLinesText(markdownLines(input))
}
