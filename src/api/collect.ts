/**
 * Collection: fetch roles, the audited projects, their settings and the settings of their
 * ancestors (for inheritance), and turn the payloads into the model through src/model/ingest.ts.
 *
 * - At most `concurrency` requests are in flight (one slot per roles listing, project listing or
 *   project; a project's own requests run one after the other).
 * - Each ancestor is fetched once, however many children need it (the in-flight work is memoized).
 * - Failures are values: each becomes an AuditError (with its project when it concerns one) and the
 *   others go on. After a 401 nothing new starts; the error is recorded once.
 * - Output is deterministic: projects sorted by path, errors by group (auth, roles, listing,
 *   projects) then project id.
 * Raw payloads are handed to ingest and dropped: only the redacted raw it returns is kept.
 */
import {ingestProjectList, ingestProjectSetting, ingestRoles, type ProjectListItem, type ProjectRef} from '../model/ingest.js'
import type {AuditError, AuditModel, Project, Role} from '../model/types.js'
import {oneLine} from '../util/escape.js'
import {createLimiter} from '../util/limit.js'
import {ApiError, type ApiClient} from './types.js'

export interface CollectRequest {
  server: {url: string; apiPrefix: string}
  /** explicit project ids, or 'all' (pages GET /projects?offset=&count=) */
  projects: number[] | 'all'
  /** parallel project fetches (default 8) */
  concurrency?: number
  /** keep only projects whose path passes (config include/exclude); excluded projects may still be fetched as ancestors */
  filter?: (path: string) => boolean
  /** Aborting it stops the collection: nothing new starts, requests in flight are cancelled (the client's own signal), and the model holds what was collected, with one `interrupted` error. */
  signal?: AbortSignal
  /** called after each project completes, for progress on a TTY */
  onProgress?: (done: number, total: number) => void
}

export const DEFAULT_CONCURRENCY = 8

/** Where an error sorts: auth first, then roles, the project listing, then projects by id. */
/** Order of errors in the model: those about the whole run (credentials refused, interrupted) first. */
const Group = {Run: 0, Roles: 1, Listing: 2, Project: 3} as const
type Group = (typeof Group)[keyof typeof Group]

interface RecordedError {
  group: Group
  projectId: number
  sequence: number
  error: AuditError
}


function byPathThenId(a: {path: string; id: number}, b: {path: string; id: number}): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1
  return a.id - b.id
}

/** An unexpected exception, by class name only: its text may quote payload data. */
function describeUnexpected(error: unknown): string {
  return error instanceof Error ? error.name.replace(/[^\w.-]/g, '').slice(0, 60) || 'Error' : 'unknown error'
}

export async function collectModel(client: ApiClient, request: CollectRequest): Promise<AuditModel> {
  const collectedAt = new Date().toISOString()
  const limit = createLimiter(Math.max(1, request.concurrency ?? DEFAULT_CONCURRENCY))
  const keep = request.filter ?? (() => true)
  const recorded: RecordedError[] = []
  let stopped = false
  let authRecorded = false
  const stop = () => {
    stopped = true
  }
  if (request.signal?.aborted) stopped = true
  request.signal?.addEventListener('abort', stop, {once: true})

  function record(group: Group, error: AuditError, project?: ProjectRef): void {
    // Requests cancelled by an interruption are summed up in one error at the end.
    if (error.kind === 'interrupted') return
    if (error.kind === 'auth') {
      stopped = true
      if (authRecorded) return
      authRecorded = true
      recorded.push({group: Group.Run, projectId: -1, sequence: recorded.length, error: {...error, project: null}})
      return
    }
    const withProject = project && !error.project ? {...error, project: {id: project.id, path: project.path}} : error
    recorded.push({group, projectId: withProject.project?.id ?? -1, sequence: recorded.length, error: withProject})
  }

  function recordFailure(group: Group, error: unknown, what: string, project?: ProjectRef): void {
    if (error instanceof ApiError) record(group, error.error, project)
    else record(group, {kind: 'internal', message: `${what}: ${describeUnexpected(error)}`}, project)
  }

  // Project facts (id, path, name, parent) by id, from the listing or GET /projects/{id}.
  const known = new Map<number, ProjectListItem>()
  const infoRequests = new Map<number, Promise<ProjectListItem>>()

  function fallbackInfo(id: number): ProjectListItem {
    return {id, path: String(id), name: null, parentId: null}
  }

  function projectInfo(id: number): Promise<ProjectListItem> {
    const have = known.get(id)
    if (have) return Promise.resolve(have)
    let pending = infoRequests.get(id)
    if (!pending) {
      pending = (async () => {
        if (stopped) return fallbackInfo(id)
        try {
          const ingested = ingestProjectList([await client.getJson(`/projects/${id}`)])
          for (const error of ingested.errors) record(Group.Project, error, {id, path: String(id)})
          const info = ingested.projects.find((candidate) => candidate.id === id) ?? ingested.projects[0]
          if (info && info.id === id) {
            known.set(id, info)
            return info
          }
        } catch (error) {
          recordFailure(Group.Project, error, `reading project ${id} failed`, {id, path: String(id)})
        }
        return fallbackInfo(id)
      })()
      infoRequests.set(id, pending)
    }
    return pending
  }

  async function loadProject(id: number): Promise<Project | undefined> {
    if (stopped) return undefined
    const info = await projectInfo(id)
    const ref: ProjectRef = {id, path: info.path}
    const project: Project = {id, path: info.path, name: info.name, parentId: info.parentId, setting: null, raw: null}
    if (stopped) return project
    try {
      // A freshly parsed body held nowhere else: redacted in place.
      const ingested = ingestProjectSetting(await client.getJson(`/projects/${id}/setting`), ref, {owned: true})
      project.setting = ingested.setting
      project.raw = ingested.raw
      for (const error of ingested.errors) record(Group.Project, error, ref)
    } catch (error) {
      recordFailure(Group.Project, error, `reading the setting of project ${oneLine(info.path, 200)} (#${id}) failed`, ref)
    }
    return project
  }

  let roles: Role[] = []
  let rolesRaw: unknown[] = []
  const rolesDone = limit(async () => {
    if (stopped) return
    try {
      const ingested = ingestRoles(await client.paged('/roles'), {owned: true})
      roles = ingested.roles
      rolesRaw = ingested.raw
      for (const error of ingested.errors) record(Group.Roles, error)
    } catch (error) {
      recordFailure(Group.Roles, error, 'reading the roles failed')
    }
  })

  // Which projects are audited.
  let audited: number[] = []
  if (request.projects === 'all') {
    await limit(async () => {
      if (stopped) return
      try {
        const ingested = ingestProjectList(await client.paged('/projects'))
        for (const error of ingested.errors) record(Group.Listing, error)
        for (const info of ingested.projects) known.set(info.id, info)
        audited = ingested.projects.filter((info) => keep(info.path)).map((info) => info.id)
      } catch (error) {
        recordFailure(Group.Listing, error, 'listing the projects failed')
      }
    })
  } else {
    const ids = [...new Set(request.projects)]
    await Promise.all(ids.map((id) => limit(() => projectInfo(id))))
    // A project whose facts could not be read is kept: its path is unknown, so the filter cannot judge it.
    audited = ids.filter((id) => {
      const info = known.get(id)
      return info === undefined || keep(info.path)
    })
  }

  // Audited projects, then their ancestors, each loaded once.
  const auditedIds = new Set(audited)
  const loads = new Map<number, Promise<void>>()
  const projectsById = new Map<number, Project>()
  let done = 0
  const total = audited.length

  function schedule(id: number): void {
    if (loads.has(id)) return
    loads.set(
      id,
      limit(() => loadProject(id)).then((project) => {
        if (project) {
          projectsById.set(id, project)
          if (project.parentId !== null) schedule(project.parentId)
        }
        if (auditedIds.has(id)) request.onProgress?.(++done, total)
      }),
    )
  }

  for (const id of audited) schedule(id)
  for (let settled = 0; settled < loads.size; ) {
    const pending = [...loads.values()]
    await Promise.all(pending)
    settled = pending.length
  }
  await rolesDone

  request.signal?.removeEventListener('abort', stop)
  const projects = audited.flatMap((id) => projectsById.get(id) ?? []).sort(byPathThenId)
  if (request.signal?.aborted) {
    const missing = audited.filter((id) => !projectsById.get(id)?.setting).length
    recorded.push({
      group: Group.Run,
      projectId: -1,
      sequence: recorded.length,
      error: {kind: 'interrupted', message: `interrupted: ${missing} of ${audited.length} projects${rolesRaw.length === 0 ? ' and the roles' : ''} were not collected; the report holds what was`, project: null},
    })
  }
  const sortedById = new Map([...projectsById.entries()].sort(([a], [b]) => a - b))
  const errors = recorded
    .sort((a, b) => a.group - b.group || a.projectId - b.projectId || a.sequence - b.sequence)
    .map((entry) => entry.error)

  return {server: request.server, collectedAt, projects, projectsById: sortedById, roles, rolesRaw, errors}
}
