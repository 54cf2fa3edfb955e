/**
 * JUnit XML for OneDev's JUnit Report step (server-plugin-report-junit, JUnitReportParser), shared
 * by scan's and diff's reports: `<testsuites>` of `<testsuite>` with `tests`, `failures`, `errors`
 * and `skipped` (OneDev decides a suite's status from these attributes alone: counted here from the
 * cases, so they always agree), each `<testcase>` passed, or with `<failure>` (its text is what
 * OneDev shows), `<error>` or `<skipped>`. A case's history across builds follows its suite and name:
 * names are stable, and a name repeated in one suite gets ` (2)`, ` (3)`... in order.
 */
import {XML_DECLARATION, xmlAttributes, xmlLines} from './xml.js'

export type JunitOutcome =
  | {kind: 'passed'}
  /** `text`: the lines OneDev shows, built when the case is written. */
  | {kind: 'failure' | 'error'; message: string; text: () => readonly string[]}
  | {kind: 'skipped'; message: string}

export interface JunitCase {
  name: string
  outcome: JunitOutcome
}

export interface JunitSuite {
  name: string
  cases: readonly JunitCase[]
}

interface Counts {
  tests: number
  failures: number
  errors: number
  skipped: number
}

function countsOf(cases: readonly JunitCase[]): Counts {
  const counts: Counts = {tests: cases.length, failures: 0, errors: 0, skipped: 0}
  for (const {outcome} of cases) {
    if (outcome.kind === 'failure') counts.failures++
    else if (outcome.kind === 'error') counts.errors++
    else if (outcome.kind === 'skipped') counts.skipped++
  }
  return counts
}

/** Case names made unique within a suite, in order. */
function uniqueNames(cases: readonly JunitCase[]): string[] {
  const seen = new Map<string, number>()
  return cases.map(({name}) => {
    const times = (seen.get(name) ?? 0) + 1
    seen.set(name, times)
    return times === 1 ? name : `${name} (${times})`
  })
}

function caseText(suite: string, name: string, outcome: JunitOutcome): string {
  const open = `    <testcase${xmlAttributes({name, classname: suite})}`
  switch (outcome.kind) {
    case 'passed':
      return `${open}/>\n`
    case 'skipped':
      return `${open}>\n      <skipped${xmlAttributes({message: outcome.message})}/>\n    </testcase>\n`
    case 'failure':
    case 'error':
      return `${open}>\n      <${outcome.kind}${xmlAttributes({message: outcome.message, type: outcome.kind})}>${xmlLines(outcome.text())}</${outcome.kind}>\n    </testcase>\n`
    default: {
      const unknown: never = outcome
      throw new Error(`unknown outcome: ${String(unknown)}`)
    }
  }
}

/** The document in pieces: one per case, each case's text built when it is written. */
export function* junitDocument(name: string, suites: readonly JunitSuite[]): Generator<string, void, undefined> {
  const total: Counts = {tests: 0, failures: 0, errors: 0, skipped: 0}
  const counted = suites.map((suite) => {
    const counts = countsOf(suite.cases)
    total.tests += counts.tests
    total.failures += counts.failures
    total.errors += counts.errors
    total.skipped += counts.skipped
    return counts
  })
  yield `${XML_DECLARATION}<testsuites${xmlAttributes({name, ...total})}>\n`
  for (const [index, suite] of suites.entries()) {
    yield `  <testsuite${xmlAttributes({name: suite.name, ...counted[index]!})}>\n`
    const names = uniqueNames(suite.cases)
    for (const [at, testCase] of suite.cases.entries()) yield caseText(suite.name, names[at]!, testCase.outcome)
    yield '  </testsuite>\n'
  }
  yield '</testsuites>\n'
}
