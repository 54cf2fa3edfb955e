/**
 * Judging projects as they arrive (issue 12), for the live audit: a project is judged as soon as it
 * and every ancestor are in, and its raw payload is released (set to null) once its findings, and
 * those of every audited descendant, were judged and handed to `onJudged` (which computes their
 * report locations). Memory then grows with findings, not with projects.
 *
 * What a project's rules read, and when it is final:
 * - its setting and raw, and its ancestors' (inheritance; pointers and locations into an ancestor's
 *   payload): final when they are loaded, which is what "in" means;
 * - the roles and the server data (access rules): final once the roles listing and the server-wide
 *   fetches are done (`ready`), except on servers whose users listing has no ids, where users are
 *   resolved one by one as projects name them: there every project waits for `finish`;
 * - `audited`: asked only about ancestors, whose audited status is known once they are loaded.
 * The roles, the server and the issue setting are judged at `finish`, on the final model, and so is
 * any project that was not judged by then (an interrupted collection, a missing ancestor).
 *
 * `finish` returns exactly what `evaluate(model, ...)` returns for the final model: the findings of
 * the projects are taken in the model's order, identical findings of projects sharing a path are
 * numbered again across them, and everything is sorted the same way.
 */
import type {IssueSetting} from '../model/issue-setting.js'
import {serverDataGrowsWithProjects} from '../model/access-data.js'
import type {AuditError, AuditModel, Project} from '../model/types.js'
import {type ActiveRule, compareFindings, describeError, type Evaluation, judge, projectOwner, projectTarget, renumber, serverKey, sharedOwners, wholeServerTargets} from './evaluate.js'
import {ServerFacts} from './facts.js'
import type {AuditSettings, Finding} from './rule.js'
import {pushTo} from '../util/collections.js'
import type {Lane} from '../util/lane.js'

export interface ArrivalOptions {
  rules: ActiveRule[]
  settings: AuditSettings
  /**
   * The findings of one project judged on arrival, while the raw payloads they point into (its own
   * and its ancestors') are still held: `projectRaw` answers for those. Called before any is released.
   */
  onJudged?: (findings: readonly Finding[], projectRaw: (id: number) => unknown) => void
  /**
   * Where projects are judged, one per task, as the lane's `later` tasks (they take turns with the
   * collection's own work): a burst of projects ready at once (all those loaded when the roles come
   * in) never keeps an answer waiting. Without one, a project is judged as soon as it is ready.
   */
  lane?: Lane
}

interface Node {
  id: number
  /** undefined while the project's facts are not known. */
  parentId?: number | null
  children: number[]
  audited: boolean
  project?: Project
  judged: boolean
  /** Audited projects not judged yet (itself included) whose known chain of ancestors passes here. */
  needed: number
  released: boolean
}

interface Judged {
  findings: Finding[]
  /** The draft key of each finding, to number them again when another project shares the path. */
  keys: Array<string | undefined>
  errors: AuditError[]
}

/**
 * Judges projects on arrival; the collection feeds it through `CollectRequest.arrival`
 * (src/api/collect.ts): `expect` each audited project, `allExpected`, `add` each loaded project,
 * `ready` once roles and server-wide data are in. Then `finish` on the final model.
 */
export class ArrivalEvaluator {
  private readonly nodes = new Map<number, Node>()
  private readonly judgedProjects = new Map<number, Judged>()
  private readonly audited = new Set<number>()
  /**
   * The model being collected (`facts.model`, from `ready`) with its facts, shared by the projects
   * judged on arrival: one field, so that the projects are never judged with another model's facts.
   */
  private collecting: ServerFacts | undefined
  private expectedAll = false
  /** Audited projects whose chain reaches a project whose parent is not known yet, by that project. */
  private readonly waitingOn = new Map<number, number[]>()
  private open = 0
  private releasedCount = 0
  /** What stopped judging on arrival, if anything did (see `early`). */
  private failure: unknown = undefined
  /** Projects ready to judge whose turn on the lane has not come yet, in the order they became ready. */
  private readonly pending = new Set<Node>()

  constructor(private readonly options: ArrivalOptions) {}

  /** The lane projects are judged on (ArrivalHooks.lane): the collection's CPU work takes turns with it. */
  get lane(): Lane | undefined {
    return this.options.lane
  }

  /** How many projects were judged before `finish`. */
  get judgedOnArrival(): number {
    return this.judgedProjects.size
  }

  /** How many raw payloads were released. */
  get released(): number {
    return this.releasedCount
  }

  /** Whether the project's raw payload is still held (false once released, or before it arrived). */
  holds(id: number): boolean {
    const node = this.nodes.get(id)
    return node?.project !== undefined && !node.released
  }

  expect(id: number, parentId: number | null | undefined): void {
    const node = this.node(id)
    if (node.audited) return
    node.audited = true
    this.audited.add(id)
    if (parentId !== undefined) this.learn(node, parentId)
    this.climb(id, node)
  }

  allExpected(): void {
    this.expectedAll = true
    this.sweep()
  }

  add(project: Project): void {
    const node = this.node(project.id)
    if (node.project) return
    node.project = project
    this.learn(node, project.parentId)
    if (this.collecting && this.chainLoaded(node)) this.early(() => this.judgeBelow(node))
    else this.releaseIfFree(node)
  }

  ready(model: AuditModel): void {
    // Users resolved one by one as projects name them: the server data grows until the last project.
    if (serverDataGrowsWithProjects(model.serverData)) return
    this.collecting = new ServerFacts(model, this.options.settings)
    this.early(() => {
      for (const node of [...this.nodes.values()]) if (node.audited && !node.judged && this.chainLoaded(node)) this.judgeSoon(node)
    })
  }

  /**
   * Judging early is an optimization run inside the collection's promises: an exception there (a bug:
   * rules' own failures are caught by `judge`) would be an unhandled rejection. It stops early judging
   * instead; every project not judged yet is judged by `finish`, which reports the failure as an error.
   */
  private early(run: () => void): void {
    if (this.failure !== undefined) return
    try {
      run()
    } catch (error) {
      this.failure = error
      this.collecting = undefined
    }
  }

  /**
   * The evaluation of the final model: the projects judged on arrival as they were, the others, the
   * roles, the server and the issue setting now. Every raw payload still held stays on its project.
   */
  finish(model: AuditModel, issueSetting?: {setting: IssueSetting; file: string}): Evaluation {
    const {rules, settings} = this.options
    const findings: Finding[] = []
    const errors: AuditError[] = []
    const server = serverKey(model)
    // Projects still waiting for their turn are judged now, as they would have been.
    this.early(() => {
      for (const node of this.pending) this.judgeProject(node)
    })
    this.pending.clear()
    if (this.failure !== undefined) errors.push({kind: 'internal', message: `judging projects as they arrived failed (${describeError(this.failure)}); the projects not judged by then were judged at the end`, project: null})
    const audited = new Set(model.projects.map((p) => p.id))
    const shared = new Map([...sharedOwners(model)].map((owner) => [owner, new Map<string, number>()]))
    // The final model's own facts: its server data document is not the one collected into.
    this.collecting = undefined
    const facts = new ServerFacts(model, settings)
    for (const project of model.projects) {
      if (!project.setting) continue
      const owner = projectOwner(project)
      const counts = shared.get(owner)
      const judged = this.judgedProjects.get(project.id)
      if (!judged) {
        judge(projectTarget(project, audited, settings, facts), rules, model, server, counts, findings, errors)
        continue
      }
      if (counts) judged.findings.forEach((finding, i) => renumber(finding, owner, judged.keys[i], server, counts))
      for (const finding of judged.findings) findings.push(finding)
      for (const error of judged.errors) errors.push(error)
    }
    for (const target of wholeServerTargets(settings, facts, issueSetting)) judge(target, rules, model, server, shared.get(target.owner), findings, errors)
    findings.sort(compareFindings)
    return {findings, errors}
  }

  // ---------------------------------------------------------------- the tree

  private node(id: number): Node {
    let node = this.nodes.get(id)
    if (!node) this.nodes.set(id, (node = {id, children: [], audited: false, judged: false, needed: 0, released: false}))
    return node
  }

  /** The project's parent is known: audited projects whose chain stopped here go on climbing. */
  private learn(node: Node, parentId: number | null): void {
    if (node.parentId !== undefined) return
    node.parentId = parentId
    if (parentId !== null) this.node(parentId).children.push(node.id)
    const waiting = this.waitingOn.get(node.id)
    if (!waiting) return
    this.waitingOn.delete(node.id)
    this.open -= waiting.length
    for (const id of waiting) if (parentId !== null) this.climb(id, this.node(parentId), new Set(this.chainIds(id, node.id)))
    if (this.open === 0) this.sweep()
  }

  /** Counts the audited project `id` as needing `from` and its known ancestors (stops on a cycle). */
  private climb(id: number, from: Node, seen = new Set<number>()): void {
    for (let node: Node | undefined = from; node && !seen.has(node.id); ) {
      seen.add(node.id)
      node.needed++
      if (node.parentId === undefined) {
        pushTo(this.waitingOn, node.id, id)
        this.open++
        return
      }
      node = node.parentId === null ? undefined : this.node(node.parentId)
    }
  }

  /** Ids on the known chain of `id`, itself first, up to `last` when given (stops on a cycle or an unknown parent). */
  private chainIds(id: number, last?: number): number[] {
    const ids: number[] = []
    const seen = new Set<number>()
    for (let node = this.nodes.get(id); node && !seen.has(node.id); node = node.parentId == null ? undefined : this.nodes.get(node.parentId)) {
      seen.add(node.id)
      ids.push(node.id)
      if (node.id === last) break
    }
    return ids
  }

  /** Loaded, with every ancestor loaded (up to a root or a cycle). */
  private chainLoaded(node: Node): boolean {
    const seen = new Set<number>()
    for (let current: Node | undefined = node; current && !seen.has(current.id); ) {
      seen.add(current.id)
      if (!current.project) return false
      if (current.parentId === null) return true
      current = current.parentId === undefined ? undefined : this.nodes.get(current.parentId)
      if (!current) return false
    }
    return true
  }

  /** Judges every audited project in the loaded part of `top`'s subtree (whose ancestors are all loaded). */
  private judgeBelow(top: Node): void {
    const stack = [top]
    const seen = new Set<number>()
    while (stack.length > 0) {
      const node = stack.pop()!
      if (seen.has(node.id) || !node.project) continue
      seen.add(node.id)
      if (node.audited && !node.judged) this.judgeSoon(node)
      for (const child of node.children) stack.push(this.node(child))
    }
  }

  /** Judges the project now, or in its turn on the lane. */
  private judgeSoon(node: Node): void {
    const lane = this.options.lane
    if (!lane) return this.judgeProject(node)
    if (this.pending.has(node)) return
    this.pending.add(node)
    void lane.run(
      () => {
        // Judged meanwhile (by finish), or early judging stopped: nothing to do.
        if (!this.pending.delete(node) || this.collecting === undefined) return
        this.early(() => this.judgeProject(node))
      },
      {later: true},
    )
  }

  private judgeProject(node: Node): void {
    const facts = this.collecting!
    const model = facts.model
    const project = node.project!
    this.pending.delete(node)
    node.judged = true
    if (project.setting) {
      const judged: Judged = {findings: [], keys: [], errors: []}
      judge(projectTarget(project, this.audited, this.options.settings, facts), this.options.rules, model, serverKey(model), undefined, judged.findings, judged.errors, judged.keys)
      this.judgedProjects.set(project.id, judged)
      this.options.onJudged?.(judged.findings, (id) => (this.holds(id) ? this.nodes.get(id)!.project!.raw : undefined))
    } else {
      this.judgedProjects.set(project.id, {findings: [], keys: [], errors: []})
    }
    for (const id of this.chainIds(node.id)) {
      const above = this.nodes.get(id)!
      above.needed--
      this.releaseIfFree(above)
    }
  }

  /** Releases the raw payload when no audited project still to judge may need it. */
  private releaseIfFree(node: Node): void {
    if (!this.expectedAll || this.open > 0 || node.needed > 0 || !node.project || node.released) return
    node.released = true
    node.project.raw = null
    this.releasedCount++
  }

  private sweep(): void {
    if (!this.expectedAll || this.open > 0) return
    for (const node of this.nodes.values()) this.releaseIfFree(node)
  }
}
