/**
 * The errors of a collection, as values: each failure becomes an AuditError (with its project when
 * it concerns one) and the collection goes on. A 401 (credentials refused) stops it: nothing new
 * starts, and the error is recorded once. Requests cancelled by an interruption are not recorded one
 * by one: one error sums them up at the end. In the model, errors are in a fixed order: by group
 * (the run's own: credentials refused, interrupted; roles; listing; server data; projects), then
 * project id, then the order they came in.
 */
import type {ProjectRef} from '../model/ingest.js'
import type {AuditError} from '../model/types.js'
import {ApiError} from './types.js'

/** Order of errors in the model: those about the whole run (credentials refused, interrupted) first, projects last (by id). */
export const Group = {Run: 0, Roles: 1, Listing: 2, Server: 3, Project: 4} as const
export type Group = (typeof Group)[keyof typeof Group]

interface RecordedError {
  group: Group
  projectId: number
  sequence: number
  error: AuditError
}

/** An unexpected exception, by class name only: its text may quote payload data. */
function describeUnexpected(error: unknown): string {
  return error instanceof Error ? error.name.replace(/[^\w.-]/g, '').slice(0, 60) || 'Error' : 'unknown error'
}

export class CollectionErrors {
  private readonly recorded: RecordedError[] = []
  private authRecorded = false

  /** `stop`: stops the collection (credentials refused). */
  constructor(private readonly stop: () => void) {}

  record(group: Group, error: AuditError, project?: ProjectRef): void {
    // Requests cancelled by an interruption are summed up in one error at the end.
    if (error.kind === 'interrupted') return
    if (error.kind === 'auth') {
      this.stop()
      if (this.authRecorded) return
      this.authRecorded = true
      this.recorded.push({group: Group.Run, projectId: -1, sequence: this.recorded.length, error: {...error, project: null}})
      return
    }
    const withProject = project && !error.project ? {...error, project: {id: project.id, path: project.path}} : error
    this.recorded.push({group, projectId: withProject.project?.id ?? -1, sequence: this.recorded.length, error: withProject})
  }

  /** A failure caught: its ApiError's error, or an `internal` error saying `what` failed (never the exception's text). */
  recordFailure(group: Group, error: unknown, what: string, project?: ProjectRef): void {
    if (error instanceof ApiError) this.record(group, error.error, project)
    else this.record(group, {kind: 'internal', message: `${what}: ${describeUnexpected(error)}`}, project)
  }

  /** The one error of an interrupted collection, saying what it holds. */
  recordInterruption(message: string): void {
    this.recorded.push({group: Group.Run, projectId: -1, sequence: this.recorded.length, error: {kind: 'interrupted', message, project: null}})
  }

  /** Every error recorded, in the model's order. */
  sorted(): AuditError[] {
    return this.recorded.sort((a, b) => a.group - b.group || a.projectId - b.projectId || a.sequence - b.sequence).map((entry) => entry.error)
  }
}
