/**
 * SARIF for `diff`: one run whose results carry `baselineState`, so viewers that understand it show
 * the trend. Findings come as `scan` writes them (new, unchanged, and fixed ones as `absent`), and
 * each change of meaning is a result of a `drift/<kind>` rule: `new` when something was added,
 * `absent` when removed, `updated` when changed. Only weakenings and new findings are failures;
 * everything else is informational (level `none`). The default category differs from scan's, so
 * uploading a diff never closes the scan's alerts.
 */
import type * as Sarif from 'sarif'

import type {Change} from '../diff/diff-types.js'
import {escapeControl} from '../util/escape.js'
import {type DiffReportInput, diffVerdict} from './diff-input.js'
import type {ReportInput, ReportRule} from './input.js'
import {createLocator, type LocationSource} from './locate.js'
import type {Finding} from '../types/report-types.js'
import {buildSarif, FINGERPRINT_KEY, SARIF_LEVEL, SECURITY_SEVERITY} from './sarif.js'
import {serverHost} from './summary.js'

const DRIFT_KINDS: Record<Change['kind'], string> = {
  'project': 'a project was added, removed or renamed',
  'role': 'a role gained or lost privileges, or was added, removed or renamed',
  'branch-protection': 'what a branch protection allows on a checked branch changed, for some class of users',
  'tag-protection': 'what a tag protection allows on a checked tag changed, for some class of users',
  'job-secret': 'a job secret was added or removed, or its authorization reaches more or fewer builds',
  'web-hook': 'a web hook was added or removed, pointed elsewhere, or lost its secret',
  'notification': 'a channel notification was added or removed, or pointed elsewhere',
}

function driftRule(kind: Change['kind']): ReportRule {
  const what = DRIFT_KINDS[kind]
  return {
    meta: {
      id: `drift/${kind}`,
      shortDescription: `Since the last audit, ${what}`,
      fullDescription: `onedev-audit diff compares two states of the server by what the settings mean. A result of this rule says that ${what}; it is a failure only when the change weakens security (its severity is that of the rule it touches).`,
      defaultSeverity: 'medium',
      help: `Review the change in OneDev. The result's message says what changed, from what to what; \`onedev-audit diff --format json\` has every detail.`,
      tags: ['drift'],
      scope: kind === 'role' ? 'role' : 'project',
    },
    severity: 'medium',
    enabled: true,
  }
}

const STATE: Record<Change['change'], Sarif.Result.baselineState> = {added: 'new', removed: 'absent', renamed: 'updated', changed: 'updated'}

function findingsInput(input: DiffReportInput, findings: Finding[], locations: LocationSource | undefined, rules: ReportRule[]): ReportInput {
  return {
    tool: input.tool,
    source: {kind: 'server', server: input.new.server},
    generatedAt: input.generatedAt,
    findings,
    suppressed: [],
    errors: [],
    notices: [],
    rules,
    counts: {projects: 0, roles: 0},
    ...(locations ? {locations} : {}),
  }
}

export function buildDiffSarif(input: DiffReportInput): {log: Sarif.Log; warnings: string[]} {
  const {result} = input
  const kinds = [...new Set(result.changes.map((c) => c.kind))].sort()
  const rules = [...input.rules, ...kinds.map(driftRule)]
  // The findings' results exactly as scan writes them (rules, levels, locations, fingerprints).
  const current = buildSarif(findingsInput(input, [...result.findings.new, ...result.findings.unchanged], input.locations.new, rules))
  const fixed = buildSarif(findingsInput(input, result.findings.fixed, input.locations.old, rules))
  const run = current.log.runs[0]!
  const newPrints = new Set(result.findings.new.map((f) => f.fingerprint))
  const results: Sarif.Result[] = run.results!.map((r) => ({...r, baselineState: newPrints.has(r.partialFingerprints![FINGERPRINT_KEY]!) ? 'new' : 'unchanged'}))
  for (const r of fixed.log.runs[0]!.results!) results.push({...r, kind: 'pass', level: 'none', baselineState: 'absent'})

  const ruleIndex = new Map(rules.map((rule, index) => [rule.meta.id, index]))
  const locateNew = createLocator(input.locations.new)
  const locateOld = createLocator(input.locations.old)
  for (const change of result.changes) {
    const locate = change.change === 'removed' ? locateOld : locateNew
    const location = locate({ruleId: '', severity: 'info', message: '', project: change.project, role: change.role, subject: change.subject, pointer: '', fingerprint: ''})
    const weakened = change.classification === 'weakened' && change.severity !== undefined
    const properties: Sarif.PropertyBag = {classification: change.classification, aspect: escapeControl(change.aspect), subject: escapeControl(change.subject)}
    if (change.ruleId) properties.touchedRule = change.ruleId
    if (weakened) {
      properties.severity = change.severity
      const securitySeverity = SECURITY_SEVERITY[change.severity!]
      if (securitySeverity !== undefined) properties['security-severity'] = securitySeverity
    }
    const context = change.project ? ` (project ${change.project.path})` : change.role ? ` (role ${change.role.name})` : ''
    results.push({
      ruleId: `drift/${change.kind}`,
      ruleIndex: ruleIndex.get(`drift/${change.kind}`)!,
      kind: weakened ? 'fail' : 'informational',
      level: weakened ? SARIF_LEVEL[change.severity!] : 'none',
      message: {text: escapeControl(`${change.message}${context}`)},
      locations: [
        {
          physicalLocation: {artifactLocation: {uri: location.uri, uriBaseId: '%SRCROOT%'}, region: {startLine: location.line}},
          logicalLocations: [{fullyQualifiedName: escapeControl(location.fullyQualifiedName), kind: 'object'}],
        },
      ],
      partialFingerprints: {primaryLocationLineHash: change.id, [FINGERPRINT_KEY]: change.id},
      baselineState: STATE[change.change],
      properties,
    })
  }
  run.results = results
  const host = serverHost({kind: 'server', server: input.new.server}) ?? serverHost({kind: 'server', server: input.old.server}) ?? 'snapshot'
  run.automationDetails = {id: input.category ?? `onedev-audit-diff/${host}/`}
  const verdict = diffVerdict(result, 'below')
  const notifications: Sarif.Notification[] = [
    // An incomplete comparison says so first, where GitHub shows the run's problems.
    ...(verdict.lead !== null ? [{level: 'error' as const, message: {text: verdict.text}, properties: {kind: 'incomplete'}}] : []),
    ...result.errors.map((error): Sarif.Notification => ({level: 'error', message: {text: escapeControl(`${error.side.toUpperCase()}: ${error.path ?? error.project?.path ?? ''}${error.path ?? error.project ? ': ' : ''}${error.message}`)}, properties: {kind: error.kind}})),
    ...result.notices.map((notice): Sarif.Notification => ({level: 'warning', message: {text: escapeControl(notice.message)}, properties: {kind: notice.kind}})),
    ...(run.invocations?.[0]?.toolExecutionNotifications ?? []),
  ]
  run.invocations = [{executionSuccessful: result.errors.length === 0, endTimeUtc: input.generatedAt, toolExecutionNotifications: notifications}]
  return {log: current.log, warnings: [...current.warnings, ...fixed.warnings]}
}

export function formatDiffSarif(input: DiffReportInput): {text: string; warnings: string[]} {
  const {log, warnings} = buildDiffSarif(input)
  return {text: `${JSON.stringify(log, null, 2)}\n`, warnings}
}
