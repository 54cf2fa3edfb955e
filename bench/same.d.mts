/** Types of bench/same.mjs, for the tests that use its helpers. */
/** The report with its times of writing blanked (JSON and SARIF keys, the HTML page's <time>, the markdown header). */
export function withoutTimestamps(text: string): string
export function requestList(paths: readonly string[]): string[]
/** Requests answered as a sorted list, endpoints not offered as the set of their templates. */
export function contractRequestList(paths: readonly string[]): string[]
