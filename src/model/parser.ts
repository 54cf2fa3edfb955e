import {joinPointer} from './pointer.js'

/** The message zod reports for a non-integer (schemas.ts); schemaIssues turns it into `expected integer, got ...`. */
export const EXPECTED_INTEGER = 'expected integer'

/** A generated check (src/model/payload-checks.ts) with the `safeParse` shape of the zod schema it was compiled from. */
export interface Parser<T> {
  safeParse(value: unknown): {success: true; data: T} | {success: false}
}

/**
 * The payload itself is the data: the schemas it comes from are loose objects without defaults or
 * transforms, so zod's output would be a copy holding the same values.
 */
export function parser<T>(check: (value: unknown) => boolean): Parser<T> {
  return {safeParse: (value) => (check(value) ? {success: true, data: value as T} : {success: false})}
}

/** The valid items of a listing, each with its index; null when the value is not a list. */
export function validItems<T>(value: unknown, schema: Parser<T>): {item: T; index: number}[] | null {
  if (!Array.isArray(value)) return null
  const out: {item: T; index: number}[] = []
  for (let index = 0; index < value.length; index++) {
    const parsed = schema.safeParse(value[index])
    if (parsed.success) out.push({item: parsed.data, index})
  }
  return out
}

/** Whether the object has `key` of its own (a payload's key, never one inherited from Object.prototype). */
export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key)
}

/**
 * The valid items of the listing stored under `key` in a server data document, each with its index and
 * its pointer (`/<key>/<index>`); undefined when the listing was not read or is not a list.
 */
export function storedItems<T>(data: Record<string, unknown> | undefined, key: string, schema: Parser<T>): {item: T; index: number; pointer: string}[] | undefined {
  if (!data || !hasOwn(data, key)) return undefined
  return validItems(data[key], schema)?.map(({item, index}) => ({item, index, pointer: joinPointer('', key, index)}))
}
