/**
 * `diff` plumbing: reads OLD (and NEW, or collects it from the server), compares them, writes the
 * report and returns the exit code. The comparison itself is src/diff/ (pure); the formats are
 * src/report/diff-*.ts.
 */
import {stat} from 'node:fs/promises'
import {resolve} from 'node:path'

import {diffModels, type DiffResult} from '../diff/diff.js'
import type {Side} from '../diff/diff-types.js'
import {unmatchedPatternNotices} from '../engine/coverage.js'
import type {Severity} from '../engine/rule.js'
import type {AuditError, AuditModel} from '../model/types.js'
import {loadDiffReport} from '../report/diff-format.js'
import type {DiffFormat} from '../report/input.js'
import {locationSourceFromModel} from '../report/locate.js'
import {escapeControl} from '../util/escape.js'
import {writeChunksTo, writeFileAtomic} from '../util/fs.js'
import {type Prepared, stopwatch} from './audit.js'
import {auditErrorOf, describeAuditError, EXIT, isAtOrAbove, UsageError, writeOrSay} from './errors.js'
import type {FailOn} from './flags.js'
import {readSnapshot} from './sources.js'

export interface DiffSide {
  model: AuditModel
  side: Side
}

/** A snapshot as one side; a snapshot that cannot be read is one line naming the side and the file. */
export async function readSide(label: 'OLD' | 'NEW', path: string, prepared: Prepared): Promise<DiffSide> {
  try {
    const {model} = await readSnapshot(path, prepared)
    return {model, side: sideOf(model, path)}
  } catch (error) {
    const known = auditErrorOf(error)
    if (!known) throw error
    // The loader names files by their resolved path, or (in a folder) relative to it.
    const text = known.message.startsWith(resolve(path)) ? path + known.message.slice(resolve(path).length) : known.message
    const folder = (await stat(path).catch(() => null))?.isDirectory() === true
    const message = folder || !text.startsWith(path) ? `${path}: ${text}` : text
    throw new UsageError(`${label} snapshot ${message}`)
  }
}

export function sideOf(model: AuditModel, snapshot?: string): Side {
  return {
    server: model.server,
    ...(snapshot === undefined ? {} : {snapshot}),
    ...(model.collectedAt ? {collectedAt: model.collectedAt} : {}),
    projects: model.projects.filter((p) => p.setting !== null).length,
    roles: model.roles.length,
  }
}

export interface DiffRequest {
  format: DiffFormat
  output?: string
  failOn: FailOn
  category?: string
  version: string
  color: boolean
  say: (line: string) => void
  debug?: (line: string) => void
}

/** 2 when either side is incomplete; else 1 when a weakening (or new finding) is at or above the threshold; else 0. */
export function diffExitCode(result: DiffResult, failOn: FailOn): number {
  if (result.errors.length > 0) return EXIT.incomplete
  const severities: Severity[] = [
    ...result.changes.filter((c) => c.classification === 'weakened').map((c) => c.severity ?? 'info'),
    ...result.findings.new.map((f) => f.severity),
  ]
  return severities.some((s) => isAtOrAbove(s, failOn)) ? EXIT.findings : EXIT.ok
}

export async function diffAndReport(prepared: Prepared, before: DiffSide, after: DiffSide, request: DiffRequest): Promise<number> {
  const timer = stopwatch(request.debug)
  // The scopes scan evaluates.
  const scopes = ['project', 'role', 'server']
  const result = diffModels({
    before: before.model,
    after: after.model,
    rules: prepared.ruleSet.active.filter((a) => scopes.includes(a.rule.meta.scope)),
    settings: prepared.settings,
    suppressions: prepared.loaded.config.suppressions ?? [],
    ruleSeverities: new Map(prepared.ruleSet.listing.map((r) => [r.meta.id, {severity: r.severity, enabled: r.enabled}])),
    today: new Date().toISOString().slice(0, 10),
  })
  // A --branch or --tag pattern (or the configuration's) that matched nothing on either side is said, as scan says it.
  result.notices.push(...unmatchedPatternNotices([before.model, after.model], prepared.settings, prepared.origins).map(({kind, message}) => ({kind, message})))
  timer(`compared: ${result.changes.length} changes, ${result.findings.new.length} new and ${result.findings.fixed.length} fixed findings`)
  const report = await loadDiffReport(request.format, {
    tool: {name: 'onedev-audit', version: request.version},
    generatedAt: new Date().toISOString(),
    old: before.side,
    new: after.side,
    result,
    rules: prepared.ruleSet.listing.filter((r) => scopes.includes(r.meta.scope)),
    locations: {old: locationSourceFromModel(before.model), new: locationSourceFromModel(after.model)},
    ...(request.category ? {category: request.category} : {}),
    color: request.color,
  })
  timer(`formatted the ${request.format} report`)
  const toTerminal = request.output === undefined
  // Waits until standard output took it all: the command may exit right after (a pipe would lose the rest).
  let written = true
  if (toTerminal) await writeChunksTo(process.stdout, [report.text])
  else written = await writeOrSay('--output', () => writeFileAtomic(request.output!, report.text), request.say)
  if (!(toTerminal && request.format === 'stylish')) {
    for (const error of result.errors) request.say(`onedev-audit: error: ${error.side.toUpperCase()}: ${describeAuditError(error as AuditError)}`)
  }
  for (const warning of [...result.notices.map((n) => n.message), ...report.warnings]) request.say(`onedev-audit: warning: ${escapeControl(warning)}`)
  if (!toTerminal && written) {
    const weakened = result.changes.filter((c) => c.classification === 'weakened').length + result.findings.new.length
    request.say(`onedev-audit: wrote ${request.format} diff to ${request.output}: ${result.changes.length} change${result.changes.length === 1 ? '' : 's'}, ${weakened} weakened`)
  }
  return written ? diffExitCode(result, request.failOn) : EXIT.incomplete
}
