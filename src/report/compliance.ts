/**
 * How the formatters show the compliance result (src/engine/compliance.ts judges it): the console's
 * line per framework, the status words, and each rule's control tags for SARIF.
 */
import type {ComplianceFramework, ControlStatus} from '../types/report-types.js'

/** `14 pass, 6 fail, 3 not evaluated, 13 manual`. */
export function complianceCounts(framework: Pick<ComplianceFramework, 'counts'>): string {
  const {pass, fail, notEvaluated, manual} = framework.counts
  return `${pass} pass, ${fail} fail, ${notEvaluated} not evaluated, ${manual} manual`
}

/** `CIS SSCS v1.0: 14 pass, 6 fail, 3 not evaluated, 13 manual`: the console's line. */
export function complianceLine(framework: Pick<ComplianceFramework, 'label' | 'counts'>): string {
  return `${framework.label}: ${complianceCounts(framework)}`
}

export const STATUS_TEXT: Record<ControlStatus, string> = {pass: 'pass', fail: 'fail', 'not-evaluated': 'not evaluated', manual: 'manual'}

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
