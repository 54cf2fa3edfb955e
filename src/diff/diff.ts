/**
 * diffModels: the whole comparison of two states of a server. Settings are compared by meaning
 * (compare.ts); findings come from the same evaluation `scan` runs, on both sides, with the same
 * rules, settings and suppressions, and are matched by fingerprint. Pure: no I/O, no formatting.
 */
import {type ActiveRule, evaluate, serverKey} from '../engine/evaluate.js'
import {EVERYTHING, fewOf, itemLeftOut, unreadData, type UnreadData, whyNotJudged} from '../engine/availability.js'
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

/**
 * Projects one side could not read: its setting (read on the other side), or the project itself, absent
 * from a side whose project listing failed or that has an error naming it; and the projects below
 * them, which inherit from them. They are neither added nor removed, their findings neither new nor fixed.
 */
function unreadProjects(before: AuditModel, after: AuditModel, unread: {before: UnreadData; after: UnreadData}): Set<number> {
  const ids = new Set<number>()
  for (const [id, project] of after.projectsById) {
    const old = before.projectsById.get(id)
    if (old && (old.setting === null) !== (project.setting === null)) ids.add(id)
  }
  const unlisted = (model: AuditModel, data: UnreadData) => {
    const listing = data.endpoints.has('/projects') || data.endpoints.has(EVERYTHING)
    const named = new Set(model.errors.flatMap((error) => (error.project ? [error.project.id] : [])))
    return (id: number) => !model.projectsById.has(id) && (listing || named.has(id))
  }
  const missing = {before: unlisted(before, unread.before), after: unlisted(after, unread.after)}
  const all = new Map([...after.projectsById, ...before.projectsById])
  for (const id of all.keys()) if (missing.before(id) || missing.after(id)) ids.add(id)
  // Below an unread project: what it inherits is unknown on that side. Walked up without recursion
  // (a hostile snapshot may chain thousands of parents, or loop), each project's answer kept.
  const unreadAbove = new Map<number, boolean>()
  for (const [id, start] of all) {
    const chain: number[] = []
    const onChain = new Set<number>()
    let found = false
    for (let project: Project | undefined = start; project && project.parentId !== null && !onChain.has(project.id); project = all.get(project.parentId)) {
      const known = unreadAbove.get(project.id)
      if (known !== undefined) {
        found = known
        break
      }
      chain.push(project.id)
      onChain.add(project.id)
      if (ids.has(project.parentId)) {
        found = true
        break
      }
    }
    for (const link of chain) unreadAbove.set(link, found)
    if (found) ids.add(id)
  }
  return ids
}

/** A project's repository data (default branch, branches, tags), judged project by project (repositoriesNotCompared). */
const REPOSITORY = ['/repositories/{id}/default-branch', '/repositories/{id}/branches', '/repositories/{id}/tags']

/**
 * Gaps judged subject by subject above (the project listing, projects, their settings; roles, whose
 * listing rolesUnread judges), not rule by rule.
 */
const PER_SUBJECT: ReadonlySet<string> = new Set(['/projects', '/projects/{id}', '/projects/{id}/setting', '/roles', ...REPOSITORY])

/** Whether a side does not know a project's default branch (not offered, not in the snapshot, or failed for it). */
function repositoryUnread(project: Project | undefined): boolean {
  const repository = project?.repository
  return !repository || repository.defaultBranch === undefined || (repository.unreadable?.length ?? 0) > 0
}

/**
 * Projects whose repository one side knows and the other does not: the findings of rules that judge
 * branches and tags were made on real names on one side and on assumed ones (`main`) on the other.
 */
function repositoriesNotCompared(before: AuditModel, after: AuditModel): Set<number> {
  const ids = new Set<number>()
  for (const project of after.projects) {
    const old = before.projectsById.get(project.id)
    if (old && repositoryUnread(old) !== repositoryUnread(project)) ids.add(project.id)
  }
  return ids
}

/**
 * The rules one side could judge and the other could not (data one side read and the other did not:
 * a server endpoint that failed, one not offered, a rule that failed): what they find on one side
 * says nothing against the other, so their findings are neither new nor fixed. Rules neither side
 * could judge are compared: both sides judged them on the same footing.
 */
function rulesNotCompared(rules: readonly ActiveRule[], unread: {before: UnreadData; after: UnreadData}, before: AuditModel, after: AuditModel): Map<string, string> {
  const bySubject = (data: UnreadData): UnreadData => ({...data, endpoints: new Map([...data.endpoints].filter(([endpoint]) => !PER_SUBJECT.has(endpoint)))})
  const sides = {before: bySubject(unread.before), after: bySubject(unread.after)}
  const out = new Map<string, string>()
  for (const {rule} of rules) {
    const old = whyNotJudged(rule.meta, sides.before, before.serverData as Record<string, unknown> | undefined)
    const now = whyNotJudged(rule.meta, sides.after, after.serverData as Record<string, unknown> | undefined)
    if ((old === undefined) !== (now === undefined)) out.set(rule.meta.id, old === undefined ? `NEW: ${now}` : `OLD: ${old}`)
  }
  return out
}

/** The warning that says what was not compared, or none. */
function notComparedNotice(rules: Map<string, string>, projects: Set<number>, repositories: Set<number>, before: AuditModel, after: AuditModel): Notice[] {
  const parts: string[] = []
  const some = (ids: Set<number>) =>
    fewOf(
      [...ids].sort((a, b) => a - b).map((id) => {
        const project = after.projectsById.get(id) ?? before.projectsById.get(id)
        return project ? `${project.path} (#${id})` : `#${id}`
      }),
      3,
    )
  if (projects.size > 0) {
    const one = projects.size === 1
    parts.push(`${projects.size} project${one ? '' : 's'} that one side could not read (${some(projects)}) ${one ? 'is' : 'are'} neither added nor removed, and ${one ? 'its' : 'their'} findings neither new nor fixed`)
  }
  if (repositories.size > 0) {
    parts.push(`the branch and tag findings of ${repositories.size} project${repositories.size === 1 ? '' : 's'} whose default branch one side does not know (${some(repositories)}) are neither new nor fixed`)
  }
  if (rules.size > 0) {
    const [first] = [...rules]
    parts.push(`the findings of ${rules.size} rule${rules.size === 1 ? '' : 's'} that one side could not judge (${fewOf([...rules.keys()].sort(), 4)}; ${first![0]}: ${first![1]}) are neither new nor fixed`)
  }
  return parts.length === 0 ? [] : [{kind: 'warning', message: `not compared: ${parts.join('; ')}`}]
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
  const required = input.rules.flatMap(({rule}) => rule.meta.requires ?? [])
  // A role left out for its shape (itemLeftOut) is the same on every run: no reason to compare nothing.
  const gaps = (errors: AuditError[]) => errors.filter((error) => !itemLeftOut(error))
  const unread = {
    before: unreadData(before, settings, gaps([...before.errors, ...old.errors]), required),
    after: unreadData(after, settings, gaps([...after.errors, ...now.errors]), required),
  }
  const unreadIds = unreadProjects(before, after, unread)
  const notCompared = rulesNotCompared(input.rules, unread, before, after)
  const repositories = repositoriesNotCompared(before, after)
  for (const id of unreadIds) repositories.delete(id)
  const branchRules = new Set(input.rules.filter(({rule}) => rule.meta.requires?.some((r) => REPOSITORY.includes(r))).map(({rule}) => rule.meta.id))
  if (unreadIds.size > 0 || notCompared.size > 0 || repositories.size > 0) {
    const comparable = (f: Finding) =>
      !notCompared.has(f.ruleId) && (f.project === null || (!unreadIds.has(f.project.id) && !(repositories.has(f.project.id) && branchRules.has(f.ruleId))))
    findings.new = findings.new.filter(comparable)
    findings.fixed = findings.fixed.filter(comparable)
    notices.push(...notComparedNotice(notCompared, unreadIds, repositories, before, after))
  }
  const changes = compareModels(before, after, settings, unreadIds)
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
