/**
 * A fast yes/no check compiled from a zod schema's definition, for the common case: a valid payload.
 * zod builds a full copy of every object it parses, which costs about 70 µs per project setting; the
 * compiled check costs a few µs and allocates nothing. When the check says no, the caller runs zod
 * to get the issues, so zod stays the single source of truth for what is valid and what the errors
 * say. Only the schema kinds used in schemas.ts are compiled; any other kind defers to zod.
 */
import type {z} from 'zod'

export type Check = (value: unknown) => boolean

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  catchall?: z.ZodType
  innerType?: z.ZodType
  element?: z.ZodType
  format?: string
  checks?: unknown[]
  values?: unknown[]
  entries?: Record<string, unknown>
  keyType?: z.ZodType
  valueType?: z.ZodType
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as {_zod: {def: Def}})._zod.def
}

/** The compiled check, or null when the schema uses a kind this compiler does not know. */
export function compileCheck(schema: z.ZodType): Check | null {
  const def = defOf(schema)
  if (def.checks !== undefined && def.checks.length > 0) return null
  switch (def.type) {
    case 'unknown':
    case 'any':
      return () => true
    case 'string':
      return (value) => typeof value === 'string'
    case 'boolean':
      return (value) => typeof value === 'boolean'
    case 'number':
      if (def.format === 'safeint') return (value) => Number.isSafeInteger(value)
      if (def.format === undefined) return (value) => typeof value === 'number' && Number.isFinite(value)
      return null
    case 'optional':
    case 'nullable': {
      const inner = def.innerType ? compileCheck(def.innerType) : null
      if (inner === null) return null
      return def.type === 'optional' ? (value) => value === undefined || inner(value) : (value) => value === null || inner(value)
    }
    case 'array': {
      const element = def.element ? compileCheck(def.element) : null
      if (element === null) return null
      return (value) => Array.isArray(value) && value.every((item) => element(item))
    }
    case 'literal': {
      const values = def.values ?? []
      return (value) => values.includes(value)
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {})
      return (value) => values.includes(value)
    }
    case 'record': {
      const key = def.keyType ? defOf(def.keyType) : null
      const item = def.valueType ? compileCheck(def.valueType) : null
      if (key?.type !== 'string' || (key.checks !== undefined && key.checks.length > 0) || item === null) return null
      return (value) => isPlainObject(value) && Object.keys(value as object).every((k) => item((value as Record<string, unknown>)[k]))
    }
    case 'object':
      return compileObject(def)
    default:
      return null
  }
}

function isPlainObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function compileObject(def: Def): Check | null {
  // No catchall: unknown keys are stripped (accepted); `unknown`: kept; `never`: rejected (strict).
  const catchall = def.catchall ? defOf(def.catchall).type : 'strip'
  if (catchall !== 'unknown' && catchall !== 'any' && catchall !== 'strip' && catchall !== 'never') return null
  const fields: {key: string; check: Check}[] = []
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    const check = compileCheck(field)
    if (check === null) return null
    fields.push({key, check})
  }
  const strict = catchall === 'never'
  const known = new Set(fields.map(({key}) => key))
  return (value) => {
    if (!isPlainObject(value)) return false
    const object = value as Record<string, unknown>
    for (const {key, check} of fields) {
      if (!check(Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined)) return false
    }
    return !strict || Object.keys(object).every((key) => known.has(key))
  }
}

/** A check for the schema: the compiled one, or zod itself when the schema cannot be compiled. */
export function fastCheck(schema: z.ZodType): Check {
  return compileCheck(schema) ?? ((value) => schema.safeParse(value).success)
}
