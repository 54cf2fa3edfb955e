/**
 * `scan --format junit`: the audit as test results for OneDev's JUnit Report step (junit-xml.ts says
 * what OneDev reads). One suite per compliance framework (`CIS SSCS v1.0`, `OSPS Baseline
 * v2026.02.19`) with a case per control, named by its id and title; one suite `rules` with a case per
 * enabled rule, named by its id; and one suite `audit` whose case `complete` is an error when part of
 * the server could not be read. Statuses come from the compliance judgement (src/engine/compliance.ts):
 *
 * - fail: `<failure>` listing the findings that fail it (active or in the baseline), by project;
 * - pass: passed;
 * - exception: skipped, listing each suppression that accepts its findings, with its justification and
 *   expiry (an accepted exception is neither a pass nor a failure);
 * - not evaluated: skipped, with why each rule could not be judged;
 * - manual: skipped, saying it is judged by hand.
 *
 * A rule's case fails with its findings (active or in the baseline) by project, is skipped when the rule
 * could not be judged or its only findings are accepted by suppressions, and passes otherwise.
 */
import {exceptionsOf} from '../engine/compliance.js'
import type {ComplianceControl, ComplianceFramework, ControlException, Finding, SuppressedFinding} from '../types/report-types.js'
import {pushTo} from '../util/collections.js'
import type {ReportChunks} from './chunks.js'
import type {ReportInput} from './input.js'
import {type JunitCase, type JunitOutcome, type JunitSuite, junitDocument} from './junit-xml.js'
import {errorLine, groupFindings, messageOf} from './stylish.js'
import {countBySeverity, plural} from './summary.js'

/** Findings listed in one case's text; the rest are counted (the JSON report has them all). */
export const JUNIT_MAX_LISTED = 1000

export const RULES_SUITE = 'rules'
export const AUDIT_SUITE = 'audit'
export const COMPLETE_CASE = 'complete'

/** `3 high, 1 medium`. */
function severities(findings: readonly Finding[]): string {
  return Object.entries(countBySeverity(findings))
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`)
    .join(', ')
}

/**
 * Findings by project (then roles, then the server), one line each: `  high  message [rule]`; the
 * first JUNIT_MAX_LISTED, then how many more.
 */
export function findingLines(findings: readonly Finding[], withRule: boolean): string[] {
  const lines: string[] = []
  let listed = 0
  const groups = groupFindings(findings)
  for (const [index, group] of groups.entries()) {
    if (listed >= JUNIT_MAX_LISTED) {
      const rest = groups.slice(index)
      const more = rest.reduce((sum, g) => sum + g.findings.length, 0)
      lines.push('', `… ${plural(more, 'more finding')} in ${plural(rest.length, 'more group')} (projects, roles, server): the JSON report lists them all.`)
      return lines
    }
    lines.push(group.title)
    for (const [at, finding] of group.findings.entries()) {
      if (listed >= JUNIT_MAX_LISTED) {
        lines.push(`  … ${plural(group.findings.length - at, 'more finding')} here`)
        break
      }
      lines.push(`  ${finding.severity.padEnd(8)}  ${messageOf(finding)}${withRule ? `  [${finding.ruleId}]` : ''}`)
      listed++
    }
  }
  return lines
}

/** `rule: justification (until 2027-03-31), 3 findings`, one per suppression that accepts findings. */
function exceptionLines(exceptions: readonly ControlException[]): string[] {
  return exceptions.map((e) => `${e.rule}: ${e.justification}${e.expires ? ` (until ${e.expires})` : ''}, ${plural(e.findings, 'finding')}`)
}

/** Accepted exceptions: no finding fails it, and suppressions of the configuration accept some: neither passed nor failed. */
function exception(accepted: number, of: string, exceptions: readonly ControlException[]): JunitOutcome {
  const lines = exceptionLines(exceptions)
  return {kind: 'skipped', message: `exception: no finding fails it; ${plural(accepted, 'finding')} of ${of} accepted by suppressions${lines.length > 0 ? `: ${lines.join('; ')}` : ''}`}
}

function controlOutcome(control: ComplianceControl, failing: readonly Finding[] | undefined, note: string | undefined): JunitOutcome {
  switch (control.status) {
    case 'fail': {
      const count = control.findings + control.baselined
      const where = control.projects.length > 0 ? ` in ${plural(control.projects.length, 'project')}` : ''
      const message = `fails: ${plural(count, 'finding')}${where}${control.baselined > 0 ? ` (${control.baselined} of them in the baseline: known, not accepted)` : ''}`
      const rules = control.rules.filter((rule) => rule.status === 'fail').map((rule) => rule.id)
      return {
        kind: 'failure',
        message,
        text: () => [
          `${message}, of ${rules.join(', ')}${control.suppressed > 0 ? ` (${control.suppressed} more accepted by suppressions)` : ''}:`,
          '',
          ...findingLines(failing ?? [], true),
        ],
      }
    }
    case 'pass':
      return {kind: 'passed'}
    case 'exception':
      return exception(control.suppressed, 'its rules', control.exceptions ?? [])
    case 'not-evaluated': {
      const why = control.rules.filter((rule) => rule.status === 'not-evaluated').map((rule) => `${rule.id}: ${rule.notEvaluated ?? 'not judged'}`)
      return {kind: 'skipped', message: `not evaluated: ${why.join('; ')}`}
    }
    case 'manual':
      // The mapping's notes of manual controls start with "Manual:" themselves.
      return {kind: 'skipped', message: `manual: ${note?.replace(/^Manual:\s*/, '').replace(/\.$/, '') ?? "no rule judges it from OneDev's settings"}; judge it by hand`}
    default: {
      const unknown: never = control.status
      throw new Error(`unknown control status: ${String(unknown)}`)
    }
  }
}

function frameworkSuite(framework: ComplianceFramework, input: ReportInput): JunitSuite {
  return {
    name: framework.label,
    cases: framework.controls.map((control) => ({
      name: `${control.id} ${control.title}`,
      outcome: controlOutcome(control, input.complianceDetail?.failing.get(control.tag), control.note),
    })),
  }
}

function rulesSuite(input: ReportInput): JunitSuite {
  // A rule fails on its active findings and on those in the baseline ("known", not "accepted"), as a control does.
  const failing = new Map<string, Finding[]>()
  for (const finding of input.findings) pushTo(failing, finding.ruleId, finding)
  const accepted = new Map<string, SuppressedFinding[]>()
  for (const suppressed of input.suppressed) {
    if (suppressed.reason.kind === 'baseline') pushTo(failing, suppressed.finding.ruleId, suppressed.finding)
    else pushTo(accepted, suppressed.finding.ruleId, suppressed)
  }
  const cases = input.rules
    .filter((rule) => rule.enabled)
    .map((rule): JunitCase => {
      const id = rule.meta.id
      const findings = failing.get(id) ?? []
      if (findings.length > 0) {
        const message = `${plural(findings.length, 'finding')} (${severities(findings)})`
        return {name: id, outcome: {kind: 'failure', message, text: () => [`${message}:`, '', ...findingLines(findings, false)]}}
      }
      const why = input.complianceDetail?.notJudged.get(id)
      if (why !== undefined) return {name: id, outcome: {kind: 'skipped', message: `not evaluated: ${why}`}}
      const excused = accepted.get(id) ?? []
      return {name: id, outcome: excused.length > 0 ? exception(excused.length, 'the rule', exceptionsOf(id, excused)) : {kind: 'passed'}}
    })
  return {name: RULES_SUITE, cases}
}

/** The case that says whether the audit read everything it asked for: `lines` say what failed, `count` how many failures there were. */
export function completeCase(lines: readonly string[], count = lines.length): JunitCase {
  if (count === 0) return {name: COMPLETE_CASE, outcome: {kind: 'passed'}}
  const message = `incomplete: ${plural(count, 'error')}; what could not be read was not judged`
  return {name: COMPLETE_CASE, outcome: {kind: 'error', message, text: () => [`${message}:`, '', ...lines]}}
}

export function junitSuites(input: ReportInput): JunitSuite[] {
  return [
    ...(input.compliance ?? []).map((framework) => frameworkSuite(framework, input)),
    rulesSuite(input),
    {name: AUDIT_SUITE, cases: [completeCase(input.errors.map(errorLine), input.errorCount ?? input.errors.length)]},
  ]
}

export function junitChunks(input: ReportInput): ReportChunks {
  return {chunks: junitDocument(input.tool.name, junitSuites(input)), warnings: []}
}
