/**
 * `scan --format junit`: the audit as test results for OneDev's JUnit Report step (junit-xml.ts says
 * what OneDev reads). One suite per compliance framework (`CIS SSCS v1.0`, `OSPS Baseline
 * v2026.02.19`) with a case per control, named by its id and title; one suite `rules` with a case per
 * enabled rule, named by its id; and one suite `audit` whose case `complete` is an error when part of
 * the server could not be read. Statuses come from the compliance judgement (src/engine/compliance.ts):
 *
 * - fail: `<failure>` listing the findings that fail it, by project;
 * - pass: passed; passed only because every finding of its rules is suppressed or baselined: skipped,
 *   saying so (an accepted exception is no pass);
 * - not evaluated: skipped, with why each rule could not be judged;
 * - manual: skipped, saying it is judged by hand.
 *
 * A rule's case fails with its findings by project, is skipped when the rule could not be judged or
 * its findings are all accepted exceptions, and passes otherwise.
 */
import type {ComplianceControl, ComplianceFramework, Finding} from '../types/report-types.js'
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

const exception = (suppressed: number, of: string): JunitOutcome => ({
  kind: 'skipped',
  message: `accepted exceptions: no active finding; ${plural(suppressed, 'finding')} of ${of} suppressed or in the baseline (the JSON report lists them with their reasons)`,
})

function controlOutcome(control: ComplianceControl, failing: readonly Finding[] | undefined, note: string | undefined): JunitOutcome {
  switch (control.status) {
    case 'fail': {
      const where = control.projects.length > 0 ? ` in ${plural(control.projects.length, 'project')}` : ''
      const message = `fails: ${plural(control.findings, 'finding')}${where}`
      const rules = control.rules.filter((rule) => rule.status === 'fail').map((rule) => rule.id)
      return {
        kind: 'failure',
        message,
        text: () => [
          `${message}, of ${rules.join(', ')}${control.suppressed > 0 ? ` (${control.suppressed} more suppressed or in the baseline)` : ''}:`,
          '',
          ...findingLines(failing ?? [], true),
        ],
      }
    }
    case 'pass':
      return control.suppressed > 0 ? exception(control.suppressed, 'its rules') : {kind: 'passed'}
    case 'not-evaluated': {
      const why = control.rules.filter((rule) => rule.status === 'not-evaluated').map((rule) => `${rule.id}: ${rule.notEvaluated ?? 'not judged'}`)
      return {kind: 'skipped', message: `not evaluated: ${why.join('; ')}`}
    }
    case 'manual':
      // The mapping's notes of manual controls start with "Manual:" themselves.
      return {kind: 'skipped', message: `manual: ${note?.replace(/^Manual:\s*/, '') ?? "no rule judges it from OneDev's settings"}; judge it by hand`}
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
  const active = new Map<string, Finding[]>()
  for (const finding of input.findings) {
    const list = active.get(finding.ruleId)
    if (list) list.push(finding)
    else active.set(finding.ruleId, [finding])
  }
  const suppressed = new Map<string, number>()
  for (const {finding} of input.suppressed) suppressed.set(finding.ruleId, (suppressed.get(finding.ruleId) ?? 0) + 1)
  const cases = input.rules
    .filter((rule) => rule.enabled)
    .map((rule): JunitCase => {
      const id = rule.meta.id
      const findings = active.get(id) ?? []
      if (findings.length > 0) {
        const message = `${plural(findings.length, 'finding')} (${severities(findings)})`
        return {name: id, outcome: {kind: 'failure', message, text: () => [`${message}:`, '', ...findingLines(findings, false)]}}
      }
      const why = input.complianceDetail?.notJudged.get(id)
      if (why !== undefined) return {name: id, outcome: {kind: 'skipped', message: `not evaluated: ${why}`}}
      const accepted = suppressed.get(id) ?? 0
      return {name: id, outcome: accepted > 0 ? exception(accepted, 'the rule') : {kind: 'passed'}}
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
