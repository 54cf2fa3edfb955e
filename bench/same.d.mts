/** Types of bench/same.mjs, for the tests that use its helpers. */
export function withoutTimestamps(text: string): string
export function requestList(paths: readonly string[]): string[]
