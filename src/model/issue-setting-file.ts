/**
 * Reading an issue setting file (`issue-setting lint` and `apply`): JSON syntax errors with line and
 * column, then the lenient zod schema, then normalization (issue-setting.ts). Apart from
 * issue-setting.ts so that an audit, which normalizes what the server answered, does not load zod.
 */
import {z} from 'zod'

import {parseJson} from '../util/json.js'
import {type IssueSetting, normalizeIssueSetting} from './issue-setting.js'
import {pointerOf} from './pointer.js'
import {typeOf} from './polymorphic.js'
import type {AuditError} from './types.js'

// ---------------------------------------------------------------------------------------------
// Schema (lenient: unknown keys kept, optional fields tolerated, null where the server writes null)

const name = z.string().min(1, {message: 'expected a non-empty string'})
const text = z.string().nullish()
const names = z.array(z.string())
const flag = z.boolean().nullish()

const stateSpec = z.looseObject({name, description: text, color: text})

const choiceProvider = z.looseObject({
  '@type': z.string().optional(),
  choices: z.array(z.looseObject({value: z.string()})).nullish(),
})

const fieldSpec = z.looseObject({
  '@type': z.string().optional(),
  name,
  description: text,
  nameOfEmptyValue: text,
  promptUponIssueOpen: flag,
  applicableProjects: text,
  allowMultiple: flag,
  allowEmpty: flag,
  showCondition: z.looseObject({inputName: z.string().nullish()}).nullish(),
  choiceProvider: choiceProvider.nullish(),
})

const trigger = z.looseObject({
  '@type': z.string().optional(),
  authorizedRoles: names.nullish(),
  promptFields: names.nullish(),
})

const transitionSpec = z
  .looseObject({
    '@type': z.string().min(1, {message: 'expected a non-empty string'}).optional(),
    fromStates: names.nullish(),
    toStates: names.nullish(),
    toState: z.string().nullish(),
    removeFields: names.nullish(),
    promptFields: names.nullish(),
    authorizedRoles: names.nullish(),
    issueQuery: text,
    trigger: trigger.nullish(),
  })
  .superRefine((transition, context) => {
    // The contract's shape (no @type): a move from fromStates to toState.
    if (typeOf(transition) === null && typeof transition.toState !== 'string') {
      context.addIssue({code: 'custom', path: ['toState'], message: 'expected string'})
    }
  })

const boardSpec = z.looseObject({
  name,
  baseQuery: text,
  backlogBaseQuery: text,
  identifyField: z.string(),
  columns: z.array(z.string().nullable()).nullish(),
  iterationPrefix: text,
  displayFields: names.nullish(),
  displayLinks: names.nullish(),
  editColumns: z.array(z.string().nullable()).nullish(),
})

export const issueSettingSchema = z.looseObject({
  stateSpecs: z.array(stateSpec).optional(),
  transitionSpecs: z.array(transitionSpec).optional(),
  fieldSpecs: z.array(fieldSpec).optional(),
  boardSpecs: z.array(boardSpec).optional(),
  listFields: names.optional(),
  listLinks: names.optional(),
  namedQueries: z.array(z.looseObject({name, query: text})).optional(),
  issueTemplates: z.array(z.looseObject({issueQuery: text, issueDescription: text})).optional(),
  reconciled: z.boolean().optional(),
  timeTrackingSetting: z.looseObject({}).nullish(),
  commitMessageFixSetting: z.looseObject({}).nullish(),
  externalIssueTransformers: z.looseObject({}).nullish(),
})

// ---------------------------------------------------------------------------------------------
// Parsing

/** The kind of a JSON value in words, never the value itself. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function valueAt(document: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = document
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[key as string]
  }
  return current
}

function describeIssue(issue: z.core.$ZodIssue, document: unknown): string {
  if (issue.code === 'invalid_type' || (issue.code === 'custom' && issue.message.startsWith('expected '))) {
    const expected = issue.code === 'invalid_type' ? `expected ${issue.expected}` : issue.message
    const actual = valueAt(document, issue.path)
    return actual === undefined ? `${expected} (missing)` : `${expected}, got ${kindOf(actual)}`
  }
  if (issue.code === 'too_small' || issue.code === 'custom') return issue.message
  return 'invalid value'
}

function invalid(message: string, pointer?: string): {error: AuditError} {
  const error: AuditError = {kind: 'invalid-payload', message}
  if (pointer !== undefined) error.pointer = pointer
  return {error}
}

/**
 * The text of an issue-setting file → the setting, or one printable error naming the file and
 * where (line and column for JSON syntax, a JSON pointer for a shape error).
 */
export function parseIssueSetting(text: string, file: string): {setting: IssueSetting} | {error: AuditError} {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  let raw: unknown
  try {
    raw = parseJson(body, file)
  } catch (error) {
    return invalid(error instanceof Error ? error.message : `${file}: invalid JSON`)
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return invalid(`${file}: expected a JSON object at the top level, got ${kindOf(raw)}`, '')
  }
  const result = issueSettingSchema.safeParse(raw)
  if (!result.success) {
    const issues = result.error.issues
    const first = issues[0]!
    const pointer = pointerOf(first.path)
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more ${issues.length === 2 ? 'problem' : 'problems'})` : ''
    return invalid(`${file}: ${escapeName(pointer)}: ${describeIssue(first, raw)}${more}`, pointer)
  }
  return {setting: normalizeIssueSetting(raw)}
}

/** Pointers are built from the file's own keys: show control characters as escapes. */
function escapeName(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
