/**
 * Collection: fetch roles, the audited projects, their settings and the settings of their
 * ancestors (for inheritance), and turn the payloads into the model through src/model/ingest.ts.
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
import {ingestDefaultBranch, ingestProjectList, ingestProjectSetting, ingestRefNames, ingestRoles, type ProjectListItem, type ProjectRef} from '../model/ingest.js'
import {REPOSITORY_ENDPOINTS} from '../model/endpoints.js'
import {redactServerPayload} from '../model/redact.js'
import {bareText, withServerVersion} from '../model/server-version.js'
import type {AuditError, AuditModel, Project, RepositoryInfo, RepositoryPart, Role, ServerData, ServerInfo} from '../model/types.js'
import {oneLine} from '../util/escape.js'
import {MAX_SERVER_DEPTH, nestedDeeper} from '../util/json.js'
import {createLane, type Lane} from '../util/lane.js'
import {createLimiter, createQueue} from '../util/limit.js'
import {type AskAnotherSubject, EndpointVerdict, NO_OTHER_SUBJECT, NotEvaluatedLog, type OptionalFetch, type OptionalGet, type ProjectFetcher, type ServerFetcher} from './optional.js'
import {ApiError, type ApiClient, tooDeepError} from './types.js'

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

/** Order of errors in the model: those about the whole run (credentials refused, interrupted) first, projects last (by id). */
const Group = {Run: 0, Roles: 1, Listing: 2, Server: 3, Project: 4} as const
type Group = (typeof Group)[keyof typeof Group]

interface RecordedError {
  group: Group
  projectId: number
  sequence: number
  error: AuditError
}

/** The repository parts, each read from its own endpoint, whose offer is learnt on its own (optional.ts, EndpointVerdict). */
const REPOSITORY_PARTS: Readonly<Record<RepositoryPart, {what: string; checks: string}>> = {
  'default-branch': {what: 'the default branch', checks: 'default branches (branch protections judged for configured names or an assumed "main")'},
  branches: {what: 'the branches', checks: 'branch lists (branch patterns matched against no existing branch)'},
  tags: {what: 'the tags', checks: 'tag lists (tag protections judged for configured or sample tag names)'},
}

/** A request not sent: its endpoint is known not to be offered. */
const SKIPPED = Symbol('skipped')
/** A request that found another one had taken its turn while it waited for a slot: it waits again. */
const AGAIN = Symbol('again')

/** What a request for an endpoint whose offer is being learnt (EndpointVerdict) comes to. */
type EndpointAnswer<T> = {value: T} | {miss: ApiError} | typeof SKIPPED

function byPathThenId(a: {path: string; id: number}, b: {path: string; id: number}): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1
  return a.id - b.id
}

/** An unexpected exception, by class name only: its text may quote payload data. */
function describeUnexpected(error: unknown): string {
  return error instanceof Error ? error.name.replace(/[^\w.-]/g, '').slice(0, 60) || 'Error' : 'unknown error'
}

/** The server data document with its keys in one order, whatever order the answers came in. */
function sortedKeys(data: ServerData): ServerData {
  const out: ServerData = {}
  for (const key of Object.keys(data).sort()) out[key] = data[key]
  return out
}

/** A JSON body read as text (so that 204 is told apart); an ApiError naming the path when it is not JSON. */
function parseOptionalJson(text: string, path: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ApiError({kind: 'not-json', message: `GET ${path}: the answer is not valid JSON`, path})
  }
  if (nestedDeeper(value, MAX_SERVER_DEPTH)) throw new ApiError(tooDeepError('GET', path, 200, MAX_SERVER_DEPTH))
  return value
}

export async function collectModel(client: ApiClient, request: CollectRequest): Promise<AuditModel> {
  const collectedAt = new Date().toISOString()
  const limit = createLimiter(Math.max(1, request.concurrency ?? DEFAULT_CONCURRENCY))
  // The CPU work on answers (ingesting settings; judging, when the hooks judge on arrival) runs
  // between reads, one task per turn of the event loop: one lane, shared with the hooks'.
  const lane = request.arrival?.lane ?? createLane()
  const keep = request.filter ?? (() => true)
  // Every request takes a slot of the one limiter: at most `concurrency` in flight, whatever asks.
  // Once the collection stopped (401, Ctrl-C), queued requests are not sent: they fail as
  // `interrupted`, which is never recorded on its own. What a failure teaches (credentials refused,
  // an endpoint the server lacks) is learnt inside the slot, before the next queued request starts.
  const notSent = () => Promise.reject(new ApiError({kind: 'interrupted', message: 'not sent: the collection stopped'}))
  const send = <T>(request: () => Promise<T>): Promise<T> => {
    if (stopped) return notSent()
    return request().catch((error: unknown) => {
      if (error instanceof ApiError && error.error.kind === 'auth') stopped = true
      throw error
    })
  }
  // The slot is held until the answer is read, not while its body is parsed (getJson's schedule).
  const get = (path: string) => client.getJson(path, undefined, (request) => limit(() => send(request)))
  // Listing pages go before every queued project request: the listing feeds the pipeline.
  const listingPage = <T>(request: () => Promise<T>) => limit(() => send(request), {priority: true})
  // Endpoints outside the contract (repository, access and administration endpoints): whether the
  // server offers each is learnt from its own answers, one verdict per endpoint template.
  const verdicts = new Map<string, EndpointVerdict>()
  const verdictOf = (endpoint: string, askAnotherSubject: AskAnotherSubject): EndpointVerdict => {
    let verdict = verdicts.get(endpoint)
    if (!verdict) verdicts.set(endpoint, (verdict = new EndpointVerdict(endpoint, askAnotherSubject)))
    return verdict
  }
  /**
   * One request for an endpoint whose offer is being learnt: its value; SKIPPED when the endpoint is
   * known not to be offered; or the miss (a no-resource answer), for the caller to judge once the
   * verdict is known (`verdict.settled()`, awaited outside the slot). Other failures throw.
   */
  async function askEndpoint<T>(verdict: EndpointVerdict, path: string, request: () => Promise<T>, followUp: boolean): Promise<EndpointAnswer<T>> {
    // Known not to be offered: not even a slot of the limiter (thousands of projects may ask).
    if (!verdict.ask(path)) return SKIPPED
    for (;;) {
      // While a miss is unexplained, the requests after it wait for their turn here, holding no slot.
      await verdict.turn()
      const answer = await limit(async (): Promise<EndpointAnswer<T> | typeof AGAIN> => {
        const admission = verdict.admit()
        if (admission === 'skip') return SKIPPED
        if (admission === 'wait') return AGAIN
        try {
          const value = await send(request)
          verdict.answered()
          return {value}
        } catch (error) {
          if (error instanceof ApiError && error.noResource) {
            verdict.missed(error.error.status ?? 404)
            return {miss: error}
          }
          verdict.failed()
          throw error
        }
      }, {followUp})
      if (answer !== AGAIN) return answer
    }
  }
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

  // Which projects are audited (their repositories are read too); filled as they become known.
  const auditedIds = new Set<number>()

  // Project facts (id, path, name, parent) by id, from the listing or GET /projects/{id}.
  const known = new Map<number, ProjectListItem>()
  const infoRequests = new Map<number, Promise<ProjectListItem>>()

  function fallbackInfo(id: number): ProjectListItem {
    return {id, path: String(id), name: null, parentId: null}
  }

  // With --all-projects, a parent seen before its own listing page is found in the listing when it ends.
  let listingDone: Promise<void> = Promise.resolve()

  /**
   * After a miss (EndpointVerdict): asks an endpoint for the first audited project, in the order they
   * became known, that `accept`s (one that has not asked it yet); false when there is none, even once
   * the listing ended, or the collection stopped.
   */
  async function askAnotherAuditedProject(accept: (id: number) => boolean, ask: (id: number) => Promise<unknown>): Promise<boolean> {
    let id = stopped ? undefined : audited.find(accept)
    if (id === undefined && !stopped) {
      await listingDone
      id = stopped ? undefined : audited.find(accept)
    }
    if (id === undefined) return false
    await ask(id)
    return true
  }

  function projectInfo(id: number): Promise<ProjectListItem> {
    const have = known.get(id)
    if (have) return Promise.resolve(have)
    let pending = infoRequests.get(id)
    if (!pending) {
      pending = (async () => {
        await listingDone
        const listed = known.get(id)
        if (listed) return listed
        if (stopped) return fallbackInfo(id)
        try {
          const ingested = await ingestProjectList([await get(`/projects/${id}`)])
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


  // Optional endpoints (optional.ts): payloads land, redacted, in one document keyed by path.
  const serverData: ServerData = {}
  const notEvaluated = new NotEvaluatedLog()
  // State the fetchers of this collection share (e.g. one users listing for every project).
  const shared = new Map<string, unknown>()

  // Two data sources asking for the same path (e.g. /settings/security) share one request.
  const optionalRequests = new Map<string, Promise<unknown>>()

  /**
   * One GET of an optional endpoint: the redacted payload, or `not offered` (its verdict). Other
   * failures throw, and so does a miss for an endpoint that answered other requests: the failure of
   * what it was asked for (a group, a user or a project deleted during the audit).
   * `followUp`: the server-wide data goes before projects not started yet (projects judged on arrival wait for it).
   */
  async function optionalRequest(path: string, spec: OptionalGet, verdict: EndpointVerdict, followUp: boolean): Promise<{value: unknown} | 'not offered'> {
    const read = (text: string | null) => (text === null ? null : spec.text ? bareText(text) : parseOptionalJson(text, path))
    const answer = await askEndpoint(verdict, path, () => (spec.paged ? client.paged(path) : client.getText(path).then(read)), followUp)
    if (answer === SKIPPED) return 'not offered'
    if ('miss' in answer) {
      if ((await verdict.settled()) === 'not offered') return 'not offered'
      throw answer.miss
    }
    const key = path.replace(/^\/+/, '')
    const redacted = redactServerPayload(key, answer.value, true)
    serverData[key] = redacted
    return {value: redacted}
  }

  const requestKey = (path: string, spec: OptionalGet) => `${spec.paged ? 'paged' : 'get'} ${path}`

  /**
   * After a miss of a per-project endpoint (`/projects/{id}/...`): the same endpoint for an audited
   * project that has not asked it yet, as its own request (its fetchers share it later).
   */
  function askProjectEndpointOfAnother(spec: OptionalGet): AskAnotherSubject {
    const pathOf = (id: number) => spec.endpoint.replace('{id}', String(id))
    return () =>
      askAnotherAuditedProject(
        (id) => !verdicts.get(spec.endpoint)?.hasAsked(pathOf(id)),
        (id) => optionalFetch(Group.Project, {id, path: known.get(id)?.path ?? String(id)}).get(pathOf(id), spec),
      )
  }

  function optionalFetch(group: Group, project?: ProjectRef): OptionalFetch {
    return {
      shared,
      get(path: string, spec: OptionalGet): Promise<unknown> {
        // With fallbacks, the endpoint is recorded (and known) under all its names at once.
        const endpoint = [spec.endpoint, ...(spec.fallbacks ?? []).map((fallback) => fallback.endpoint)].join(' or ')
        const key = requestKey(path, spec)
        let pending = optionalRequests.get(key)
        if (!pending) {
          // Only a per-project endpoint has other subjects the collection can name (audited projects).
          const askAnother = spec.fallbacks === undefined && spec.endpoint.startsWith('/projects/{id}/') ? askProjectEndpointOfAnother(spec) : NO_OTHER_SUBJECT
          pending = (async () => {
            const candidates = [{path, endpoint: spec.endpoint}, ...(spec.fallbacks ?? [])]
            let asked = path
            try {
              for (const candidate of candidates) {
                asked = candidate.path
                const answer = await optionalRequest(asked, spec, verdictOf(candidate.endpoint, askAnother), group === Group.Server)
                if (answer !== 'not offered') return answer.value
              }
              notEvaluated.add({endpoint, status: verdictOf(candidates.at(-1)!.endpoint, askAnother).status, checks: spec.checks})
            } catch (error) {
              recordFailure(group, error, `reading ${asked} failed`, project)
            }
            return undefined
          })()
          optionalRequests.set(key, pending)
        }
        return pending
      },
    }
  }

  const repositoryVerdict = (part: RepositoryPart) => verdictOf(REPOSITORY_ENDPOINTS[part], () => askRepositoryOfAnother(part))

  /** Repository requests asked ahead of their project's read, to explain another project's miss (EndpointVerdict), until that project's read takes them. */
  const askedAhead = new Map<string, Promise<EndpointAnswer<unknown>>>()

  function askRepository(part: RepositoryPart, id: number, followUp: boolean): Promise<EndpointAnswer<unknown>> {
    const path = `/repositories/${id}/${part}`
    const ahead = askedAhead.get(path)
    if (ahead) {
      askedAhead.delete(path)
      return ahead
    }
    return askEndpoint(repositoryVerdict(part), path, () => (part === 'default-branch' ? client.getText(path) : client.getJson(path)), followUp)
  }

  /** After a miss: the same repository endpoint for an audited project that has not asked it yet; its read takes the answer. */
  function askRepositoryOfAnother(part: RepositoryPart): Promise<boolean> {
    const pathOf = (id: number) => `/repositories/${id}/${part}`
    return askAnotherAuditedProject(
      (id) => !repositoryVerdict(part).hasAsked(pathOf(id)),
      (id) => {
        const request = askRepository(part, id, false)
        askedAhead.set(pathOf(id), request)
        // Its failure is recorded by the project's read, which takes it.
        return request.catch(() => undefined)
      },
    )
  }

  /**
   * One repository request for one project (a project's branch and tag lists follow its default
   * branch: `followUp` puts them before projects not started yet, so that the project completes, and,
   * judged on arrival, drops its payload, soon after its setting came): the body; `not offered`; or
   * `failed`, recorded as the project's error.
   */
  async function repositoryPart(part: RepositoryPart, id: number, ref: ProjectRef, followUp: boolean): Promise<{body: unknown} | 'not offered' | 'failed'> {
    const {what, checks} = REPOSITORY_PARTS[part]
    const endpoint = REPOSITORY_ENDPOINTS[part]
    const verdict = repositoryVerdict(part)
    const failedAs = `reading ${what} of project ${oneLine(ref.path, 200)} (#${id}) failed`
    try {
      const answer = await askRepository(part, id, followUp)
      if (answer === SKIPPED) return 'not offered'
      if ('value' in answer) return {body: answer.value}
      if ((await verdict.settled()) === 'not offered') {
        notEvaluated.add({endpoint, status: verdict.status, checks})
        return 'not offered'
      }
      const {error} = answer.miss
      record(Group.Project, {...error, message: `${error.message}; the server answers GET ${endpoint} for other projects, so this project may have been deleted during the audit`}, ref)
    } catch (error) {
      recordFailure(Group.Project, error, failedAs, ref)
    }
    return 'failed'
  }

  /** A ref list: the names, null when the server does not offer the list, or `failed`. */
  async function refNames(id: number, ref: ProjectRef, part: 'branches' | 'tags'): Promise<string[] | null | 'failed'> {
    const answer = await repositoryPart(part, id, ref, true)
    if (answer === 'failed') return answer
    if (answer === 'not offered') return null
    const ingested = ingestRefNames(answer.body, ref, part)
    for (const error of ingested.errors) record(Group.Project, error, ref)
    return ingested.names
  }

  /**
   * The repository's default branch, tags and (when asked) branches, each from its own endpoint: one
   * the server does not offer leaves its part unknown (judged as checked-refs.ts says, with a
   * notice); one that failed for this project alone is `unreadable` (nothing judged in its place,
   * and an error names the project). A default branch that could not be read leaves the lists unasked.
   * null when nothing at all is known.
   */
  async function loadRepository(id: number, ref: ProjectRef): Promise<RepositoryInfo | null> {
    const unreadable = (parts: RepositoryPart[]): RepositoryInfo => ({branches: null, tags: null, unreadable: parts})
    if (stopped) return unreadable(['default-branch'])
    const head = await repositoryPart('default-branch', id, ref, false)
    if (head === 'failed') return unreadable(['default-branch'])
    let defaultBranch: string | undefined
    if (head !== 'not offered') {
      const ingested = ingestDefaultBranch(head.body as string | null, ref)
      for (const error of ingested.errors) record(Group.Project, error, ref)
      if (ingested.errors.length > 0) return unreadable(['default-branch'])
      // Not initialized: no branch and no tag to judge.
      if (ingested.defaultBranch === null) return {defaultBranch: null, branches: [], tags: []}
      defaultBranch = ingested.defaultBranch
    }
    const [branches, tags] = await Promise.all([request.branchList ? refNames(id, ref, 'branches') : null, refNames(id, ref, 'tags')])
    const failed: RepositoryPart[] = []
    if (branches === 'failed') failed.push('branches')
    if (tags === 'failed') failed.push('tags')
    if (defaultBranch === undefined && branches === null && tags === null) return null
    return {
      ...(defaultBranch !== undefined ? {defaultBranch} : {}),
      branches: branches === 'failed' ? null : branches,
      tags: tags === 'failed' ? null : tags,
      ...(failed.length > 0 ? {unreadable: failed} : {}),
    }
  }

  /** The repository of an audited project, read once (a project may turn out audited after its load started as an ancestor). */
  const repositoryLoads = new Map<number, Promise<void>>()

  function readRepository(project: Project): void {
    if (repositoryLoads.has(project.id)) return
    repositoryLoads.set(
      project.id,
      loadRepository(project.id, {id: project.id, path: project.path}).then((repository) => {
        project.repository = repository
      }),
    )
  }

  async function loadProject(id: number): Promise<Project | undefined> {
    if (stopped) return undefined
    // Requested at once, before the project's facts are known (an ancestor's may wait for the listing).
    const body = get(`/projects/${id}/setting`).then(
      (value) => ({value}),
      (error: unknown) => ({error}),
    )
    const info = await projectInfo(id)
    const ref: ProjectRef = {id, path: info.path}
    const project: Project = {id, path: info.path, name: info.name, parentId: info.parentId, setting: null, raw: null}
    if (info.defaultRoleId !== undefined) project.defaultRoleId = info.defaultRoleId
    projectObjects.set(id, project)
    if (auditedIds.has(id)) readRepository(project)
    const optional = Promise.all((request.projectFetchers ?? []).map((fetcher) => fetcher(optionalFetch(Group.Project, ref), {id, path: info.path, audited: auditedIds.has(id), ...(info.defaultRoleId !== undefined ? {defaultRoleId: info.defaultRoleId} : {})})))
    const answer = await body
    if ('error' in answer) {
      recordFailure(Group.Project, answer.error, `reading the setting of project ${oneLine(info.path, 200)} (#${id}) failed`, ref)
    } else {
      // A freshly parsed body held nowhere else: redacted in place. On the lane: answers that came
      // with this one are read, and their next requests sent, first.
      const ingested = await lane.run(() => ingestProjectSetting(answer.value, ref, {owned: true}))
      project.setting = ingested.setting
      project.raw = ingested.raw
      for (const error of ingested.errors) record(Group.Project, error, ref)
    }
    await optional
    await repositoryLoads.get(id)
    return project
  }

  let roles: Role[] = []
  let rolesRaw: unknown[] = []
  // The roles listing runs beside the project listing, each of its pages one request of the limiter.
  const rolesDone = (async () => {
    if (stopped) return
    try {
      const ingested = await ingestRoles(await client.paged('/roles', undefined, {schedule: listingPage}), {owned: true})
      roles = ingested.roles
      rolesRaw = ingested.raw
      for (const error of ingested.errors) record(Group.Roles, error)
    } catch (error) {
      recordFailure(Group.Roles, error, 'reading the roles failed')
    }
  })()

  const serverDone = Promise.all((request.serverFetchers ?? []).map((fetcher) => fetcher(optionalFetch(Group.Server)).catch((error: unknown) => recordFailure(Group.Server, error, 'reading the server data failed'))))
  const withOptionalData = Boolean(request.serverFetchers?.length || request.projectFetchers?.length)
  // With the server-wide data, what the server said of its version (null when it could not be read: server-version.ts).
  const collectedServer = () => (request.serverFetchers?.length ? withServerVersion(request.server, serverData) : request.server)

  // Judging on arrival: once roles and server-wide data are in, the model being collected is handed over.
  const arrival = request.arrival
  const arrivalReady = arrival
    ? Promise.all([rolesDone, serverDone]).then(() =>
        arrival.ready({server: collectedServer(), collectedAt, projects: [], projectsById, roles, rolesRaw, errors: [], ...(withOptionalData ? {serverData} : {})}),
      )
    : undefined

  // Audited projects, then their ancestors, each loaded once, as soon as they are known.
  const audited: number[] = []
  const projectObjects = new Map<number, Project>()
  const projectsById = new Map<number, Project>()
  let done = 0

  // At most `projectSlots` projects load at once (their requests still share the one request limiter):
  // enough to keep every request slot busy, while the others wait as bare ids instead of thousands of
  // queued requests, which kept the garbage collector busy. Ancestors go first.
  const projectSlots = 2 * Math.max(1, request.concurrency ?? DEFAULT_CONCURRENCY)
  const scheduled = new Set<number>()
  const nextProjects = createQueue<number>()
  const nextAncestors = createQueue<number>()
  let loading = 0
  let unfinished = 0
  let loadFailure: {error: unknown} | undefined
  let onIdle: (() => void) | undefined

  function schedule(id: number, ancestor = false): void {
    if (scheduled.has(id)) return
    scheduled.add(id)
    unfinished++
    ;(ancestor ? nextAncestors : nextProjects).push(id)
    startProjects()
  }

  function startProjects(): void {
    while (loading < projectSlots) {
      const id = nextAncestors.shift() ?? nextProjects.shift()
      if (id === undefined) return
      loading++
      loadProject(id)
        .then(async (project) => {
          if (project) {
            projectsById.set(id, project)
            if (project.parentId !== null) schedule(project.parentId, true)
            if (arrival) {
              await repositoryLoads.get(id)
              arrival.add(project)
            }
          }
          if (auditedIds.has(id)) request.onProgress?.(++done, audited.length)
        })
        .catch((error: unknown) => {
          loadFailure ??= {error}
        })
        .finally(() => {
          loading--
          unfinished--
          startProjects()
          if (unfinished === 0 || loadFailure) onIdle?.()
        })
    }
  }

  /** Every scheduled project loaded (those they schedule too); rejects with the first unexpected exception. */
  function projectsLoaded(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (loadFailure) reject(loadFailure.error)
        else if (unfinished === 0) resolve()
        else return
        onIdle = undefined
      }
      onIdle = check
      check()
    })
  }

  function audit(id: number): void {
    if (auditedIds.has(id)) return
    auditedIds.add(id)
    audited.push(id)
    arrival?.expect(id, known.get(id)?.parentId)
    // Already loading (or loaded) as an ancestor: it needs its repository too.
    const project = projectObjects.get(id)
    if (project) readRepository(project)
    if (projectsById.has(id)) request.onProgress?.(++done, audited.length)
    schedule(id)
  }

  if (request.projects === 'all') {
    // Pipelined: each listing page's projects are requested as soon as it arrives, while the next
    // page is fetched (pages take the limiter's priority lane).
    listingDone = (async () => {
      let offset = 0
      try {
        await client.paged('/projects', undefined, {
          schedule: listingPage,
          onPage: async (items) => {
            const ingested = await ingestProjectList(items, offset)
            offset += items.length
            for (const error of ingested.errors) record(Group.Listing, error)
            for (const info of ingested.projects) known.set(info.id, info)
            for (const info of ingested.projects) if (keep(info.path)) audit(info.id)
          },
        })
      } catch (error) {
        recordFailure(Group.Listing, error, 'listing the projects failed')
      }
    })()
    await listingDone
  } else {
    const ids = [...new Set(request.projects)]
    await Promise.all(ids.map((id) => projectInfo(id)))
    // A project whose facts could not be read is kept: its path is unknown, so the filter cannot judge it.
    for (const id of ids) {
      const info = known.get(id)
      if (info === undefined || keep(info.path)) audit(id)
    }
  }

  arrival?.allExpected()

  await projectsLoaded()
  await Promise.all(repositoryLoads.values())
  await rolesDone
  await serverDone
  await arrivalReady

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

  // Repository endpoints a server does not offer are recorded even without optional data sources.
  const notOffered = notEvaluated.list()
  const optionalData = withOptionalData ? {serverData: sortedKeys(serverData), notEvaluated: notOffered} : notOffered.length > 0 ? {notEvaluated: notOffered} : {}
  return {server: collectedServer(), collectedAt, projects, projectsById: sortedById, roles, rolesRaw, errors, ...optionalData}
}
