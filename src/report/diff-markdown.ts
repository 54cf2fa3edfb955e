/**
 * markdown for `diff`: a CI job summary or pull-request comment of what changed since the last
 * audit. Every server string is escaped for markdown and HTML.
 */
import type {Change} from '../diff/diff-types.js'
import {escapeMarkdown as md} from '../util/escape.js'
import {diffSummary, type DiffReportInput, diffVerdict, sideLabel} from './diff-input.js'
import {MARKDOWN_MAX_FINDINGS} from './markdown.js'
import type {Finding} from '../types/report-types.js'
import {safeServerUrl} from '../util/server-url.js'

const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`

function where(item: {project: {path: string} | null; role: {name: string} | null}): string {
  return item.project ? md(item.project.path) : item.role ? `role ${md(item.role.name)}` : ''
}

export function formatDiffMarkdown(input: DiffReportInput): string {
  const {result} = input
  const summary = diffSummary(result)
  const out: string[] = ['# onedev-audit diff', '']
  out.push(`From ${md(sideLabel(input.old, safeServerUrl))} to ${md(sideLabel(input.new, safeServerUrl))} · onedev-audit ${md(input.tool.version)}, ${md(input.generatedAt)}`, '')
  const verdict = diffVerdict(result, 'below')
  if (verdict.lead !== null) {
    // An incomplete comparison says so first, then what failed (right below), then what it found.
    out.push(`✖ **${verdict.lead}** (listed below). ${md(verdict.found)}.`, '')
    out.push('## Errors', '', 'Part of the server could not be read, so changes there are unknown:', '')
    for (const error of result.errors) out.push(`- ${error.side.toUpperCase()}: ${md(`${error.path ?? error.project?.path ?? ''}${error.path ?? error.project ? ': ' : ''}${error.message}`)}`)
    out.push('')
  } else {
    out.push(`${verdict.good ? '✔' : '✖'} ${summary.weakened + summary.strengthened + summary.neutral === 0 ? `**No change** (${summary.findings.unchanged} unchanged findings)` : md(verdict.found)}.`, '')
  }

  let listed = 0
  const changes = (title: string, list: Change[]) => {
    const shown = list.slice(0, MARKDOWN_MAX_FINDINGS - listed)
    if (shown.length === 0) return
    listed += shown.length
    out.push(`## ${title}`, '', row(['Severity', 'Where', 'Change', 'Rule']), row(['---', '---', '---', '---']))
    for (const change of shown) {
      out.push(row([change.severity ? `**${change.severity}**` : '', where(change), md(change.message), change.ruleId ? md(change.ruleId) : '']))
    }
    out.push('')
  }
  changes('Weakened', result.changes.filter((c) => c.classification === 'weakened'))
  changes('Strengthened', result.changes.filter((c) => c.classification === 'strengthened'))
  changes('Neutral', result.changes.filter((c) => c.classification === 'neutral'))

  const findings = (title: string, list: Finding[]) => {
    const shown = list.slice(0, MARKDOWN_MAX_FINDINGS - listed)
    if (shown.length === 0) return
    listed += shown.length
    out.push(`## ${title}`, '', row(['Severity', 'Where', 'Rule', 'Message']), row(['---', '---', '---', '---']))
    for (const finding of shown) {
      out.push(row([`**${finding.severity}**`, where(finding), md(finding.ruleId), md(finding.message)]))
    }
    out.push('')
  }
  findings('New findings', result.findings.new)
  findings('Fixed findings', result.findings.fixed)
  const total = result.changes.length + result.findings.new.length + result.findings.fixed.length
  if (listed < total) out.push(`${total - listed} more are not listed here; the JSON and SARIF reports have them all.`, '')

  if (result.notices.length > 0) {
    out.push('## Notices', '')
    for (const notice of result.notices) out.push(`- ${md(notice.message)}`)
    out.push('')
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`
}
