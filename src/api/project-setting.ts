/**
 * Reading and writing one project's own setting, for `fix` (onedev-reference.md §1.5): GET returns
 * it with every secret in clear, POST replaces all of it. What is read stays in memory, for the one
 * POST and a rollback: nothing here logs, stores or puts a value of it into an error.
 */
import {ingestProjectList, type ProjectListItem} from '../model/ingest.js'
import {secretsOf} from '../model/redact.js'
import type {AuditError} from '../model/types.js'
import {lineAndColumn, inexactNumber, parseJson} from '../util/json.js'
import {ApiError, type ApiClient} from './types.js'

export const settingPath = (projectId: number) => `/projects/${projectId}/setting`

/**
 * GET the project's setting exactly as the server holds it. Refused (an ApiError, kind
 * `invalid-payload`) when it holds a number JavaScript cannot carry exactly: sending it back would
 * change it. `known`: the setting as read before (in memory): an error's text never repeats its secrets.
 * Without it (a project's first GET: none of its secrets is known yet) the client still withholds a
 * text quoting the audit's own secret in any form and masks whatever looks like a credential.
 */
export async function readProjectSetting(client: ApiClient, projectId: number, known?: unknown): Promise<unknown> {
  const path = settingPath(projectId)
  const at = `GET ${client.apiPrefix}${path}`
  const text = await client.getText(path, undefined, known === undefined ? undefined : secretsOf(known))
  const fail = (message: string): never => {
    throw new ApiError({kind: 'invalid-payload', message: `${at}: ${message}`, path: `${client.apiPrefix}${path}`, status: 200})
  }
  if (text === null) return fail('no setting in the answer (204)')
  let raw: unknown
  try {
    raw = parseJson(text, 'the setting')
  } catch (error) {
    return fail(error instanceof Error ? error.message : 'not JSON')
  }
  const inexact = inexactNumber(text)
  if (inexact) {
    const {line, column} = lineAndColumn(text, inexact.offset)
    return fail(`the setting holds a number JavaScript cannot carry exactly (line ${line}, column ${column}): it is not rewritten, so that the number is not changed`)
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail('the setting is not a JSON object')
  return raw
}

/**
 * GET /projects/{id}: the project's place in the tree as the server says now (its parent), for `fix`
 * to judge a change on the project's live ancestors. An answer that is not a project is an ApiError
 * (kind `invalid-payload`) naming the path.
 */
export async function readProjectLink(client: ApiClient, projectId: number): Promise<ProjectListItem> {
  const path = `/projects/${projectId}`
  const ingested = await ingestProjectList([await client.getJson(path)])
  const project = ingested.projects[0]
  if (project?.id !== projectId) {
    const why = ingested.errors[0]?.message ?? `another project (#${project?.id}) in the answer`
    throw new ApiError({kind: 'invalid-payload', message: `GET ${client.apiPrefix}${path}: ${why}`, path: `${client.apiPrefix}${path}`, status: 200})
  }
  return project
}

/** POST the whole setting; an error's text never repeats a secret of it. */
export async function writeProjectSetting(client: ApiClient, projectId: number, raw: unknown): Promise<void> {
  await client.postJson(settingPath(projectId), raw, secretsOf(raw))
}

/**
 * How a failed POST answered: the server does not offer it (what OneDev answers a path no resource
 * matches: 405, or 404 with no body or Jersey's `HTTP 404 Not Found`, as GET judges it: ApiError.noResource),
 * refused the setting (any other status: a 404 naming the project, `No row with the given identifier
 * exists`, is that project's failure, deleted since it was read), or gave no answer.
 */
export function postFailure(error: unknown): {kind: 'not-offered' | 'refused' | 'no-answer'; error: AuditError} | null {
  if (!(error instanceof ApiError)) return null
  const status = error.error.status
  if (error.noResource) return {kind: 'not-offered', error: error.error}
  if (status !== undefined) return {kind: 'refused', error: error.error}
  return {kind: 'no-answer', error: error.error}
}
