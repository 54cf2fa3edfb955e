/**
 * evaluate(model, rules, settings) → findings. Pure: no I/O, no formatting.
 *
 * Each rule looks at each object of its scope (every audited project with a setting, every role,
 * or the issue setting); the engine turns its drafts into findings with references, the effective
 * severity and a fingerprint, and turns a rule that throws into an error instead of a crash.
 */
import {hash} from 'node:crypto'

import type {IssueSetting} from '../model/issue-setting.js'
import type {AuditError, AuditModel, Project, Role} from '../model/types.js'
import type {ProjectRef, RoleRef} from '../types/report-types.js'
import {ProjectFacts, ServerFacts} from './facts.js'
import {type AuditSettings, type Finding, type FindingDraft, type Rule, type RuleContext, SEVERITIES, type Severity} from './rule.js'

/** A rule as configured for this run. */
export interface ActiveRule {
  rule: Rule<any>
  /** The user's override from the configuration, if any; else the draft's or the rule's default. */
  severityOverride?: Severity
  options: Record<string, unknown>
}

export interface Evaluation {
  findings: Finding[]
  /** Rules that threw: the audit is incomplete. */
  errors: AuditError[]
}

/** Ancestors of a project with a known setting, nearest first. Stops on a cycle or an unknown parent. */
export function ancestorsOf(project: Project, model: AuditModel): Project[] {
  const ancestors: Project[] = []
  const seen = new Set<number>([project.id])
  let parentId = project.parentId
  while (parentId !== null && !seen.has(parentId)) {
    seen.add(parentId)
    const parent = model.projectsById.get(parentId)
    if (!parent) break
    if (parent.setting) ancestors.push(parent)
    parentId = parent.parentId
  }
  return ancestors
}

/** The server part of a fingerprint: scheme-less host and path, lower-cased host, so a snapshot of a server fingerprints like a live scan. */
export function serverKey(model: Pick<AuditModel, 'server'>): string {
  if (!model.server) return 'local'
  try {
    const url = new URL(model.server.url)
    return `${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return model.server.url
  }
}

/**
 * A finding's identity: what it is about (rule, server, owner, subject and the draft's key), never
 * where it sits in a list. `occurrence` tells apart findings identical in all of that, by their order
 * among themselves (the first one has none, so its fingerprint is the same as when it is alone).
 */
export function fingerprintOf(parts: {ruleId: string; server: string; owner: string; subject: string; key?: string; occurrence?: number}): string {
  return fingerprintFor(parts.ruleId, parts.server, parts.owner, parts.subject, parts.key, parts.occurrence ?? 1)
}

/** fingerprintOf without the object (asked once per finding). */
function fingerprintFor(ruleId: string, server: string, owner: string, subject: string, key: string | undefined, occurrence: number): string {
  const text = `${ruleId}\n${server}\n${owner}\n${subject}\n${key ?? ''}`
  return hash('sha256', occurrence > 1 ? `${text}\n#${occurrence}` : text, 'hex').slice(0, 32)
}

const rank = (severity: Severity) => SEVERITIES.indexOf(severity)

export function compareFindings(a: Finding, b: Finding): number {
  return (
    rank(a.severity) - rank(b.severity) ||
    compareText(a.project?.path ?? '', b.project?.path ?? '') ||
    compareText(a.role?.name ?? '', b.role?.name ?? '') ||
    compareText(a.ruleId, b.ruleId) ||
    compareText(a.subject, b.subject) ||
    compareText(a.fingerprint, b.fingerprint)
  )
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** One object a rule looks at, with what the engine needs to turn drafts into findings. */
export interface Target {
  scope: RuleContext['scope']
  /**
   * The context one rule sees, with that rule's options. A fresh object literal of one shape per
   * scope: spreading a shared context instead costs more than most checks (measured, 10,000 projects).
   */
  context(options: Record<string, unknown>): RuleContext
  owner: string
  /** One reference per target, shared by all its findings. */
  project: ProjectRef | null
  role: RoleRef | null
  file?: string
  /** Findings of this target point into the server data document. */
  document?: 'server'
  label: string
}

/** The owner part of a fingerprint: a project by its path, a role by its name. */
export const projectOwner = (project: Project) => `project:${project.path}`
const roleOwner = (role: Role) => `role:${role.name}`

/** Owners of more than one target (two projects with one path, two roles with one name). */
export function sharedOwners(model: AuditModel): Set<string> {
  const seen = new Set<string>()
  const shared = new Set<string>()
  const owners = [...model.projects.filter((p) => p.setting).map(projectOwner), ...model.roles.map(roleOwner)]
  for (const owner of owners) {
    if (seen.has(owner)) shared.add(owner)
    seen.add(owner)
  }
  return shared
}

/**
 * The target of one audited project with a setting of `facts.model`: `ancestors` computed once for all
 * its rules, and the project's facts, which live as long as the target. `facts`: the server-wide
 * facts of the model judged, one for every project of a run (built once by whoever judges it).
 */
export function projectTarget(project: Project, audited: ReadonlySet<number>, settings: AuditSettings, facts: ServerFacts): Target {
  const model = facts.model
  const ancestors = ancestorsOf(project, model)
  const projectFacts = new ProjectFacts(facts, project, ancestors)
  return {
    scope: 'project',
    context: (options) => ({scope: 'project', project, ancestors, audited, settings, model, options, facts: projectFacts}),
    owner: projectOwner(project),
    project: {id: project.id, path: project.path},
    role: null,
    label: `project ${project.path} (#${project.id})`,
  }
}

/** Every object of every scope, with the run's facts. */
function* targets(model: AuditModel, settings: AuditSettings, issueSetting?: {setting: IssueSetting; file: string}): Generator<Target> {
  const audited = new Set(model.projects.map((p) => p.id))
  const facts = new ServerFacts(model, settings)
  for (const project of model.projects) if (project.setting) yield projectTarget(project, audited, settings, facts)
  yield* wholeServerTargets(settings, facts, issueSetting)
}

/** The targets after the projects of `facts.model`: roles, the server, the issue setting. */
export function* wholeServerTargets(settings: AuditSettings, facts: ServerFacts, issueSetting?: {setting: IssueSetting; file: string}): Generator<Target> {
  const model = facts.model
  for (const role of model.roles) {
    yield {
      scope: 'role',
      context: (options) => ({scope: 'role', role, settings, model, options, facts}),
      owner: roleOwner(role),
      project: null,
      role: {id: role.id, name: role.name},
      label: `role ${role.name}`,
    }
  }
  // One server target: server rules read model.serverData and stay silent on what is not there.
  yield {
    scope: 'server',
    context: (options) => ({scope: 'server', settings, model, options, facts}),
    owner: 'server',
    project: null,
    role: null,
    document: 'server',
    label: 'the server',
  }
  if (issueSetting) {
    yield {
      scope: 'issue-setting',
      context: (options) => ({scope: 'issue-setting', issueSetting: issueSetting.setting, settings, model, options, facts}),
      owner: 'issue-setting',
      project: null,
      role: null,
      file: issueSetting.file,
      label: issueSetting.file,
    }
  }
}

export function evaluate(
  model: AuditModel,
  rules: ActiveRule[],
  settings: AuditSettings,
  issueSetting?: {setting: IssueSetting; file: string},
): Evaluation {
  const findings: Finding[] = []
  const errors: AuditError[] = []
  const server = serverKey(model)
  // Identical findings (same rule, owner, subject and key) get fingerprints by their order among
  // themselves. They come from one rule on one target, or from targets sharing an owner (two projects
  // with one path): only those are counted, so a run of single findings costs no bookkeeping.
  const shared = new Map([...sharedOwners(model)].map((owner) => [owner, new Map<string, number>()]))
  for (const target of targets(model, settings, issueSetting)) judge(target, rules, model, server, shared.get(target.owner), findings, errors)
  findings.sort(compareFindings)
  return {findings, errors}
}

/**
 * Runs every rule of the target's scope on it, appending its findings and errors. `sharedCounts`:
 * the occurrences counted across the targets of a shared owner. `keys`, when given, receives each
 * finding's draft key (for numbering the findings again later: evaluator.ts).
 */
export function judge(
  target: Target,
  rules: ActiveRule[],
  model: AuditModel,
  server: string,
  sharedCounts: Map<string, number> | undefined,
  findings: Finding[],
  errors: AuditError[],
  keys?: Array<string | undefined>,
): void {
  for (const active of rules) {
    const {rule} = active
    if (rule.meta.scope !== target.scope) continue
    let drafts: FindingDraft[]
    try {
      drafts = rule.check(target.context(active.options))
    } catch (error) {
      errors.push({
        kind: 'internal',
        message: `rule ${rule.meta.id} failed on ${target.label}: ${describeError(error)}`,
        project: target.project,
        rule: rule.meta.id,
      })
      continue
    }
    const counts = sharedCounts ?? (drafts.length > 1 ? new Map<string, number>() : undefined)
    for (const draft of drafts) {
      findings.push(toFinding(draft, active, target, model, server, counts))
      keys?.push(draft.key)
    }
  }
}

/** Numbers `finding` again, as the `occurrence`-th of its identity (the owner's findings counted together). */
export function renumber(finding: Finding, owner: string, key: string | undefined, server: string, counts: Map<string, number>): void {
  const identity = {ruleId: finding.ruleId, server, owner, subject: finding.subject, key}
  const base = fingerprintOf(identity)
  const occurrence = (counts.get(base) ?? 0) + 1
  counts.set(base, occurrence)
  finding.fingerprint = occurrence > 1 ? fingerprintOf({...identity, occurrence}) : base
}

/**
 * The same text as one flat string. A message built from template pieces is a rope of many small
 * nodes; flattened now, while it is young, it costs less than the rope (10,000 projects: 53,594
 * findings, 14 MB less), and writing the report does not flatten every message into the old
 * generation (another 19 MB). charCodeAt flattens the string in place.
 */
function flat(text: string): string {
  text.charCodeAt(0)
  return text
}

/** `counts`: how many findings so far had each fingerprint, where identical ones are possible. */
function toFinding(draft: FindingDraft, active: ActiveRule, target: Target, model: AuditModel, server: string, counts: Map<string, number> | undefined): Finding {
  const ruleId = active.rule.meta.id
  let fingerprint = fingerprintFor(ruleId, server, target.owner, draft.subject, draft.key, 1)
  if (counts) {
    const occurrence = (counts.get(fingerprint) ?? 0) + 1
    counts.set(fingerprint, occurrence)
    if (occurrence > 1) fingerprint = fingerprintFor(ruleId, server, target.owner, draft.subject, draft.key, occurrence)
  }
  const finding: Finding = {
    ruleId,
    severity: active.severityOverride ?? draft.severity ?? active.rule.meta.defaultSeverity,
    message: flat(draft.message),
    project: target.project,
    role: target.role,
    subject: draft.subject,
    pointer: draft.pointer,
    fingerprint,
  }
  if (draft.sourceProjectId !== undefined && draft.sourceProjectId !== target.project?.id) {
    const source = model.projectsById.get(draft.sourceProjectId)
    if (source) finding.source = {id: source.id, path: source.path}
  }
  if (target.file !== undefined) finding.file = target.file
  if (draft.document === 'server' || target.document === 'server') finding.document = 'server'
  return finding
}
