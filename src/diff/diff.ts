/**
 * diffModels: the whole comparison of two states of a server. Settings are compared by meaning
 * (compare.ts); findings come from the same evaluation `scan` runs, on both sides, with the same
 * rules, settings and suppressions, and are matched by fingerprint. Pure: no I/O, no formatting.
 */
import {type ActiveRule, evaluate, serverKey} from '../engine/evaluate.js'
import type {Suppression} from '../engine/config-schema.js'
import {type AuditSettings, type Finding, SEVERITIES, type Severity} from '../engine/rule.js'
import {applySuppressions} from '../engine/suppress.js'
import type {AuditError, AuditModel, Project, Role} from '../model/types.js'
import type {Change} from './change.js'
import {compareModels} from './compare.js'
import {notificationsNamedAsIn} from './owned.js'
import type {Notice, SideError} from './diff-types.js'
import {safeServerUrl} from '../util/server-url.js'

export interface DiffInput {
  before: AuditModel
  after: AuditModel
  rules: ActiveRule[]
  settings: AuditSettings
  suppressions: Suppression[]
  /** The configured severity of every known rule, and whether it is enabled. */
  ruleSeverities: Map<string, {severity: Severity; enabled: boolean}>
  /** UTC date (YYYY-MM-DD) for suppression expiry. */
  today: string
}

export interface DiffResult {
  changes: Change[]
  findings: {new: Finding[]; fixed: Finding[]; unchanged: Finding[]}
  errors: SideError[]
  notices: Notice[]
}

/**
 * OLD as NEW names things: renamed projects and roles get their new path and name, notifications
 * whose channel one side had to guess get NEW's (owned.ts), and the server NEW's, so that
 * fingerprints (which include paths, role names, channels and the server) match across a rename or
 * a server upgrade.
 */
export function asNamedIn(before: AuditModel, after: AuditModel): AuditModel {
  const projectsById = new Map<number, Project>()
  let projectsChanged = false
  for (const [id, project] of before.projectsById) {
    const now = after.projectsById.get(id)
    let named = project
    if (now !== undefined && now.path !== project.path) named = {...named, path: now.path}
    if (project.setting && now?.setting) {
      const notifications = notificationsNamedAsIn(project.setting.notifications, now.setting.notifications)
      if (notifications !== project.setting.notifications) named = {...named, setting: {...project.setting, notifications}}
    }
    projectsById.set(id, named)
    projectsChanged ||= named !== project
  }
  const renamedRoles = before.roles.filter((r) => {
    const now = after.roles.find((a) => a.id === r.id)
    return now !== undefined && now.name !== r.name
  })
  if (!projectsChanged && renamedRoles.length === 0 && serverKey(before) === serverKey(after)) return before
  const names = new Map(after.roles.map((r) => [r.id, r.name]))
  const roles: Role[] = before.roles.map((r) => (names.has(r.id) && names.get(r.id) !== r.name ? {...r, name: names.get(r.id)!} : r))
  return {
    ...before,
    server: after.server,
    projects: before.projects.map((p) => projectsById.get(p.id) ?? p),
    projectsById,
    roles,
  }
}

/** Position-keyed fingerprints (a web hook's index) move when a list is reordered: the same rule, owner, subject and message is the same finding. */
function looseKey(finding: Finding): string {
  const message = finding.message.replace(/\/\d+(?=[/"\s)]|$)/g, '/#')
  return [finding.ruleId, finding.project?.id ?? '', finding.role?.id ?? '', finding.subject, finding.severity, message].join('\u0000')
}

export function compareFindings(before: Finding[], after: Finding[]): DiffResult['findings'] {
  const beforeByPrint = new Set(before.map((f) => f.fingerprint))
  const afterByPrint = new Set(after.map((f) => f.fingerprint))
  const unchanged = after.filter((f) => beforeByPrint.has(f.fingerprint))
  let fresh = after.filter((f) => !beforeByPrint.has(f.fingerprint))
  let fixed = before.filter((f) => !afterByPrint.has(f.fingerprint))
  if (fresh.length > 0 && fixed.length > 0) {
    const waiting = new Map<string, Finding[]>()
    for (const f of fixed) {
      const key = looseKey(f)
      waiting.set(key, [...(waiting.get(key) ?? []), f])
    }
    const moved = new Set<Finding>()
    const stillFresh: Finding[] = []
    for (const f of fresh) {
      const match = waiting.get(looseKey(f))?.shift()
      if (match) {
        moved.add(match)
        unchanged.push(f)
      } else stillFresh.push(f)
    }
    fresh = stillFresh
    fixed = fixed.filter((f) => !moved.has(f))
  }
  return {new: fresh, fixed, unchanged}
}

const rank = (severity: Severity) => SEVERITIES.indexOf(severity)
const CLASS_ORDER: Record<Change['classification'], number> = {weakened: 0, strengthened: 1, neutral: 2}

function text(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export function compareChanges(a: Change, b: Change): number {
  return (
    CLASS_ORDER[a.classification] - CLASS_ORDER[b.classification] ||
    rank(a.severity ?? 'info') - rank(b.severity ?? 'info') ||
    (a.project ? 0 : 1) - (b.project ? 0 : 1) ||
    text(a.project?.path ?? '', b.project?.path ?? '') ||
    text(a.role?.name ?? '', b.role?.name ?? '') ||
    text(a.kind, b.kind) ||
    text(a.subject, b.subject) ||
    text(a.aspect, b.aspect) ||
    text(a.id, b.id)
  )
}

/**
 * A weakening's severity: that of the new findings it causes (same rule, project or role, and
 * subject), else the configured severity of the rule it touches; `info` when that rule is off, `low`
 * when it touches none (a checked branch that may now be created).
 */
function severityOf(change: Change, fresh: Finding[], ruleSeverities: DiffInput['ruleSeverities']): Severity {
  const caused = fresh.filter(
    (f) => f.ruleId === change.ruleId && f.subject === change.subject && (change.project ? f.project?.id === change.project.id : f.role?.id === change.role?.id),
  )
  if (caused.length > 0) return caused.map((f) => f.severity).sort((x, y) => rank(x) - rank(y))[0]!
  if (change.ruleId === undefined) return 'low'
  const rule = ruleSeverities.get(change.ruleId)
  if (!rule) return 'medium'
  return rule.enabled ? rule.severity : 'info'
}

function sideErrors(side: SideError['side'], errors: readonly AuditError[]): SideError[] {
  return errors.map((error) => ({side, ...error}))
}

/** Roles a side could not read (403 for a token without owner permissions): then neither side's roles are compared. */
function rolesUnread(model: AuditModel): boolean {
  return model.roles.length === 0 && model.errors.some((e) => e.path?.split('?')[0]!.endsWith('/roles'))
}

/** Projects whose setting one side could not read: their findings are neither new nor fixed. */
function unreadProjects(before: AuditModel, after: AuditModel): Set<number> {
  const ids = new Set<number>()
  for (const [id, project] of after.projectsById) {
    const old = before.projectsById.get(id)
    if (old && (old.setting === null) !== (project.setting === null)) ids.add(id)
  }
  return ids
}

export function diffModels(input: DiffInput): DiffResult {
  const withoutRoles = rolesUnread(input.before) || rolesUnread(input.after)
  const before = withoutRoles ? {...input.before, roles: [], rolesRaw: []} : input.before
  const after = withoutRoles ? {...input.after, roles: [], rolesRaw: []} : input.after
  const {settings} = input
  const notices: Notice[] = []
  if (serverKey(before) !== serverKey(after)) {
    notices.push({
      kind: 'warning',
      message: `OLD and NEW come from different servers (${before.server ? safeServerUrl(before.server.url) : 'unknown'} and ${after.server ? safeServerUrl(after.server.url) : 'unknown'}): projects and roles are matched by id all the same`,
    })
  }
  const evaluateSide = (model: AuditModel) => {
    const evaluation = evaluate(model, input.rules, settings)
    return {findings: applySuppressions(evaluation.findings, input.suppressions, input.today).findings, errors: evaluation.errors}
  }
  const old = evaluateSide(asNamedIn(before, after))
  const now = evaluateSide(after)
  const findings = compareFindings(old.findings, now.findings)
  const unread = unreadProjects(before, after)
  if (unread.size > 0) {
    const readable = (f: Finding) => f.project === null || !unread.has(f.project.id)
    findings.new = findings.new.filter(readable)
    findings.fixed = findings.fixed.filter(readable)
  }
  const changes = compareModels(before, after, settings)
  for (const change of changes) {
    if (change.classification === 'weakened') change.severity = severityOf(change, findings.new, input.ruleSeverities)
  }
  changes.sort(compareChanges)
  return {
    changes,
    findings,
    errors: [...sideErrors('old', [...before.errors, ...old.errors]), ...sideErrors('new', [...after.errors, ...now.errors])],
    notices,
  }
}
