/**
 * Judging while applying, with the same engine as planning: a plan's changes are planned again from
 * the live setting (a plan is an approval list, not a program), an undo record's restores are judged
 * before they are sent, and what the server sends back is judged again.
 *
 * The model: for a plan, its context (the projects its changes reach, as planned, redacted), with the
 * changed project's setting as the server holds it now, then as it sent it back (settle): a child
 * applied after its parent is judged under the parent's new setting. For an undo record, a model
 * collected live. Only project rules can judge a plan's context: the roles and the server-wide data are
 * not in a plan, so rules that need them (access/*) stay silent. They were judged when it was made.
 *
 * What in a plan's context may have been edited with the file is judged for what it is: it can only
 * change which findings are judged, never make a change weaken something, with one exception that is
 * read live: where a change makes one of the project's protections apply where it did not (a new
 * protection, one enabled or applying to more users), what its ancestors hold decides whether it takes
 * something from the names they protect; then the project's place in the tree and its ancestors'
 * settings are read from the server (confirmChain) and the change is planned again on them.
 */
import type {ActiveRule} from '../engine/evaluate.js'
import type {AuditSettings, Finding} from '../engine/rule.js'
import {ingestProjectSettingNow} from '../model/ingest.js'
import {joinPointer, parsePointer, resolvePointer} from '../model/pointer.js'
import type {AuditError, AuditModel, Project} from '../model/types.js'
import {oneLine} from '../util/escape.js'
import {describePath, editsDiffer, forwardOf, inverseOf, placed, sameEdit} from './approval.js'
import {childrenOf, FixJudge, reachedBy} from './judge.js'
import {cloneJson, operationOf, type PlannedEdit, planEdits} from './patch.js'
import type {Change, ContextProject} from './plan-types.js'
import {type FixSelection, replanProject} from './plan.js'
import {protectionNowApplies, uncheckedNamesWeakened} from './shadowing.js'
import type {AppliedEdit} from './undo.js'
import {diffChangesWeakened} from './weakened.js'

export interface JudgeOptions {
  /** The active rules of this run and its settings (its configuration). */
  rules: readonly ActiveRule[]
  settings: AuditSettings
  /** A plan's own selection (its rules, suggestions or not). */
  selection: FixSelection
  /** Findings this run's configuration accepts (suppressions): never changed. */
  suppressed?: (finding: Finding) => boolean
}

/** A project as the server says it is now (GET /projects/{id}): its place in the tree. */
export interface LiveLink {
  id: number
  path: string
  name: string | null
  parentId: number | null
}

/** An ancestor read live: its place in the tree, and its setting as read now (absent: the judge has it live already). */
export interface LiveAncestor {
  link: LiveLink
  raw?: unknown
}

/** What planning a project again from its live setting gives. */
export type Rederived =
  /** The changes, the findings before them and with them (of the projects the setting reaches). */
  | {changes: Change[]; before: Finding[]; after: Finding[]}
  /** The plan's changes are not what the tool plans now: why, naming the path. */
  | {rejected: string}
  /** A change makes a protection apply where it did not: read its place in the tree and its ancestors live (confirmChain), then ask again. */
  | {ancestorsNeeded: true}
  | {error: string}

export class ContextJudge {
  private children: Map<number, number[]>
  private readonly judge: FixJudge
  /** Projects whose parent, as the model holds it, is the one the server says now. */
  private readonly liveLinks = new Set<number>()
  /** Projects whose setting, as the model holds it, was read from the server in this run. */
  private readonly liveSettings = new Set<number>()
  /** Projects a live collection could not read, with why (judging them is refused). */
  private readonly unreadable = new Map<number, string>()
  /** Why a live collection may lack a project altogether (an error of no one project), when it does. */
  private collectionFailed: string | null = null

  private constructor(
    private readonly model: AuditModel,
    private readonly audited: ReadonlySet<number>,
    private readonly options: JudgeOptions,
  ) {
    this.children = childrenOf(model.projectsById.values())
    this.judge = new FixJudge(options.rules, options.settings)
  }

  /**
   * A plan's context. Read from a file, nothing in it is live; `live`: the plan was made in this run
   * from the server, whose answers the context holds.
   */
  static ofContext(context: readonly ContextProject[], server: AuditModel['server'], options: JudgeOptions, live = false): ContextJudge {
    const projectsById = new Map<number, Project>()
    for (const entry of context) projectsById.set(entry.id, ingested(entry, entry.setting))
    const projects = context.filter((entry) => entry.audited).map((entry) => projectsById.get(entry.id)!)
    const judge = new ContextJudge({server, projects, projectsById, roles: [], rolesRaw: [], errors: []}, new Set(projects.map((p) => p.id)), options)
    if (live) {
      for (const entry of context) {
        judge.liveLinks.add(entry.id)
        if (entry.setting !== null) judge.liveSettings.add(entry.id)
      }
    }
    return judge
  }

  /** A model collected from the server in this run: every project of it is live. */
  static ofLiveModel(model: AuditModel, options: JudgeOptions): ContextJudge {
    const copy: AuditModel = {...model, projects: [...model.projects], projectsById: new Map(model.projectsById)}
    const judge = new ContextJudge(copy, new Set(model.projects.map((p) => p.id)), options)
    for (const id of copy.projectsById.keys()) {
      judge.liveLinks.add(id)
      judge.liveSettings.add(id)
    }
    for (const error of model.errors) {
      if (error.project && !judge.unreadable.has(error.project.id)) judge.unreadable.set(error.project.id, error.message)
      if (!error.project) judge.collectionFailed ??= error.message
    }
    return judge
  }

  /** The project with `raw` (real or redacted: redacted here) as its setting; its setting null when it is not one this tool can judge. */
  private candidate(id: number, raw: unknown): Project | {error: string} {
    const known = this.model.projectsById.get(id)
    if (!known) return {error: `project #${id} is not among the projects read to judge it${this.collectionFailed ? ` (${this.collectionFailed})` : ''}`}
    const candidate = ingested(known, raw)
    return candidate.setting ? candidate : {error: 'the setting is not one this onedev-audit can judge (it does not pass the payload checks)'}
  }

  private put(project: Project): void {
    this.model.projectsById.set(project.id, project)
    const index = this.model.projects.findIndex((p) => p.id === project.id)
    if (index >= 0) this.model.projects[index] = project
  }

  /** `fn` with `raw` as the setting of `id` for the time of the call. */
  private withSetting<T>(id: number, raw: unknown, fn: (candidate: Project) => T): T | {error: string} {
    const known = this.model.projectsById.get(id)
    const candidate = this.candidate(id, raw)
    if ('error' in candidate) return candidate
    this.put(candidate)
    try {
      return fn(candidate)
    } finally {
      this.put(known!)
    }
  }

  /** The audited projects the setting of `id` reaches: itself (when audited) and those below it. */
  scopeOf(id: number): number[] {
    return reachedBy(id, this.children, (member) => this.audited.has(member))
  }

  /**
   * The findings of every project the setting of `id` reaches, with `raw` (real or redacted: it is
   * redacted here) as that setting; an error when it is not a setting this tool can judge.
   */
  findings(id: number, raw: unknown): Finding[] | {error: string} {
    return this.withSetting(id, raw, () => {
      const errors: AuditError[] = []
      const findings = this.scopeOf(id).flatMap((member) => this.judge.judgeProject(this.model.projectsById.get(member)!, this.model, this.audited, errors).map((j) => j.finding))
      return errors.length > 0 ? {error: errors[0]!.message} : findings
    })
  }

  /** The project's setting is now `raw` (as the server sent it back). */
  settle(id: number, raw: unknown): void {
    const known = this.model.projectsById.get(id)
    if (!known) return
    this.put(ingested(known, raw))
    this.liveSettings.add(id)
  }

  /** The project's place in the tree, when the model holds it as the server says it now; null otherwise. */
  liveLink(id: number): LiveLink | null {
    const project = this.model.projectsById.get(id)
    return project && this.liveLinks.has(id) ? {id, path: project.path, name: project.name, parentId: project.parentId} : null
  }

  hasLiveSetting(id: number): boolean {
    return this.liveSettings.has(id)
  }

  /** Whether the place of `id` in the tree and the settings of all its ancestors are as the server says now. */
  private chainLive(id: number): boolean {
    const seen = new Set<number>()
    for (let at: number | null = id; at !== null; at = this.model.projectsById.get(at)?.parentId ?? null) {
      if (seen.has(at) || !this.liveLinks.has(at) || (at !== id && !this.liveSettings.has(at))) return false
      seen.add(at)
    }
    return true
  }

  /**
   * The part of the model that planning `id` reads: the projects its setting reaches (every one below
   * it) and its ancestors. A plan's context holds the projects of every change; planning one of them
   * copies only this.
   */
  private reachedModel(id: number): AuditModel {
    // In id order, as the context is (and so the children lists the planner walks).
    const members = [...reachedBy(id, this.children, () => true), ...this.ancestorsOf(id).map((p) => p.id)].sort((a, b) => a - b)
    const projectsById = new Map<number, Project>()
    for (const member of members) {
      const project = this.model.projectsById.get(member)
      if (project) projectsById.set(member, project)
    }
    const projects = members.filter((member) => this.audited.has(member) && projectsById.has(member)).map((member) => projectsById.get(member)!)
    return {...this.model, projects, projectsById}
  }

  /** The known ancestors of `id`, nearest first (stops on a cycle or an unknown parent). */
  private ancestorsOf(id: number): Project[] {
    const out: Project[] = []
    const seen = new Set<number>([id])
    for (let at = this.model.projectsById.get(id)?.parentId ?? null; at !== null && !seen.has(at); at = this.model.projectsById.get(at)?.parentId ?? null) {
      seen.add(at)
      const ancestor = this.model.projectsById.get(at)
      if (!ancestor) break
      out.push(ancestor)
    }
    return out
  }

  /** An ancestor of `id` whose setting cannot be judged (it did not pass the payload checks), or null. */
  private unjudgeableAncestor(id: number): Project | null {
    return this.ancestorsOf(id).find((ancestor) => !ancestor.setting) ?? null
  }

  /** The place in the tree of `id`, and its ancestors (nearest first), as read from the server now. */
  confirmChain(owner: LiveLink, ancestors: readonly LiveAncestor[]): void {
    for (const {link, raw} of [{link: owner}, ...ancestors] as LiveAncestor[]) {
      const known = this.model.projectsById.get(link.id)
      const placed: Project = {...(known ?? {setting: null, raw: null, repository: null}), id: link.id, path: link.path, name: link.name, parentId: link.parentId}
      this.put(raw === undefined ? placed : ingested(placed, raw))
      this.liveLinks.add(link.id)
      if (raw !== undefined) this.liveSettings.add(link.id)
    }
    this.children = childrenOf(this.model.projectsById.values())
  }

  /**
   * What the tool plans now for `id` from `raw` (its live setting), with this run's configuration and
   * the plan's selection, taking the plan's `changes` as the approval list: a change it plans is made
   * only when it is the plan's next change, whole (its rule, its edits: op, path and value). Every
   * change of the plan must be planned so, in order; the first that is not is named with its path.
   */
  rederive(id: number, raw: unknown, changes: readonly Change[]): Rederived {
    const result = this.withSetting(id, raw, (candidate): Rederived => {
      let next = 0
      const approved = (change: Change) => {
        if (next >= changes.length || changeDiffers(changes[next]!, change) !== null) return false
        next++
        return true
      }
      const replanned = replanProject(this.reachedModel(id), id, {...this.options, approved})
      if (replanned.errors.length > 0) return {error: replanned.errors[0]!.message}
      if (next < changes.length) return {rejected: rejection(changes[next]!, replanned.unapproved)}
      if (!this.chainLive(id) && protectionNowApplies(candidate, replanned.after, this.options.settings.protectionSemantics)) return {ancestorsNeeded: true}
      const unjudgeable = this.chainLive(id) ? this.unjudgeableAncestor(id) : null
      if (unjudgeable) return {error: `the setting of its ancestor ${unjudgeable.path} (#${unjudgeable.id}) is not one this onedev-audit can judge`}
      return {changes: replanned.changes, before: replanned.before, after: replanned.afterFindings}
    })
    return result
  }

  /** Why the restores of `id` cannot be judged (a project they are judged on could not be read), or null. */
  private unjudgeable(id: number): {error: string} | null {
    for (const member of [id, ...this.scopeOf(id), ...this.ancestorsOf(id).map((p) => p.id)]) {
      const why = this.unreadable.get(member)
      if (why !== undefined) return {error: `it cannot be judged: project #${member} could not be read (${why})`}
    }
    return null
  }

  /** The findings of the projects of `scope`, as the model holds them. */
  private judgeScope(scope: readonly number[]): Finding[] | {error: string} {
    const errors: AuditError[] = []
    const findings = scope.flatMap((member) => this.judge.judgeProject(this.model.projectsById.get(member)!, this.model, this.audited, errors).map((j) => j.finding))
    return errors.length > 0 ? {error: errors[0]!.message} : findings
  }

  /**
   * What sending the restores `sent` to `id` would do, the model holding `live` as its setting and
   * `now` being the findings of `scope` with it: the setting they restore, the findings it brings back
   * (not there now), and the first thing it weakens (diff's comparison, the unchecked names), or null.
   */
  private restoring(id: number, live: Project, sent: readonly PlannedEdit[], scope: readonly number[], now: readonly Finding[]): {restored: Project; created: Finding[]; weakened: string | null} | {rejected: string} | {error: string} {
    const edited = planEdits(live.raw, sent.map(operationOf))
    if ('problem' in edited) return {error: edited.problem}
    const restored = ingested(live, edited.result)
    if (!restored.setting) return {rejected: `${describePath(sent.at(-1)!.path)}: the setting it would restore is not one this onedev-audit can judge`}
    this.put(restored)
    let then: Finding[] | {error: string}
    try {
      then = this.judgeScope(scope)
    } finally {
      this.put(live)
    }
    if ('error' in then) return then
    const present = new Set(now.map((f) => f.fingerprint))
    const created = then.filter((f) => !present.has(f.fingerprint))
    const settings = this.options.settings
    const weakened = diffChangesWeakened(this.model, scope, id, live, restored, settings) ?? uncheckedNamesWeakened(live, restored, this.ancestorsOf(id), settings.protectionSemantics)
    return {restored, created, weakened}
  }

  /**
   * Whether an undo record's restores (`sent`, the reverse of `applied` as restoreMismatch checked)
   * may be sent to `id`, whose setting is `raw` now: judged with the same engine as planning, on the
   * projects its setting reaches. A restore that brings back no finding and weakens nothing (diff's
   * comparison, the unchecked names) may be sent. One that does may be sent only when the tool itself,
   * planning from the setting it would restore (with every rule and suggestions), makes exactly the
   * recorded change again and that change clears every finding the restore brings back: an undo puts
   * back only what a fix of this tool took away. That exception takes the record's account of the
   * apply (`applied`) as true: it is for records sealed by this user's key only (harmlessRestores
   * judges the others). Null when it may be sent; else why not, naming a path.
   */
  judgeRestore(id: number, raw: unknown, sent: readonly PlannedEdit[], applied: readonly AppliedEdit[]): {rejected: string} | {error: string} | null {
    const blocked = this.unjudgeable(id)
    if (blocked) return blocked
    const scope = this.scopeOf(id)
    return this.withSetting(id, raw, (live): {rejected: string} | {error: string} | null => {
      const now = this.judgeScope(scope)
      if ('error' in now) return now
      const verdict = this.restoring(id, live, sent, scope, now)
      if (!('restored' in verdict)) return verdict
      const {restored, created, weakened} = verdict
      if (weakened === null && created.length === 0) return null

      // It takes something away: only the reverse of a change the tool would make from there.
      const settings = this.options.settings
      const restoredPaths = new Set(sent.map((edit) => edit.path))
      const pool = applied.filter((entry) => restoredPaths.has(inverseOf(entry).path)).map((entry) => ({entry, forward: forwardOf(entry)}))
      const approved = (change: Change) => {
        const edits = change.edits.map((edit) => placed(edit as PlannedEdit))
        if (!edits.every((edit) => pool.some(({forward}) => sameEdit(forward, edit)))) return false
        for (const edit of edits) pool.splice(pool.findIndex(({forward}) => sameEdit(forward, edit)), 1)
        return true
      }
      this.put(restored)
      let replanned
      try {
        replanned = replanProject(this.reachedModel(id), id, {rules: this.options.rules, settings, selection: {suggestions: true, rules: []}, approved})
      } finally {
        this.put(live)
      }
      if (replanned.errors.length > 0) return {error: replanned.errors[0]!.message}
      if (pool.length > 0) {
        return {rejected: `${describePath(pool[0]!.entry.path)}: from the setting the undo would restore, onedev-audit would not plan the change the record says was made there, and the undo ${harmOf(verdict)}`}
      }
      const cleared = new Set(replanned.changes.flatMap((change) => change.clears.map((f) => f.fingerprint)))
      const unexplained = created.find((f) => !cleared.has(f.fingerprint))
      if (unexplained) return {rejected: `${describePath(sent[0]!.path)}: restoring would make ${unexplained.ruleId} report "${unexplained.subject}", which the change it undoes did not clear`}
      return null
    })
  }

  /**
   * The restores of a record NOT sealed by this user's key (src/fix/seal.ts): its account of what the
   * apply changed may have been written by anyone, so judgeRestore's exception (the reverse of a change
   * the tool would make) is not open to it: no restore that brings back a finding or weakens anything
   * is sent. In order, each restore is kept when it and those kept before it, restored together on the
   * live setting `raw`, bring back no finding and weaken nothing; the others are held, each with why (words that follow "it").
   * A restore that lies in a list where a held one adds or removes an item is held too (its path
   * counts on that item being there, or not).
   */
  harmlessRestores(id: number, raw: unknown, edits: readonly PlannedEdit[]): {sent: PlannedEdit[]; held: Array<{edit: PlannedEdit; why: string}>} | {error: string} {
    const blocked = this.unjudgeable(id)
    if (blocked) return blocked
    const scope = this.scopeOf(id)
    return this.withSetting(id, raw, (live) => {
      const now = this.judgeScope(scope)
      if ('error' in now) return now
      const sent: PlannedEdit[] = []
      const held: Array<{edit: PlannedEdit; why: string}> = []
      const moved: string[] = []
      for (const edit of edits) {
        const list = moved.find((path) => edit.path.startsWith(`${path}/`))
        if (list !== undefined) {
          held.push({edit, why: `comes after a restore that adds or removes an item of ${describePath(list)}, which is left to a person`})
          continue
        }
        const verdict = this.restoring(id, live, [...sent, edit], scope, now)
        if ('error' in verdict) return verdict
        const harm = 'rejected' in verdict ? 'would restore a setting this onedev-audit cannot judge' : harmOf(verdict)
        if (harm === null) {
          sent.push(edit)
          continue
        }
        held.push({edit, why: harm})
        const itemOf = listOfItem(live.raw, edit)
        if (itemOf !== null) moved.push(itemOf)
      }
      return {sent, held}
    })
  }
}

/** What a restore takes away, in words ("weakens what applies (…)", "would make RULE report "…""), or null when nothing. */
function harmOf(verdict: {created: readonly Finding[]; weakened: string | null}): string | null {
  if (verdict.weakened !== null) return `weakens what applies (${verdict.weakened})`
  const created = verdict.created[0]
  return created ? `would make ${created.ruleId} report "${oneLine(created.subject, 200)}"` : null
}

/** The list an edit adds an item to or removes one from (in `view`, the setting it is planned on), or null. */
function listOfItem(view: unknown, edit: PlannedEdit): string | null {
  if (edit.op !== 'add' && edit.op !== 'remove') return null
  const tokens = parsePointer(edit.path)
  if (tokens === null || tokens.length === 0) return null
  const list = joinPointer('', ...tokens.slice(0, -1))
  return Array.isArray(resolvePointer(view, list)) ? list : null
}

/** A project of the model with `raw` as its setting: redacted and checked again (a plan's context is a file, and what the server sends back is hostile). */
function ingested(entry: Pick<Project, 'id' | 'path' | 'name' | 'parentId' | 'repository'>, raw: unknown): Project {
  const base = {id: entry.id, path: entry.path, name: entry.name, parentId: entry.parentId, repository: entry.repository ?? null}
  if (raw === null || typeof raw !== 'object') return {...base, setting: null, raw: null}
  const ingest = ingestProjectSettingNow(cloneJson(raw), {id: entry.id, path: entry.path}, {owned: true})
  return 'failed' in ingest ? {...base, setting: null, raw: ingest.failed} : {...base, setting: ingest.setting, raw: ingest.raw}
}

/**
 * Where a change of the plan differs from one the tool plans, in words naming a path; null when they
 * are the same: the same rule, and the same edits (op, path, value). Its description and kind are the
 * tool's words for it (another version may word them otherwise): they send nothing.
 */
function changeDiffers(ours: Change, theirs: Change): string | null {
  if (ours.ruleId !== theirs.ruleId) return `${describePath(ours.edits[0]!.path)}: planned by another rule (${theirs.ruleId}) than the plan says (${ours.ruleId})`
  return editsDiffer(ours.edits, theirs.edits)
}

/** Why the plan's `change` is refused: how it differs from what the tool plans for its rule instead, or that it plans nothing like it. */
function rejection(change: Change, planned: readonly Change[]): string {
  const instead = planned.find((candidate) => candidate.ruleId === change.ruleId)
  if (instead) return changeDiffers(change, instead) ?? `${describePath(change.edits[0]!.path)}: onedev-audit plans this change in another order among the plan's changes`
  return `${describePath(change.edits[0]!.path)}: onedev-audit plans no change of ${change.ruleId} like the plan's "${change.description}" now`
}
