/**
 * How the formatters show the compliance result (src/engine/compliance.ts judges it and says what each
 * status means): the console's line per framework, the status words, the legend, the exceptions, and
 * each rule's control tags for SARIF.
 */
import {CONTROL_STATUSES} from '../engine/compliance.js'
import type {ComplianceFramework, ControlException, ControlStatus} from '../types/report-types.js'

const COUNT_KEY: Record<ControlStatus, keyof ComplianceFramework['counts']> = {pass: 'pass', fail: 'fail', exception: 'exception', 'not-evaluated': 'notEvaluated', manual: 'manual'}

/** `14 pass, 6 fail, 1 exception, 3 not evaluated, 13 manual`. */
export function complianceCounts(framework: Pick<ComplianceFramework, 'counts'>): string {
  return CONTROL_STATUSES.map(({status, label}) => `${framework.counts[COUNT_KEY[status]]} ${label}`).join(', ')
}

/** `CIS SSCS v1.0: 14 pass, 6 fail, 1 exception, 3 not evaluated, 13 manual`: the console's line. */
export function complianceLine(framework: Pick<ComplianceFramework, 'label' | 'counts'>): string {
  return `${framework.label}: ${complianceCounts(framework)}`
}

export const STATUS_TEXT = Object.fromEntries(CONTROL_STATUSES.map(({status, label}) => [status, label])) as Record<ControlStatus, string>

/**
 * `"internal network, OPS-142" (until 2027-03-31; 2 findings of notification/insecure-webhook)`, without
 * `of RULE` when the rule is said already. Not escaped.
 */
export function exceptionText(exception: ControlException, withRule = true): string {
  const until = exception.expires === undefined ? 'no expiry' : `until ${exception.expires}`
  const findings = exception.findings === 1 ? '1 finding' : `${exception.findings} findings`
  return `"${exception.justification}" (${until}; ${findings}${withRule ? ` of ${exception.rule}` : ''})`
}

/** Each rule's control tags (`CIS-1.1.16`, `OSPS-AC-03.01`), in framework and control order. */
export function controlTagsByRule(frameworks: readonly ComplianceFramework[]): Map<string, string[]> {
  const tags = new Map<string, string[]>()
  for (const framework of frameworks) {
    for (const control of framework.controls) {
      for (const rule of control.rules) {
        const list = tags.get(rule.id)
        if (!list) tags.set(rule.id, [control.tag])
        else if (!list.includes(control.tag)) list.push(control.tag)
      }
    }
  }
  return tags
}
