/**
 * What no fix may do, whatever a rule offers: change a field that holds a secret, put a secret (or a
 * redaction mask) into the setting, or open a job secret to every job. Judged on the REDACTED payload
 * a plan is made from; a plan file edited by hand is judged again when it is read.
 */
import type {FixEdit} from '../engine/fix.js'
import {sameJson} from '../diff/compare.js'
import {joinPointer, parsePointer, resolvePointer} from '../model/pointer.js'
import {REDACTED, REDACTED_URL, redactDeep, URL_MASK, URL_VALUE_MASK} from '../model/redact.js'
import {applyEdit, cloneJson, insertedAt, PatchError} from './patch.js'

/** Whether a JSON value holds a redaction mask anywhere: it stands for a secret the plan does not know. */
export function holdsMask(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(REDACTED) || value.includes(REDACTED_URL) || value.includes(URL_MASK) || value.includes(URL_VALUE_MASK)
  if (Array.isArray(value)) return value.some(holdsMask)
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsMask)
  return false
}

/** `/buildSetting/jobSecrets/3/authorization` (current) or `.../authorizedBranches` (8.x): who may read the secret. */
const SECRET_AUTHORIZATION = /^\/buildSetting\/jobSecrets\/(0|[1-9][0-9]*)\/(authorization|authorizedBranches)$/

/**
 * Why `edit` must not be made on `view` (the redacted payload as it is before the edit), or null.
 * Only our own words: never a value.
 */
export function editProblem(view: unknown, edit: FixEdit): string | null {
  if (!['replace', 'add', 'remove', 'set-scheme'].includes(edit.op)) return `${edit.path}: unknown operation`
  const tokens = parsePointer(edit.path)
  if (tokens === null || tokens.length === 0) return `${edit.path}: not a pointer to a member of the setting`
  if (SECRET_AUTHORIZATION.test(edit.path)) {
    const value = edit.op === 'remove' ? undefined : (edit as {value?: unknown}).value
    if (edit.op === 'set-scheme' || typeof value !== 'string' || value.trim() === '') {
      return `${edit.path}: a job secret's authorization must stay a non-empty text (null or empty opens the secret to every job)`
    }
  }
  const old = resolvePointer(view, edit.path)
  if (edit.op === 'set-scheme') {
    return typeof old === 'string' && /^https?:\/\//i.test(old) ? null : `${edit.path}: set-scheme needs an http:// or https:// URL there`
  }
  const insertion = edit.op === 'add' && Array.isArray(resolvePointer(view, joinPointer('', ...tokens.slice(0, -1))))
  if (!insertion && holdsMask(old)) return `${edit.path}: it holds a secret, which a plan never changes`
  if (edit.op === 'remove') return null
  const value = edit.value
  if (holdsMask(value) || !survivesRedaction(view, edit)) return `${edit.path}: the new value would be a secret, which a plan never holds`
  return null
}

/** Whether the value an edit puts into the payload is still there, unchanged, once the edited payload is redacted. */
function survivesRedaction(view: unknown, edit: FixEdit & {value: unknown}): boolean {
  const after = cloneJson(view)
  try {
    applyEdit(after, edit)
  } catch (error) {
    if (error instanceof PatchError) return true // not applicable: applying it says why
    throw error
  }
  return sameJson(resolvePointer(redactDeep(after), insertedAt(after, edit) ?? edit.path), edit.value)
}
