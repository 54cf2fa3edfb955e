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

/**
 * The members that say which item of a list an item is (src/engine/identity.ts keys them alike), by
 * the list's pointer: every list whose items a fix edits (src/fix, rules/support/fixes.ts), in both
 * payload generations. A member inside a member is written with `/` (`channelNotification/webhookUrl`:
 * an 8.x notification wraps its fields). Project settings' plugin settings are a list of one item per
 * class (OneDev keys them by class name: v16.5.6
 * server-core/src/main/java/io/onedev/server/rest/resource/ProjectResource.java:797-800), a map in 8.x.
 */
const IDENTITY_MEMBERS: ReadonlyArray<[RegExp, readonly string[]]> = [
  // v16.5.6 server-core/src/main/java/io/onedev/server/model/support/code/BranchProtection.java:50,52,74
  [/^\/branchProtections$/, ['branches', 'userMatch']],
  // v16.5.6 server-core/src/main/java/io/onedev/server/model/support/code/FileProtection.java:27
  [/^\/branchProtections\/[^/]+\/fileProtections$/, ['paths']],
  // v16.5.6 server-core/src/main/java/io/onedev/server/model/support/code/TagProtection.java:34,36
  [/^\/tagProtections$/, ['tags', 'userMatch']],
  // v16.5.6 server-core/src/main/java/io/onedev/server/model/support/build/JobSecret.java:18
  [/^\/buildSetting\/jobSecrets$/, ['name']],
  // v16.5.6 server-core/src/main/java/io/onedev/server/model/support/WebHook.java:85,87
  [/^\/webHooks$/, ['postUrl', 'eventTypes']],
  // v16.5.6 server-core/src/main/java/io/onedev/server/model/support/channelnotification/ChannelNotification.java:28;
  // 8.x wraps it: v8.0.0 server-core/src/main/java/io/onedev/server/util/channelnotification/ChannelNotificationWrapper.java:15
  [/^\/notifications$/, ['channelNotification/webhookUrl', 'webhookUrl']],
  [/^\/contributedSettings$/, ['@type', '@class']],
  [/^\/contributedSettings\/[^/]+\/notifications$/, ['webhookUrl', 'channelNotification/webhookUrl']],
]

function identityMembersOf(list: string): readonly string[] | undefined {
  return IDENTITY_MEMBERS.find(([pattern]) => pattern.test(list))?.[1]
}

/** The value of a (possibly nested: `a/b`) member of an item, own members only; undefined when it has none. */
function memberValue(item: unknown, member: string): unknown {
  let value = item
  for (const token of member.split('/')) {
    if (!isObject(value) || !hasOwn(value, token)) return undefined
    value = value[token]
  }
  return value
}

/** An item's identity members (own members only; a missing one is left out). */
function identityOf(item: unknown, members: readonly string[]): Json {
  const out: Json = {}
  for (const member of members) {
    const value = memberValue(item, member)
    if (value !== undefined) setOwn(out, member, cloneJson(value))
  }
  return out
}

/** The pointer of a (possibly nested) identity member of the item at `item`. */
function memberPath(item: string, member: string): string {
  return joinPointer(item, ...member.split('/'))
}

/**
 * The list identities of every list the path lies in, from the outside in, where the list is one whose
 * items have an identity and the path goes through one of its items (`/contributedSettings` and
 * `/contributedSettings/1/notifications` for a notification's URL): what finds the item again.
 */
function enclosingIdentities(view: unknown, path: string): Expectation[] {
  const tokens = tokensOf(path)
  const out: Expectation[] = []
  for (let i = 1; i < tokens.length; i++) {
    if (!INDEX.test(tokens[i]!)) continue
    const list = joinPointer('', ...tokens.slice(0, i))
    const members = identityMembersOf(list)
    if (members !== undefined && Array.isArray(valueAt(view, list))) out.push(identitiesOf(view, list, members))
  }
  return out
}

/** The identities of the list's items, in order. */
function identitiesOf(view: unknown, list: string, members: readonly string[]): Expectation {
  return {path: list, identities: (valueAt(view, list) as unknown[]).map((item) => identityOf(item, members))}
}

/**
 * What a RESTORE edit (an undo record's) expects of `view`: the field it puts back, and of the item
 * holding it only the members that say which item it is, so that a later edit of another member by
 * someone else does not stop the undo; and the identities of all the items of each list it lies in
 * (enclosingIdentities), in order, by which relocate finds the item again where it is now: items
 * deleted since move it, an item inserted or moved since (one with the same patterns and users right
 * ahead of it included: only the whole list tells) is a conflict. applyPlanned itself compares the
 * identities exactly (a restore not relocated). An item it removes is expected whole (all of it would
 * be lost), with the list's identities; an item of a list not known here, and an insertion into a
 * list, are expected as expectationsOf does (whole). Undo records written before the identities were
 * recorded are read and checked as they were, by index: the schema only gained a form.
 */
export function restoreExpectationsOf(view: unknown, edit: FixEdit): Expectation[] {
  const {parent} = locate(view, edit.path)
  const item = Array.isArray(parent) && edit.op === 'remove' ? edit.path : containingItem(edit.path)
  const list = item === null ? null : parentPath(item)
  const members = list === null ? undefined : identityMembersOf(list)
  if (Array.isArray(parent) && edit.op === 'remove') {
    return members === undefined ? [seen(view, edit.path)] : [seen(view, edit.path), ...enclosingIdentities(view, edit.path)]
  }
  if (members === undefined || Array.isArray(parent)) return expectationsOf(view, edit)
  const identity = members.map((member) => memberPath(item!, member)).filter((path) => path !== edit.path)
  return [seen(view, edit.path), ...identity.map((path) => seen(view, path)), ...enclosingIdentities(view, edit.path)]
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

/** What finding an edit's item again gives: the edit at the item's place now, or why it cannot be found (our words, naming a pointer). */
export type Relocated = {edit: PlannedEdit} | {lost: string}

/** The members that say which item it is, in words: `branches and userMatch`. */
function membersText(members: readonly string[]): string {
  return members.length === 1 ? members[0]! : `${members.slice(0, -1).join(', ')} and ${members.at(-1)}`
}

/** `path` with the item `list/from` renamed `list/to` (the item itself, or anything inside it). */
function moved(path: string, list: string, from: number, to: number): string {
  const old = joinPointer(list, from)
  return path === old || path.startsWith(`${old}/`) ? joinPointer(list, to) + path.slice(old.length) : path
}

/**
 * Where the `index`-th item of a list whose items had the identities `recorded` is now, in a list whose
 * items have the identities `now`: the list may have lost items since (a colleague deleted a
 * protection ahead of it), never gained or reordered any (those are reported, as before). The item is
 * found when every way of reading `now` as `recorded` with items left out keeps it at one place (the
 * leftmost and the rightmost such reading agree): a twin with the same identity deleted next to it
 * makes it ambiguous; none keeping it means it was deleted (or its identity changed).
 */
function foundAt(recorded: readonly unknown[], now: readonly unknown[], index: number): {at: number} | {lost: 'added or moved' | 'gone' | 'ambiguous'} {
  const leftmost: number[] = []
  for (let r = 0, n = 0; n < now.length; n++, r++) {
    while (r < recorded.length && !sameJson(recorded[r], now[n])) r++
    if (r === recorded.length) return {lost: 'added or moved'}
    leftmost.push(r)
  }
  const rightmost: number[] = new Array(now.length)
  for (let r = recorded.length - 1, n = now.length - 1; n >= 0; n--, r--) {
    while (!sameJson(recorded[r], now[n])) r--
    rightmost[n] = r
  }
  const candidates = now.flatMap((_, n) => (leftmost[n]! <= index && index <= rightmost[n]! && sameJson(now[n], recorded[index]) ? [n] : []))
  if (candidates.length === 0) return {lost: 'gone'}
  const at = candidates[0]!
  return candidates.length === 1 && leftmost[at] === index && rightmost[at] === index ? {at} : {lost: 'ambiguous'}
}

/**
 * A restore (an undo record's, or a rollback's) at the place its item holds now, found by identity
 * rather than by index: for each list it lies in whose identities it expects (restoreExpectationsOf),
 * outermost first, the item it expects is found again in `view` (the REDACTED setting as it is now)
 * by the members that say which item it is (a branch protection's branches and userMatch, a job
 * secret's name, a web hook's URL and events, ...), and the edit and its expectations move there.
 * Items deleted from the list since are no obstacle (a colleague's deletion is kept); an item added or
 * moved, the item gone, or two that could be it, and its place cannot be told: why, in our words.
 * An edit without such expectations (an older record, a list of no known identity, an insertion,
 * which expects the whole list) is returned as it is.
 */
export function relocate(view: unknown, edit: PlannedEdit): Relocated {
  let path = edit.path
  let expect: Expectation[] = edit.expect.map((expectation) => ({...expectation}))
  // Outermost first (an outer list's pointer is a prefix of an inner one's): an inner list's pointer moves with its outer item.
  const order = expect.flatMap((e, k) => ('identities' in e ? [k] : [])).sort((a, b) => expect[a]!.path.length - expect[b]!.path.length)
  for (const k of order) {
    const recorded = expect[k] as Extract<Expectation, {identities: unknown[]}>
    const list = recorded.path
    const tokens = parsePointer(path)
    const listTokens = parsePointer(list)
    const members = identityMembersOf(list)
    if (tokens === null || listTokens === null || members === undefined || !listTokens.every((token, i) => tokens[i] === token)) continue
    const index = tokens[listTokens.length]
    if (index === undefined || !INDEX.test(index) || Number(index) >= recorded.identities.length) continue
    const items = exists(view, list) ? valueAt(view, list) : undefined
    if (!Array.isArray(items)) return {lost: `${list} is no longer a list`}
    const now = items.map((item) => identityOf(item, members))
    const found = foundAt(recorded.identities, now, Number(index))
    if ('lost' in found) {
      if (found.lost === 'added or moved') return {lost: `items of ${list} were added, moved or given other ${membersText(members)}`}
      if (found.lost === 'gone') return {lost: `the item of ${list} it edited is no longer there: none has its ${membersText(members)}`}
      return {lost: `more than one item of ${list} could be the one it edited, by their ${membersText(members)}`}
    }
    const from = Number(index)
    path = moved(path, list, from, found.at)
    expect = expect.map((expectation, j) => (j === k ? {path: list, identities: now} : {...expectation, path: moved(expectation.path, list, from, found.at)}))
  }
  return {edit: {...edit, path, expect} as PlannedEdit}
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
  /** The restores made (at their item's place now): the field still held what the change put there, in the same item. */
  made: PlannedEdit[]
  /** The restores left out (at their item's place now, when it was found), with what they expected and did not find. */
  skipped: Array<{edit: PlannedEdit; unmet: Expectation | null; problem?: string}>
}

/**
 * A rollback's restores (an undo record's, expecting the new values: restoreExpectationsOf) applied
 * to a copy of the REAL payload as the server holds it now, each at the place its item holds now
 * (found by identity: relocate) and where its expectations still hold on the redacted view at that
 * point; the others are left out (`lost`: its item could not be found). Everything else stays as it is now.
 */
export function revertWhereHeld(payload: unknown, edits: readonly PlannedEdit[], problemOf: (view: unknown, edit: FixEdit) => string | null): Reverted {
  const real = cloneJson(payload)
  const view = redactDeep(payload)
  const made: PlannedEdit[] = []
  const skipped: Reverted['skipped'] = []
  for (const recorded of edits) {
    const placed = relocate(view, recorded)
    if ('lost' in placed) {
      skipped.push({edit: recorded, unmet: null, problem: placed.lost})
      continue
    }
    const edit = placed.edit
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

/** Whether an edit's item was found by identity (relocate: it expects the identities of the list it lies in). */
export function foundByIdentity(edit: PlannedEdit): boolean {
  return edit.expect.some((expectation) => 'identities' in expectation)
}
