/**
 * Which of the data the rules judge this audit could not read, by endpoint template, each with why:
 * what decides whether a rule "could be judged" (src/engine/compliance.ts). A rule names what it
 * needs in `meta.requires`; its scope adds the rest (`SCOPE_REQUIRES`). Pure: it reads the model, the
 * settings and the audit's errors (collection and evaluation), never the findings.
 *
 * Data is unreadable when the server does not offer the endpoint (model.notEvaluated), when a
 * request for it failed (an error with its path: 401, 403, timeouts, answers that are not JSON), when
 * its answer has a shape the audit does not know, when the audit has no answer for it at all (a
 * snapshot written before the data source existed; for per-project data, no answer for a project that
 * needs one: `missingProjectAnswers`), and, for the project-level data of the contract, when a
 * project's setting or repository could not be read. A member of the setting that only some server
 * versions send (`/projects/{id}/setting#/buildSetting/actionAuthorizations`) is unread when no audited
 * project's setting has it: the server is of another version. An error that names no request (the
 * collection stopped: credentials refused, interrupted) leaves everything unreadable: nothing can be said to pass.
 */
import {unreadableServerData} from '../model/server-data-check.js'
import {VERSIONED_SERVER_MEMBERS} from '../model/server-members.js'
import {type AuditError, type AuditModel, type Project, VERSIONED_SETTING_MEMBERS} from '../model/types.js'
import type {ProjectRef} from '../types/report-types.js'
import type {AuditSettings, RuleMeta, RuleScope} from './rule.js'

/** The key of `UnreadData.endpoints` that stands for everything. */
export const EVERYTHING = '*'

/** What every rule of a scope needs, besides its `meta.requires`. */
export const SCOPE_REQUIRES: Record<RuleScope, readonly string[]> = {
  project: ['/projects', '/projects/{id}', '/projects/{id}/setting'],
  role: ['/roles'],
  server: [],
  'issue-setting': [],
}

export interface UnreadData {
  /** Endpoint template (`/settings/security`, `/projects/{id}/setting`, or EVERYTHING) → why it could not be read. */
  endpoints: Map<string, string>
  /** Rules whose check failed on some object → the first failure's message. */
  failedRules: Map<string, string>
  /** The pointers of VERSIONED_SETTING_MEMBERS some audited project's setting has. */
  settingMembers: Set<string>
  /** VERSIONED_SERVER_MEMBERS (`/users#/aiSetting`) some item of its answer lacks → how many lack it. */
  serverMembersMissing: Map<string, number>
}

/** `/projects/{id}/setting#/buildSetting/actionAuthorizations` → the endpoint (or `A or B`) and the member's pointer, if any. */
function requirementParts(requirement: string): {endpoint: string; member?: string} {
  const at = requirement.indexOf('#')
  return at < 0 ? {endpoint: requirement} : {endpoint: requirement.slice(0, at), member: requirement.slice(at + 1)}
}

/** `/projects/42/base-authorizations` (or the key `projects/42/base-authorizations`) → `/projects/{id}/base-authorizations`. */
export function endpointOf(path: string): string {
  const bare = path.replace(/[?#].*$/s, '').replace(/^\/*/, '/')
  return bare.replace(/\/\d+(?=\/|$)/g, '/{id}')
}

/** The request path of an error without the API prefix. */
function requestPath(path: string, apiPrefix: string | undefined): string {
  if (apiPrefix && apiPrefix !== '/' && (path === apiPrefix || path.startsWith(`${apiPrefix}/`))) return path.slice(apiPrefix.length) || '/'
  return path.replace(/^\/(~api|api)(?=\/|$)/, '')
}

/** The contract's own data, read for every audit (project listing, projects, settings, roles). */
const CONTRACT = new Set(['/projects', '/projects/{id}', '/projects/{id}/setting', '/roles'])

/**
 * The endpoints (templates) a request failed for this run, beyond any one project: errors naming no
 * project and no rule; EVERYTHING for an error that names no request either (the collection stopped,
 * or failed in a way that says not where). Not among them: an endpoint the server does not offer, nor
 * an item of an answer whose shape the audit does not know (`invalid-payload` without a request: a role
 * left out), which are the same every run.
 */
export function failedEndpoints(model: Pick<AuditModel, 'server'>, errors: readonly AuditError[]): Set<string> {
  const failed = new Set<string>()
  for (const error of errors) {
    if (error.project || error.rule !== undefined || itemLeftOut(error)) continue
    failed.add(error.path === undefined ? EVERYTHING : endpointOf(requestPath(error.path, model.server?.apiPrefix)))
  }
  return failed
}

/**
 * An item of a server-wide answer left out for its shape (a role the audit cannot read), named by no
 * request: the same every run, and no reason to think everything else unread.
 */
export function itemLeftOut(error: AuditError): boolean {
  return error.kind === 'invalid-payload' && error.path === undefined && !error.project && error.rule === undefined
}

/** Whether an error stopped the collection: whatever was not read yet is missing, wherever it was. */
const stoppedCollection = (error: AuditError) => error.rule === undefined && (error.kind === 'auth' || error.kind === 'interrupted')

/**
 * Per-project data some projects hold elsewhere, so the endpoint is not asked for them: before 11.11
 * a project's base authorizations are its `defaultRoleId` (in the project JSON).
 */
const ANSWERED_ELSEWHERE: Record<string, (project: Project) => boolean> = {
  '/projects/{id}/base-authorizations': (project) => project.defaultRoleId !== undefined,
}

/** The audited projects whose setting was read, then their ancestors (whose settings and authorizations they inherit), once each. */
function projectsJudged(model: AuditModel): Project[] {
  const judged = new Map<number, Project>()
  for (const project of model.projects) {
    if (!project.setting) continue
    for (let at: Project | undefined = project; at && !judged.has(at.id); at = at.parentId === null ? undefined : model.projectsById.get(at.parentId)) {
      judged.set(at.id, at)
    }
  }
  return [...judged.values()]
}

/** What missing per-project answers are counted against: the projects that need one. */
export interface MissingAnswers {
  /** The projects the audit needs an answer for. */
  needed: number
  /** Those with no answer and nothing that says why, in the model's order. */
  missing: ProjectRef[]
}

/**
 * For each `/projects/{id}/…` template of `templates`, the projects the audit needs its answer for
 * (every audited project whose setting was read, and its ancestors) and has none, with nothing else
 * saying why: the server offers the endpoint (model.notEvaluated does not name it), no error names
 * the request or stops the collection, and the audit read server data at all. Such a gap is a
 * snapshot written before the audit read the endpoint, or an edited one: without this, a rule would
 * judge those projects as if they had no authorizations and pass. Templates with nothing missing are left out.
 */
export function missingProjectAnswers(model: AuditModel, templates: Iterable<string>): Map<string, MissingAnswers> {
  const found = new Map<string, MissingAnswers>()
  const serverData = model.serverData
  if (serverData === undefined || model.errors.some(stoppedCollection)) return found
  const notOffered = new Set((model.notEvaluated ?? []).flatMap((entry) => [entry.endpoint, ...entry.endpoint.split(' or ')]))
  const failedRequests = new Set(model.errors.flatMap((error) => (error.path === undefined ? [] : [requestPath(error.path, model.server?.apiPrefix)])))
  // An error that names a project but no request: what failed for it is unknown.
  const failedProjects = new Set(model.errors.flatMap((error) => (error.path === undefined && error.project ? [error.project.id] : [])))
  const judged = projectsJudged(model)
  for (const template of new Set(templates)) {
    if (!template.startsWith('/projects/{id}/') || CONTRACT.has(template) || notOffered.has(template) || found.has(template)) continue
    const elsewhere = ANSWERED_ELSEWHERE[template]
    let needed = 0
    const missing: ProjectRef[] = []
    for (const project of judged) {
      if (elsewhere?.(project)) continue
      needed++
      const path = template.replace('{id}', String(project.id))
      if (Object.prototype.hasOwnProperty.call(serverData, path.slice(1)) || failedRequests.has(path) || failedProjects.has(project.id)) continue
      missing.push({id: project.id, path: project.path})
    }
    if (missing.length > 0) found.set(template, {needed, missing})
  }
  return found
}

/** Projects named in a message, at most. */
const NAMED_PROJECTS = 5

/** `a, b and 3 more` */
export function projectList(projects: readonly ProjectRef[]): string {
  return fewOf(projects.map((project) => project.path), NAMED_PROJECTS)
}

/** The first `shown` of `names`, and how many more: `a, b and 3 more`. */
export function fewOf(names: readonly string[], shown: number): string {
  const named = names.slice(0, shown).join(', ')
  return names.length > shown ? `${named} and ${names.length - shown} more` : named
}

/** `the audit has no answer for 2 of 4 projects (a, b)`, the projects' paths as they are (the formats escape them). */
export function missingAnswersPhrase(answers: MissingAnswers): string {
  return `the audit has no answer for ${answers.missing.length} of ${answers.needed} project${answers.needed === 1 ? '' : 's'} (${projectList(answers.missing)})`
}

function failureReason(error: AuditError): string {
  return `the request failed (${error.kind}${error.status === undefined ? '' : `, HTTP ${error.status}`})`
}

/**
 * `required`: the endpoint templates the rules of this run need (their `meta.requires`), for the
 * per-project ones: whether each project that needs an answer has one.
 */
export function unreadData(model: AuditModel, settings: AuditSettings, errors: readonly AuditError[], required: Iterable<string> = []): UnreadData {
  const endpoints = new Map<string, string>()
  const failedRules = new Map<string, string>()
  const mark = (endpoint: string, why: string) => {
    if (!endpoints.has(endpoint)) endpoints.set(endpoint, why)
  }

  for (const error of errors) {
    if (error.rule !== undefined) {
      if (!failedRules.has(error.rule)) failedRules.set(error.rule, error.message)
    } else if (stoppedCollection(error)) {
      // The collection stopped there: whatever was not read yet is missing, wherever it was.
      mark(EVERYTHING, `the collection stopped (${error.kind})`)
    } else if (error.path !== undefined) {
      mark(endpointOf(requestPath(error.path, model.server?.apiPrefix)), failureReason(error))
    } else if (error.project) {
      // A project's answer that could not be ingested: its setting or its repository, unknown which.
      mark('/projects/{id}/setting', `project ${error.project.path} (#${error.project.id}) could not be read whole (${error.kind})`)
    } else {
      mark(EVERYTHING, `the audit is incomplete (${error.kind})`)
    }
  }

  for (const entry of model.notEvaluated ?? []) {
    // `A or B`: the same data under another name on other server versions; neither was offered.
    mark(entry.endpoint, `the server does not offer it (${entry.status})`)
    for (const name of entry.endpoint.split(' or ')) mark(name, `the server does not offer it (${entry.status})`)
  }
  for (const found of unreadableServerData(model.serverData)) {
    mark(endpointOf(found.key), found.extent === 'whole' ? 'its answer has a shape the audit does not know' : 'some of its items have a shape the audit does not know')
  }

  let settingless = 0
  let unknownRepositories = 0
  let unknownTags = 0
  let unknownBranches = 0
  for (const project of model.projects) {
    if (!project.setting) {
      settingless++
      continue
    }
    const repository = project.repository
    // What failed for this project alone is marked by its error, with its path.
    if (repository?.unreadable) continue
    if (!repository || repository.defaultBranch === undefined) unknownRepositories++
    if (repository && repository.defaultBranch !== null) {
      if (repository.tags === null) unknownTags++
      if (repository.branches === null && settings.branches.length > 0) unknownBranches++
    }
  }
  if (settingless > 0) mark('/projects/{id}/setting', `the settings of ${settingless} project${settingless === 1 ? '' : 's'} could not be read`)
  if (unknownRepositories > 0) mark('/repositories/{id}/default-branch', `the default branches of ${unknownRepositories} project${unknownRepositories === 1 ? ' is' : 's are'} unknown`)
  if (unknownTags > 0) mark('/repositories/{id}/tags', `the tags of ${unknownTags} project${unknownTags === 1 ? '' : 's'} are unknown`)
  if (unknownBranches > 0) mark('/repositories/{id}/branches', `the branches of ${unknownBranches} project${unknownBranches === 1 ? '' : 's'} are unknown`)
  const names = [...required].flatMap((requirement) => requirementParts(requirement).endpoint.split(' or '))
  for (const [template, answers] of missingProjectAnswers(model, names)) mark(template, missingAnswersPhrase(answers))

  const settingMembers = new Set<string>()
  for (const [pointer, member] of Object.entries(VERSIONED_SETTING_MEMBERS)) {
    if (model.projects.some((project) => project.setting !== null && member.present(project.setting))) settingMembers.add(pointer)
  }
  const serverMembersMissing = new Map<string, number>()
  for (const [requirement, member] of Object.entries(VERSIONED_SERVER_MEMBERS)) {
    const missing = member.missing(model)
    if (missing > 0) serverMembersMissing.set(requirement, missing)
  }
  return {endpoints, failedRules, settingMembers, serverMembersMissing}
}

/**
 * Why `meta`'s rule could not be judged in this audit, or undefined when everything it needs was read.
 * `serverData`: the audit's server data document (undefined: no optional endpoint was read at all).
 */
export function whyNotJudged(meta: Pick<RuleMeta, 'id' | 'scope' | 'requires'>, unread: UnreadData, serverData: Record<string, unknown> | undefined): string | undefined {
  const everything = unread.endpoints.get(EVERYTHING)
  if (everything !== undefined) return everything
  const failed = unread.failedRules.get(meta.id)
  if (failed !== undefined) return `the rule failed: ${failed}`
  for (const requirement of [...SCOPE_REQUIRES[meta.scope], ...(meta.requires ?? [])]) {
    const {endpoint, member} = requirementParts(requirement)
    const why = unreadReason(endpoint, unread, serverData) ?? (member === undefined ? undefined : memberReason(requirement, member, unread))
    if (why !== undefined) return `GET ${requirement}: ${why}`
  }
  return undefined
}

/** Why a member of an answer was not judged, or undefined (a rule names only known members: registry.ts). */
function memberReason(requirement: string, member: string, unread: UnreadData): string | undefined {
  const server = VERSIONED_SERVER_MEMBERS[requirement]
  if (server !== undefined) {
    const missing = unread.serverMembersMissing.get(requirement)
    return missing === undefined ? undefined : `${missing} ${server.items} come without it (only ${server.servers} send it)`
  }
  return unread.settingMembers.has(member) ? undefined : absentMemberReason(member)
}

/** Why a setting member no audited project's setting has was not judged (a rule names only known members: registry.ts). */
function absentMemberReason(pointer: string): string {
  return `no audited project's setting has it (only ${VERSIONED_SETTING_MEMBERS[pointer]!.servers} send it): nothing to judge on this server`
}

/** Why `endpoint` (a template, or `A or B`) could not be read, or undefined. */
function unreadReason(endpoint: string, unread: UnreadData, serverData: Record<string, unknown> | undefined): string | undefined {
  const names = endpoint.split(' or ')
  const marked = unread.endpoints.get(endpoint) ?? (names.every((name) => unread.endpoints.has(name)) ? unread.endpoints.get(names[0]!) : undefined)
  if (marked !== undefined) return marked
  if (names.some((name) => CONTRACT.has(name) || name.startsWith('/repositories/'))) return undefined
  // Server data: answers are kept in the server data document, keyed by path without the slash.
  if (serverData === undefined) return 'not collected (this audit read no server data)'
  // Per-id endpoints are asked only for the projects, groups or users that exist: no key says nothing
  // (a project that needs an answer and has none was marked by unreadData).
  if (names.some((name) => name.includes('{id}'))) return undefined
  return names.some((name) => Object.prototype.hasOwnProperty.call(serverData, name.slice(1))) ? undefined : 'not collected'
}
