/**
 * The global issue setting (POST/GET {prefix}/settings/issue), as a file an administrator keeps
 * under review: validated leniently with zod (issue-setting-file.ts: both the contract's 8.0.x shape
 * and current servers' typed transitions, unknown keys kept), then normalized for the issue-setting rules.
 *
 * The file is sent exactly as written, so `raw` is the parsed JSON untouched. Every normalized item
 * carries its RFC 6901 pointer into `raw`. Nothing here prints a field value: messages name pointers
 * and types only, and `redactIssueSetting` masks SecretField defaults and password-like keys before
 * anything is shown or written.
 */
import {isTypeProperty, typeOf} from './polymorphic.js'
import {REDACTED, redactDeep} from './redact.js'
import {isObject} from '../util/json.js'

/** A name in a list of the file, with where it is. `name` is null for a board's empty-value column. */
export interface NameRef {
  name: string
  pointer: string
}

export interface IssueStateSpec {
  pointer: string
  name: string
}

export interface IssueFieldSpec {
  pointer: string
  name: string
  /** The `@type` (`ChoiceField`, `UserChoiceField`, `SecretField`, ...) or null when the file has none (contract shape). */
  type: string | null
  allowMultiple: boolean
  /** Values of a ChoiceField's specified choices; null when not known (not a choice field, or computed choices). */
  choices: string[] | null
  /** The field named by `showCondition.inputName`, if any. */
  showConditionField: NameRef | null
}

export interface IssueTransition {
  pointer: string
  /** `legacy`: `{fromStates, toState, removeFields, trigger?}` (contract, up to v11.0.6); `typed`: `@type` specs (v11.0.7+, and the mis-numbered tag v11.0.2, which is 11.1.x code: 260c5cce2d). */
  kind: 'legacy' | 'typed'
  /** The spec's `@type` (typed) or the trigger's `@type` (legacy), null when absent. */
  type: string | null
  /** Empty means any state for typed transitions. */
  fromStates: NameRef[]
  /** ManualSpec's `toStates` (empty = any); null for other kinds. */
  toStates: NameRef[] | null
  /** Automatic specs' and legacy transitions' `toState`; null when absent. */
  toState: NameRef | null
  removeFields: NameRef[]
  promptFields: NameRef[]
  /** Who may perform a manual transition (ManualSpec or a legacy PressButtonTrigger); null for automatic ones. Empty = any user. */
  authorizedRoles: NameRef[] | null
  /** Pointer of the authorizedRoles list, or of where it would be. */
  authorizedRolesPointer: string
}

export interface BoardColumn {
  /** null stands for the identify field's empty value. */
  name: string | null
  pointer: string
}

export interface IssueBoard {
  pointer: string
  name: string
  identifyField: NameRef | null
  columns: BoardColumn[]
  displayFields: NameRef[]
}

/** Keys of the contract's issue setting (§2.1) that the server resets to stock defaults when absent. */
export const CONTRACT_LIST_KEYS = [
  'stateSpecs',
  'transitionSpecs',
  'fieldSpecs',
  'boardSpecs',
  'listFields',
  'listLinks',
  'namedQueries',
  'issueTemplates',
] as const

/** Field names every workflow has without defining them. */
export const BUILT_IN_FIELDS: readonly string[] = ['State', 'Iteration']

export interface IssueSetting {
  /** The file's parsed JSON, for locations. Sent as is. */
  raw: unknown
  states: IssueStateSpec[]
  fields: IssueFieldSpec[]
  transitions: IssueTransition[]
  boards: IssueBoard[]
  listFields: NameRef[]
  namedQueries: NameRef[]
  /** null when the file has no `reconciled`. */
  reconciled: boolean | null
  /** Contract keys the file leaves out: the server resets them to its stock defaults. */
  omittedKeys: string[]
}

// ---------------------------------------------------------------------------------------------
// Normalization: tolerant of anything (it also reads what a server answered, unvalidated).

type Json = Record<string, unknown>

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null)

function arrayAt(object: Json, key: string): unknown[] {
  const value = object[key]
  return Array.isArray(value) ? value : []
}

function nameRefs(object: Json, key: string, base: string): NameRef[] {
  return arrayAt(object, key).flatMap((value, i) => (typeof value === 'string' ? [{name: value, pointer: `${base}/${key}/${i}`}] : []))
}

function nameRef(object: Json, key: string, base: string): NameRef | null {
  const value = object[key]
  return typeof value === 'string' ? {name: value, pointer: `${base}/${key}`} : null
}

function normalizeField(item: Json, pointer: string): IssueFieldSpec {
  const type = typeOf(item)
  const provider = item['choiceProvider']
  let choices: string[] | null = null
  if (isObject(provider) && Array.isArray(provider['choices'])) {
    choices = provider['choices'].flatMap((choice) => (isObject(choice) && typeof choice['value'] === 'string' ? [choice['value']] : []))
  }
  const condition = item['showCondition']
  const showConditionField = isObject(condition) ? nameRef(condition, 'inputName', `${pointer}/showCondition`) : null
  return {pointer, name: String(item['name']), type, allowMultiple: item['allowMultiple'] === true, choices, showConditionField}
}

const MANUAL_TRIGGER = 'PressButtonTrigger'

function normalizeTransition(item: Json, pointer: string): IssueTransition {
  const typed = typeOf(item) !== null
  const trigger = isObject(item['trigger']) ? item['trigger'] : null
  const type = typed ? typeOf(item) : typeOf(trigger)
  const base = {
    pointer,
    kind: typed ? ('typed' as const) : ('legacy' as const),
    type,
    fromStates: nameRefs(item, 'fromStates', pointer),
    toState: nameRef(item, 'toState', pointer),
    removeFields: nameRefs(item, 'removeFields', pointer),
  }
  if (typed && type === 'ManualSpec') {
    return {
      ...base,
      toStates: nameRefs(item, 'toStates', pointer),
      toState: null,
      promptFields: nameRefs(item, 'promptFields', pointer),
      authorizedRoles: nameRefs(item, 'authorizedRoles', pointer),
      authorizedRolesPointer: `${pointer}/authorizedRoles`,
    }
  }
  if (!typed && trigger && type === MANUAL_TRIGGER) {
    return {
      ...base,
      toStates: null,
      promptFields: nameRefs(trigger, 'promptFields', `${pointer}/trigger`),
      authorizedRoles: nameRefs(trigger, 'authorizedRoles', `${pointer}/trigger`),
      authorizedRolesPointer: `${pointer}/trigger/authorizedRoles`,
    }
  }
  return {...base, toStates: null, promptFields: [], authorizedRoles: null, authorizedRolesPointer: `${pointer}/authorizedRoles`}
}

function normalizeBoard(item: Json, pointer: string): IssueBoard {
  return {
    pointer,
    name: String(item['name']),
    identifyField: nameRef(item, 'identifyField', pointer),
    columns: arrayAt(item, 'columns').flatMap((value, i) =>
      typeof value === 'string' || value === null ? [{name: value, pointer: `${pointer}/columns/${i}`}] : [],
    ),
    displayFields: nameRefs(item, 'displayFields', pointer),
  }
}

function named(items: unknown[], key: string): Array<{item: Json; pointer: string}> {
  return items.flatMap((item, i) => (isObject(item) && typeof item['name'] === 'string' ? [{item, pointer: `/${key}/${i}`}] : []))
}

/** Normalizes any JSON (valid or not): what is not understood is left out. */
export function normalizeIssueSetting(raw: unknown): IssueSetting {
  const root: Json = isObject(raw) ? raw : {}
  return {
    raw,
    states: named(arrayAt(root, 'stateSpecs'), 'stateSpecs').map(({item, pointer}) => ({pointer, name: item['name'] as string})),
    fields: named(arrayAt(root, 'fieldSpecs'), 'fieldSpecs').map(({item, pointer}) => normalizeField(item, pointer)),
    transitions: arrayAt(root, 'transitionSpecs').flatMap((item, i) => (isObject(item) ? [normalizeTransition(item, `/transitionSpecs/${i}`)] : [])),
    boards: named(arrayAt(root, 'boardSpecs'), 'boardSpecs').map(({item, pointer}) => normalizeBoard(item, pointer)),
    listFields: nameRefs(root, 'listFields', ''),
    namedQueries: named(arrayAt(root, 'namedQueries'), 'namedQueries').map(({item, pointer}) => ({name: item['name'] as string, pointer})),
    reconciled: typeof root['reconciled'] === 'boolean' ? root['reconciled'] : null,
    omittedKeys: CONTRACT_LIST_KEYS.filter((key) => !(key in root)),
  }
}

// ---------------------------------------------------------------------------------------------
// Redaction for output

function redactSecretFieldDefaults(value: unknown, depth = 0): unknown {
  if (depth > 64) return REDACTED
  if (Array.isArray(value)) return value.map((item) => redactSecretFieldDefaults(item, depth + 1))
  if (!isObject(value)) return value
  const secretField = /Secret/.test(typeOf(value) ?? '')
  const out: Json = {}
  for (const [key, inner] of Object.entries(value)) {
    const copy = secretField && /default/i.test(key) ? maskValues(inner) : redactSecretFieldDefaults(inner, depth + 1)
    if (key === '__proto__') Object.defineProperty(out, key, {value: copy, enumerable: true, writable: true, configurable: true})
    else out[key] = copy
  }
  return out
}

/** Every value in it masked; its type (`@type`, `@class`) kept so the shape stays readable. null stays null. */
function maskValues(value: unknown): unknown {
  if (value === null || value === undefined) return value
  if (Array.isArray(value)) return value.map(() => REDACTED)
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, isTypeProperty(key) ? inner : maskValues(inner)]))
  return REDACTED
}

/**
 * A copy fit to print or write: default values of SecretFields masked as `<redacted>`, then the
 * model's general redaction (password-, token- and secret-like keys, credentials in URLs).
 * Everything else is kept as it was. Never mutates its input.
 */
export function redactIssueSetting(raw: unknown): unknown {
  return redactDeep(redactSecretFieldDefaults(raw))
}
