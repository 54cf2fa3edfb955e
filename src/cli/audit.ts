/**
 * The part every auditing command shares once it has something to evaluate: configuration and
 * rules, evaluation, suppressions and baseline, the report, and the exit code.
 */
import {access, constants, stat} from 'node:fs/promises'
import {dirname, resolve} from 'node:path'

import {ConfigError, type LoadedConfig, loadConfig, refPatternError, resolveSettings} from '../engine/config.js'
import {anyControlFails, chosenFrameworks, emptyComplianceDetail, judgeAudit} from '../engine/compliance.js'
import {coverageOf, type PatternOrigins} from '../engine/coverage.js'
import {type ActiveRule, evaluate} from '../engine/evaluate.js'
import {ArrivalEvaluator} from '../engine/evaluator.js'
import {loadAllRules, resolveRuleSet, type RuleSet} from '../engine/registry.js'
import type {AuditSettings, RuleScope} from '../engine/rule.js'
import {applyBaseline, applySuppressions, writeBaseline} from '../engine/suppress.js'
import type {IssueSetting} from '../model/issue-setting.js'
import type {AuditModel} from '../model/types.js'
import {complianceLine} from '../report/compliance.js'
import {loadReportChunks, locationSourceFromModel, type ReportInput, type ScanFormat} from '../report/index.js'
import {type FindingLocation, locateFindings} from '../report/locate.js'
import type {PrettyJsonLines} from '../report/pretty-lines.js'
import {noticeLine, shownNotices} from '../report/notices.js'
import {verdictText} from '../report/summary.js'
import type {Finding, Source} from '../types/report-types.js'
import {escapeControl} from '../util/escape.js'
import {writeChunksAtomic, writeChunksTo} from '../util/fs.js'
import {createLane} from '../util/lane.js'
import {type AttestRequest, writeAttestation} from './attest.js'
import {builtinFrameworks} from './frameworks.js'
import {collapseErrors, EXIT, errorLines, exitCodeFor, UsageError, writeOrSay} from './errors.js'
import type {FailOn} from './flags.js'

export interface Prepared {
  loaded: LoadedConfig
  ruleSet: RuleSet
  settings: AuditSettings
  /** Where the branch and tag patterns of `settings` came from, for the notice naming those that matched nothing. */
  origins?: PatternOrigins
}

/** Reads the configuration and resolves every rule (built-in and plugins) before any request is made. */
export async function prepare(configPath: string | undefined, refs: {branches?: string[]; tags?: string[]} = {}): Promise<Prepared> {
  // A --branch or --tag value no name can match is refused before anything is read.
  for (const [values, flag, kind] of [[refs.branches, '--branch', 'branch'], [refs.tags, '--tag', 'tag']] as const) {
    for (const pattern of values ?? []) {
      const refused = refPatternError(flag, pattern, kind)
      if (refused !== null) throw new UsageError(refused)
    }
  }
  const loaded = await loadConfig(configPath)
  const {builtinRules} = await import('../../rules/index.js')
  const ruleSet = await resolveRuleSet(await loadAllRules(loaded, builtinRules), loaded)
  const origins = {branches: refs.branches?.length ? '--branch' : `${loaded.label}: branches`, tags: refs.tags?.length ? '--tag' : `${loaded.label}: tags`}
  return {loaded, ruleSet, settings: resolveSettings(loaded.config, refs), origins}
}

/** Fails early, before any request, when the report could not be written. */
export async function checkWritable(output: string | undefined, flag = '--output'): Promise<void> {
  if (output === undefined) return
  if ((await stat(output).catch(() => null))?.isDirectory()) throw new UsageError(`${flag} ${output}: is a directory; give a file name`)
  const dir = dirname(resolve(output))
  try {
    await access(dir, constants.W_OK)
  } catch (error) {
    throw new UsageError(`${flag} ${output}: cannot write there (${(error as NodeJS.ErrnoException).code ?? 'not writable'})`)
  }
}

export interface ReportRequest {
  format: ScanFormat
  output?: string
  failOn: FailOn
  category?: string
  /** Fingerprints of the baseline (read before anything is collected). */
  baseline?: Set<string>
  updateBaseline?: string
  version: string
  source: Source
  /** The rule scopes this command evaluates; only those rules are listed in the report. */
  scopes: RuleScope[]
  model: AuditModel
  issueSetting?: {setting: IssueSetting; file: string; text: string}
  /** Color for stylish output on a terminal. */
  color: boolean
  /** List every notice (stylish, markdown, stderr) instead of grouping the not-evaluated ones (src/report/notices.ts). */
  verbose?: boolean
  /** stderr, one line at a time. */
  say: (line: string) => void
  /** --debug lines (timings), on stderr. */
  debug?: (line: string) => void
  /** Projects judged as they were collected (judgeOnArrival): finished here instead of evaluating the model. */
  arrival?: Arrival
  /** Judge compliance controls (scan): the --framework keys shown (empty: every framework), and --fail-on-control. */
  compliance?: {frameworks: readonly string[]; failOnControl: boolean}
  /** checkstyle: the snapshot folder as the report's file names start (ReportInput.snapshotRoot). */
  snapshotRoot?: string
  /** ISO date-time: when the command began (ReportInput.startedAt). */
  startedAt?: string
  /** --attest: sign the run's result over the report file (src/cli/attest.ts), once it is written. */
  attest?: Pick<AttestRequest, 'file' | 'key' | 'configuration'>
}

/** An evaluator fed by the collection, and the report locations of what it judged before dropping the payloads. */
export interface Arrival {
  evaluator: ArrivalEvaluator
  located: Map<Finding, FindingLocation>
}

export function activeRules(prepared: Prepared, scopes: RuleScope[]): ActiveRule[] {
  return prepared.ruleSet.active.filter((a) => scopes.includes(a.rule.meta.scope))
}

/**
 * For a live audit: projects judged as they arrive, each raw payload dropped once the findings
 * pointing into it are located (src/engine/evaluator.ts). undefined when a plugin rule judges
 * projects: a plugin may read anything of the model, which is whole only at the end.
 */
export function judgeOnArrival(prepared: Prepared, scopes: RuleScope[]): Arrival | undefined {
  const plugins = prepared.ruleSet.listing.some((r) => r.origin !== 'builtin' && r.meta.scope === 'project' && scopes.includes('project'))
  // The bench (bench/run.mjs --arrival) measures the whole-model evaluation beside this one.
  if (plugins || process.env.ONEDEV_AUDIT_WHOLE_MODEL === '1') return undefined
  const located = new Map<Finding, FindingLocation>()
  // An ancestor's line table serves every descendant judged while its payload is held.
  const lineTables = new WeakMap<object, PrettyJsonLines>()
  const evaluator = new ArrivalEvaluator({
    rules: activeRules(prepared, scopes),
    settings: prepared.settings,
    // Projects are judged between reads, one at a time, and the collection ingests on the same lane.
    lane: createLane(),
    onJudged: (findings, projectRaw) => {
      // Findings in the server data document are located at the end: the document is not whole yet.
      const inProjects = findings.filter((f) => f.document === undefined && f.file === undefined)
      for (const [finding, location] of locateFindings(inProjects, {projectRaw, projectPath: () => undefined, rolesRaw: undefined, lineTables})) located.set(finding, location)
    },
  })
  return {evaluator, located}
}

/**
 * Logs the time since the previous lap, when --debug is on. (process.hrtime, not the global
 * `performance`: that loads Node's perf_hooks, about 3 ms of a small scan's start on Node 20.)
 */
export function stopwatch(debug?: (line: string) => void): (what: string) => void {
  let last = process.hrtime.bigint()
  return (what) => {
    const now = process.hrtime.bigint()
    debug?.(`${what} in ${Math.round(Number(now - last) / 1e6)}ms`)
    last = now
  }
}

export function emptyModel(server: AuditModel['server'] = null): AuditModel {
  return {server, projects: [], projectsById: new Map(), roles: [], rolesRaw: [], errors: []}
}

/** Evaluates, filters, writes the report, and returns the exit code. */
export async function evaluateAndReport(prepared: Prepared, request: ReportRequest): Promise<number> {
  const {model} = request
  const timer = stopwatch(request.debug)
  const active = activeRules(prepared, request.scopes)
  const issueSetting = request.issueSetting ? {setting: request.issueSetting.setting, file: request.issueSetting.file} : undefined
  const evaluation = request.arrival ? request.arrival.evaluator.finish(model, issueSetting) : evaluate(model, active, prepared.settings, issueSetting)
  if (request.arrival) request.debug?.(`judged ${request.arrival.evaluator.judgedOnArrival} projects on arrival, released ${request.arrival.evaluator.released} payloads`)
  timer(`evaluated ${active.length} rules: ${evaluation.findings.length} findings`)
  const today = new Date().toISOString().slice(0, 10)
  let filtered = applySuppressions(evaluation.findings, prepared.loaded.config.suppressions ?? [], today)
  if (request.baseline) filtered = applyBaseline(filtered, request.baseline)
  const errors = [...model.errors, ...evaluation.errors]
  const coverage = request.scopes.includes('project') ? coverageOf(model, prepared.settings, prepared.origins) : {uninitialized: [], notices: []}
  const notices = [...coverage.notices, ...filtered.notices]

  // What fails each control and why rules were not judged: only JUnit's cases and OSCAL's evidence show them.
  const complianceDetail = request.format === 'junit' || request.format === 'oscal' || request.attest ? emptyComplianceDetail() : undefined
  const compliance = request.compliance
    ? judgeAudit(
        chosenFrameworks(await builtinFrameworks(), request.compliance.frameworks),
        {
          model,
          settings: prepared.settings,
          rules: prepared.ruleSet.listing.filter((r) => request.scopes.includes(r.meta.scope)),
          findings: filtered.findings,
          suppressed: filtered.suppressed,
          errors,
        },
        complianceDetail,
      )
    : undefined

  const locations = locationSourceFromModel(model)
  if (request.arrival) locations.located = request.arrival.located
  if (request.issueSetting) locations.file = {path: request.issueSetting.file, text: request.issueSetting.text}
  const input: ReportInput = {
    tool: {name: 'onedev-audit', version: request.version},
    source: request.source,
    generatedAt: new Date().toISOString(),
    ...(request.startedAt === undefined ? {} : {startedAt: request.startedAt}),
    findings: filtered.findings,
    suppressed: filtered.suppressed,
    // People read stylish and markdown: a failure every request shared is one line with its count
    // there (as on stderr); JSON and SARIF keep one entry per failure, with its project and path.
    errors: request.format === 'json' || request.format === 'sarif' ? errors : collapseErrors(errors),
    errorCount: errors.length,
    notices,
    uninitialized: coverage.uninitialized,
    rules: prepared.ruleSet.listing.filter((r) => request.scopes.includes(r.meta.scope)),
    // A project whose setting could not be read was not audited: its error says so.
    counts: {projects: model.projects.filter((p) => p.setting !== null).length, roles: model.roles.length, notRead: model.projects.filter((p) => p.setting === null).length},
    locations,
    ...(request.category ? {category: request.category} : {}),
    color: request.color,
    verbose: request.verbose === true,
    ...(compliance ? {compliance} : {}),
    ...(compliance && complianceDetail ? {complianceDetail} : {}),
    ...(request.snapshotRoot === undefined ? {} : {snapshotRoot: request.snapshotRoot}),
  }
  // Written as it is formatted: a large report is never one string in memory.
  const report = await loadReportChunks(request.format, input)
  const toTerminal = request.output === undefined
  // A report file that cannot be written (a full disk) is one line; the summary below still follows.
  let unwritten = false
  if (toTerminal) await writeChunksTo(process.stdout, report.chunks)
  else unwritten = !(await writeOrSay('--output', () => writeChunksAtomic(request.output!, report.chunks), request.say))
  timer(`formatted and wrote the ${request.format} report`)

  // What the report says about problems, also on stderr unless a stylish report already showed it there.
  const shownInline = toTerminal && request.format === 'stylish'
  if (!shownInline) {
    for (const line of errorLines(errors)) request.say(line)
    for (const notice of shownNotices(notices, request.verbose === true)) request.say(`onedev-audit: ${notice.kind}: ${escapeControl(noticeLine(notice))}`)
  }
  for (const warning of report.warnings) request.say(`onedev-audit: warning: ${escapeControl(warning)}`)
  if (!toTerminal) {
    const counts = filtered.findings.length
    // An incomplete audit says so first, with what it judged, never a bare count of findings.
    const said = errors.length > 0 ? verdictText(input, 'above') : `${counts} finding${counts === 1 ? '' : 's'}, 0 errors`
    if (!unwritten) request.say(`onedev-audit: wrote ${request.format} report to ${request.output}: ${said}`)
    for (const framework of compliance ?? []) request.say(`onedev-audit: ${complianceLine(framework)}`)
  }
  if (request.updateBaseline) {
    const baselined = filtered.suppressed.filter((s) => s.reason.kind === 'baseline').map((s) => s.finding)
    const found = [...filtered.findings, ...baselined]
    // An incomplete audit drops no entry of the baseline there: what it could not judge may still be on
    // the server (a failed night would otherwise empty the baseline, and the next one report everything as new).
    try {
      const kept = await writeBaseline(request.updateBaseline, found, errors.length > 0)
      const keptNote = kept > 0 ? `, and ${kept} kept from the baseline there: the audit is incomplete, so what it could not judge stays known` : ''
      request.say(`onedev-audit: wrote baseline ${request.updateBaseline} (${found.length} findings${keptNote})`)
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      request.say(`onedev-audit: error: --update-baseline not written: the audit is incomplete, and the baseline there cannot be kept: ${error.message}`)
    }
  }
  // A baseline just written holds every finding: none is new against it.
  const unknown = request.updateBaseline ? [] : filtered.findings
  const code = exitCodeFor(unknown, request.failOn, errors.length === 0 && !unwritten, request.compliance?.failOnControl === true && anyControlFails(compliance ?? []))
  if (!request.attest || toTerminal) return code
  if (unwritten) {
    request.say(`onedev-audit: error: --attest ${escapeControl(request.attest.file)} not written: the report it signs was not written`)
    return code
  }
  const attested = await writeAttestation({...request.attest, reports: [request.output!], input, run: {exitCode: code, failOn: request.failOn}, say: request.say})
  timer('hashed the report and signed the attestation')
  return attested ? code : EXIT.incomplete
}
