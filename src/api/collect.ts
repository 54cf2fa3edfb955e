/**
 * Collection: fetch roles, the audited projects, their settings and the settings of their
 * ancestors (for inheritance), their repositories, and the optional data sources
 * (data-sources.ts), and turn the payloads into the model through src/model/ingest.ts. collectModel
 * starts each source and puts together what they read; each source is a part of its own:
 * - collect-listings.ts: the roles and the project listing (or the asked-for ids), and each
 *   project's facts (GET /projects/{id} when no listing holds it);
 * - collect-projects.ts: loading each audited project and its ancestors (at most 2 × concurrency at
 *   once, ancestors first): its setting, its repository, its per-project data;
 * - collect-repository.ts: default branch, tags and branches;
 * - collect-optional.ts: what the data sources ask for (OptionalFetch), stored redacted by path;
 * - collect-requests.ts: the one limiter every request takes a slot of, and the endpoint verdicts;
 * - collect-errors.ts: failures as values, in a fixed order.
 * collect-context.ts names what they share (the client, the limiter, the errors, the known projects).
 *
 * - At most `concurrency` requests are in flight: every request takes a slot of one limiter, each
 *   page of the roles and project listings too. A project's setting and repository are read at once.
 * - Each ancestor is fetched once, however many children need it (the in-flight work is memoized).
 * - Whether the server offers each endpoint beyond the contract is learnt from that endpoint's own
 *   answers (optional.ts, EndpointVerdict); a request waiting for that verdict holds no slot.
 * - Failures are values: each becomes an AuditError (with its project when it concerns one) and the
 *   others go on. After a 401 nothing new starts; the error is recorded once.
 * - Output is deterministic: projects sorted by path, errors by group (the run's own: credentials
 *   refused, interrupted; roles; listing; server data; projects) then project id.
 * Raw payloads are handed to ingest and dropped: only the redacted raw it returns is kept.
 */
import type {AuditModel, Project, ServerData, ServerInfo} from '../model/types.js'
import {withServerVersion} from '../model/server-version.js'
import {createLane, type Lane} from '../util/lane.js'
import {CollectionErrors, Group} from './collect-errors.js'
import {listProjects, ProjectFacts, readRoles} from './collect-listings.js'
import {OptionalData} from './collect-optional.js'
import {ProjectLoads} from './collect-projects.js'
import {RepositoryReads} from './collect-repository.js'
import {CollectionRequests} from './collect-requests.js'
import {NotEvaluatedLog, type ProjectFetcher, type ServerFetcher} from './optional.js'
import type {ApiClient} from './types.js'

export interface CollectRequest {
  server: ServerInfo
  /** explicit project ids, or 'all' (pages GET /projects?offset=&count=) */
  projects: number[] | 'all'
  /** parallel project fetches (default 8) */
  concurrency?: number
  /** keep only projects whose path passes (config include/exclude); excluded projects may still be fetched as ancestors */
  filter?: (path: string) => boolean
  /** Aborting it stops the collection: nothing new starts, requests in flight are cancelled (the client's own signal), and the model holds what was collected, with one `interrupted` error. */
  signal?: AbortSignal
  /**
   * Fetch each audited project's branch list (GET /repositories/{id}/branches) besides its default
   * branch and tags: needed when some `branches` entry may name another branch (checked-refs.ts).
   */
  branchList?: boolean
  /** Optional server-wide data sources (data-sources.ts); none by default. */
  serverFetchers?: readonly ServerFetcher[]
  /** Optional per-project data sources, run for audited projects and their ancestors. */
  projectFetchers?: readonly ProjectFetcher[]
  /** called after each project completes, for progress on a TTY */
  onProgress?: (done: number, total: number) => void
  /** Told of projects as they arrive, to judge them before the collection ends (src/engine/evaluator.ts). */
  arrival?: ArrivalHooks
}

/**
 * What the collection tells whoever judges projects on arrival, in this order for each project:
 * `expect` (when audited) before `add`.
 */
export interface ArrivalHooks {
  /** Where the hooks do their work (judging); the collection runs its own CPU work there too, so that they take turns. */
  readonly lane?: Lane
  /** An audited project became known (listing page or asked-for id), with its parent when known. */
  expect(id: number, parentId: number | null | undefined): void
  /** No other project will be expected. */
  allExpected(): void
  /** A project is loaded (audited or ancestor): its setting, raw payload, repository and its own server data are in. */
  add(project: Project): void
  /** The roles and the server-wide data are in; `model` is the model being collected (projectsById grows as projects load). */
  ready(model: AuditModel): void
}

export const DEFAULT_CONCURRENCY = 8

function byPathThenId(a: {path: string; id: number}, b: {path: string; id: number}): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1
  return a.id - b.id
}

/** The server data document with its keys in one order, whatever order the answers came in. */
function sortedKeys(data: ServerData): ServerData {
  const out: ServerData = {}
  for (const key of Object.keys(data).sort()) out[key] = data[key]
  return out
}

export async function collectModel(client: ApiClient, request: CollectRequest): Promise<AuditModel> {
  const collectedAt = new Date().toISOString()
  const concurrency = Math.max(1, request.concurrency ?? DEFAULT_CONCURRENCY)
  const requests = new CollectionRequests(client, concurrency)
  // The CPU work on answers (ingesting settings; judging, when the hooks judge on arrival) runs
  // between reads, one task per turn of the event loop: one lane, shared with the hooks'.
  const lane = request.arrival?.lane ?? createLane()
  const keep = request.filter ?? (() => true)
  const errors = new CollectionErrors(() => requests.stop())
  const stop = () => requests.stop()
  if (request.signal?.aborted) requests.stop()
  request.signal?.addEventListener('abort', stop, {once: true})

  const facts = new ProjectFacts(requests, errors)
  // Repository endpoints a server does not offer are recorded even without optional data sources.
  const notEvaluated = new NotEvaluatedLog()
  const collection = {client, requests, errors, facts, notEvaluated}
  const optional = new OptionalData(collection)
  const repository = new RepositoryReads(collection, request.branchList === true)
  const arrival = request.arrival
  const projects = new ProjectLoads(
    {...collection, repository, optional, lane},
    {
      concurrency,
      projectFetchers: request.projectFetchers ?? [],
      onProgress: request.onProgress,
      onLoaded: arrival ? (project) => arrival.add(project) : undefined,
      onExpected: arrival ? (id, parentId) => arrival.expect(id, parentId) : undefined,
    },
  )

  // The roles listing runs beside the project listing, each of its pages one request of the limiter.
  const rolesRead = readRoles(client, requests, errors)
  const serverDone = Promise.all((request.serverFetchers ?? []).map((fetcher) => fetcher(optional.fetchFor(Group.Server)).catch((error: unknown) => errors.recordFailure(Group.Server, error, 'reading the server data failed'))))
  const withOptionalData = Boolean(request.serverFetchers?.length || request.projectFetchers?.length)
  const serverData = optional.serverData
  // With the server-wide data, what the server said of its version (null when it could not be read: server-version.ts).
  const collectedServer = () => (request.serverFetchers?.length ? withServerVersion(request.server, serverData) : request.server)

  // Judging on arrival: once roles and server-wide data are in, the model being collected is handed over.
  const arrivalReady = arrival
    ? Promise.all([rolesRead, serverDone]).then(([{roles, raw: rolesRaw}]) =>
        arrival.ready({server: collectedServer(), collectedAt, projects: [], projectsById: projects.byId, roles, rolesRaw, errors: [], ...(withOptionalData ? {serverData} : {})}),
      )
    : undefined

  // Audited projects, then their ancestors, each loaded once, as soon as they are known.
  if (request.projects === 'all') {
    // Pipelined: each listing page's projects are requested as soon as it arrives, while the next
    // page is fetched (pages take the limiter's priority lane).
    facts.listingDone = listProjects(client, requests, errors, facts, keep, (id) => projects.audit(id))
    await facts.listingDone
  } else {
    const ids = [...new Set(request.projects)]
    await Promise.all(ids.map((id) => facts.info(id)))
    // A project whose facts could not be read is kept: its path is unknown, so the filter cannot judge it.
    for (const id of ids) {
      const info = facts.known.get(id)
      if (info === undefined || keep(info.path)) projects.audit(id)
    }
  }

  arrival?.allExpected()

  await projects.loaded()
  await repository.allLoaded()
  const {roles, raw: rolesRaw} = await rolesRead
  await serverDone
  await arrivalReady

  request.signal?.removeEventListener('abort', stop)
  const audited = facts.audited
  const projectsById = projects.byId
  if (request.signal?.aborted) {
    const missing = audited.filter((id) => !projectsById.get(id)?.setting).length
    errors.recordInterruption(`interrupted: ${missing} of ${audited.length} projects${rolesRaw.length === 0 ? ' and the roles' : ''} were not collected; the report holds what was`)
  }
  const sortedById = new Map([...projectsById.entries()].sort(([a], [b]) => a - b))
  const notOffered = notEvaluated.list()
  const optionalData = withOptionalData ? {serverData: sortedKeys(serverData), notEvaluated: notOffered} : notOffered.length > 0 ? {notEvaluated: notOffered} : {}
  return {
    server: collectedServer(),
    collectedAt,
    projects: audited.flatMap((id) => projectsById.get(id) ?? []).sort(byPathThenId),
    projectsById: sortedById,
    roles,
    rolesRaw,
    errors: errors.sorted(),
    ...optionalData,
  }
}
