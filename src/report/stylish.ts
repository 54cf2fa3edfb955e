/**
 * stylish: the default format, for a person at a terminal. Findings grouped by project (role
 * findings under `roles`, issue-setting findings under their file), then errors, notices and a
 * summary line. Every server string is escaped; colour only when asked (the caller decides NO_COLOR).
 */
import type {AuditError} from '../model/types.js'
import {escapeControl} from '../util/escape.js'
import {linesText} from './chunks.js'
import {complianceLine} from './compliance.js'
import type {ReportInput} from './input.js'
import type {Finding, Notice, Severity} from '../types/report-types.js'
import {shownNotices} from './notices.js'
import {verdictText} from './summary.js'

export const RESET = '\x1b[0m'
export const STYLE = {
  red: '\x1b[31m',
  yellow: '\x1b[33m',
  cyan: '\x1b[36m',
  gray: '\x1b[90m',
  green: '\x1b[32m',
  dim: '\x1b[2m',
  underline: '\x1b[4m',
  bold: '\x1b[1m',
} as const
export type Style = keyof typeof STYLE

export const SEVERITY_STYLE: Record<Severity, Style> = {critical: 'red', high: 'red', medium: 'yellow', low: 'cyan', info: 'gray'}
const SEVERITY_WIDTH = 'critical'.length

export const ROLES_GROUP = 'roles'
export const SERVER_GROUP = 'server'

interface Group {
  title: string
  findings: Finding[]
}

/** Groups in a stable order: projects by path, then roles, then files, then the rest; findings keep their order. */
export function groupFindings(findings: readonly Finding[]): Group[] {
  const projects = new Map<string, Group>()
  const files = new Map<string, Group>()
  const roles: Group = {title: ROLES_GROUP, findings: []}
  const server: Group = {title: SERVER_GROUP, findings: []}
  const add = (groups: Map<string, Group>, title: string, finding: Finding) => {
    let group = groups.get(title)
    if (!group) groups.set(title, (group = {title, findings: []}))
    group.findings.push(finding)
  }
  for (const finding of findings) {
    if (finding.project) add(projects, finding.project.path, finding)
    else if (finding.role) roles.findings.push(finding)
    else if (finding.file !== undefined) add(files, finding.file, finding)
    else server.findings.push(finding)
  }
  const byTitle = (a: Group, b: Group) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0)
  return [
    ...[...projects.values()].sort(byTitle),
    ...(roles.findings.length > 0 ? [roles] : []),
    ...[...files.values()].sort(byTitle),
    ...(server.findings.length > 0 ? [server] : []),
  ]
}

/** Subject column text: the role's name for role findings without a subject of their own. */
export function subjectOf(finding: Finding): string {
  if (finding.subject !== '') return finding.subject
  return finding.role?.name ?? ''
}

/**
 * "inherited from acme" for a finding about an ancestor's setting, unless its message already says so (the
 * built-in rules' messages do, in their own words: "(inherited from parent project acme)").
 */
export function inheritedNote(finding: Finding): string | undefined {
  return finding.source && !finding.message.includes('inherited from') ? `inherited from ${finding.source.path}` : undefined
}

/** The message, with the ancestor whose setting decides it. */
export function messageOf(finding: Finding): string {
  const inherited = inheritedNote(finding)
  return inherited ? `${finding.message} (${inherited})` : finding.message
}

/** `where: message (HTTP status)`. Not escaped. */
export function errorLine(error: Pick<AuditError, 'path' | 'project' | 'message' | 'status'>): string {
  const where = error.path ?? error.project?.path
  const status = error.status === undefined ? '' : ` (HTTP ${error.status})`
  return `${where === undefined ? '' : `${where}: `}${error.message}${status}`
}

export function noticeLabel(notice: Notice): string {
  return notice.kind === 'warning' || notice.kind === 'truncated' ? 'warning' : 'notice'
}

function* stylishLines(input: ReportInput): Generator<string, void, undefined> {
  const paint = (style: Style, text: string) => (input.color ? `${STYLE[style]}${text}${RESET}` : text)

  for (const group of groupFindings(input.findings)) {
    const rows = group.findings.map((finding) => ({
      severity: finding.severity,
      subject: escapeControl(subjectOf(finding)),
      message: escapeControl(messageOf(finding)),
      ruleId: escapeControl(finding.ruleId),
    }))
    const subjectWidth = Math.max(...rows.map((row) => row.subject.length))
    yield paint('underline', escapeControl(group.title))
    for (const row of rows) {
      const severity = paint(SEVERITY_STYLE[row.severity], row.severity) + ' '.repeat(SEVERITY_WIDTH - row.severity.length)
      const subject = row.subject.padEnd(subjectWidth)
      yield `  ${severity}  ${subject}  ${row.message}  ${paint('dim', row.ruleId)}`.trimEnd()
    }
    yield ''
  }

  if (input.errors.length > 0) {
    for (const error of input.errors) yield `${paint('red', 'error')}  ${escapeControl(errorLine(error))}`
    yield ''
  }
  if (input.notices.length > 0) {
    for (const notice of shownNotices(input.notices, input.verbose === true)) {
      yield `${paint('yellow', noticeLabel(notice))}  ${escapeControl(notice.message)}`
      for (const item of notice.items ?? []) yield `          ${escapeControl(item)}`
    }
    yield ''
  }

  // The summary stays the last line.
  for (const framework of input.compliance ?? []) yield complianceLine(framework)
  yield summaryLine(input, paint)
}

/** The stylish report's text, line by line. */
export function stylishChunks(input: ReportInput): Iterable<string> {
  return linesText(stylishLines(input))
}

function summaryLine(input: ReportInput, paint: (style: Style, text: string) => string): string {
  const mark = input.findings.length === 0 && input.errors.length === 0 ? paint('green', '✔') : paint('red', '✖')
  return `${mark} ${verdictText(input, 'above', true)}`
}
