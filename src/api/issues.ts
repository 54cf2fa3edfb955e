/**
 * The issue requests of `onedev-audit notify` (OneDev's IssueResource: v8.0.0
 * server-core/src/main/java/io/onedev/server/rest/IssueResource.java, from 10.0.0 on
 * server-core/src/main/java/io/onedev/server/rest/resource/IssueResource.java). The paths are the same
 * from 8.0 to 16.x; what they read and answer is not:
 *   GET  /users/me                           the account of the credentials: its `id` (8.0.0 to 11.7.x, and
 *                                            14.1.0 on); 11.8.0 to 14.0.x answer no id (readOwnAccount)
 *   GET  /issues?query=&offset=&count=       issues matching an issue query (the query language of the
 *                                            issues page); confidential ones only for those who may see them;
 *                                            without `order by`, the newest activity first
 *   POST /issues                             {projectId, title, description, confidential, fields}: the new
 *                                            issue's id (a JSON number); its submitter is the caller. `fields`:
 *                                            one string per field on 8.x (a Map<String, String>: v8.0.0 :394),
 *                                            a string or a list from 10.0.0 (Map<String, Serializable>:
 *                                            v10.0.0 :430, read at :396-400)
 *   POST /issues/{id}/description            the description, as the raw body (a `String` parameter: no JSON quoting)
 *   POST /issues/{id}/state-transitions      {state, fields, comment}, `fields` as for a new issue (v8.0.0 :455,
 *                                            v10.0.0 :504). 8.x checks no transition (v8.0.0 :337-345); from
 *                                            10.0.0 a missing one is refused: 400 `No applicable transition spec
 *                                            for: A->B` (v10.0.0 :363-364, to 12.0.4), 400 `No applicable manual
 *                                            transition spec found ...` (12.0.5 to 12.0.8: v12.0.8
 *                                            model/support/administration/GlobalIssueSetting.java:766-769), 406
 *                                            with that text from 12.0.9 (v12.0.9 :452-456; v16.5.6 :469-474)
 * and the listing of projects (GET /projects) and the issue workflow (GET /settings/issue) it reads.
 */
import {ingestProjectList, type ProjectListItem} from '../model/ingest.js'
import {MARKER_PREFIX, parseAccountId, parseCreatedId, parseIssueList, type ServerIssue, TITLE_PREFIX} from '../model/issue.js'
import type {AuditError} from '../model/types.js'
import {ApiError, type ApiClient} from './types.js'

export const ISSUES_PATH = '/issues'

/** A value in an issue query: quoted, with `\` and `"` escaped (OneDev unescapes `\x` to `x`). */
export function quoteQueryValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`
}

/**
 * The order notify reads its issues in: the oldest first (the issue number grows with each issue of
 * a project), so a run pages through them the same way however many newer issues there are, and the
 * issue it keeps comes first. One sort key, its direction written out: several keys are separated by
 * ` and ` up to 11.7 and by `,` from 11.8 (IssueQuery.g4:4 at v8.0.0 and v16.5.6), and a key without
 * direction sorts ascending up to 11.7 but by the field's default from 12 on. `"Number"` is a sort field
 * at every version (v8.0.0 server-core/src/main/java/io/onedev/server/model/Issue.java:164; v16.5.6 :267).
 */
export const OLDEST_FIRST = 'order by "Number" asc'

/**
 * The query that finds notify's issues in a project: by the project's path, and by notify's title or
 * the marker in the description (OneDev's `contains` is a case-insensitive substring), oldest first.
 * It asks for everyone's: what it returns is judged again (src/engine/notify.ts ownIssue), which
 * takes only the issues notify's own account opened and names the others.
 */
export function notifyIssueQuery(projectPath: string): string {
  return `"Project" is ${quoteQueryValue(projectPath)} and ("Title" contains ${quoteQueryValue(TITLE_PREFIX)} or "Description" contains ${quoteQueryValue(MARKER_PREFIX)}) ${OLDEST_FIRST}`
}

/**
 * The issues of a project the notify query finds: one request, and the next pages (100 each) only
 * when a page comes back full (others opened as many look-alikes).
 */
export async function queryNotifyIssues(client: ApiClient, projectPath: string): Promise<ServerIssue[]> {
  const parsed = parseIssueList(await client.paged(ISSUES_PATH, {query: notifyIssueQuery(projectPath)}))
  // paged() refuses anything but JSON arrays: the list always parses.
  return parsed!.issues
}

/**
 * Who the credentials are: the id of their account, which every issue notify opens carries as its
 * `submitterId`. `GET /users/me` answers it (v8.0.0 server-core/src/main/java/io/onedev/server/rest/UserResource.java:97-104;
 * v16.5.6 server-core/src/main/java/io/onedev/server/rest/resource/UserResource.java:134-141), except
 * on 11.8.0 to 14.0.x, whose answer has no id (v12.0.0 UserResource.java:579, UserData without one; v14.1.0 :591
 * adds it): there the issue query's `submitted by me` criterion
 * (in the grammar and enabled for the REST query at every version: v8.0.0
 * server-core/src/main/java/io/onedev/server/search/entity/issue/IssueQuery.g4:10,74-76 and
 * IssueResource.java:196; v16.5.6 IssueQuery.g4:10 and IssueResource.java:279) finds one issue the
 * account opened, and its `submitterId` is the id. null: the account opened no issue yet, so none
 * is notify's.
 */
export async function readOwnAccount(client: ApiClient): Promise<number | null> {
  const id = parseAccountId(await client.getJson('/users/me'))
  if (id !== null) return id
  const parsed = parseIssueList(await client.getJson(ISSUES_PATH, {query: `submitted by me ${OLDEST_FIRST}`, offset: 0, count: 1}))
  if (parsed === null) {
    throw new ApiError({kind: 'invalid-payload', message: `GET ${client.apiPrefix}${ISSUES_PATH}: expected a JSON array of issues`, path: `${client.apiPrefix}${ISSUES_PATH}`, status: 200})
  }
  return parsed.issues[0]?.submitterId ?? null
}

export interface NewIssue {
  projectId: number
  title: string
  description: string
  fields: Readonly<Record<string, readonly string[]>>
}

/**
 * A field value as OneDev's REST interface takes it: a string for one value (every version), a list
 * for several (10.0.0 and later only: the caller refuses several values for older servers, see
 * src/onedev/issue-workflow.ts fieldsNotCarried).
 */
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
