/**
 * Applying planned edits to a live server, one project at a time, in the plan's order:
 *   GET the setting (in memory only) → check what each edit expects (a conflict sends nothing) →
 *   edit that raw JSON (everything else, secrets included, kept as received) → POST it whole →
 *   GET it again → verify: the edited fields hold their new values, every other field is as before,
 *   and (for a plan) judging the projects it reaches shows the findings it clears gone and nothing new.
 * Three requests per project when all goes well. A failed verification rolls the project back at once
 * (POST the setting as it was, then read it back) and says so. A first POST answered the way OneDev
 * answers a path it does not know (405, or 404 without a project named: postFailure) means the server
 * does not offer it: the run stops before any other request.
 *
 * The I/O is here; every decision is made by the pure functions it calls (patch.ts, guard.ts,
 * verify.ts, proof.ts, undo.ts). Messages carry pointers and our own words; the server's text of a
 * refusal is judged whole by the client before it is cut to one line (src/model/server-text.ts): not
 * shown when it may quote a secret of the setting in any form, whatever looks like a credential masked; and
 * the setting's secrets are masked again here (refusalText).
 */
import {postFailure, readProjectSetting, writeProjectSetting} from '../api/project-setting.js'
import {type ApiClient, ApiError} from '../api/types.js'
import type {Finding} from '../engine/rule.js'
import {joinPointer, parsePointer, resolvePointer} from '../model/pointer.js'
import {redactDeep, redactText, secretsOf} from '../model/redact.js'
import {escapeControl, oneLine} from '../util/escape.js'
import {FileWriteError} from '../util/fs.js'
import {isObject} from '../util/json.js'
import {editProblem} from './guard.js'
import {type AppliedEdits, applyPlanned, operationOf, type PlannedEdit, PatchError} from './patch.js'
import {judgeChange} from './proof.js'
import {type AppliedProject, undoRecord} from './undo.js'
import {describePointers, differences} from './verify.js'

export interface ProjectToApply {
  id: number
  path: string
  edits: PlannedEdit[]
  /** Fingerprints of the findings the change clears (judged only with a `findings` judge). */
  clears: string[]
}

/** Judges the projects a project's setting reaches with that setting (see ContextJudge). */
export interface FindingsJudge {
  findings(id: number, raw: unknown): Finding[] | {error: string}
  settle(id: number, raw: unknown): void
}

export type Status = 'applied' | 'by-hand' | 'conflict' | 'refused' | 'rolled-back' | 'rollback-failed' | 'unreadable' | 'not-offered' | 'not-sent'

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
  /** Judge the findings before and after (plans); without it only the fields are verified (undo). */
  findings?: FindingsJudge
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
}

/**
 * The server's words about a refused setting, with every secret of that setting masked, on one short
 * line. The client already withheld any text quoting one of them, of any length; masking again here
 * skips secrets of 1-3 characters, which would mangle our own words.
 */
function refusalText(error: ApiError, raw: unknown): string {
  return oneLine(redactText(error.error.message, secretsOf(raw).filter((secret) => secret.length >= 4)), 400)
}

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
    const {sent, byHand} = this.options.restoring ? heldBack(fresh, toApply.edits) : {sent: toApply.edits, byHand: []}
    if (byHand.length === 0) return this.send(toApply, fresh)
    if (sent.length === 0) return {...this.outcome(toApply, 'by-hand', 'every restore is left to a person; nothing was sent'), byHand}
    const outcome = await this.send({...toApply, edits: sent}, fresh)
    return {...outcome, byHand}
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

    const judge = this.options.findings
    const before = judge?.findings(project.id, fresh)
    if (before && 'error' in before) return this.outcome(project, 'unreadable', `${before.error}; nothing was sent`)

    let pending: AppliedProject
    try {
      pending = undoRecord(project, project.edits, applied.result, 'unknown')
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
      return this.settleAfterFailedPost(project, fresh, applied, failure.kind === 'no-answer' ? `the POST got no answer (${said})` : `refused by the server: ${said}`)
    }
    return this.verify(project, fresh, applied, before)
  }

  /** After a POST that failed: nothing changed (refused), the change is there after all (verify it), or something else is (roll back). */
  private async settleAfterFailedPost(project: ProjectToApply, fresh: unknown, applied: AppliedEdits, why: string): Promise<Outcome> {
    let now: unknown
    try {
      now = await readProjectSetting(this.client, project.id, fresh)
    } catch (error) {
      // The project itself is not found (deleted since it was read): there is nothing left to roll back.
      if (error instanceof ApiError && error.error.status === 404 && !error.noResource) return this.outcome(project, 'refused', `${why}; the project is no longer found (${error.error.message}): nothing to roll back`)
      return this.rollback(project, fresh, applied, `${why}, and the setting could not be read back`)
    }
    if (differences(now, fresh).length === 0) return this.outcome(project, 'refused', `${why}; the setting is unchanged`)
    if (differences(now, applied.result, applied.inserted).length === 0) {
      const before = this.options.findings?.findings(project.id, fresh)
      return this.check(project, fresh, applied, before, now)
    }
    return this.rollback(project, fresh, applied, `${why}, and the setting read back is neither the old one nor the new one`)
  }

  private async verify(project: ProjectToApply, fresh: unknown, applied: AppliedEdits, before: Finding[] | {error: string} | undefined): Promise<Outcome> {
    let readBack: unknown
    try {
      readBack = await readProjectSetting(this.client, project.id, fresh)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      return this.rollback(project, fresh, applied, `the setting could not be read back to verify it (${error.error.message})`)
    }
    return this.check(project, fresh, applied, before, readBack)
  }

  private async check(
    project: ProjectToApply,
    fresh: unknown,
    applied: AppliedEdits,
    before: Finding[] | {error: string} | undefined,
    readBack: unknown,
  ): Promise<Outcome> {
    const lost = differences(readBack, applied.result, applied.inserted)
    if (lost.length > 0) return this.rollback(project, fresh, applied, `verification failed: the setting read back differs from what was sent at ${describePointers(lost)}`)
    const judge = this.options.findings
    if (judge && before && !('error' in before)) {
      const after = judge.findings(project.id, readBack)
      if ('error' in after) return this.rollback(project, fresh, applied, `verification failed: ${after.error}`)
      const present = new Set(before.map((f) => f.fingerprint))
      const verdict = judgeChange(before, after, project.clears.filter((f) => present.has(f)), {holder: project.id, paths: applied.added})
      if ('reason' in verdict) return this.rollback(project, fresh, applied, `verification failed: ${verdict.reason}`)
    }
    let undo: AppliedProject
    try {
      undo = undoRecord(project, project.edits, readBack, 'verified')
    } catch (error) {
      if (!(error instanceof PatchError)) throw error
      return this.rollback(project, fresh, applied, `the change could not be recorded for undo (${error.message})`)
    }
    judge?.settle(project.id, redactDeep(readBack))
    return this.outcome(project, 'applied', `applied and verified: ${project.edits.length} edit${project.edits.length === 1 ? '' : 's'}`, undo)
  }

  /**
   * POST the setting as it was (from memory), read it back, and say how that went. When that fails
   * too, the setting may hold the change: the outcome carries its undo record (state `unknown`),
   * planned on what was sent, so that its restore edits expect the new values and change nothing
   * where the old ones are back.
   */
  private async rollback(project: ProjectToApply, fresh: unknown, applied: AppliedEdits, why: string): Promise<Outcome> {
    this.options.say(escapeControl(`onedev-audit: ${project.path} (#${project.id}): ${why}; rolling back`))
    let failed: string
    try {
      await writeProjectSetting(this.client, project.id, fresh, fresh)
      const now = await readProjectSetting(this.client, project.id, fresh)
      const left = differences(now, fresh)
      if (left.length === 0) return this.outcome(project, 'rolled-back', `${why}; rolled back: the setting is as it was`)
      failed = `${why}; ROLLBACK INCOMPLETE: the setting read back differs from the original at ${describePointers(left)}: check it in Project Settings`
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      failed = `${why}; ROLLBACK FAILED (${refusalText(error, fresh)}): check the setting in Project Settings`
    }
    // Planned before the POST on what was sent, the same record as the one written then (send).
    const undo = undoRecord(project, project.edits, applied.result, 'unknown')
    return this.outcome(project, 'rollback-failed', `${failed}; the undo record holds its restore edits`, undo)
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
