/**
 * The issue requests of `onedev-audit notify` (OneDev's IssueResource, server-core
 * rest/resource/IssueResource.java; the same paths and bodies since 8.0):
 *   GET  /issues?query=&offset=&count=       issues matching an issue query (the query language of the
 *                                            issues page); confidential ones only for those who may see them
 *   POST /issues                             {projectId, title, description, confidential, fields}: the new
 *                                            issue's id (a JSON number); fields it prompts are validated (406)
 *   POST /issues/{id}/description            the description, as the raw body (a `String` parameter: no JSON quoting)
 *   POST /issues/{id}/state-transitions      {state, fields, comment}: through a manual transition that
 *                                            applies (406 `No applicable manual transition spec found ...` otherwise)
 * and the listing of projects (GET /projects) and the issue workflow (GET /settings/issue) it reads.
 */
import {ingestProjectList, type ProjectListItem} from '../model/ingest.js'
import {MARKER_PREFIX, parseCreatedId, parseIssueList, type ServerIssue, TITLE_PREFIX} from '../model/issue.js'
import type {AuditError} from '../model/types.js'
import {ApiError, type ApiClient} from './types.js'

export const ISSUES_PATH = '/issues'

/** A value in an issue query: quoted, with `\` and `"` escaped (OneDev unescapes `\x` to `x`). */
export function quoteQueryValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`
}

/**
 * The query that finds notify's issues in a project: by the project's path, and by notify's title or
 * the marker in the description (OneDev's `contains` is a case-insensitive substring). What it
 * returns is judged again (src/engine/notify.ts ownIssue): a project path with wildcards would match more.
 */
export function notifyIssueQuery(projectPath: string): string {
  return `"Project" is ${quoteQueryValue(projectPath)} and ("Title" contains ${quoteQueryValue(TITLE_PREFIX)} or "Description" contains ${quoteQueryValue(MARKER_PREFIX)})`
}

/** At most this many issues are read per project: notify keeps one. */
const QUERY_COUNT = 100

/** The issues of a project the notify query finds: one request. */
export async function queryNotifyIssues(client: ApiClient, projectPath: string): Promise<ServerIssue[]> {
  const payload = await client.getJson(ISSUES_PATH, {query: notifyIssueQuery(projectPath), offset: 0, count: QUERY_COUNT})
  const parsed = parseIssueList(payload)
  if (parsed === null) {
    throw new ApiError({kind: 'invalid-payload', message: `GET ${client.apiPrefix}${ISSUES_PATH}: expected a JSON array of issues`, path: `${client.apiPrefix}${ISSUES_PATH}`, status: 200})
  }
  return parsed.issues
}

export interface NewIssue {
  projectId: number
  title: string
  description: string
  fields: Readonly<Record<string, readonly string[]>>
}

/** A field value as OneDev's REST interface takes it: a string for one value, a list for several. */
function fieldBody(fields: Readonly<Record<string, readonly string[]>>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(fields).map(([name, values]) => [name, values.length === 1 ? values[0]! : [...values]]))
}

/** Opens a confidential issue; its id. */
export async function openIssue(client: ApiClient, issue: NewIssue): Promise<number> {
  const body = {projectId: issue.projectId, title: issue.title, description: issue.description, confidential: true, fields: fieldBody(issue.fields)}
  const text = await client.postText(ISSUES_PATH, JSON.stringify(body))
  const id = parseCreatedId(text)
  if (id === null) {
    // The issue may exist: the next run finds it by its marker.
    throw new ApiError({kind: 'invalid-payload', message: `POST ${client.apiPrefix}${ISSUES_PATH}: the answer is not the new issue's id`, path: `${client.apiPrefix}${ISSUES_PATH}`, status: 200})
  }
  return id
}

export async function setIssueDescription(client: ApiClient, issueId: number, description: string): Promise<void> {
  await client.postText(`${ISSUES_PATH}/${issueId}/description`, description)
}

export async function transitIssue(client: ApiClient, issueId: number, transition: {state: string; fields: Readonly<Record<string, readonly string[]>>; comment: string}): Promise<void> {
  await client.postText(`${ISSUES_PATH}/${issueId}/state-transitions`, JSON.stringify({state: transition.state, fields: fieldBody(transition.fields), comment: transition.comment}))
}

/** Every project the credentials see, with its current path (GET /projects, paged). */
export async function listProjects(client: ApiClient): Promise<{projects: ProjectListItem[]; errors: AuditError[]}> {
  const items = await client.paged('/projects')
  return ingestProjectList(items)
}

/** The project at `path` (GET /projects?query="Path" is "..."): one request; null when the credentials see none there. */
export async function findProjectByPath(client: ApiClient, path: string): Promise<ProjectListItem | null> {
  const items = await client.getJson('/projects', {query: `"Path" is ${quoteQueryValue(path)}`, offset: 0, count: 100})
  const {projects} = await ingestProjectList(Array.isArray(items) ? items : [])
  return projects.find((project) => project.path === path) ?? null
}
