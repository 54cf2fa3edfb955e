/**
 * What a collection reads to know its projects and roles, each page of a listing one request of the
 * limiter's priority lane (collect-requests.ts):
 * - the roles (GET /roles, paged), beside the project listing;
 * - with --all-projects, the projects (GET /projects, paged), pipelined: each page's projects are
 *   audited (loaded) as soon as it arrives, while the next page is fetched;
 * - the facts of a project (id, path, name, parent) by id: from the listing, or GET /projects/{id}
 *   when the listing does not hold it (an asked-for id, or an ancestor the credentials do not list).
 * A project whose facts could not be read is kept under its id as its path.
 */
import {ingestProjectList, ingestRoles, type ProjectListItem} from '../model/ingest.js'
import type {Role} from '../model/types.js'
import {type CollectionErrors, Group} from './collect-errors.js'
import type {CollectionRequests} from './collect-requests.js'
import type {ApiClient} from './types.js'

/** The roles, and their redacted raw payloads (none when they could not be read: an error says why). */
export async function readRoles(client: ApiClient, requests: CollectionRequests, errors: CollectionErrors): Promise<{roles: Role[]; raw: unknown[]}> {
  if (requests.stopped) return {roles: [], raw: []}
  try {
    const ingested = await ingestRoles(await client.paged('/roles', undefined, {schedule: requests.listingPage}), {owned: true})
    for (const error of ingested.errors) errors.record(Group.Roles, error)
    return {roles: ingested.roles, raw: ingested.raw}
  } catch (error) {
    errors.recordFailure(Group.Roles, error, 'reading the roles failed')
    return {roles: [], raw: []}
  }
}

/** The projects the collection knows of, and those it audits. */
export class ProjectFacts {
  /** Project facts (id, path, name, parent) by id, from the listing or GET /projects/{id}. */
  readonly known = new Map<number, ProjectListItem>()
  /** Audited projects (their repositories are read too), in the order they became known. */
  readonly audited: number[] = []
  readonly auditedIds = new Set<number>()
  /** With --all-projects, a parent seen before its own listing page is found in the listing when it ends. */
  listingDone: Promise<void> = Promise.resolve()
  private readonly infoRequests = new Map<number, Promise<ProjectListItem>>()

  constructor(
    private readonly requests: CollectionRequests,
    private readonly errors: CollectionErrors,
  ) {}

  /** A project's facts: from the listing (once it ended), else GET /projects/{id}, once per project. */
  info(id: number): Promise<ProjectListItem> {
    const have = this.known.get(id)
    if (have) return Promise.resolve(have)
    let pending = this.infoRequests.get(id)
    if (!pending) {
      pending = this.read(id)
      this.infoRequests.set(id, pending)
    }
    return pending
  }

  /**
   * After a miss (EndpointVerdict): asks an endpoint for the first audited project, in the order they
   * became known, that `accept`s (one that has not asked it yet); false when there is none, even once
   * the listing ended, or the collection stopped.
   */
  async askAnotherAudited(accept: (id: number) => boolean, ask: (id: number) => Promise<unknown>): Promise<boolean> {
    let id = this.requests.stopped ? undefined : this.audited.find(accept)
    if (id === undefined && !this.requests.stopped) {
      await this.listingDone
      id = this.requests.stopped ? undefined : this.audited.find(accept)
    }
    if (id === undefined) return false
    await ask(id)
    return true
  }

  private async read(id: number): Promise<ProjectListItem> {
    await this.listingDone
    const listed = this.known.get(id)
    if (listed) return listed
    if (this.requests.stopped) return fallbackInfo(id)
    try {
      const ingested = await ingestProjectList([await this.requests.get(`/projects/${id}`)])
      for (const error of ingested.errors) this.errors.record(Group.Project, error, {id, path: String(id)})
      const info = ingested.projects.find((candidate) => candidate.id === id) ?? ingested.projects[0]
      if (info && info.id === id) {
        this.known.set(id, info)
        return info
      }
    } catch (error) {
      this.errors.recordFailure(Group.Project, error, `reading project ${id} failed`, {id, path: String(id)})
    }
    return fallbackInfo(id)
  }
}

function fallbackInfo(id: number): ProjectListItem {
  return {id, path: String(id), name: null, parentId: null}
}

/** Pages through GET /projects: each page's projects become known, and those that pass `keep` are audited at once. */
export async function listProjects(client: ApiClient, requests: CollectionRequests, errors: CollectionErrors, facts: ProjectFacts, keep: (path: string) => boolean, audit: (id: number) => void): Promise<void> {
  let offset = 0
  try {
    await client.paged('/projects', undefined, {
      schedule: requests.listingPage,
      onPage: async (items) => {
        const ingested = await ingestProjectList(items, offset)
        offset += items.length
        for (const error of ingested.errors) errors.record(Group.Listing, error)
        for (const info of ingested.projects) facts.known.set(info.id, info)
        for (const info of ingested.projects) if (keep(info.path)) audit(info.id)
      },
    })
  } catch (error) {
    errors.recordFailure(Group.Listing, error, 'listing the projects failed')
  }
}
