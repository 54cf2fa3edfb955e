/**
 * stylish for `diff`: for a person at a terminal. Changes grouped by project (role changes under
 * `roles`), weakenings first; then new and fixed findings, errors, notices and a summary line.
 * Every server string is escaped.
 */
import type {Change} from '../diff/diff-types.js'
import {escapeControl} from '../util/escape.js'
import {type DiffReportInput, diffVerdict, groupChanges, sideLabel} from './diff-input.js'
import type {Finding} from '../types/report-types.js'
import {RESET, SEVERITY_STYLE, STYLE, type Style} from './stylish.js'
import {safeServerUrl} from '../util/server-url.js'

const CLASS_STYLE: Record<Change['classification'], Style> = {weakened: 'red', strengthened: 'green', neutral: 'gray'}
const CLASS_WIDTH = 'strengthened'.length
const SEVERITY_WIDTH = 'critical'.length

export function formatDiffStylish(input: DiffReportInput): string {
  const paint = (style: Style, text: string) => (input.color ? `${STYLE[style]}${text}${RESET}` : text)
  const lines: string[] = []
  lines.push(`${paint('dim', 'from')} ${escapeControl(sideLabel(input.old, safeServerUrl))}`)
  lines.push(`${paint('dim', 'to  ')} ${escapeControl(sideLabel(input.new, safeServerUrl))}`, '')
  const {result} = input

  for (const group of groupChanges(result.changes)) {
    lines.push(paint('underline', escapeControl(group.title)))
    for (const change of group.changes) {
      const classification = paint(CLASS_STYLE[change.classification], change.classification) + ' '.repeat(CLASS_WIDTH - change.classification.length)
      const severity = change.severity ? paint(SEVERITY_STYLE[change.severity], change.severity) + ' '.repeat(SEVERITY_WIDTH - change.severity.length) : ' '.repeat(SEVERITY_WIDTH)
      const rule = change.ruleId ? `  ${paint('dim', escapeControl(change.ruleId))}` : ''
      lines.push(`  ${classification}  ${severity}  ${escapeControl(change.message)}${rule}`.trimEnd())
    }
    lines.push('')
  }

  const findingLines = (title: string, findings: Finding[], style: Style) => {
    if (findings.length === 0) return
    lines.push(paint('underline', title))
    for (const finding of findings) {
      const where = finding.project ? finding.project.path : finding.role ? `role ${finding.role.name}` : ''
      const severity = paint(style === 'green' ? 'green' : SEVERITY_STYLE[finding.severity], finding.severity) + ' '.repeat(SEVERITY_WIDTH - finding.severity.length)
      lines.push(`  ${severity}  ${escapeControl(where)}  ${escapeControl(finding.message)}  ${paint('dim', escapeControl(finding.ruleId))}`.trimEnd())
    }
    lines.push('')
  }
  findingLines('new findings', result.findings.new, 'red')
  findingLines('fixed findings', result.findings.fixed, 'green')

  if (result.errors.length > 0) {
    for (const error of result.errors) {
      const where = error.path ?? error.project?.path
      lines.push(`${paint('red', 'error')}  ${error.side.toUpperCase()}: ${escapeControl(`${where === undefined ? '' : `${where}: `}${error.message}`)}`)
    }
    lines.push('')
  }
  for (const notice of result.notices) lines.push(`${paint('yellow', 'warning')}  ${escapeControl(notice.message)}`)
  if (result.notices.length > 0) lines.push('')

  const verdict = diffVerdict(result, 'above')
  lines.push(`${verdict.good ? paint('green', '✔') : paint('red', '✖')} ${verdict.text}`)
  return `${lines.join('\n')}\n`
}
