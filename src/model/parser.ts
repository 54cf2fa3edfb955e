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
