/**
 * What applying a file changes on the server, as readable lines. Pure. Names only, never values
 * (a field's default could be a secret): a changed item lists the keys that changed.
 */
import {normalizeIssueSetting} from '../model/issue-setting.js'
import {escapeControl} from '../util/escape.js'
import {canonicalJson, isObject} from '../util/json.js'
import {transitionLabel} from './workflow.js'

type Json = Record<string, unknown>


const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b)

/** A name as shown in a line: quoted, control and bidi characters escaped. */
function show(name: string): string {
  return escapeControl(JSON.stringify(name))
}

function changedKeys(before: Json, after: Json): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
  return keys.filter((key) => !same(before[key], after[key])).map((key) => escapeControl(key))
}

function byName(list: unknown): Map<string, Json> | null {
  if (!Array.isArray(list)) return null
  const map = new Map<string, Json>()
  for (const item of list) {
    if (!isObject(item) || typeof item['name'] !== 'string' || map.has(item['name'])) return null
    map.set(item['name'], item)
  }
  return map
}

const NAMED_LISTS: Array<{key: string; label: string}> = [
  {key: 'stateSpecs', label: 'state'},
  {key: 'fieldSpecs', label: 'field'},
  {key: 'boardSpecs', label: 'board'},
  {key: 'namedQueries', label: 'named query'},
]

function diffNamedList(key: string, label: string, before: unknown, after: unknown): string[] | null {
  const old = byName(before)
  const now = byName(after)
  if (!old || !now) return null
  const lines: string[] = []
  for (const name of old.keys()) if (!now.has(name)) lines.push(`- ${label} ${show(name)}`)
  for (const [name, item] of now) {
    const previous = old.get(name)
    if (!previous) lines.push(`+ ${label} ${show(name)}`)
    else if (!same(previous, item)) lines.push(`~ ${label} ${show(name)}: ${changedKeys(previous, item).join(', ')} changed`)
  }
  const common = [...now.keys()].filter((name) => old.has(name))
  const oldOrder = [...old.keys()].filter((name) => now.has(name))
  if (common.join('\u0000') !== oldOrder.join('\u0000')) {
    lines.push(`~ ${key} order: ${oldOrder.map(show).join(', ')} → ${common.map(show).join(', ')}`)
  }
  return lines
}

function describeTransition(item: unknown): string {
  const [transition] = normalizeIssueSetting({transitionSpecs: [item]}).transitions
  if (!transition) return '(not an object)'
  const type = transition.type ? ` (${transition.type})` : ''
  return escapeControl(`${transitionLabel(transition)}${type}`)
}

function diffTransitions(before: unknown, after: unknown): string[] {
  const old = Array.isArray(before) ? before : []
  const now = Array.isArray(after) ? after : []
  const remaining = new Map<string, number>()
  for (const item of old) remaining.set(canonicalJson(item), (remaining.get(canonicalJson(item)) ?? 0) + 1)
  const added: unknown[] = []
  for (const item of now) {
    const key = canonicalJson(item)
    const count = remaining.get(key) ?? 0
    if (count > 0) remaining.set(key, count - 1)
    else added.push(item)
  }
  const removed = old.filter((item) => {
    const key = canonicalJson(item)
    const count = remaining.get(key) ?? 0
    if (count === 0) return false
    remaining.set(key, count - 1)
    return true
  })
  const lines = [...removed.map((item) => `- transition ${describeTransition(item)}`), ...added.map((item) => `+ transition ${describeTransition(item)}`)]
  if (lines.length === 0 && !same(old, now)) lines.push('~ transitionSpecs order changed')
  return lines
}

function diffNameList(key: string, before: unknown, after: unknown): string[] | null {
  const isNames = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string')
  if (!isNames(before) || !isNames(after)) return null
  return [`~ ${key}: ${before.map(show).join(', ') || '(none)'} → ${after.map(show).join(', ') || '(none)'}`]
}

/**
 * Lines saying what changes when `after` (the file) replaces `before` (the server's setting). Empty
 * when nothing changes. `reconciled` is left out: the server sets it to false on every POST.
 */
export function diffSettings(before: unknown, after: unknown): string[] {
  const old: Json = isObject(before) ? before : {}
  const now: Json = isObject(after) ? after : {}
  const lines: string[] = []
  const keys = [...new Set([...Object.keys(old), ...Object.keys(now)])].filter((key) => key !== 'reconciled')
  const handled = new Set<string>()
  for (const {key, label} of NAMED_LISTS) {
    if (!(key in old) && !(key in now)) continue
    handled.add(key)
    if (same(old[key], now[key])) continue
    if (!(key in now)) {
      lines.push(`- ${key} (absent from the file: the server resets it to its stock default)`)
      continue
    }
    lines.push(...(diffNamedList(key, label, key in old ? old[key] : [], now[key]) ?? [`~ ${key} changed`]))
  }
  for (const key of keys) {
    if (handled.has(key) || same(old[key], now[key])) continue
    if (!(key in now)) lines.push(`- ${escapeControl(key)} (absent from the file: the server resets it to its stock default)`)
    else if (!(key in old)) lines.push(`+ ${escapeControl(key)}`)
    else if (key === 'transitionSpecs') lines.push(...diffTransitions(old[key], now[key]))
    else if (key === 'listFields' || key === 'listLinks') lines.push(...(diffNameList(key, old[key], now[key]) ?? [`~ ${key} changed`]))
    else if (isObject(old[key]) && isObject(now[key])) lines.push(`~ ${escapeControl(key)}: ${changedKeys(old[key] as Json, now[key] as Json).join(', ')} changed`)
    else lines.push(`~ ${escapeControl(key)} changed`)
  }
  return lines
}
