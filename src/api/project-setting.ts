/**
 * Reading and writing one project's own setting, for `fix` (onedev-reference.md §1.5): GET returns
 * it with every secret in clear, POST replaces all of it. What is read stays in memory, for the one
 * POST and a rollback: nothing here logs, stores or puts a value of it into an error.
 */
import {ingestProjectList, type ProjectListItem} from '../model/ingest.js'
import {secretsOf} from '../model/redact.js'
import type {AuditError} from '../model/types.js'
import {lineAndColumn, MAX_SERVER_DEPTH, nestedDeeper, parseJson} from '../util/json.js'
import {type SourceNode, sourceOf, stringifyLike} from '../util/json-source.js'
import {ApiError, type ApiClient, tooDeepError} from './types.js'

export const settingPath = (projectId: number) => `/projects/${projectId}/setting`

/** The text each setting was read from, and where its values lie in it: what writeProjectSetting writes unchanged parts back as. */
const sources = new WeakMap<object, {text: string; root: SourceNode}>()

/**
 * GET the project's setting exactly as the server holds it, in memory only, with the text it was
 * read from (for writeProjectSetting). Refused (an ApiError, kind `invalid-payload`) when it is not
 * a JSON object, is nested deeper than any setting, or names a member twice in one object (readers
 * differ on which one counts: writing it back could change which). `known`: the setting as read
 * before (in memory): an error's text never repeats its secrets. Without it (a project's first GET:
 * none of its secrets is known yet) the client still withholds a text quoting the audit's own secret
 * in any form and masks whatever looks like a credential.
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
    // Its depth is judged below, as the client judges every answer's.
    raw = parseJson(text, 'the setting', Number.POSITIVE_INFINITY)
  } catch (error) {
    return fail(error instanceof Error ? error.message : 'not JSON')
  }
  if (nestedDeeper(raw, MAX_SERVER_DEPTH)) throw new ApiError(tooDeepError('GET', `${client.apiPrefix}${path}`, 200, MAX_SERVER_DEPTH))
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail('the setting is not a JSON object')
  const {root, duplicate} = sourceOf(text)
  if (duplicate !== null) {
    const {line, column} = lineAndColumn(text, duplicate)
    return fail(`the setting names a member twice in one object (line ${line}, column ${column}): it is not rewritten, since readers differ on which one counts`)
  }
  sources.set(raw, {text, root})
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

/**
 * POST the whole setting: `raw`, a setting made from `received` (what readProjectSetting returned),
 * written with every value it did not change exactly as the server sent it (numbers as their tokens,
 * members in their order: src/util/json-source.ts). An error's text never repeats a secret of it.
 */
export async function writeProjectSetting(client: ApiClient, projectId: number, raw: unknown, received: unknown): Promise<void> {
  const source = typeof received === 'object' && received !== null ? sources.get(received) : undefined
  if (source === undefined) throw new Error('writeProjectSetting: the setting it is made from was not read by readProjectSetting')
  await client.postText(settingPath(projectId), stringifyLike(raw, source.text, source.root), secretsOf(raw))
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
