/**
 * The in-toto Statement (v1) of a scan's result, which `scan --attest` signs (src/cli/attest.ts): the
 * report files it wrote as subjects, by SHA-256, and a test-result predicate (v0.1,
 * github.com/in-toto/attestation spec/predicates/test-result.md) whose tests are the compliance
 * controls (spelled as in the OSCAL output: prefixedControlId), the rules, and `audit/complete`:
 *
 * - a control: passed (pass), failed (fail), warned (exception: findings accepted by suppressions; not
 *   evaluated: one of its rules could not be judged); a manual control is no test of the audit's;
 * - a rule: failed when it has a finding at or above --fail-on (active or in the baseline, which says
 *   "known", not "accepted"), warned when its findings are all below it, or only accepted by suppressions,
 *   or when it could not be judged; passed when it was judged and found nothing;
 * - `audit/complete`: failed when part of the server could not be read (the run exits 2), else passed.
 *
 * `result` is the run's: FAILED when it exits 1, and when it exits 2 (an incomplete audit never passes:
 * `audit/complete` is failed); otherwise WARNED when any test warned or failed (findings below --fail-on,
 * in the baseline, accepted, or something not evaluated), PASSED only when every test passed.
 */
import {prefixedControlId} from '../engine/compliance.js'
import type {Finding, Severity} from '../types/report-types.js'
import {pushTo} from '../util/collections.js'
import type {ReportInput} from './input.js'
import {severityRank} from './summary.js'

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json'
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1'
export const TEST_RESULT_PREDICATE_TYPE = 'https://in-toto.io/attestation/test-result/v0.1'
/** The test that says whether the audit read everything it asked for (the JUnit report's `audit` suite, case `complete`). */
export const COMPLETE_TEST = 'audit/complete'

/** in-toto's ResourceDescriptor (spec/v1/resource_descriptor.md): at least one of uri, digest, content. */
export interface ResourceDescriptor {
  name?: string
  uri?: string
  digest?: Record<string, string>
  mediaType?: string
  annotations?: Record<string, unknown>
}

export type TestResult = 'PASSED' | 'WARNED' | 'FAILED'

export interface TestResultPredicate {
  result: TestResult
  configuration: ResourceDescriptor[]
  passedTests: string[]
  warnedTests: string[]
  failedTests: string[]
}

export interface AttestationSubject {
  name: string
  digest: {sha256: string}
}

export interface InTotoStatement {
  _type: typeof STATEMENT_TYPE
  subject: AttestationSubject[]
  predicateType: typeof TEST_RESULT_PREDICATE_TYPE
  predicate: TestResultPredicate
}

/** How the run ended: its exit code and --fail-on. */
export interface RunOutcome {
  exitCode: number
  failOn: Severity | 'none'
}

/** The tests of the run with their outcomes, and its result (see the top of this file). */
export function testResults(input: ReportInput, run: RunOutcome): Omit<TestResultPredicate, 'configuration'> {
  const passed: string[] = []
  const warned: string[] = []
  const failed: string[] = []
  for (const framework of input.compliance ?? []) {
    for (const control of framework.controls) {
      const name = prefixedControlId(framework.framework, control.id)
      if (control.status === 'pass') passed.push(name)
      else if (control.status === 'fail') failed.push(name)
      else if (control.status !== 'manual') warned.push(name)
    }
  }
  const failing = new Map<string, Finding[]>()
  const excused = new Set<string>()
  for (const finding of input.findings) pushTo(failing, finding.ruleId, finding)
  for (const {finding, reason} of input.suppressed) {
    if (reason.kind === 'baseline') pushTo(failing, finding.ruleId, finding)
    else excused.add(finding.ruleId)
  }
  const atOrAbove = (finding: Finding) => run.failOn !== 'none' && severityRank(finding.severity) <= severityRank(run.failOn)
  for (const rule of input.rules) {
    if (!rule.enabled) continue
    const id = rule.meta.id
    const found = failing.get(id) ?? []
    if (found.some(atOrAbove)) failed.push(id)
    else if (found.length > 0 || excused.has(id) || input.complianceDetail?.notJudged.has(id)) warned.push(id)
    else passed.push(id)
  }
  if (input.errors.length > 0) failed.push(COMPLETE_TEST)
  else passed.push(COMPLETE_TEST)
  const result: TestResult = run.exitCode !== 0 ? 'FAILED' : failed.length > 0 || warned.length > 0 ? 'WARNED' : 'PASSED'
  return {result, passedTests: passed, warnedTests: warned, failedTests: failed}
}

export function statementOf(subject: AttestationSubject[], predicate: TestResultPredicate): InTotoStatement {
  return {_type: STATEMENT_TYPE, subject, predicateType: TEST_RESULT_PREDICATE_TYPE, predicate}
}
