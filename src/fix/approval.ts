/**
 * A plan or undo file compared with what the tool derives itself: whoever can edit the file between
 * review and apply must gain nothing. Edits compare by operation, path and value (their expectations
 * are checked on the live setting instead). Pure; messages name paths, never a value.
 */
import {sameJson} from '../diff/compare.js'
import type {FixEdit} from '../engine/fix.js'
import {oneLine} from '../util/escape.js'
import {joinPointer, parsePointer} from '../model/pointer.js'
import type {PlannedEdit} from './patch.js'
import type {AppliedEdit} from './undo.js'

/** A path of a file as a message shows it: one line, at most 200 characters (control characters are escaped where it is printed). */
export function describePath(path: string): string {
  return oneLine(path, 200)
}

const valueOf = (edit: FixEdit): unknown => (edit.op === 'remove' ? undefined : edit.value)

/** The first difference between the edits of a file (`ours`) and those the tool derives (`theirs`), in words naming a path; null when they are the same. */
export function editsDiffer(ours: readonly FixEdit[], theirs: readonly FixEdit[]): string | null {
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const a = ours[i]
    const b = theirs[i]
    if (a === undefined) return `${describePath(b!.path)}: onedev-audit plans an edit of it that the plan's change lacks`
    if (b === undefined || a.path !== b.path) return `${describePath(a.path)}: an edit onedev-audit does not plan`
    if (a.op !== b.op) return `${describePath(a.path)}: another operation (${a.op}) than onedev-audit plans (${b.op})`
    if (!sameJson(valueOf(a), valueOf(b))) return `${describePath(a.path)}: another value than onedev-audit plans`
  }
  return null
}

/** Whether two edits are the same operation on the same path with the same value. */
export function sameEdit(a: FixEdit, b: FixEdit): boolean {
  return a.op === b.op && a.path === b.path && sameJson(valueOf(a), valueOf(b))
}

/** A planned edit with an `add` at the end of a list (`/branchProtections/-`) at the index it takes (from the list it expected), as an undo record's applied list writes it. */
export function placed(edit: PlannedEdit): FixEdit {
  const tokens = parsePointer(edit.path)
  if (edit.op !== 'add' || tokens === null || tokens.at(-1) !== '-') return edit
  const list = joinPointer('', ...tokens.slice(0, -1))
  const seen = edit.expect.find((e) => e.path === list)
  return seen && 'value' in seen && Array.isArray(seen.value) ? {op: 'add', path: joinPointer(list, seen.value.length), value: edit.value} : edit
}

/** The edit that puts back what one applied edit changed (the reverse undo records are written with, src/fix/undo.ts). */
export function inverseOf(entry: AppliedEdit): FixEdit {
  const had = Object.prototype.hasOwnProperty.call(entry, 'old')
  switch (entry.op) {
    case 'set-scheme':
      return {op: 'set-scheme', path: entry.path, value: entry.old === 'https' ? 'https' : 'http'}
    case 'remove':
      return {op: 'add', path: entry.path, value: entry.old ?? null}
    case 'add':
    case 'replace':
      return had ? {op: 'replace', path: entry.path, value: entry.old} : {op: 'remove', path: entry.path}
  }
}

/** The edit an applied entry made, as a plan writes it (its `add` into a list at the index it took). */
export function forwardOf(entry: AppliedEdit): FixEdit {
  if (entry.op === 'remove') return {op: 'remove', path: entry.path}
  if (entry.op === 'set-scheme') return {op: 'set-scheme', path: entry.path, value: entry.new === 'https' ? 'https' : 'http'}
  return {op: entry.op, path: entry.path, value: entry.new}
}

/**
 * Why an undo record's `restore` list is not the reverse of its `applied` list, naming the path; null
 * when it is, edit for edit in reverse order (as the apply wrote it). A restore of a path the apply
 * did not change, or to another value than the recorded old one, is refused.
 */
export function restoreMismatch(applied: readonly AppliedEdit[], restore: readonly FixEdit[]): string | null {
  const expected = applied.map(inverseOf).reverse()
  const paths = new Set(applied.map((entry) => entry.path))
  for (let i = 0; i < Math.max(expected.length, restore.length); i++) {
    const ours = restore[i]
    const theirs = expected[i]
    if (ours === undefined) return `${describePath(theirs!.path)}: the record changed it and has no restore for it at its place: its restore list does not reverse its applied list`
    if (!paths.has(ours.path)) return `${describePath(ours.path)}: not a field the apply changed (it is not in the record's applied list)`
    if (theirs === undefined || theirs.path !== ours.path) return `${describePath(ours.path)}: restored out of order: the record's restore list does not reverse its applied list`
    if (theirs.op !== ours.op || !sameJson(valueOf(theirs), valueOf(ours))) return `${describePath(ours.path)}: not the value the record says it had`
  }
  return null
}
