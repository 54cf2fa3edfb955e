/**
 * The repository of each audited project, read once: its default branch (GET
 * /repositories/{id}/default-branch), then its tags (GET /repositories/{id}/tags) and, when some
 * `branches` entry may name another branch, its branch list (GET /repositories/{id}/branches).
 * Each endpoint's offer is learnt on its own (optional.ts, EndpointVerdict): one the server does not
 * offer leaves its part unknown (judged as checked-refs.ts says, with a not-evaluated notice); a miss
 * when the endpoint answered for other projects is this project's error (deleted during the audit).
 */
import {ingestDefaultBranch, ingestRefNames, type ProjectRef} from '../model/ingest.js'
import {REPOSITORY_ENDPOINTS} from '../model/endpoints.js'
import type {Project, RepositoryInfo, RepositoryPart} from '../model/types.js'
import {oneLine} from '../util/escape.js'
import type {CollectionContext} from './collect-context.js'
import {Group} from './collect-errors.js'
import {type EndpointAnswer, SKIPPED} from './collect-requests.js'
import type {EndpointVerdict} from './optional.js'

/** The repository parts, each read from its own endpoint, whose offer is learnt on its own (optional.ts, EndpointVerdict). */
const REPOSITORY_PARTS: Readonly<Record<RepositoryPart, {what: string; checks: string}>> = {
  'default-branch': {what: 'the default branch', checks: 'default branches (branch protections judged for configured names or an assumed "main")'},
  branches: {what: 'the branches', checks: 'branch lists (branch patterns matched against no existing branch)'},
  tags: {what: 'the tags', checks: 'tag lists (tag protections judged for configured or sample tag names)'},
}

export class RepositoryReads {
  /** The repository of an audited project, read once (a project may turn out audited after its load started as an ancestor). */
  private readonly loads = new Map<number, Promise<void>>()
  /** Repository requests asked ahead of their project's read, to explain another project's miss (EndpointVerdict), until that project's read takes them. */
  private readonly askedAhead = new Map<string, Promise<EndpointAnswer<unknown>>>()

  /** `branchList`: read the branch lists too (CollectRequest.branchList). */
  constructor(
    private readonly collection: CollectionContext,
    private readonly branchList: boolean,
  ) {}

  /** Starts reading the project's repository into `project.repository`, unless it was started already. */
  read(project: Project): void {
    if (this.loads.has(project.id)) return
    this.loads.set(
      project.id,
      this.load(project.id, {id: project.id, path: project.path}).then((repository) => {
        project.repository = repository
      }),
    )
  }

  /** The project's repository read (undefined when it is not read). */
  loaded(id: number): Promise<void> | undefined {
    return this.loads.get(id)
  }

  /** Every repository started so far read. */
  allLoaded(): Promise<void[]> {
    return Promise.all(this.loads.values())
  }

  /**
   * The repository's default branch, tags and (when asked) branches, each from its own endpoint: one
   * the server does not offer leaves its part unknown (judged as checked-refs.ts says, with a
   * notice); one that failed for this project alone is `unreadable` (nothing judged in its place,
   * and an error names the project). A default branch that could not be read leaves the lists unasked.
   * null when nothing at all is known.
   */
  private async load(id: number, ref: ProjectRef): Promise<RepositoryInfo | null> {
    const unreadable = (parts: RepositoryPart[]): RepositoryInfo => ({branches: null, tags: null, unreadable: parts})
    if (this.collection.requests.stopped) return unreadable(['default-branch'])
    const head = await this.part('default-branch', id, ref, false)
    if (head === 'failed') return unreadable(['default-branch'])
    let defaultBranch: string | undefined
    if (head !== 'not offered') {
      const ingested = ingestDefaultBranch(head.body as string | null, ref)
      for (const error of ingested.errors) this.collection.errors.record(Group.Project, error, ref)
      if (ingested.errors.length > 0) return unreadable(['default-branch'])
      // Not initialized: no branch and no tag to judge.
      if (ingested.defaultBranch === null) return {defaultBranch: null, branches: [], tags: []}
      defaultBranch = ingested.defaultBranch
    }
    const [branches, tags] = await Promise.all([this.branchList ? this.refNames(id, ref, 'branches') : null, this.refNames(id, ref, 'tags')])
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

  /** A ref list: the names, null when the server does not offer the list, or `failed`. */
  private async refNames(id: number, ref: ProjectRef, part: 'branches' | 'tags'): Promise<string[] | null | 'failed'> {
    const answer = await this.part(part, id, ref, true)
    if (answer === 'failed') return answer
    if (answer === 'not offered') return null
    const ingested = ingestRefNames(answer.body, ref, part)
    for (const error of ingested.errors) this.collection.errors.record(Group.Project, error, ref)
    return ingested.names
  }

  /**
   * One repository request for one project (a project's branch and tag lists follow its default
   * branch: `followUp` puts them before projects not started yet, so that the project completes, and,
   * judged on arrival, drops its payload, soon after its setting came): the body; `not offered`; or
   * `failed`, recorded as the project's error.
   */
  private async part(part: RepositoryPart, id: number, ref: ProjectRef, followUp: boolean): Promise<{body: unknown} | 'not offered' | 'failed'> {
    const {what, checks} = REPOSITORY_PARTS[part]
    const endpoint = REPOSITORY_ENDPOINTS[part]
    const verdict = this.verdict(part)
    const failedAs = `reading ${what} of project ${oneLine(ref.path, 200)} (#${id}) failed`
    try {
      const answer = await this.ask(part, id, followUp)
      if (answer === SKIPPED) return 'not offered'
      if ('value' in answer) return {body: answer.value}
      if ((await verdict.settled()) === 'not offered') {
        this.collection.notEvaluated.add({endpoint, status: verdict.status, checks})
        return 'not offered'
      }
      const {error} = answer.miss
      this.collection.errors.record(Group.Project, {...error, message: `${error.message}; the server answers GET ${endpoint} for other projects, so this project may have been deleted during the audit`}, ref)
    } catch (error) {
      this.collection.errors.recordFailure(Group.Project, error, failedAs, ref)
    }
    return 'failed'
  }

  private verdict(part: RepositoryPart): EndpointVerdict {
    return this.collection.requests.verdictOf(REPOSITORY_ENDPOINTS[part], () => this.askOfAnother(part))
  }

  private ask(part: RepositoryPart, id: number, followUp: boolean): Promise<EndpointAnswer<unknown>> {
    const path = `/repositories/${id}/${part}`
    const ahead = this.askedAhead.get(path)
    if (ahead) {
      this.askedAhead.delete(path)
      return ahead
    }
    return this.collection.requests.askEndpoint(this.verdict(part), path, () => (part === 'default-branch' ? this.collection.client.getText(path) : this.collection.client.getJson(path)), followUp)
  }

  /** After a miss: the same repository endpoint for an audited project that has not asked it yet; its read takes the answer. */
  private askOfAnother(part: RepositoryPart): Promise<boolean> {
    const pathOf = (id: number) => `/repositories/${id}/${part}`
    return this.collection.facts.askAnotherAudited(
      (id) => !this.verdict(part).hasAsked(pathOf(id)),
      (id) => {
        const request = this.ask(part, id, false)
        this.askedAhead.set(pathOf(id), request)
        // Its failure is recorded by the project's read, which takes it.
        return request.catch(() => undefined)
      },
    )
  }
}
