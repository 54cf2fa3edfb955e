/**
 * Applying fix edits (RFC 6902 `replace`, `add`, `remove`, and the `set-scheme` extension: see
 * src/engine/fix.ts) to a project setting payload, and what each edit expects to find first.
 *
 * The same code runs on the redacted payload when a plan is made and on the real one, in memory,
 * when it is applied. Member access reads own properties only and writes `__proto__` as a plain
 * member, so a hostile key never reaches a prototype. Errors name the path, never a value.
 */
import type {FixEdit} from '../engine/fix.js'
import {joinPointer, parsePointer} from '../model/pointer.js'
import {redactDeep} from '../model/redact.js'
import {sameJson} from '../diff/compare.js'
import {isObject} from '../util/json.js'

/**
 * What an edit expects of the payload before it is applied, in redacted form: the value at a
 * pointer (a member that exists, holding this value), that nothing is there, or (an undo record's
 * restores) that a list holds items whose identity members (IDENTITY_MEMBERS) are these, in this order.
 */
export type Expectation = {path: string; value: unknown} | {path: string; absent: true} | {path: string; identities: unknown[]}

/** An edit together with what it expects: the unit of a plan and of an undo record. */
export type PlannedEdit = FixEdit & {expect: Expectation[]}

export class PatchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PatchError'
  }
}

type Json = Record<string, unknown>

function hasOwn(object: Json, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key)
}

function setOwn(object: Json, key: string, value: unknown): void {
  Object.defineProperty(object, key, {value, enumerable: true, writable: true, configurable: true})
}

/** A deep copy of a JSON value (own members only, `__proto__` kept as a member). */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T
  if (!isObject(value)) return value
  const out: Json = {}
  for (const key of Object.keys(value)) setOwn(out, key, cloneJson(value[key]))
  return out as T
}

const INDEX = /^(0|[1-9][0-9]*)$/

function tokensOf(path: string): readonly string[] {
  const tokens = parsePointer(path)
  if (tokens === null) throw new PatchError(`${path}: not a JSON pointer`)
  if (tokens.length === 0) throw new PatchError('an edit must name a member inside the setting, not the whole setting')
  return tokens
}

/** The last token of a pointer, unescaped (`2` for `/branchProtections/2`, `a/b` for `/x/a~1b`). */
export function lastToken(path: string): string {
  return tokensOf(path).at(-1)!
}

/** The container a path's last token lives in, and that token. */
function locate(document: unknown, path: string): {parent: unknown; last: string; tokens: readonly string[]} {
  const tokens = tokensOf(path)
  let parent: unknown = document
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(parent)) {
      if (!INDEX.test(token) || Number(token) >= parent.length) throw new PatchError(`${path}: no such item`)
      parent = parent[Number(token)]
    } else if (isObject(parent)) {
      if (!hasOwn(parent, token)) throw new PatchError(`${path}: no such member`)
      parent = parent[token]
    } else {
      throw new PatchError(`${path}: not inside an object or list`)
    }
  }
  return {parent, last: tokens.at(-1)!, tokens}
}

/** Whether the path names an existing member or item (one holding null exists). */
function exists(document: unknown, path: string): boolean {
  try {
    const {parent, last} = locate(document, path)
    if (Array.isArray(parent)) return INDEX.test(last) && Number(last) < parent.length
    return isObject(parent) && hasOwn(parent, last)
  } catch (error) {
    if (error instanceof PatchError) return false
    throw error
  }
}

/** The value at an existing path. */
function valueAt(document: unknown, path: string): unknown {
  const {parent, last} = locate(document, path)
  if (Array.isArray(parent)) return parent[Number(last)]
  return (parent as Json)[last]
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i

/** The URL with another scheme, everything after the colon kept byte for byte. */
export function withScheme(url: unknown, scheme: string, path: string): string {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw new PatchError(`${path}: set-scheme needs an http:// or https:// URL there`)
  return url.replace(SCHEME, `${scheme}:`)
}

/**
 * Applies one edit to `document` in place (give it a copy). Returns the value it put there (a copy
 * of the edit's), or undefined. Throws PatchError when the path does not fit.
 */
export function applyEdit(document: unknown, edit: FixEdit): unknown {
  const {parent, last} = locate(document, edit.path)
  const value = edit.op === 'add' || edit.op === 'replace' ? cloneJson(edit.value) : undefined
  if (Array.isArray(parent)) {
    const append = edit.op === 'add' && last === '-'
    if (!append && !INDEX.test(last)) throw new PatchError(`${edit.path}: not a list index`)
    const index = append ? parent.length : Number(last)
    const limit = edit.op === 'add' ? parent.length : parent.length - 1
    if (index > limit) throw new PatchError(`${edit.path}: no such item`)
    if (edit.op === 'add') parent.splice(index, 0, value)
    else if (edit.op === 'remove') parent.splice(index, 1)
    else if (edit.op === 'replace') parent[index] = value
    else parent[index] = withScheme(parent[index], edit.value, edit.path)
    return value
  }
  if (!isObject(parent)) throw new PatchError(`${edit.path}: not inside an object or list`)
  if (edit.op !== 'add' && !hasOwn(parent, last)) throw new PatchError(`${edit.path}: no such member`)
  if (edit.op === 'remove') delete parent[last]
  else if (edit.op === 'set-scheme') setOwn(parent, last, withScheme(parent[last], edit.value, edit.path))
  else setOwn(parent, last, value)
  return value
}

/** The path of the list item an edit is inside (`/branchProtections/1` for `/branchProtections/1/enabled`), or null. */
export function containingItem(path: string): string | null {
  const tokens = tokensOf(path)
  for (let i = tokens.length - 2; i >= 1; i--) {
    if (INDEX.test(tokens[i]!)) return joinPointer('', ...tokens.slice(0, i + 1))
  }
  return null
}

/** The pointer of the member or list a path lies in (`/branchProtections` for `/branchProtections/2`). */
export function parentPath(path: string): string {
  return joinPointer('', ...tokensOf(path).slice(0, -1))
}

/** The redacted value at a path of the redacted payload. */
function seen(view: unknown, path: string): Expectation {
  return exists(view, path) ? {path, value: cloneJson(valueAt(view, path))} : {path, absent: true}
}

/**
 * What `edit` expects of `view` (the REDACTED payload as it is before the edit): the value it
 * changes, and the whole list item that holds it, so that a protection moved to another position
 * (the same old value at the same pointer, in another protection) is a conflict; for an insertion or
 * removal in a list, the whole list as it was.
 */
export function expectationsOf(view: unknown, edit: FixEdit): Expectation[] {
  const {parent} = locate(view, edit.path)
  if (Array.isArray(parent) && (edit.op === 'add' || edit.op === 'remove')) return [seen(view, parentPath(edit.path))]
  const out = [seen(view, edit.path)]
  const item = containingItem(edit.path)
  if (item !== null && item !== edit.path) out.push(seen(view, item))
  return out
}

/** The members that say which item of a list an item is (src/engine/identity.ts keys them alike), by the list's pointer. */
const IDENTITY_MEMBERS: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/^\/branchProtections$/, ['branches', 'userMatch']],
  [/^\/tagProtections$/, ['tags', 'userMatch']],
  [/^\/buildSetting\/jobSecrets$/, ['name']],
  [/^\/webHooks$/, ['postUrl', 'eventTypes']],
]

function identityMembersOf(list: string): readonly string[] | undefined {
  return IDENTITY_MEMBERS.find(([pattern]) => pattern.test(list))?.[1]
}

/** An item's identity members (own members only; a missing one is left out). */
function identityOf(item: unknown, members: readonly string[]): Json {
  const out: Json = {}
  if (isObject(item)) for (const member of members) if (hasOwn(item, member)) setOwn(out, member, cloneJson(item[member]))
  return out
}

/** The identities of the list's items, in order. */
function identitiesOf(view: unknown, list: string, members: readonly string[]): Expectation {
  return {path: list, identities: (valueAt(view, list) as unknown[]).map((item) => identityOf(item, members))}
}

/**
 * What a RESTORE edit (an undo record's) expects of `view`: the field it puts back, and of the item
 * holding it only the members that say which item it is, so that a later edit of another member by
 * someone else does not stop the undo; and the identities of all the list's items, in order, so that
 * a protection inserted, removed or moved since is a conflict. The whole list, not only the items up
 * to this one: an item inserted right ahead of it with the same patterns and users (the old pointer
 * would now be theirs) leaves the identities up to that pointer as they were; only the one more item
 * of that identity further on tells. An item it removes is expected whole (all of it would be lost),
 * with the list's identities; an item of a list not known here, and an insertion into a list, are
 * expected as expectationsOf does (whole). Undo records written before the identities were recorded
 * are read and checked as they were: the schema only gained a form.
 */
export function restoreExpectationsOf(view: unknown, edit: FixEdit): Expectation[] {
  const {parent} = locate(view, edit.path)
  const item = Array.isArray(parent) && edit.op === 'remove' ? edit.path : containingItem(edit.path)
  const list = item === null ? null : parentPath(item)
  const members = list === null ? undefined : identityMembersOf(list)
  if (Array.isArray(parent) && edit.op === 'remove') {
    return members === undefined ? [seen(view, edit.path)] : [seen(view, edit.path), identitiesOf(view, list!, members)]
  }
  if (members === undefined || Array.isArray(parent)) return expectationsOf(view, edit)
  const identity = members.map((member) => joinPointer(item!, member)).filter((path) => path !== edit.path)
  return [seen(view, edit.path), ...identity.map((path) => seen(view, path)), identitiesOf(view, list!, members)]
}

/** Whether `view` holds what one expectation says. */
function holds(view: unknown, expectation: Expectation): boolean {
  const there = exists(view, expectation.path)
  if ('absent' in expectation) return !there
  if (!there) return false
  const actual = valueAt(view, expectation.path)
  if ('value' in expectation) return sameJson(actual, expectation.value)
  const members = identityMembersOf(expectation.path)
  const expected = expectation.identities
  return (
    members !== undefined &&
    Array.isArray(actual) &&
    actual.length === expected.length &&
    expected.every((identity, index) => sameJson(identityOf(actual[index], members), identity))
  )
}

/** The first expectation `view` does not meet, or null. Values compare as JSON (member order aside). */
export function unmet(view: unknown, expectations: readonly Expectation[]): Expectation | null {
  return expectations.find((expectation) => !holds(view, expectation)) ?? null
}

/** What planning edits gives: each with its expectations, the payload they make, and the list items they add; or why not. */
export type Planned = {edits: PlannedEdit[]; result: unknown; added: string[]} | {problem: string}

/**
 * The edits applied in order to a copy of `payload`, each with what it expected of the redacted
 * payload before it (`expecting`; an undo record's restores expect less: restoreExpectationsOf): how a plan records its edits. `payload` must be the REDACTED payload.
 * `problemOf` judges each edit first (the guard); an edit whose path does not fit is a problem too.
 */
export function planEdits(
  payload: unknown,
  edits: readonly FixEdit[],
  problemOf: (view: unknown, edit: FixEdit) => string | null = () => null,
  expecting: (view: unknown, edit: FixEdit) => Expectation[] = expectationsOf,
): Planned {
  const view = cloneJson(payload)
  const planned: PlannedEdit[] = []
  const added: string[] = []
  try {
    for (const edit of edits) {
      const problem = problemOf(view, edit)
      if (problem) return {problem}
      planned.push({...edit, expect: expecting(view, edit)} as PlannedEdit)
      applyEdit(view, edit)
      added.push(...addedItems(view, edit))
    }
  } catch (error) {
    if (error instanceof PatchError) return {problem: error.message}
    throw error
  }
  return {edits: planned, result: view, added}
}

/** Where an `add` put its value, once applied (`/branchProtections/-` → `/branchProtections/3`); null for other edits. */
export function insertedAt(document: unknown, edit: FixEdit): string | null {
  if (edit.op !== 'add') return null
  const tokens = tokensOf(edit.path)
  if (tokens.at(-1) !== '-') return edit.path
  const list = valueAt(document, parentPath(edit.path))
  return Array.isArray(list) ? joinPointer(parentPath(edit.path), list.length - 1) : edit.path
}

/**
 * The list items an edit adds, once applied: the item an `add` inserts into a list, or each item of a
 * list an `add` or `replace` puts where there was none (`tagProtections: null` → one protection).
 */
export function addedItems(document: unknown, edit: FixEdit): string[] {
  const at = insertedAt(document, edit)
  if (edit.op !== 'add' && edit.op !== 'replace') return []
  const path = at ?? edit.path
  if (at !== null && at !== edit.path) return [at]
  if (Array.isArray(edit.value)) return edit.value.map((_, index) => joinPointer(path, index))
  return edit.op === 'add' && Array.isArray(valueAt(document, parentPath(path))) ? [path] : []
}

/** A plan's or undo record's edit without its expectations: the operation alone. */
export function operationOf(edit: PlannedEdit): FixEdit {
  if (edit.op === 'remove') return {op: 'remove', path: edit.path}
  return {op: edit.op, path: edit.path, value: edit.value} as FixEdit
}

/** A plan's edits applied to the real payload. */
export interface AppliedEdits {
  result: unknown
  /** The objects the edits put in (a new protection), which the server may send back with its defaults added. */
  inserted: Set<object>
  /** Where `add` edits put their values. */
  added: string[]
}

/** What applying a plan's edits to the real payload gives. */
export type Applied = AppliedEdits | {conflict: Expectation; edit: PlannedEdit} | {problem: string}

/**
 * The edits applied in order to a copy of the REAL payload, each checked first against the redacted
 * view of the payload as it is at that point: its expectations (a conflict when one is not met: the
 * payload is not what the plan saw) and the guard (a plan file edited to touch a secret). Nothing of
 * the real payload reaches a conflict or problem: only the plan's own expectation, or our words.
 */
export function applyPlanned(payload: unknown, edits: readonly PlannedEdit[], problemOf: (view: unknown, edit: FixEdit) => string | null): Applied {
  const real = cloneJson(payload)
  const view = redactDeep(payload)
  const inserted = new Set<object>()
  const added: string[] = []
  for (const edit of edits) {
    const missing = unmet(view, edit.expect)
    if (missing) return {conflict: missing, edit}
    const made = applyBoth(real, view, edit, problemOf, inserted)
    if (made !== null) return made
    added.push(...addedItems(view, operationOf(edit)))
  }
  return {result: real, inserted, added}
}

/** One edit applied to the real payload and its redacted view, after the guard; the problem when it cannot be. */
function applyBoth(real: unknown, view: unknown, edit: PlannedEdit, problemOf: (view: unknown, edit: FixEdit) => string | null, inserted: Set<object>): {problem: string} | null {
  const operation = operationOf(edit)
  const problem = problemOf(view, operation)
  if (problem) return {problem}
  try {
    const value = applyEdit(real, operation)
    for (const item of Array.isArray(value) ? value : [value]) if (item !== null && typeof item === 'object' && !Array.isArray(item)) inserted.add(item)
    applyEdit(view, operation)
  } catch (error) {
    if (error instanceof PatchError) return {problem: error.message}
    throw error
  }
  return null
}

/** What a targeted rollback makes of the setting as the server holds it now. */
export interface Reverted {
  /** The setting to post: as it is now, with the restores that could be made. */
  result: unknown
  /** The restores made: the field still held what the change put there, in the same item. */
  made: PlannedEdit[]
  /** The restores left out, with what they expected and did not find. */
  skipped: Array<{edit: PlannedEdit; unmet: Expectation | null; problem?: string}>
}

/**
 * A rollback's restores (an undo record's, expecting the new values: restoreExpectationsOf) applied
 * to a copy of the REAL payload as the server holds it now, each where its expectations still hold on
 * the redacted view at that point; the others are left out. Everything else stays as it is now.
 */
export function revertWhereHeld(payload: unknown, edits: readonly PlannedEdit[], problemOf: (view: unknown, edit: FixEdit) => string | null): Reverted {
  const real = cloneJson(payload)
  const view = redactDeep(payload)
  const made: PlannedEdit[] = []
  const skipped: Reverted['skipped'] = []
  for (const edit of edits) {
    const missing = unmet(view, edit.expect)
    if (missing) {
      skipped.push({edit, unmet: missing})
      continue
    }
    const failed = applyBoth(real, view, edit, problemOf, new Set())
    if (failed) skipped.push({edit, unmet: null, problem: failed.problem})
    else made.push(edit)
  }
  return {result: real, made, skipped}
}
