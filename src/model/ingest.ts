/**
 * The edge where server payloads enter: validate leniently (generated checks, zod's issues when one
 * fails), redact, normalize into the model.
 * Redaction happens here, once, before anything is stored, logged, reported or snapshotted.
 * Nothing here throws: a payload that cannot be read becomes an AuditError (kind `invalid-payload`,
 * or `internal` for a bug), and the rest of the audit goes on.
 */
import {oneLine} from '../util/escape.js'
import {describeIssues, jsonTypeName, normalizeProjectSetting, normalizeRole, payloadSchema, projectSettingIssues, projectSettingPasses, schemaIssues} from './normalize.js'
import {isProjectListItem, isRole} from './payload-checks.js'
import {joinPointer} from './pointer.js'
import {redactDeep, redactOwned} from './redact.js'
import type {ProjectListItemPayload, RolePayload} from './schemas.js'
import type {AuditError, ProjectSetting, Role} from './types.js'

export interface ProjectRef {
  id: number
  path: string
}

/** How messages name a project: `project group/repo (#12)`. */
export function describeProject(project: ProjectRef): string {
  return `project ${oneLine(String(project.path))} (#${project.id})`
}

function internalError(subject: string, error: unknown, project?: ProjectRef): AuditError {
  // The exception's own text may quote payload data: name only its class.
  const name = error instanceof Error ? oneLine(error.name, 60) : 'exception'
  return {kind: 'internal', message: `${subject}: could not be ingested (${name})`, ...(project ? {project: {id: project.id, path: project.path}} : {})}
}

/** How ingest may treat its input. */
export interface IngestOptions {
  /**
   * The caller has just parsed the payload and holds it nowhere else (a response body, a snapshot
   * file): it is redacted in place instead of copied, and must not be used afterwards.
   */
  owned?: boolean
}

const redactIngested = (raw: unknown, path: (string | number)[], options: IngestOptions) => (options.owned ? redactOwned(raw, path) : redactDeep(raw, path))

/** A project setting, ingested: its redacted raw payload, the normalized setting (null if invalid), its errors. */
export interface IngestedSetting {
  raw: unknown
  setting: ProjectSetting | null
  errors: AuditError[]
}

/** A project setting payload of either generation → redacted raw + normalized setting (null if invalid). */
export async function ingestProjectSetting(raw: unknown, project: ProjectRef, options: IngestOptions = {}): Promise<IngestedSetting> {
  const now = ingestProjectSettingNow(raw, project, options)
  return 'failed' in now ? settingIssues(now.failed, project) : now
}

/**
 * ingestProjectSetting without waiting, for the common case: the setting redacted and, when it passes
 * the generated checks, normalized. A payload that fails them comes back as `failed` (redacted: hand it
 * to ingestProjectSetting, which redacts again idempotently, for zod's issues). Never throws.
 */
export function ingestProjectSettingNow(raw: unknown, project: ProjectRef, options: IngestOptions = {}): IngestedSetting | {failed: unknown} {
  let redacted: unknown = null
  try {
    redacted = redactIngested(raw, [], options)
    if (!projectSettingPasses(redacted)) return {failed: redacted}
    return {raw: redacted, setting: normalizeProjectSetting(redacted), errors: []}
  } catch (error) {
    return {raw: redacted, setting: null, errors: [internalError(describeProject(project), error, project)]}
  }
}

/** A redacted setting that failed its generated checks: zod's issues as its error (none: it is normalized after all). */
async function settingIssues(redacted: unknown, project: ProjectRef): Promise<IngestedSetting> {
  try {
    const issues = await projectSettingIssues(redacted)
    if (issues.length > 0) {
      const error: AuditError = {
        kind: 'invalid-payload',
        message: describeIssues(describeProject(project), issues),
        project: {id: project.id, path: project.path},
        pointer: issues[0]!.pointer,
      }
      return {raw: redacted, setting: null, errors: [error]}
    }
    return {raw: redacted, setting: normalizeProjectSetting(redacted), errors: []}
  } catch (error) {
    return {raw: redacted, setting: null, errors: [internalError(describeProject(project), error, project)]}
  }
}

/** The roles listing (all pages concatenated) → redacted raw + normalized roles. Bad items are errors, not fatal. */
export async function ingestRoles(raw: unknown[], options: IngestOptions = {}): Promise<{raw: unknown[]; roles: Role[]; errors: AuditError[]}> {
  if (!Array.isArray(raw)) {
    return {raw: [], roles: [], errors: [{kind: 'invalid-payload', message: `roles: (root): expected array, got ${jsonTypeName(raw)}`, pointer: ''}]}
  }
  const redacted: unknown[] = []
  const roles: Role[] = []
  const errors: AuditError[] = []
  for (let index = 0; index < raw.length; index++) {
    const subject = `role #${index}`
    try {
      const item = redactIngested(raw[index], [index], options)
      redacted.push(item)
      const issues = isRole(item) ? [] : await schemaIssues(isRole, () => payloadSchema('RoleSchema'), item, item)
      if (issues.length > 0) {
        const pointer = joinPointer('', index) + issues[0]!.pointer
        errors.push({kind: 'invalid-payload', message: describeIssues(subject, issues), pointer})
      } else {
        const role = normalizeRole(item as RolePayload, index, item)
        // Findings name a role by id: a second role with the same id would be judged and located as the first.
        if (roles.some((r) => r.id === role.id)) {
          errors.push({kind: 'invalid-payload', message: `${subject}: /id: duplicate role id ${role.id} (left out)`, pointer: joinPointer('', index, 'id')})
        } else {
          roles.push(role)
        }
      }
    } catch (error) {
      if (redacted.length === index) redacted.push(null)
      errors.push(internalError(subject, error))
    }
  }
  return {raw: redacted, roles, errors}
}

export interface ProjectListItem {
  id: number
  path: string
  name: string | null
  parentId: number | null
  /** Servers before 11.11: the project's default role (null: none); absent on newer servers. */
  defaultRoleId?: number | null
}

/** Items of GET /projects (or GET /projects/{id}) → id, path (or name, or id), parentId. `offset`: the first item's position in the whole listing (a page's). */
export async function ingestProjectList(items: unknown[], offset = 0): Promise<{projects: ProjectListItem[]; errors: AuditError[]}> {
  if (!Array.isArray(items)) {
    return {projects: [], errors: [{kind: 'invalid-payload', message: `projects: (root): expected array, got ${jsonTypeName(items)}`, pointer: ''}]}
  }
  const projects: ProjectListItem[] = []
  const errors: AuditError[] = []
  for (let index = 0; index < items.length; index++) {
    const subject = `project list item #${offset + index}`
    try {
      const item = items[index]
      const issues = await schemaIssues(isProjectListItem, () => payloadSchema('ProjectListItemSchema'), item, item)
      if (issues.length > 0) {
        errors.push({kind: 'invalid-payload', message: describeIssues(subject, issues), pointer: joinPointer('', offset + index) + issues[0]!.pointer})
        continue
      }
      const p = item as ProjectListItemPayload
      const name = p.name ?? null
      const path = p.path ? p.path : name ? name : String(p.id)
      const legacyRole = Object.prototype.hasOwnProperty.call(p, 'defaultRoleId') ? {defaultRoleId: p.defaultRoleId ?? null} : {}
      projects.push({id: p.id, path, name, parentId: p.parentId ?? null, ...legacyRole})
    } catch (error) {
      errors.push(internalError(subject, error))
    }
  }
  return {projects, errors}
}

/** Longest branch or tag name accepted (git allows more, no real repository has it; a hostile server may send anything). */
const MAX_REF_NAME = 1000

function refNameIssue(name: unknown): string | null {
  if (typeof name !== 'string') return `expected a string, got ${jsonTypeName(name)}`
  if (name === '') return 'empty name'
  if (name.length > MAX_REF_NAME) return `longer than ${MAX_REF_NAME} characters`
  return null
}

/**
 * The body of GET /repositories/{id}/default-branch → the branch name, or null for 204 (repository
 * not initialized). Current servers send the bare name under `application/json` (not valid JSON);
 * a JSON string (`"main"`) is accepted too.
 */
export function ingestDefaultBranch(body: string | null, project: ProjectRef): {defaultBranch: string | null; errors: AuditError[]} {
  if (body === null) return {defaultBranch: null, errors: []}
  let name: unknown = body.trim()
  if (typeof name === 'string' && name.startsWith('"')) {
    try {
      name = JSON.parse(name)
    } catch {
      // A name that starts with a quote and is not a JSON string: judged as the issue below.
    }
  }
  const issue = refNameIssue(name) ?? (typeof name === 'string' && /[\x00-\x1f\x7f]/.test(name) ? 'control characters in the name' : null)
  if (issue) {
    const error: AuditError = {kind: 'invalid-payload', message: `${describeProject(project)}: default branch: ${issue}`, project: {id: project.id, path: project.path}}
    return {defaultBranch: null, errors: [error]}
  }
  return {defaultBranch: name as string, errors: []}
}

/** GET /repositories/{id}/branches or /tags (a JSON array of short names) → the names; bad items are left out with one error. */
export function ingestRefNames(raw: unknown, project: ProjectRef, what: 'branches' | 'tags'): {names: string[]; errors: AuditError[]} {
  const where = (pointer: string) => ({project: {id: project.id, path: project.path}, pointer})
  if (!Array.isArray(raw)) {
    return {names: [], errors: [{kind: 'invalid-payload', message: `${describeProject(project)}: ${what}: (root): expected array, got ${jsonTypeName(raw)}`, ...where('')}]}
  }
  const names: string[] = []
  let firstBad: {index: number; issue: string} | null = null
  let bad = 0
  for (let index = 0; index < raw.length; index++) {
    const issue = refNameIssue(raw[index])
    if (issue === null) names.push(raw[index] as string)
    else if (bad++ === 0) firstBad = {index, issue}
  }
  if (!firstBad) return {names, errors: []}
  const more = bad > 1 ? ` (and ${bad - 1} more)` : ''
  return {names, errors: [{kind: 'invalid-payload', message: `${describeProject(project)}: ${what}: /${firstBad.index}: ${firstBad.issue}${more}; left out`, ...where(`/${firstBad.index}`)}]}
}
