/**
 * Loading the projects of a collection: each audited project, and then each ancestor it inherits
 * from, once. A project's load reads its setting (GET /projects/{id}/setting, ingested on the lane),
 * its repository when it is audited (collect-repository.ts), and runs the per-project data sources
 * (collect-optional.ts), all at once. At most `2 × concurrency` projects load at once, ancestors
 * first; their requests still share the one request limiter (collect-requests.ts).
 */
import {ingestProjectSetting, type ProjectRef} from '../model/ingest.js'
import type {Project} from '../model/types.js'
import {oneLine} from '../util/escape.js'
import type {Lane} from '../util/lane.js'
import {createQueue} from '../util/limit.js'
import type {CollectionContext} from './collect-context.js'
import {Group} from './collect-errors.js'
import type {OptionalData} from './collect-optional.js'
import type {RepositoryReads} from './collect-repository.js'
import type {ProjectFetcher} from './optional.js'

/** What the loads are told of and tell (CollectRequest, ArrivalHooks). */
export interface ProjectLoadOptions {
  concurrency: number
  projectFetchers: readonly ProjectFetcher[]
  onProgress: ((done: number, total: number) => void) | undefined
  /** A project is in (ArrivalHooks.add), once its repository is too. */
  onLoaded: ((project: Project) => void) | undefined
  /** An audited project became known (ArrivalHooks.expect). */
  onExpected: ((id: number, parentId: number | null | undefined) => void) | undefined
}

/** The parts a project's load reads through. */
export interface ProjectSources extends CollectionContext {
  readonly repository: RepositoryReads
  readonly optional: OptionalData
  /** Where the setting is ingested (ArrivalHooks.lane). */
  readonly lane: Lane
}

export class ProjectLoads {
  /** Every project loaded (audited or ancestor), by id. */
  readonly byId = new Map<number, Project>()
  /** Projects whose load has its facts, by id (the repository of one that turns out audited is read then). */
  private readonly started = new Map<number, Project>()
  private done = 0
  // At most `slots` projects load at once (their requests still share the one request limiter):
  // enough to keep every request slot busy, while the others wait as bare ids instead of thousands of
  // queued requests, which kept the garbage collector busy. Ancestors go first.
  private readonly slots: number
  private readonly scheduled = new Set<number>()
  private readonly nextProjects = createQueue<number>()
  private readonly nextAncestors = createQueue<number>()
  private loading = 0
  private unfinished = 0
  private loadFailure: {error: unknown} | undefined
  private onIdle: (() => void) | undefined

  constructor(
    private readonly sources: ProjectSources,
    private readonly options: ProjectLoadOptions,
  ) {
    this.slots = 2 * options.concurrency
  }

  /** A project to audit: loaded with its repository, its ancestors after it. */
  audit(id: number): void {
    const {facts, repository} = this.sources
    if (facts.auditedIds.has(id)) return
    facts.auditedIds.add(id)
    facts.audited.push(id)
    this.options.onExpected?.(id, facts.known.get(id)?.parentId)
    // Already loading (or loaded) as an ancestor: it needs its repository too.
    const project = this.started.get(id)
    if (project) repository.read(project)
    if (this.byId.has(id)) this.options.onProgress?.(++this.done, facts.audited.length)
    this.schedule(id)
  }

  /** Every scheduled project loaded (those they schedule too); rejects with the first unexpected exception. */
  loaded(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.loadFailure) reject(this.loadFailure.error)
        else if (this.unfinished === 0) resolve()
        else return
        this.onIdle = undefined
      }
      this.onIdle = check
      check()
    })
  }

  private schedule(id: number, ancestor = false): void {
    if (this.scheduled.has(id)) return
    this.scheduled.add(id)
    this.unfinished++
    ;(ancestor ? this.nextAncestors : this.nextProjects).push(id)
    this.startProjects()
  }

  private startProjects(): void {
    while (this.loading < this.slots) {
      const id = this.nextAncestors.shift() ?? this.nextProjects.shift()
      if (id === undefined) return
      this.loading++
      this.load(id)
        .then(async (project) => {
          if (project) {
            this.byId.set(id, project)
            if (project.parentId !== null) this.schedule(project.parentId, true)
            if (this.options.onLoaded) {
              await this.sources.repository.loaded(id)
              this.options.onLoaded(project)
            }
          }
          if (this.sources.facts.auditedIds.has(id)) this.options.onProgress?.(++this.done, this.sources.facts.audited.length)
        })
        .catch((error: unknown) => {
          this.loadFailure ??= {error}
        })
        .finally(() => {
          this.loading--
          this.unfinished--
          this.startProjects()
          if (this.unfinished === 0 || this.loadFailure) this.onIdle?.()
        })
    }
  }

  /** One project: its setting, its repository when audited, and its per-project data; undefined once the collection stopped. */
  private async load(id: number): Promise<Project | undefined> {
    const {requests, errors, facts, repository, optional, lane} = this.sources
    if (requests.stopped) return undefined
    // Requested at once, before the project's facts are known (an ancestor's may wait for the listing).
    const body = requests.get(`/projects/${id}/setting`).then(
      (value) => ({value}),
      (error: unknown) => ({error}),
    )
    const info = await facts.info(id)
    const ref: ProjectRef = {id, path: info.path}
    const project: Project = {id, path: info.path, name: info.name, parentId: info.parentId, setting: null, raw: null}
    if (info.defaultRoleId !== undefined) project.defaultRoleId = info.defaultRoleId
    this.started.set(id, project)
    if (facts.auditedIds.has(id)) repository.read(project)
    const fetched = Promise.all(this.options.projectFetchers.map((fetcher) => fetcher(optional.fetchFor(Group.Project, ref), {id, path: info.path, audited: facts.auditedIds.has(id), ...(info.defaultRoleId !== undefined ? {defaultRoleId: info.defaultRoleId} : {})})))
    const answer = await body
    if ('error' in answer) {
      errors.recordFailure(Group.Project, answer.error, `reading the setting of project ${oneLine(info.path, 200)} (#${id}) failed`, ref)
    } else {
      // A freshly parsed body held nowhere else: redacted in place. On the lane: answers that came
      // with this one are read, and their next requests sent, first.
      const ingested = await lane.run(() => ingestProjectSetting(answer.value, ref, {owned: true}))
      project.setting = ingested.setting
      project.raw = ingested.raw
      for (const error of ingested.errors) errors.record(Group.Project, error, ref)
    }
    await fetched
    await repository.loaded(id)
    return project
  }
}
