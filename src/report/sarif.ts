/**
 * SARIF 2.1.0 for GitHub code scanning (prior-art.md §5, §7): one run, every known rule, one result
 * per active finding with a relative virtual path and a line, our own fingerprints, the most severe
 * 25,000 results at most. Suppressed and baselined findings are left out: GitHub ignores SARIF
 * suppressions, so they stay in the JSON report only.
 */
import type * as Sarif from 'sarif'

import type {AuditError} from '../model/types.js'
import {escapeControl} from '../util/escape.js'
import {controlTagsByRule} from './compliance.js'
import type {ReportInput, ReportRule} from './input.js'
import {EAGER, jsonDocument, type JsonBuilder, LAZY} from './json-stream.js'
import {createLocator} from './locate.js'
import type {Finding, Notice, Severity} from '../types/report-types.js'
import {inheritedNote} from './stylish.js'
import {severityRank, serverHost, verdictText, versionPhrase} from './summary.js'

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json'
/** GitHub rejects a run with more results. */
export const MAX_SARIF_RESULTS = 25_000
export const FINGERPRINT_KEY = 'onedevAudit/v1'
const MAX_DESCRIPTION = 1024
const MAX_TAGS = 20

type Level = 'error' | 'warning' | 'note'

export const SARIF_LEVEL: Record<Severity, Level> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
}

/** Strictly inside GitHub's bands (critical > 9.0, high 7.0–8.9, medium 4.0–6.9, low 0.1–3.9); info has none. */
export const SECURITY_SEVERITY: Record<Severity, string | undefined> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '2.0',
  info: undefined,
}

const PROBLEM_SEVERITY: Record<Severity, 'error' | 'warning' | 'recommendation'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'recommendation',
  info: 'recommendation',
}

/** `branch-protection/force-push-allowed` → `BranchProtectionForcePushAllowed`. */
export function ruleName(id: string): string {
  const name = id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
  return name === '' ? 'Rule' : name.slice(0, 255)
}

function clip(text: string, max: number, fallback: string): string {
  const value = text.trim() === '' ? fallback : text
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`
}

/** `controls`: the rule's compliance control tags (`CIS-1.1.16`, `OSPS-AC-03.01`), after its own. */
function ruleDescriptor({meta, severity, enabled}: ReportRule, controls: readonly string[] = []): Sarif.ReportingDescriptor {
  const tags = ['security', ...meta.tags.filter((tag) => tag !== 'security'), ...controls]
  const fullDescription = clip(meta.fullDescription, MAX_DESCRIPTION, meta.shortDescription || meta.id)
  const properties: Sarif.PropertyBag = {
    tags: [...new Set(tags)].slice(0, MAX_TAGS),
    precision: 'high',
    'problem.severity': PROBLEM_SEVERITY[severity],
  }
  const securitySeverity = SECURITY_SEVERITY[severity]
  if (securitySeverity !== undefined) properties['security-severity'] = securitySeverity
  const help = meta.help.trim() === '' ? fullDescription : meta.help
  return {
    id: meta.id,
    name: ruleName(meta.id),
    shortDescription: {text: clip(meta.shortDescription, MAX_DESCRIPTION, meta.id)},
    fullDescription: {text: fullDescription},
    help: {text: help, markdown: help},
    defaultConfiguration: {level: SARIF_LEVEL[severity], enabled},
    properties,
  }
}

/** A rule the input did not describe (should not happen): a minimal descriptor so the result stays valid. */
function unknownRule(id: string, severity: Severity): ReportRule {
  return {
    meta: {id, shortDescription: id, fullDescription: id, defaultSeverity: severity, help: id, tags: [], scope: 'project'},
    severity,
    enabled: true,
  }
}

/** The finding's message with its context, safe to display. */
export function resultMessage(finding: Finding): string {
  const context: string[] = []
  if (finding.project) context.push(`project ${finding.project.path}`)
  const inherited = inheritedNote(finding)
  if (inherited) context.push(inherited)
  if (finding.role) context.push(`role ${finding.role.name}`)
  const text = context.length === 0 ? finding.message : `${finding.message} (${context.join(', ')})`
  return escapeControl(text)
}

function errorText(error: AuditError): string {
  const where = error.path ?? error.project?.path
  const status = error.status === undefined ? '' : ` (HTTP ${error.status})`
  return escapeControl(`${where ? `${where}: ` : ''}${error.message}${status}`)
}

function noticeNotification(notice: Notice): Sarif.Notification {
  return {
    level: notice.kind === 'suppression-unused' ? 'note' : 'warning',
    message: {text: escapeControl(notice.message)},
    properties: {kind: notice.kind},
  }
}

export function defaultCategory(input: Pick<ReportInput, 'source'>): string {
  if (input.source.kind === 'file') return 'onedev-audit/issue-setting/'
  return `onedev-audit/${serverHost(input.source) ?? 'snapshot'}/`
}

/** The most severe `max` findings, each keeping its place in the input order. */
function mostSevere(findings: readonly Finding[], max: number): Finding[] {
  if (findings.length <= max) return [...findings]
  const kept = new Set(
    findings
      .map((finding, index) => ({finding, index}))
      .sort((a, b) => severityRank(a.finding.severity) - severityRank(b.finding.severity) || a.index - b.index)
      .slice(0, max)
      .map(({index}) => index),
  )
  return findings.filter((_, index) => kept.has(index))
}

/** The SARIF log with its containers made by `json` (plain for buildSarif, lazy for writing), and the warnings. */
function sarifLog(input: ReportInput, json: JsonBuilder): {log: unknown; warnings: string[]} {
  const warnings: string[] = []
  const rules = [...input.rules]
  const ruleIndex = new Map<string, number>()
  rules.forEach((rule, index) => {
    if (!ruleIndex.has(rule.meta.id)) ruleIndex.set(rule.meta.id, index)
  })
  for (const finding of input.findings) {
    if (!ruleIndex.has(finding.ruleId)) {
      ruleIndex.set(finding.ruleId, rules.length)
      rules.push(unknownRule(finding.ruleId, finding.severity))
    }
  }

  const locate = createLocator(input.locations)
  const kept = mostSevere(input.findings, MAX_SARIF_RESULTS)
  const resultOf = (finding: Finding): Sarif.Result => {
    const location = locate(finding)
    const properties: Sarif.PropertyBag = {
      severity: finding.severity,
      subject: escapeControl(finding.subject),
      project: finding.project ? escapeControl(finding.project.path) : null,
      pointer: finding.pointer,
    }
    const securitySeverity = SECURITY_SEVERITY[finding.severity]
    if (securitySeverity !== undefined) properties['security-severity'] = securitySeverity
    return {
      ruleId: finding.ruleId,
      ruleIndex: ruleIndex.get(finding.ruleId)!,
      level: SARIF_LEVEL[finding.severity],
      message: {text: resultMessage(finding)},
      locations: [
        {
          physicalLocation: {
            artifactLocation: {uri: location.uri, uriBaseId: '%SRCROOT%'},
            region: {startLine: location.line},
          },
          logicalLocations: [{fullyQualifiedName: escapeControl(location.fullyQualifiedName), kind: 'object'}],
        },
      ],
      partialFingerprints: {primaryLocationLineHash: finding.fingerprint, [FINGERPRINT_KEY]: finding.fingerprint},
      properties,
    }
  }

  // An incomplete audit says so first, where GitHub shows the run's problems: how many errors, what was judged.
  const notifications: Sarif.Notification[] = [
    ...(input.errors.length > 0 ? [{level: 'error' as const, message: {text: verdictText(input, 'below')}, properties: {kind: 'incomplete'}}] : []),
    ...input.errors.map(
      (error): Sarif.Notification => ({level: 'error', message: {text: errorText(error)}, properties: {kind: error.kind}}),
    ),
    ...input.notices.map(noticeNotification),
  ]
  // GitHub closes the alerts missing from a later analysis of the same category: an incomplete run
  // uploaded would mark what it could not judge as fixed.
  if (input.errors.length > 0) {
    warnings.push('this SARIF is of an incomplete audit: uploaded to GitHub code scanning, it closes the alerts of everything it could not judge as if fixed; upload complete runs only')
  }
  const leftOut = input.findings.length - kept.length
  if (leftOut > 0) {
    const text = `SARIF holds the ${kept.length} most severe of ${input.findings.length} findings: ${leftOut} left out, because GitHub code scanning accepts at most ${MAX_SARIF_RESULTS} results per run. The JSON report has them all.`
    notifications.push({level: 'warning', message: {text}, properties: {kind: 'truncated'}})
    warnings.push(text)
  }

  const controls = controlTagsByRule(input.compliance ?? [])
  const driver: Sarif.ToolComponent = {
    name: input.tool.name,
    version: input.tool.version,
    semanticVersion: input.tool.version,
    ...(input.tool.informationUri ? {informationUri: input.tool.informationUri} : {}),
    rules: rules.map((rule) => ruleDescriptor(rule, controls.get(rule.meta.id))),
  }
  const run = json.object({
    tool: {driver},
    automationDetails: {id: input.category ?? defaultCategory(input)},
    invocations: [
      {
        executionSuccessful: input.errors.length === 0,
        endTimeUtc: input.generatedAt,
        toolExecutionNotifications: notifications,
      },
    ],
    results: json.list(kept, resultOf),
    // Which OneDev was judged (null: its version is unknown); absent when no server was (a linted file).
    ...(versionPhrase(input.source) === null ? {} : {properties: {serverVersion: input.source.server?.version ?? null}}),
  })
  return {log: json.object({$schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: json.list([run], (r) => r)}), warnings}
}

export function buildSarif(input: ReportInput): {log: Sarif.Log; warnings: string[]} {
  const {log, warnings} = sarifLog(input, EAGER)
  return {log: log as Sarif.Log, warnings}
}

/** The SARIF log's text in pieces (each result built when it is written), and the warnings for stderr. */
export function sarifChunks(input: ReportInput): {chunks: Iterable<string>; warnings: string[]} {
  const {log, warnings} = sarifLog(input, LAZY)
  return {chunks: jsonDocument(log), warnings}
}
