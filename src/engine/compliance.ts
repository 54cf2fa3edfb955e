/**
 * Compliance: which controls of a framework the audit shows met, failed, or could not judge.
 *
 * The mapping is data beside the rules (rules/compliance/: one module per framework, every control of
 * the release with the built-in rules that evidence it). `judgeCompliance` turns one audit's outcome
 * into a status per control, the same plain result for every formatter; CONTROL_STATUSES says what
 * each status means, once, for the docs, `--help` and every report's legend.
 *
 * - `fail`: a rule that evidences the control has a finding that counts for it, active or in the
 *   baseline (a baseline says "known", not "accepted");
 * - `not-evaluated`: no such finding, but one of its rules could not be judged (src/engine/availability.ts:
 *   data the server does not offer or refused, a project that could not be read, the rule turned off,
 *   not run by this command, or failed);
 * - `exception`: no such finding and every rule judged, but findings that suppressions of the
 *   configuration leave out, each with its justification and expiry (listed with the control);
 * - `pass`: every one of its rules ran over everything it needs and found nothing;
 * - `manual`: no rule evidences it: a person judges it.
 *
 * Pure: no I/O, no formatting.
 */
import type {AuditError, AuditModel} from '../model/types.js'
import type {ComplianceControl, ComplianceFramework, ControlException, ControlRule, ControlStatus, Finding, FrameworkSource, ProjectRef, SuppressedFinding} from '../types/report-types.js'
import {type UnreadData, unreadData, whyNotJudged} from './availability.js'
import type {AuditSettings, RuleMeta} from './rule.js'
import {pushTo} from '../util/collections.js'

export type {ComplianceControl, ComplianceFramework, ControlException, ControlRule, ControlStatus}

/** A status as reports name it (`not evaluated`) and what it means: one sentence, without a capital or a full stop. */
export interface ControlStatusMeaning {
  status: ControlStatus
  label: string
  meaning: string
}

/**
 * What each status of a control means, in the order reports count them (`2 pass, 11 fail, 1 exception,
 * 0 not evaluated, 99 manual`): the one source of docs/compliance/README.md, scan's --help, the
 * markdown and HTML legends, and (held by a test) the report schema's description of ControlStatus.
 */
export const CONTROL_STATUSES: readonly ControlStatusMeaning[] = [
  {status: 'pass', label: 'pass', meaning: 'every one of its rules ran over everything it needs and found nothing'},
  {status: 'fail', label: 'fail', meaning: 'a rule that evidences it has a finding that counts for it, active or in the baseline, since a baseline says "known", not "accepted"'},
  {
    status: 'exception',
    label: 'exception',
    meaning: 'every one of its rules ran, and the only findings are left out by suppressions of the configuration, each listed with its justification and expiry: neither pass nor fail',
  },
  {
    status: 'not-evaluated',
    label: 'not evaluated',
    meaning: 'no finding fails it, but one of its rules could not be judged: data the server does not offer or refused, a project that could not be read, the rule turned off in the configuration, or the rule failed',
  },
  {status: 'manual', label: 'manual', meaning: 'no rule evidences it: judge it by hand'},
]

/** `pass (every one of its rules …); fail (…); …`: every status with what it means, for --help. */
export function statusesSentence(): string {
  return CONTROL_STATUSES.map(({label, meaning}) => `${label} (${meaning})`).join('; ')
}

/** `not evaluated` for `not-evaluated`: a status as reports name it. */
export function statusLabel(status: ControlStatus): string {
  return CONTROL_STATUSES.find((s) => s.status === status)?.label ?? status
}

/** The `--framework` values, in the order reports show them. */
export const FRAMEWORK_KEYS = ['cis', 'osps'] as const
export type FrameworkKey = (typeof FRAMEWORK_KEYS)[number]

/** One rule's evidence for a control. */
export interface Evidence {
  rule: string
  /**
   * Set when the rule does not judge exactly what the control asks: one line saying how it differs.
   * Its findings still fail the control and its silence still counts towards a pass; reports mark the control.
   */
  approximate?: string
  /** `primary-branch`: only findings about a project's default branch count (OSPS Baseline's branch requirements). */
  findings?: 'primary-branch'
}

export interface ControlMapping {
  /** The framework's own id, e.g. `1.1.16` or `OSPS-AC-03.01`. */
  id: string
  /** The framework's title, word for word (held against rules/compliance/catalogs/ by a test). */
  title: string
  /** OSPS Baseline: the lowest maturity level the requirement applies at. */
  level?: number
  /** The rules whose findings decide the control; empty: the control is manual. */
  evidence: Evidence[]
  /** One line a reader of the mapping needs, e.g. why a control that looks judgeable is manual. */
  note?: string
}

export interface FrameworkMapping {
  key: FrameworkKey
  /** e.g. `CIS Software Supply Chain Security Guide`. */
  name: string
  /** Short name and version, as the console prints it: `CIS SSCS v1.0`. */
  label: string
  version: string
  /** The name of its docs page (docs/compliance/<slug>.md) and of its mapping module. */
  slug: string
  /** Where the list of controls was read (repository, commit or tag, path). */
  source: FrameworkSource
  /** Turns a control id into the tag SARIF gives the rules that evidence it: `1.1.16` → `CIS-1.1.16`. */
  tagPrefix: string
  /** Every control of the release, in the framework's order. */
  controls: ControlMapping[]
  /** Built-in rules that evidence no control of this framework, each with why. */
  unmapped: Record<string, string>
}

/** A rule as this run knows it: its metadata and whether the configuration turned it off. */
export interface ComplianceRule {
  meta: Pick<RuleMeta, 'id' | 'scope' | 'requires'>
  enabled: boolean
}

export interface ComplianceInput {
  frameworks: readonly FrameworkMapping[]
  /** The rules this command evaluated (its scopes), enabled or not. A rule missing here was not run. */
  rules: readonly ComplianceRule[]
  /** Active findings. */
  findings: readonly Finding[]
  /** Findings left out by a suppression or the baseline. */
  suppressed: readonly SuppressedFinding[]
  /** What could not be read, and which rules failed (src/engine/availability.ts). */
  unread: UnreadData
  /** The audit's server data document (undefined: no optional endpoint was read). */
  serverData: Record<string, unknown> | undefined
  /** Each audited project's default branch, where known (for `primary-branch` evidence). */
  defaultBranches: ReadonlyMap<number, string>
}

/**
 * What a formatter may show beside the statuses, filled by the same judgement when asked for:
 * the findings that fail each control, by its tag (`CIS-1.1.16`), those that count for it but that
 * suppressions of the configuration leave out (its exceptions), and why each rule of the command
 * could not be judged (rules judged are absent).
 */
export interface ComplianceDetail {
  failing: Map<string, Finding[]>
  excused: Map<string, SuppressedFinding[]>
  notJudged: Map<string, string>
}

export function emptyComplianceDetail(): ComplianceDetail {
  return {failing: new Map(), excused: new Map(), notJudged: new Map()}
}

/** The tag of a control in SARIF's rule properties: `CIS-1.1.16`, `OSPS-AC-03.01`. */
export function controlTag(framework: Pick<FrameworkMapping, 'tagPrefix'>, controlId: string): string {
  return `${framework.tagPrefix}${controlId}`
}

/**
 * What a control's id starts with outside the audit's own reports, where ids of both frameworks meet
 * (OSCAL's `target-id` and `control-id`, the attestation's test names): its framework. An OSCAL token
 * cannot start with a digit (`1.1.16`), and a prefix keeps the frameworks apart.
 */
export const CONTROL_ID_PREFIXES: Readonly<Record<FrameworkKey, string>> = {cis: 'cis-sscs-', osps: 'osps-'}

/**
 * A control's id with its framework as prefix, in lower case: `cis-sscs-1.1.16` (CIS SSCS `1.1.16`),
 * `osps-ac-03.01` (`OSPS-AC-03.01`, which names its framework already). The one spelling of the OSCAL
 * output, the attestation and docs/evidence.md.
 */
export function prefixedControlId(framework: string, controlId: string): string {
  const prefix = CONTROL_ID_PREFIXES[framework as FrameworkKey] ?? `${framework.toLowerCase()}-`
  const id = controlId.toLowerCase()
  return id.startsWith(prefix) ? id : `${prefix}${id}`
}

/** The controls a rule evidences in `framework`, in the framework's order. */
export function controlsOfRule(framework: FrameworkMapping, ruleId: string): Array<{control: ControlMapping; evidence: Evidence}> {
  const out: Array<{control: ControlMapping; evidence: Evidence}> = []
  for (const control of framework.controls) {
    const evidence = control.evidence.find((e) => e.rule === ruleId)
    if (evidence) out.push({control, evidence})
  }
  return out
}

/** The frameworks chosen with --framework (every one when none is given), in FRAMEWORK_KEYS order. */
export function chosenFrameworks(all: readonly FrameworkMapping[], keys: readonly string[] | undefined): FrameworkMapping[] {
  if (!keys || keys.length === 0) return [...all]
  return all.filter((framework) => keys.includes(framework.key))
}

/** Findings grouped by rule id, once for all controls. */
function byRule<T>(items: readonly T[], ruleOf: (item: T) => string): Map<string, T[]> {
  const grouped = new Map<string, T[]>()
  for (const item of items) pushTo(grouped, ruleOf(item), item)
  return grouped
}

/** The statuses of every control; `detail`, when given, receives what fails each one and why rules were not judged. */
export function judgeCompliance(input: ComplianceInput, detail?: ComplianceDetail): ComplianceFramework[] {
  const active = byRule(input.findings, (f) => f.ruleId)
  const suppressed = byRule(input.suppressed, (s) => s.finding.ruleId)
  const rules = new Map(input.rules.map((rule) => [rule.meta.id, rule]))
  // Whether a rule could be judged does not depend on the control: asked once per rule.
  const notJudged = new Map<string, string | undefined>()
  const whyNot = (ruleId: string): string | undefined => {
    if (!notJudged.has(ruleId)) {
      const rule = rules.get(ruleId)
      notJudged.set(ruleId, !rule ? 'not run by this command' : !rule.enabled ? 'turned off in the configuration' : whyNotJudged(rule.meta, input.unread, input.serverData))
    }
    return notJudged.get(ruleId)
  }
  const counts = (evidence: Evidence) => (finding: Finding) =>
    evidence.findings !== 'primary-branch' || (finding.project !== null && input.defaultBranches.get(finding.project.id) === finding.subject)

  if (detail) {
    for (const rule of input.rules) {
      const why = whyNot(rule.meta.id)
      if (why !== undefined) detail.notJudged.set(rule.meta.id, why)
    }
  }
  return input.frameworks.map((framework) => {
    const controls = framework.controls.map((control): ComplianceControl => {
      const projects = new Map<number, ProjectRef>()
      let findings = 0
      let baselinedCount = 0
      let suppressedCount = 0
      const exceptions: ControlException[] = []
      const ruleResults = control.evidence.map((evidence): ControlRule => {
        const countsHere = counts(evidence)
        const counted = (active.get(evidence.rule) ?? []).filter(countsHere)
        const left = (suppressed.get(evidence.rule) ?? []).filter((s) => countsHere(s.finding))
        // A baseline says "known", not "accepted": its findings fail the control like active ones.
        const baselined = left.filter((s) => s.reason.kind === 'baseline')
        const excused = left.filter((s) => s.reason.kind !== 'baseline')
        // The findings' own references (one per project, shared by its findings), not copies.
        const failingFindings = baselined.length > 0 ? [...counted, ...baselined.map((s) => s.finding)] : counted
        for (const finding of failingFindings) {
          if (finding.project && !projects.has(finding.project.id)) projects.set(finding.project.id, finding.project)
        }
        if (detail) {
          for (const finding of failingFindings) pushTo(detail.failing, controlTag(framework, control.id), finding)
          for (const left of excused) pushTo(detail.excused, controlTag(framework, control.id), left)
        }
        findings += counted.length
        baselinedCount += baselined.length
        suppressedCount += excused.length
        exceptions.push(...exceptionsOf(evidence.rule, excused))
        const failing = counted.length + baselined.length > 0
        const why = failing ? undefined : whyNot(evidence.rule)
        return {
          id: evidence.rule,
          status: failing ? 'fail' : why !== undefined ? 'not-evaluated' : excused.length > 0 ? 'exception' : 'pass',
          findings: counted.length,
          baselined: baselined.length,
          suppressed: excused.length,
          ...(evidence.approximate !== undefined ? {approximate: evidence.approximate} : {}),
          ...(evidence.findings === 'primary-branch' ? {primaryBranchOnly: true as const} : {}),
          ...(why !== undefined ? {notEvaluated: why} : {}),
        }
      })
      return {
        id: control.id,
        title: control.title,
        tag: controlTag(framework, control.id),
        ...(control.level !== undefined ? {level: control.level} : {}),
        status: controlStatus(ruleResults),
        approximate: control.evidence.some((e) => e.approximate !== undefined),
        findings,
        baselined: baselinedCount,
        suppressed: suppressedCount,
        ...(exceptions.length > 0 ? {exceptions} : {}),
        projects: [...projects.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.id - b.id)),
        rules: ruleResults,
        ...(control.note !== undefined ? {note: control.note} : {}),
      }
    })
    const count = (status: ControlStatus) => controls.filter((c) => c.status === status).length
    return {
      framework: framework.key,
      name: framework.name,
      label: framework.label,
      version: framework.version,
      source: framework.source,
      counts: {pass: count('pass'), fail: count('fail'), exception: count('exception'), notEvaluated: count('not-evaluated'), manual: count('manual')},
      controls,
    }
  })
}

/** The suppressions that accept a rule's findings, one per justification and expiry (in the order first met), with how many each accepts. */
export function exceptionsOf(rule: string, excused: readonly SuppressedFinding[]): ControlException[] {
  const byReason = new Map<string, ControlException>()
  for (const {reason} of excused) {
    const justification = reason.justification ?? '(no justification given)'
    const key = JSON.stringify([justification, reason.expires ?? null])
    const known = byReason.get(key)
    if (known) known.findings++
    else byReason.set(key, {rule, justification, ...(reason.expires !== undefined ? {expires: reason.expires} : {}), findings: 1})
  }
  return [...byReason.values()]
}

/** One audit's compliance: what could not be read worked out from the model and the errors, then judged. */
export function judgeAudit(
  frameworks: readonly FrameworkMapping[],
  audit: {model: AuditModel; settings: AuditSettings; rules: readonly ComplianceRule[]; findings: readonly Finding[]; suppressed: readonly SuppressedFinding[]; errors: readonly AuditError[]},
  detail?: ComplianceDetail,
): ComplianceFramework[] {
  const defaultBranches = new Map<number, string>()
  for (const project of audit.model.projects) {
    const branch = project.repository?.defaultBranch
    if (project.setting && typeof branch === 'string') defaultBranches.set(project.id, branch)
  }
  return judgeCompliance({
    frameworks,
    rules: audit.rules,
    findings: audit.findings,
    suppressed: audit.suppressed,
    unread: unreadData(audit.model, audit.settings, audit.errors, audit.rules.flatMap((rule) => rule.meta.requires ?? [])),
    serverData: audit.model.serverData,
    defaultBranches,
  }, detail)
}

/**
 * A finding is proof: fail first; then anything unjudged keeps the control from passing or being an
 * exception (what could not be judged may fail it); then suppressed findings make it an exception.
 */
function controlStatus(rules: readonly ControlRule[]): ControlStatus {
  if (rules.length === 0) return 'manual'
  for (const status of ['fail', 'not-evaluated', 'exception'] as const) if (rules.some((rule) => rule.status === status)) return status
  return 'pass'
}

/** Whether any control of the result fails (--fail-on-control). */
export function anyControlFails(frameworks: readonly ComplianceFramework[]): boolean {
  return frameworks.some((framework) => framework.counts.fail > 0)
}
