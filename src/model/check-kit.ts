/**
 * The pieces the generated checks (payload-checks.ts, snapshot-checks.ts) are built from, one per zod
 * schema kind that compiles (fast-validate.ts). Each is true exactly when zod's parse of that kind
 * succeeds; none allocates.
 */
import {isObject} from '../util/json.js'

export type Check = (value: unknown) => boolean

type Json = Record<string, unknown>

const own = (o: Json, key: string): unknown => (Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined)

export const unknown: Check = () => true
export const string: Check = (value) => typeof value === 'string'
export const boolean: Check = (value) => typeof value === 'boolean'
export const integer: Check = (value) => Number.isSafeInteger(value)
export const number: Check = (value) => typeof value === 'number' && Number.isFinite(value)

export const minLength =
  (minimum: number): Check =>
  (value) =>
    typeof value === 'string' && value.length >= minimum
export const optional =
  (inner: Check): Check =>
  (value) =>
    value === undefined || inner(value)
export const nullable =
  (inner: Check): Check =>
  (value) =>
    value === null || inner(value)
/** z.x().nullish(). */
export const nullish =
  (inner: Check): Check =>
  (value) =>
    value === undefined || value === null || inner(value)
export const oneOf =
  (values: readonly unknown[]): Check =>
  (value) =>
    values.includes(value)
export const array =
  (item: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every((element) => item(element))
/** z.record(z.string(), item). */
export const record =
  (item: Check): Check =>
  (value) =>
    isObject(value) && Object.keys(value).every((key) => item(value[key]))

/** An object whose fields pass their checks; unknown keys are kept (loose) or stripped, or refused when `strict`. */
export function object(fields: Record<string, Check>, strict = false): Check {
  const entries = Object.entries(fields)
  const known = new Set(Object.keys(fields))
  return (value) => {
    if (!isObject(value)) return false
    for (const [key, check] of entries) if (!check(own(value, key))) return false
    return !strict || Object.keys(value).every((key) => known.has(key))
  }
}
