/**
 * Undo records: what an applied project's edits changed (pointer, old and new value), and the edits
 * that restore it, each expecting the setting as the server sent it back after the change. Pure.
 */
import type {FixEdit} from '../engine/fix.js'
import {redactDeep} from '../model/redact.js'
import {joinPointer} from '../model/pointer.js'
import {type Expectation, lastToken, parentPath, PatchError, planEdits, type PlannedEdit, restoreExpectationsOf} from './patch.js'

export interface AppliedEdit {
  op: FixEdit['op']
  path: string
  old?: unknown
  new?: unknown
}

export interface AppliedProject {
  id: number
  path: string
  /** `verified`: applied and verified; `unknown`: sent, and neither verified nor rolled back. */
  state: 'verified' | 'unknown'
  applied: AppliedEdit[]
  restore: PlannedEdit[]
  /** The audited projects the change was judged on (absent in records written before it was kept: the project alone). */
  judged?: number[]
}

type Seen = Exclude<Expectation, {identities: unknown[]}>

/** What the edit expected to find at `path` (the value, or nothing there). */
function expected(edit: PlannedEdit, path: string): Seen | undefined {
  return edit.expect.find((e): e is Seen => e.path === path && !('identities' in e))
}

function schemeOf(url: unknown): 'http' | 'https' {
  return typeof url === 'string' && /^https:/i.test(url) ? 'https' : 'http'
}

/** What one planned edit changed, and the operation that reverses it, from what it expected before. */
function reverse(edit: PlannedEdit): {applied: AppliedEdit; inverse: FixEdit} {
  const last = lastToken(edit.path)
  const parent = parentPath(edit.path)
  const own = expected(edit, edit.path)
  const list = expected(edit, parent)
  const inList = list !== undefined && 'value' in list && Array.isArray(list.value)
  switch (edit.op) {
    case 'set-scheme': {
      const old = own && 'value' in own ? schemeOf(own.value) : edit.value === 'https' ? 'http' : 'https'
      return {applied: {op: edit.op, path: edit.path, old, new: edit.value}, inverse: {op: 'set-scheme', path: edit.path, value: old}}
    }
    case 'remove':
      if (inList) {
        const old = (list.value as unknown[])[Number(last)]
        return {applied: {op: 'remove', path: edit.path, old}, inverse: {op: 'add', path: edit.path, value: old}}
      }
      return {applied: {op: 'remove', path: edit.path, old: own && 'value' in own ? own.value : null}, inverse: {op: 'add', path: edit.path, value: own && 'value' in own ? own.value : null}}
    case 'add':
    case 'replace':
      if (edit.op === 'add' && inList) {
        const index = last === '-' ? (list.value as unknown[]).length : Number(last)
        return {applied: {op: 'add', path: joinPointer(parent, index), new: edit.value}, inverse: {op: 'remove', path: joinPointer(parent, index)}}
      }
      // A member (an `add` of an object member is a replace when it was there).
      if (own === undefined || 'absent' in own) return {applied: {op: edit.op, path: edit.path, new: edit.value}, inverse: {op: 'remove', path: edit.path}}
      return {applied: {op: edit.op, path: edit.path, old: own.value, new: edit.value}, inverse: {op: 'replace', path: edit.path, value: own.value}}
  }
}

/**
 * The undo record of a project whose `edits` were applied, `after` being its setting as the server
 * sent it back (`verified`), or as it was sent when its state is `unknown` (in memory: only its
 * redacted view is used). The restoring edits are the reverses in reverse order, planned on that
 * view, so undoing later checks that each field still holds what this change put there, in the
 * same item (restoreExpectationsOf: another member edited since by someone else is no conflict). Throws
 * PatchError if they cannot be planned (a bug: the caller then rolls the change back rather than
 * leave it without an undo).
 */
export function undoRecord(project: {id: number; path: string; judged?: number[]}, edits: readonly PlannedEdit[], after: unknown, state: AppliedProject['state']): AppliedProject {
  const reversed = edits.map(reverse)
  const restore = planEdits(redactDeep(after), reversed.map((r) => r.inverse).reverse(), undefined, restoreExpectationsOf)
  if ('problem' in restore) throw new PatchError(restore.problem)
  return {id: project.id, path: project.path, state, applied: reversed.map((r) => r.applied), restore: restore.edits, ...(project.judged ? {judged: [...project.judged]} : {})}
}
