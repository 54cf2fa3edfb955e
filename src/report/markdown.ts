/**
 * markdown: for CI job summaries and pull-request comments. Every server string is escaped for
 * markdown and HTML, so a project named `<img src=x onerror=…>` or `| x |` renders as text.
 */
import type {AuditError} from '../model/types.js'
import {SEVERITIES} from '../engine/rule.js'
import {escapeMarkdown} from '../util/escape.js'
import type {ReportInput} from './input.js'
import type {Finding} from './report-types.js'
import {countBySeverity, plural, safeServerUrl, scopePhrase} from './summary.js'
import {groupFindings} from './stylish.js'

/** Findings listed in full; the rest are counted (job summaries hold 1 MiB, comments 65,536 characters). */
export const MARKDOWN_MAX_FINDINGS = 500

const md = escapeMarkdown

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`
}

function sourceLine(input: ReportInput): string {
  const {source} = input
  const parts: string[] = []
  if (source.server) parts.push(`Server: ${md(safeServerUrl(source.server.url))}`)
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
  const subject = finding.subject !== '' ? finding.subject : (finding.role?.name ?? '')
  const message = finding.source ? `${finding.message} (inherited from ${finding.source.path})` : finding.message
  return [`**${finding.severity}**`, md(finding.ruleId), md(subject), md(message)]
}

export function formatMarkdown(input: ReportInput): string {
  const out: string[] = []
  const counts = countBySeverity(input.findings)
  const scope = md(scopePhrase(input))
  out.push('# onedev-audit report', '', sourceLine(input), '')

  const extras: string[] = []
  if (input.suppressed.length > 0) extras.push(`${input.suppressed.length} suppressed`)
  if (input.errors.length > 0) extras.push(plural(input.errors.length, 'error'))
  const tail = extras.length > 0 ? ` (${extras.join(', ')})` : ''
  out.push(
    input.findings.length === 0
      ? `✔ **No findings** in ${scope}${tail}.`
      : `✖ **${plural(input.findings.length, 'finding')}** in ${scope}${tail}.`,
    '',
  )

  out.push(row(['Severity', 'Findings']), row(['---', '---:']))
  for (const severity of SEVERITIES) out.push(row([severity, counts[severity]]))
  out.push('')

  const groups = groupFindings(input.findings)
  if (groups.length > 0) {
    out.push('## By project', '')
    out.push(row(['Project', ...SEVERITIES]), row(['---', ...SEVERITIES.map(() => '---:')]))
    for (const group of groups) {
      const groupCounts = countBySeverity(group.findings)
      out.push(row([md(group.title), ...SEVERITIES.map((severity) => groupCounts[severity])]))
    }
    out.push('')

    out.push('## Findings', '')
    let listed = 0
    for (const group of groups) {
      if (listed >= MARKDOWN_MAX_FINDINGS) break
      const shown = group.findings.slice(0, MARKDOWN_MAX_FINDINGS - listed)
      listed += shown.length
      out.push(`### ${md(group.title)}`, '')
      out.push(row(['Severity', 'Rule', 'Subject', 'Message']), row(['---', '---', '---', '---']))
      for (const finding of shown) out.push(row(findingRow(finding)))
      out.push('')
    }
    if (listed < input.findings.length) {
      out.push(`${input.findings.length - listed} more findings are not listed here; the JSON and SARIF reports have them all.`, '')
    }
  }

  if (input.errors.length > 0) {
    out.push('## Errors', '', 'Part of the server could not be audited:', '')
    for (const error of input.errors) out.push(errorItem(error))
    out.push('')
  }
  if (input.notices.length > 0) {
    out.push('## Notices', '')
    for (const notice of input.notices) out.push(`- ${md(notice.message)}`)
    out.push('')
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`
}
