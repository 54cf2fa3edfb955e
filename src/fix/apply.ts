/**
 * Applying planned edits to a live server, one project at a time, in the plan's order:
 *   GET the setting (in memory only) → check what each edit expects (a conflict sends nothing) →
 *   judge it with the same engine as planning: a plan's changes are planned again from that live
 *   setting, with this run's configuration and the plan's selection, and only what the tool plans
 *   itself, exactly as the file says it, is sent (a plan is an approval list, not a program); an undo
 *   record's restores must reverse its applied edits and must not bring back a finding or weaken
 *   anything unless the tool would plan exactly the recorded change from there → edit that raw JSON
 *   (everything else, secrets included, kept as received) → POST it whole → GET it again → verify:
 *   the edited fields hold their new values, every other field is as before, and (for a plan)
 *   judging the projects it reaches shows the findings it clears gone and nothing new.
 * Three requests per project when all goes well. A change that makes a protection apply where it did
 * not is judged on the project's live ancestors: then its place in the tree and the settings of the
 * ancestors not read yet in this run are read first (GET /projects/{id}, GET .../setting).
 * A failed verification rolls the project back at once, as a targeted reverse patch: GET the setting,
 * find each item the change edited by its identity (patch.ts relocate: never by its index, which a
 * colleague's deletion ahead of it shifts), put back the fields the change edited where they still hold its new values, keep everything else as
 * the server has it now (a secret rotated since, a colleague's edit), POST that, read it back, and say
 * what was found changed by someone else. A first POST answered the way OneDev answers a path it does
 * not know (405, or 404 without a project named: postFailure) means the server does not offer it: the
 * run stops before any other request.
 *
 * The I/O is here; every decision is made by the pure functions it calls (patch.ts, guard.ts,
 * approval.ts, context-judge.ts, verify.ts, proof.ts, undo.ts). Messages carry pointers and our own
 * words; the server's text of a refusal is judged whole by the client before it is cut to one line
 * (src/model/server-text.ts): not shown when it may quote a secret of the setting in any form, whatever
 * looks like a credential masked; and the setting's secrets are masked again here (refusalText).
 */
import {postFailure, readProjectLink, readProjectSetting, writeProjectSetting} from '../api/project-setting.js'
import {type ApiClient, ApiError} from '../api/types.js'
import type {Finding} from '../engine/rule.js'
import {joinPointer, parsePointer, resolvePointer} from '../model/pointer.js'
import {redactDeep, redactText, secretsOf} from '../model/redact.js'
import {escapeControl, oneLine} from '../util/escape.js'
import {FileWriteError} from '../util/fs.js'
import {isObject} from '../util/json.js'
import {describePath, restoreMismatch} from './approval.js'
import type {ContextJudge, LiveAncestor, LiveLink} from './context-judge.js'
import {editProblem} from './guard.js'
import {type AppliedEdits, applyEdit, applyPlanned, containingItem, type Expectation, foundByIdentity, operationOf, type PlannedEdit, PatchError, relocate, revertWhereHeld, unmet} from './patch.js'
import type {Change} from './plan-types.js'
import {judgeChange} from './proof.js'
import {type AppliedEdit, type AppliedProject, undoRecord} from './undo.js'
import {describePointers, differences} from './verify.js'

export interface ProjectToApply {
  id: number
  path: string
  /** What is sent, in order: a plan's changes' edits, or an undo record's restores. */
  edits: PlannedEdit[]
  /** A plan's changes as its file holds them: the approval list that what the tool plans now is held against. */
  changes?: Change[]
  /** An undo record's applied edits: what its restores must reverse. */
  applied?: AppliedEdit[]
}

export type Status = 'applied' | 'by-hand' | 'conflict' | 'rejected' | 'refused' | 'rolled-back' | 'rollback-failed' | 'unreadable' | 'not-offered' | 'not-sent'

export interface Outcome {
  id: number
  path: string
  status: Status
  /** One line, safe to print. */
  detail: string
  undo?: AppliedProject
  /** Restores left to a person (undo: restoring), one line each, safe to print. */
  byHand?: string[]
}

export interface ApplyOptions {
  /**
   * Judges with the same engine as planning: a plan's changes are planned again from the live setting
   * (and what comes back is judged), an undo record's restores are judged before they are sent.
   * Without it only the fields are checked.
   */
  judge?: ContextJudge
  /** Asked before each project (never during one): why the run stops there (Ctrl-C, the deadline), or null to go on. */
  stopRequested: () => string | null
  /**
   * Just before a project's POST: its undo record in state `unknown` (restores expecting the new
   * values), to be on disk while the change may be stored and not yet settled; its outcome replaces it.
   */
  onSending: (pending: AppliedProject) => Promise<void> | void
  /** Each project as it is settled, in order (the undo record is written from these). */
  onOutcome: (outcome: Outcome) => Promise<void> | void
  /** Progress and warnings, one line each (stderr). */
  say: (line: string) => void
  /**
   * Undoing: a restore the guard refuses (a job secret's authorization back to null or empty, which
   * opens the secret to every job) is left to a person, and the project's other restores are applied.
   */
  restoring?: boolean
  /**
   * Undoing a record that is not sealed by this user's key (src/fix/seal.ts): whoever wrote it may
   * have written its account of the apply too, so only the restores that bring back no finding and
   * weaken nothing are sent (ContextJudge.harmlessRestores); each other one is left to a person.
   */
  unsealed?: boolean
}

/** Why a restore of an unsealed record is left to a person, after what it would take away. */
const UNSEALED =
  "and the undo record is not sealed by this user's key (a restore that reopens a finding or weakens anything needs a record this tool wrote, or the key that sealed it); set it by hand in Project Settings if that is really wanted"

/**
 * The server's words about a refused setting, with every secret of that setting masked, on one short
 * line. The client already withheld any text quoting one of them, of any length; masking again here
 * skips secrets of 1-3 characters, which would mangle our own words.
 */
function refusalText(error: ApiError, raw: unknown): string {
  return oneLine(redactText(error.error.message, secretsOf(raw).filter((secret) => secret.length >= 4)), 400)
}

/**
 * What judging a project before its POST gives: the findings before and with the change, and the
 * fingerprints it must clear (plans), the projects judged; or its outcome when nothing is sent.
 */
type Judged = {before?: Finding[]; after?: Finding[]; clears: string[]; judged?: number[]} | {outcome: Outcome}

const toLink = ({id, path, name, parentId}: LiveLink): LiveLink => ({id, path, name, parentId})

class Run {
  private posted = false
  private stopped: string | null = null

  constructor(
    private readonly client: ApiClient,
    private readonly options: ApplyOptions,
  ) {}

  async all(projects: readonly ProjectToApply[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = []
    for (const project of projects) {
      if (this.stopped === null) {
        const why = this.options.stopRequested()
        if (why !== null) this.stopped = `${why}: not sent`
      }
      const outcome = this.stopped === null ? await this.one(project) : {id: project.id, path: project.path, status: 'not-sent' as const, detail: this.stopped}
      outcomes.push(outcome)
      await this.options.onOutcome(outcome)
    }
    return outcomes
  }

  private outcome(project: ProjectToApply, status: Status, detail: string, undo?: AppliedProject): Outcome {
    return {id: project.id, path: project.path, status, detail, ...(undo ? {undo} : {})}
  }

  private async one(toApply: ProjectToApply): Promise<Outcome> {
    let fresh: unknown
    try {
      fresh = await readProjectSetting(this.client, toApply.id)
    } catch (error) {
      if (error instanceof ApiError) return this.outcome(toApply, 'unreadable', `${error.error.message}; nothing was sent`)
      throw error
    }
    if (this.options.restoring) {
      const mismatch = restoreMismatch(toApply.applied ?? [], toApply.edits)
      if (mismatch) return this.outcome(toApply, 'rejected', `the undo record is not what its apply did: ${mismatch}; nothing was sent`)
      // Each restore at the place its item holds now, found by identity (a protection deleted ahead of it since is no conflict).
      const placed = relocated(fresh, toApply)
      if ('lost' in placed) return this.outcome(toApply, 'conflict', `changed since the apply: ${placed.lost}; nothing was sent`)
      toApply = placed.project
    }
    let {sent, byHand} = this.options.restoring ? heldBack(fresh, toApply.edits) : {sent: toApply.edits, byHand: [] as string[]}
    if (this.options.restoring && this.options.unsealed && sent.length > 0) {
      const strict = this.strictly(toApply, fresh, sent)
      if ('outcome' in strict) return {...strict.outcome, ...(byHand.length > 0 ? {byHand} : {})}
      sent = strict.sent
      byHand = [...byHand, ...strict.byHand]
    }
    if (byHand.length === 0) return this.send(toApply, fresh)
    if (sent.length === 0) return {...this.outcome(toApply, 'by-hand', 'every restore is left to a person; nothing was sent'), byHand}
    const outcome = await this.send({...toApply, edits: sent}, fresh)
    return {...outcome, byHand}
  }

  /**
   * The restores of a record not sealed by this user's key that may be sent (those that bring back no
   * finding and weaken nothing), and a line for each of the others; or the outcome when none can be
   * judged. Restores that conflict with the live setting are left to send(), which says so and sends nothing.
   */
  private strictly(project: ProjectToApply, fresh: unknown, edits: PlannedEdit[]): {sent: PlannedEdit[]; byHand: string[]} | {outcome: Outcome} {
    const judge = this.options.judge
    if (!judge) return {outcome: this.outcome(project, 'rejected', "the undo record is not sealed by this user's key, and nothing judges its restores; nothing was sent")}
    const whole = applyPlanned(fresh, edits, editProblem)
    if ('conflict' in whole || 'problem' in whole) return {sent: edits, byHand: []}
    const split = judge.harmlessRestores(project.id, fresh, edits)
    if ('error' in split) return {outcome: this.outcome(project, 'unreadable', `${split.error}; nothing was sent`)}
    return {sent: split.sent, byHand: split.held.map(({edit, why}) => `${describePath(edit.path)}: not restored: it ${why}, ${UNSEALED}`)}
  }

  private async send(project: ProjectToApply, fresh: unknown): Promise<Outcome> {
    const applied = applyPlanned(fresh, project.edits, editProblem)
    if ('conflict' in applied) {
      const {conflict} = applied
      const what =
        'absent' in conflict
          ? `something is now at ${conflict.path}`
          : 'identities' in conflict
            ? `items of ${conflict.path} were added, removed or reordered`
            : `${conflict.path} no longer holds what the plan saw`
      return this.outcome(project, 'conflict', `changed since the plan was made: ${what} (for the edit of ${applied.edit.path}); nothing was sent`)
    }
    if ('problem' in applied) return this.outcome(project, 'conflict', `the plan cannot be applied: ${applied.problem}; nothing was sent`)

    const judged = await this.judged(project, fresh)
    if ('outcome' in judged) return judged.outcome
    const recorded = {...project, ...(judged.judged ? {judged: judged.judged} : {})}

    let pending: AppliedProject
    try {
      pending = undoRecord(recorded, project.edits, applied.result, 'unknown')
    } catch (error) {
      if (!(error instanceof PatchError)) throw error
      return this.outcome(project, 'conflict', `the change could not be recorded for undo (${error.message}); nothing was sent`)
    }
    try {
      await this.options.onSending(pending)
    } catch (error) {
      // The change could not be recorded for undo first (a full disk): it is not sent, nor anything after it.
      if (!(error instanceof FileWriteError)) throw error
      this.stopped = 'not sent: the undo record cannot be written'
      return this.outcome(project, 'not-sent', `the undo record could not be written before the POST (${error.message}); nothing was sent`)
    }
    const first = !this.posted
    this.posted = true
    try {
      await writeProjectSetting(this.client, project.id, applied.result, fresh)
    } catch (error) {
      const failure = postFailure(error)
      if (!failure) throw error
      if (failure.kind === 'not-offered' && first) {
        this.stopped = `not sent: the server does not offer POST ${this.client.apiPrefix}/projects/{id}/setting`
        return this.outcome(project, 'not-offered', `the server does not offer POST ${this.client.apiPrefix}/projects/${project.id}/setting (status ${failure.error.status}): it speaks only the contract's read endpoints; nothing was changed`)
      }
      const said = refusalText(error as ApiError, fresh)
      // A refusal should change nothing; an answer that never came may have: read it back to know.
      return this.settleAfterFailedPost(recorded, fresh, applied, judged, failure.kind === 'no-answer' ? `the POST got no answer (${said})` : `refused by the server: ${said}`)
    }
    return this.verify(recorded, fresh, applied, judged)
  }

  /**
   * Judging before the POST, with the same engine as planning. A plan: what the tool plans now from
   * the live setting must be the plan's changes, exactly (re-derived once more on the live ancestors
   * when a change makes a protection apply where it did not). An undo record: what its restores bring
   * back (judgeRestore).
   */
  private async judged(project: ProjectToApply, fresh: unknown): Promise<Judged> {
    const judge = this.options.judge
    if (!judge) return {clears: []}
    if (this.options.restoring) {
      // An unsealed record's restores were judged before (strictly): these bring back nothing.
      if (this.options.unsealed) return {clears: [], judged: judge.scopeOf(project.id)}
      const verdict = judge.judgeRestore(project.id, fresh, project.edits, project.applied ?? [])
      if (verdict === null) return {clears: [], judged: judge.scopeOf(project.id)}
      if ('error' in verdict) return {outcome: this.outcome(project, 'unreadable', `${verdict.error}; nothing was sent`)}
      return {outcome: this.outcome(project, 'rejected', `${verdict.rejected}; nothing was sent`)}
    }
    let derived = judge.rederive(project.id, fresh, project.changes ?? [])
    if ('ancestorsNeeded' in derived) {
      const failed = await this.readChain(project.id)
      if (failed !== null) return {outcome: this.outcome(project, 'unreadable', `its place in the project tree and its ancestors' settings, which decide whether the change takes something from what they protect, could not be read (${failed}); nothing was sent`)}
      derived = judge.rederive(project.id, fresh, project.changes ?? [])
    }
    if ('ancestorsNeeded' in derived) return {outcome: this.outcome(project, 'unreadable', 'its ancestors could not be judged live; nothing was sent')}
    if ('error' in derived) return {outcome: this.outcome(project, 'unreadable', `${derived.error}; nothing was sent`)}
    if ('rejected' in derived) return {outcome: this.outcome(project, 'rejected', `not what onedev-audit plans now from the live setting: ${derived.rejected}; nothing was sent`)}
    // The projects judged: after the tree was read live, those below it as the context has them.
    return {before: derived.before, after: derived.after, clears: derived.changes.flatMap((change) => change.clears.map((f) => f.fingerprint)), judged: judge.scopeOf(project.id)}
  }

  /** Reads the project's place in the tree and its ancestors' settings (those not read yet in this run) for the judge; why not, or null. */
  private async readChain(id: number): Promise<string | null> {
    const judge = this.options.judge!
    try {
      const owner = judge.liveLink(id) ?? toLink(await readProjectLink(this.client, id))
      const ancestors: LiveAncestor[] = []
      const seen = new Set([id])
      for (let parent = owner.parentId; parent !== null; ) {
        if (seen.has(parent)) return `project #${parent} is its own ancestor`
        seen.add(parent)
        const link = judge.liveLink(parent) ?? toLink(await readProjectLink(this.client, parent))
        ancestors.push(judge.hasLiveSetting(parent) ? {link} : {link, raw: await readProjectSetting(this.client, parent)})
        parent = link.parentId
      }
      judge.confirmChain(owner, ancestors)
      return null
    } catch (error) {
      if (error instanceof ApiError) return error.error.message
      throw error
    }
  }

  /** After a POST that failed: nothing changed (refused), the change is there after all (verify it), or something else is (a targeted rollback). */
  private async settleAfterFailedPost(project: ProjectToApply, fresh: unknown, applied: AppliedEdits, judged: Exclude<Judged, {outcome: Outcome}>, why: string): Promise<Outcome> {
    let now: unknown
    try {
      now = await readProjectSetting(this.client, project.id, fresh)
    } catch (error) {
      // The project itself is not found (deleted since it was read): there is nothing left to roll back.
      if (error instanceof ApiError && error.error.status === 404 && !error.noResource) return this.outcome(project, 'refused', `${why}; the project is no longer found (${error.error.message}): nothing to roll back`)
      if (!(error instanceof ApiError)) throw error
      return this.unsettled(project, applied, `${why}, and the setting could not be read back (${refusalText(error, fresh)}), so nothing was rolled back: check it in Project Settings`)
    }
    if (differences(now, fresh).length === 0) return this.outcome(project, 'refused', `${why}; the setting is unchanged`)
    if (differences(now, applied.result, applied.inserted).length === 0) return this.check(project, fresh, applied, judged, now)
    return this.rollback(project, fresh, applied, `${why}, and the setting read back is neither the old one nor the new one`, now, 'refused')
  }

  private async verify(project: ProjectToApply, fresh: unknown, applied: AppliedEdits, judged: Exclude<Judged, {outcome: Outcome}>): Promise<Outcome> {
    let readBack: unknown
    try {
      readBack = await readProjectSetting(this.client, project.id, fresh)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      return this.rollback(project, fresh, applied, `the setting could not be read back to verify it (${error.error.message})`)
    }
    return this.check(project, fresh, applied, judged, readBack)
  }

  private async check(project: ProjectToApply, fresh: unknown, applied: AppliedEdits, judged: Exclude<Judged, {outcome: Outcome}>, readBack: unknown): Promise<Outcome> {
    const lost = differences(readBack, applied.result, applied.inserted)
    if (lost.length > 0) return this.rollback(project, fresh, applied, `verification failed: the setting read back differs from what was sent at ${describePointers(lost)}`, readBack)
    const judge = this.options.judge
    const {before} = judged
    if (judge && before && !this.options.restoring) {
      // Read back exactly as sent (no server defaults in an inserted item either): its findings are those judged before the POST.
      const after = judged.after && differences(readBack, applied.result).length === 0 ? judged.after : judge.findings(project.id, readBack)
      if ('error' in after) return this.rollback(project, fresh, applied, `verification failed: ${after.error}`, readBack)
      const present = new Set(before.map((f) => f.fingerprint))
      const verdict = judgeChange(before, after, judged.clears.filter((f) => present.has(f)), {holder: project.id, paths: applied.added})
      if ('reason' in verdict) return this.rollback(project, fresh, applied, `verification failed: ${verdict.reason}`, readBack)
    }
    let undo: AppliedProject
    try {
      undo = undoRecord(project, project.edits, readBack, 'verified')
    } catch (error) {
      if (!(error instanceof PatchError)) throw error
      return this.rollback(project, fresh, applied, `the change could not be recorded for undo (${error.message})`, readBack)
    }
    judge?.settle(project.id, redactDeep(readBack))
    return this.outcome(project, 'applied', `applied and verified: ${project.edits.length} edit${project.edits.length === 1 ? '' : 's'}`, undo)
  }

  /** The project may hold the change: its undo record (state `unknown`), planned on what was sent, so that its restores expect the new values. */
  private unsettled(project: ProjectToApply, applied: AppliedEdits, detail: string): Outcome {
    const undo = undoRecord(project, project.edits, applied.result, 'unknown')
    return this.outcome(project, 'rollback-failed', `${detail}; the undo record holds its restore edits`, undo)
  }

  /**
   * A targeted rollback, never the setting as it was: read it (unless `now` was just read), put back
   * the fields the change edited where they still hold its new values (the undo record's restores,
   * which expect them, in the same item), keep everything else as the server has it now, POST that and
   * read it back. What differs from what was sent besides is named (changed by someone else, or by the
   * server) and kept. When a field cannot be put back (its item moved since) or the rollback fails, the
   * project may hold the change: its undo record stays (state `unknown`).
   */
  private async rollback(project: ProjectToApply, fresh: unknown, applied: AppliedEdits, why: string, now?: unknown, ifNothingThere: Status = 'rolled-back'): Promise<Outcome> {
    this.options.say(escapeControl(`onedev-audit: ${project.path} (#${project.id}): ${why}; rolling back`))
    let current = now
    try {
      current ??= await readProjectSetting(this.client, project.id, fresh)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      return this.unsettled(project, applied, `${why}; ROLLBACK FAILED: the setting could not be read (${refusalText(error, fresh)}), so nothing was rolled back: check it in Project Settings`)
    }
    const restores = undoRecord(project, project.edits, applied.result, 'unknown').restore
    const reverted = revertWhereHeld(current, restores, editProblem)
    const others = differences(current, applied.result, applied.inserted)
    const kept = others.length > 0 ? `; found changed since it was sent (by someone else, or by the server) and kept as the server has it: ${describePointers(others)}: check it in Project Settings` : ''
    // A restore whose field no longer holds the new value has nothing to put back, when its item is surely
    // the one the change edited: found by identity, or no list item at all. One whose item cannot be found
    // (gone, ambiguous, the list added to or reordered) cannot tell where the change is now.
    // A protection the change added and someone edited since is still there: never "nothing to roll back".
    const nothingThere = (s: (typeof reverted.skipped)[number]) =>
      s.unmet !== null &&
      'value' in s.unmet &&
      s.unmet.path === s.edit.path &&
      !(s.edit.op === 'remove' && LIST_ITEM.test(s.edit.path)) &&
      (foundByIdentity(s.edit) || containingItem(s.edit.path) === null)
    const lost = reverted.skipped.filter((s) => !nothingThere(s))
    if (lost.length > 0) {
      const where = lost.map((s) => `${s.edit.path} (${s.problem ?? describeUnmet(s.unmet!)})`).join(', ')
      return this.unsettled(project, applied, `${why}; ROLLBACK INCOMPLETE: nothing was sent back, as ${where} could not be put back${kept}`)
    }
    if (reverted.made.length === 0) return this.outcome(project, ifNothingThere, `${why}; nothing to roll back: the fields it edited do not hold its values${kept}`)
    let failed: string
    try {
      await writeProjectSetting(this.client, project.id, reverted.result, current)
      const readBack = await readProjectSetting(this.client, project.id, fresh)
      const left = differences(readBack, reverted.result)
      if (left.length === 0) return this.outcome(project, 'rolled-back', `${why}; rolled back: the fields it edited hold their old values again${kept}`)
      failed = `${why}; ROLLBACK INCOMPLETE: the setting read back differs from what was sent back at ${describePointers(left)}${kept}: check it in Project Settings`
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      failed = `${why}; ROLLBACK FAILED (${refusalText(error, fresh)}): check the setting in Project Settings`
    }
    return this.unsettled(project, applied, failed)
  }
}

/** A pointer that ends at a list item (`/branchProtections/3`). */
const LIST_ITEM = /\/(0|[1-9][0-9]*)$/

/** Why an expectation is not met, in words. */
function describeUnmet(expectation: Expectation): string {
  if ('absent' in expectation) return `something is now at ${expectation.path}`
  if ('identities' in expectation) return `items of ${expectation.path} were added, removed or reordered`
  return `${expectation.path} no longer holds what it held`
}

/**
 * Undoing: a record's restores at the places their items hold in the live setting `fresh`, found by
 * identity (relocate), each on the setting as the restores before it leave it, and its applied edits
 * with them (each restore reverses the applied edit of its path: restoreMismatch), so that what is
 * judged and recorded names the items where they are. The first restore whose item cannot be found
 * is why nothing is sent; one whose other expectations fail is left to send(), which says so.
 */
function relocated(fresh: unknown, project: ProjectToApply): {project: ProjectToApply} | {lost: string} {
  const view = redactDeep(fresh)
  const edits: PlannedEdit[] = []
  const paths = new Map<string, string>()
  for (const [index, edit] of project.edits.entries()) {
    const placed = relocate(view, edit)
    if ('lost' in placed) return {lost: `${describePath(edit.path)}: ${placed.lost}`}
    edits.push(placed.edit)
    paths.set(edit.path, placed.edit.path)
    // The next restores expect the setting as this one leaves it; past a conflict, send() tells it.
    if (unmet(view, placed.edit.expect) !== null || applyQuietly(view, placed.edit) === null) {
      edits.push(...project.edits.slice(index + 1))
      break
    }
  }
  const applied = project.applied?.map((entry) => ({...entry, path: paths.get(entry.path) ?? entry.path}))
  return {project: {...project, edits, ...(applied ? {applied} : {})}}
}

/** The edit applied to `view` in place; null when its path does not fit. */
function applyQuietly(view: unknown, edit: PlannedEdit): unknown {
  try {
    applyEdit(view, operationOf(edit))
    return view
  } catch (error) {
    if (error instanceof PatchError) return null
    throw error
  }
}

/**
 * Undoing: the restores the guard refuses that can be left out without moving the others (a member's
 * value, never a list item added or removed), each as a line for a person; the rest to send.
 */
function heldBack(fresh: unknown, edits: readonly PlannedEdit[]): {sent: PlannedEdit[]; byHand: string[]} {
  const view = redactDeep(fresh)
  const sent: PlannedEdit[] = []
  const byHand: string[] = []
  for (const edit of edits) {
    const tokens = parsePointer(edit.path)
    const inObject = tokens !== null && tokens.length > 0 && isObject(resolvePointer(view, joinPointer('', ...tokens.slice(0, -1))))
    const problem = inObject && edit.op !== 'remove' ? editProblem(view, operationOf(edit)) : null
    if (problem === null) sent.push(edit)
    else byHand.push(`${problem}: not restored; set it by hand in Project Settings if that is really wanted`)
  }
  return {sent, byHand}
}

/** Applies each project's edits in order; every outcome is handed to `onOutcome` as it is settled. */
export function applyProjects(client: ApiClient, projects: readonly ProjectToApply[], options: ApplyOptions): Promise<Outcome[]> {
  return new Run(client, options).all(projects)
}
