/**
 * `fix` from the command line: make a plan (from the server or a snapshot), read a plan or undo
 * record, apply one with an undo record written as it goes, Ctrl-C (SIGTERM, SIGHUP) handled between projects.
 */
import {lstat} from 'node:fs/promises'

import {type ApiClient, ApiError} from '../api/types.js'
import type {Finding} from '../engine/rule.js'
import {applySuppressions} from '../engine/suppress.js'
import {applyProjects, type Outcome, type ProjectToApply} from '../fix/apply.js'
import {ContextJudge} from '../fix/context-judge.js'
import {FixFileError, planDocument, readFixFile, serverMismatch, undoDocument, writeFixFile} from '../fix/files.js'
import {childrenOf, reachedBy} from '../fix/judge.js'
import type {PlannedEdit} from '../fix/patch.js'
import {type FixSelection, planFixes} from '../fix/plan.js'
import type {FixPlan} from '../fix/plan-types.js'
import {fieldLine, type ManualListing, manualChangeLines, outcomeLines, planLines} from '../fix/print.js'
import {RecordSealer, type SealVerdict, type UndoKey, verdictOf} from '../fix/seal.js'
import type {AppliedEdit, AppliedProject} from '../fix/undo.js'
import type {FixUndo} from '../fix/undo-types.js'
import type {AuditError, AuditModel} from '../model/types.js'
import type {Source} from '../types/report-types.js'
import {incompleteLead, plural} from '../report/summary.js'
import {escapeControl} from '../util/escape.js'
import {FileWriteError, writeChunksTo} from '../util/fs.js'
import {checkWritable, type Prepared, prepare, stopwatch} from './audit.js'
import {errorLines, EXIT, UsageError} from './errors.js'
import {connect, parseBaseUrl, type ServerFlags} from './server.js'
import {readSnapshot} from './sources.js'
import {undoKey} from './undo-key.js'

export interface FixIo {
  out: (line: string) => void
  say: (line: string) => void
  debug: (line: string) => void
}

const two = (n: number) => String(n).padStart(2, '0')

/** `onedev-audit-undo-YYYYMMDD-HHMMSS.json` (UTC), in the working directory. */
export function defaultUndoPath(now: Date): string {
  const date = `${now.getUTCFullYear()}${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`
  return `onedev-audit-undo-${date}-${two(now.getUTCHours())}${two(now.getUTCMinutes())}${two(now.getUTCSeconds())}.json`
}

const present = (path: string) => lstat(path).then(
  () => true,
  () => false,
)

const undoExists = (path: string) => new UsageError(`--undo-output ${path}: the file exists, and an undo record is never overwritten: choose another name`)

/**
 * Where --apply writes its undo record: never over a file that exists (it may be the record of an
 * earlier run, or the one being undone). A given name that exists is refused; the default name takes
 * `-2`, `-3`, ... when a record of the same second is there. The record is then created without
 * replacing anything (UndoWriter.create), so a file that appears meanwhile is refused too.
 */
export async function undoOutputPath(given: string | undefined, now: Date): Promise<string> {
  if (given !== undefined) {
    if (await present(given)) throw undoExists(given)
    return given
  }
  const name = defaultUndoPath(now)
  let candidate = name
  for (let n = 2; await present(candidate); n++) candidate = name.replace(/\.json$/, `-${n}.json`)
  return candidate
}

/** Whether the configuration accepts a finding (a suppression that has not expired today). */
function suppressedBy(prepared: Prepared): (finding: Finding) => boolean {
  const today = new Date().toISOString().slice(0, 10)
  const suppressions = prepared.loaded.config.suppressions ?? []
  return (finding) => suppressions.length > 0 && applySuppressions([finding], suppressions, today).findings.length === 0
}

/** The plan of a model: proven by every active rule, suppressed findings left alone. */
export function makePlan(model: AuditModel, source: Source, prepared: Prepared, selection: FixSelection, version: string): {plan: FixPlan; errors: AuditError[]} {
  const proposed = planFixes(model, {rules: prepared.ruleSet.active, settings: prepared.settings, selection, suppressed: suppressedBy(prepared)})
  const plan = planDocument(proposed, {
    tool: {name: 'onedev-audit', version},
    // The plan file's server is where it applies: its URL and prefix (the version is not part of it).
    server: model.server ? {url: model.server.url, apiPrefix: model.server.apiPrefix} : null,
    createdAt: new Date().toISOString(),
    source: source.kind === 'snapshot' ? {kind: 'snapshot', snapshot: source.snapshot ?? '', ...(source.collectedAt ? {collectedAt: source.collectedAt} : {})} : {kind: 'server'},
    selection,
  })
  return {plan, errors: [...model.errors, ...proposed.errors]}
}

/** The plan on stdout, written as it is formatted (a large server's plan is many thousand lines). */
export async function printPlan(plan: FixPlan, listing: ManualListing): Promise<void> {
  await writeChunksTo(process.stdout, withNewlines(planLines(plan, listing)))
}

function* withNewlines(lines: Iterable<string>): Generator<string, void, undefined> {
  for (const line of lines) yield `${line}\n`
}

export function printErrors(errors: readonly AuditError[], io: FixIo): void {
  for (const line of errorLines(errors)) io.say(line)
}

/** What an apply run works from: the projects to change, in order, and how to judge them. */
export interface ApplySource {
  kind: 'plan' | 'undo'
  /** The file it came from; null when planned in this run. */
  file: string | null
  server: {url: string; apiPrefix: string} | null
  projects: ProjectToApply[]
  /** The plan, to judge findings and to print manual steps; absent for an undo record. */
  plan?: FixPlan
  /** The undo record, to judge what it restores; absent for a plan. */
  undo?: FixUndo
  /** What the undo record's seal says with this run's key (an undo record only). */
  seal?: SealVerdict
}

const judging = (prepared: Prepared) => ({rules: prepared.ruleSet.active, settings: prepared.settings})

/**
 * The projects an undo record changed and those the changes were judged on, collected live (settings,
 * repositories, ancestors; nothing server-wide beyond the roles): what its restores are judged on.
 * A record not sealed by this user's key (`trusted` false) may have had its `judged` lists shortened
 * to keep a project below from being judged: then every project below the record's projects, as the
 * server's project listing has them now, is judged instead.
 */
async function undoModel(undo: FixUndo, trusted: boolean, flags: ServerFlags, apiPrefix: string, prepared: Prepared, io: FixIo): Promise<AuditModel> {
  const changed = undo.projects.map((p) => p.id)
  const below = trusted ? undo.projects.flatMap((p) => p.judged ?? []) : await liveDescendants(changed, {...flags, 'api-prefix': apiPrefix}, io)
  const ids = [...new Set([...changed, ...below])].sort((a, b) => a - b)
  const {collectFromServer} = await import('./collect-source.js')
  const {model} = await collectFromServer({...flags, 'api-prefix': apiPrefix, project: ids, 'all-projects': false, concurrency: 8}, prepared, {debug: io.debug, say: io.say}, {sources: false})
  return model
}

/** Every project below `ids` in the server's project tree now (GET /projects, paged); a listing that cannot be read whole is an error: nothing is sent. */
async function liveDescendants(ids: readonly number[], flags: ServerFlags, io: FixIo): Promise<number[]> {
  const {client} = await connect(flags, io.debug, io.say)
  try {
    const {listProjects} = await import('../api/issues.js')
    const {projects, errors} = await listProjects(client)
    if (errors.length > 0) throw new ApiError({...errors[0]!, message: `the project listing, which says which projects inherit what the undo restores, could not be read whole (${errors[0]!.message}): nothing was sent`})
    const children = childrenOf(projects)
    return ids.flatMap((id) => reachedBy(id, children, () => true))
  } finally {
    await client.close()
  }
}

/** What the seal of an undo record means for this run, in one line for stderr. */
export function sealLine(file: string, verdict: SealVerdict): string {
  if (verdict.trusted) return `onedev-audit: ${escapeControl(file)} is sealed by this user's undo key (${verdict.keyId}): its restores are judged as those of a record this tool wrote`
  return `onedev-audit: ${escapeControl(file)} ${verdict.why}: --apply sends only its restores that bring back no finding and weaken nothing, and lists the others by hand`
}

export async function readPlanFile(path: string): Promise<ApplySource> {
  const plan = await readFixFile(path, 'plan')
  return {kind: 'plan', file: path, server: plan.server, projects: projectsOfPlan(plan), plan}
}

/** A plan's projects to apply: each change of its file is an approval, held against what the tool plans again when it is applied. */
export function projectsOfPlan(plan: FixPlan): ProjectToApply[] {
  return plan.projects.map((p) => ({id: p.id, path: p.path, edits: p.changes.flatMap((c) => c.edits) as PlannedEdit[], changes: p.changes}))
}

export async function readUndoFile(path: string): Promise<ApplySource & {undo: FixUndo}> {
  const undo = await readFixFile(path, 'undo')
  return {kind: 'undo', file: path, server: undo.server, projects: undo.projects.map((p) => ({id: p.id, path: p.path, edits: p.restore as PlannedEdit[], applied: p.applied as AppliedEdit[]})), undo}
}

/**
 * The undo record on disk, rewritten whole before each project's POST (with that project in state
 * `unknown`), as each project is settled (its outcome's record in its place, or none) and at the end,
 * through a temporary file and a rename: a run killed at any moment, SIGKILL during a POST included,
 * leaves a whole record naming every change that may be on the server. The text and the canonical
 * form of each project's record are made once (a record never changes once made: a settled project
 * is a new object in the pending one's place), so a rewrite costs copying and hashing the bytes, not
 * serializing every project again: 1,000 changed projects, 5.3 s of CPU for the whole apply instead
 * of 8.8 s.
 */
class UndoWriter {
  private readonly projects: AppliedProject[] = []
  /** The project being sent, not settled yet. */
  private pending: AppliedProject | null = null
  /** Seals every version of the record written, at the cost of what is new in it. */
  private readonly sealer: RecordSealer
  /** The text of each project's record in the file, made as it is first written (writeFixFile). */
  private readonly texts = new WeakMap<object, string>()

  constructor(
    private readonly path: string,
    private readonly meta: Parameters<typeof undoDocument>[0],
    key: UndoKey,
  ) {
    this.sealer = new RecordSealer(key)
  }

  /** The empty record, written where nothing is: refused (nothing sent yet) when a file is there. */
  async create(): Promise<void> {
    try {
      await writeFixFile(this.path, this.sealer.seal(undoDocument(this.meta, this.projects, false)), true)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw undoExists(this.path)
      throw error
    }
  }

  /** Before a project's POST; when the record cannot be written, the project is not pending (it is not sent). */
  async sending(project: AppliedProject): Promise<void> {
    this.pending = project
    try {
      await this.write(false)
    } catch (error) {
      this.pending = null
      throw error
    }
  }

  /** A project settled: its record (applied, or in an unknown state), or none (nothing changed). */
  async settle(project: AppliedProject | undefined): Promise<void> {
    const wasPending = this.pending !== null
    this.pending = null
    if (project) this.projects.push(project)
    if (project || wasPending) await this.write(false)
  }

  /** Whole unless a project is still pending (the run ended in the middle of one). */
  async write(complete: boolean): Promise<void> {
    const projects = this.pending ? [...this.projects, this.pending] : this.projects
    await writeFixFile(this.path, this.sealer.seal(undoDocument(this.meta, projects, complete && this.pending === null)), false, this.texts)
  }
}

/** The signals that end a run: Ctrl-C, `kill` (and service managers), a closed terminal. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Ctrl-C (or SIGTERM, SIGHUP) while applying: the project in flight is finished (or rolled back),
 * nothing after it is sent, and the undo record keeps what was applied. Later signals only say that
 * it is finishing (only SIGKILL ends it at once; the record then holds every project settled before).
 */
function interruptible(io: FixIo): {stopRequested: () => boolean; release: () => void} {
  let requested = false
  const onSignal = (signal: NodeJS.Signals) => {
    io.say(
      requested
        ? 'onedev-audit: still finishing the project in flight (its setting may be being written): wait for it'
        : `onedev-audit: interrupted${signal === 'SIGINT' ? '' : ` (${signal})`}: finishing the project in flight (or rolling it back), then stopping; the undo record keeps what was applied`,
    )
    requested = true
  }
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal)
  return {stopRequested: () => requested, release: () => STOP_SIGNALS.forEach((signal) => process.off(signal, onSignal))}
}

export interface ApplyRequest {
  source: ApplySource
  /** Their `deadline` is checked between projects only (deadlineAt), never cutting a project's requests. */
  flags: ServerFlags
  /** When --deadline passes (ms since the epoch, counted from the start of the run): no project is started after it. */
  deadlineAt?: number
  prepared: Prepared
  undoOutput: string
  /** Seals the undo record this run writes. */
  key: UndoKey
  version: string
  io: FixIo
}

/** Applies `source` to the server it names; returns the exit code (0 when every project was applied and verified, no restore was left to a person, and no stop was asked for). */
export async function applyToServer(request: ApplyRequest): Promise<number> {
  const {source, io} = request
  if (source.projects.length === 0) {
    io.say('onedev-audit: nothing to apply')
    return 0
  }
  const url = parseBaseUrl(request.flags.url)
  const label = source.file ?? 'the plan'
  if (source.server === null) throw new FixFileError(serverMismatch(label, null, url, '')!)
  const apiPrefix = request.flags['api-prefix'] ?? source.server.apiPrefix
  const mismatch = serverMismatch(label, source.server, url, apiPrefix)
  if (mismatch) throw new FixFileError(mismatch)

  // A plan is planned again on its context, with this configuration and its own selection; an undo
  // record is judged on the projects it changed and those they reach, collected live first.
  const judge = source.plan
    ? ContextJudge.ofContext(source.plan.context, source.server, {...judging(request.prepared), selection: source.plan.selection, suppressed: suppressedBy(request.prepared)}, source.file === null && source.plan.source.kind === 'server')
    : source.undo
      ? ContextJudge.ofLiveModel(await undoModel(source.undo, source.seal?.trusted === true, request.flags, apiPrefix, request.prepared, io), {...judging(request.prepared), selection: {suggestions: true, rules: []}})
      : undefined
  // No abort signal and no overall deadline on the client: a request in flight is finished, never cut
  // (a POST cut after the server stored it, then its read-back and rollback, would leave the change
  // there unrecorded), so a project is never left half-done. --deadline is checked between projects.
  const {client} = await connect({...request.flags, 'api-prefix': apiPrefix, deadline: undefined}, io.debug, io.say)
  const undo = new UndoWriter(request.undoOutput, {tool: {name: 'onedev-audit', version: request.version}, server: {url, apiPrefix}, appliedAt: new Date().toISOString(), plan: source.file}, request.key)
  try {
    await undo.create()
  } catch (error) {
    await client.close()
    throw error
  }
  io.say(`onedev-audit: writing the undo record to ${request.undoOutput}`)
  const interrupt = interruptible(io)
  let outcomes: Outcome[] = []
  // The undo record could not be written (a full disk): said once, and nothing more is sent.
  let unrecorded: FileWriteError | undefined
  const recordFailed = (error: unknown): void => {
    if (!(error instanceof FileWriteError)) throw error
    if (!unrecorded) io.say(`onedev-audit: error: --undo-output ${escapeControl(error.message)}: nothing more is sent; the record on disk names every change sent before this one`)
    unrecorded ??= error
  }
  try {
    outcomes = await applyProjects(client as ApiClient, source.projects, {
      ...(judge ? {judge} : {}),
      restoring: source.kind === 'undo',
      unsealed: source.kind === 'undo' && source.seal?.trusted !== true,
      stopRequested: () => {
        if (interrupt.stopRequested()) return 'interrupted'
        if (unrecorded) return 'the undo record cannot be written'
        const {deadlineAt} = request
        return deadlineAt !== undefined && Date.now() >= deadlineAt ? `the deadline (--deadline ${request.flags.deadline} s) has passed` : null
      },
      say: io.say,
      onSending: (pending) =>
        undo.sending(pending).catch((error: unknown) => {
          recordFailed(error)
          throw error
        }),
      onOutcome: async (outcome) => {
        io.say(`onedev-audit: ${outcome.status}: ${escapeControl(outcome.path)} (#${outcome.id})`)
        await undo.settle(outcome.undo).catch(recordFailed)
      },
    })
    io.debug(`${client.requestCount} requests`)
  } finally {
    interrupt.release()
    const stoppedEarly = outcomes.length < source.projects.length || outcomes.some((o) => o.status === 'not-sent' || o.status === 'not-offered')
    await undo.write(!stoppedEarly && !outcomes.some((o) => o.undo?.state === 'unknown')).catch(recordFailed)
    await client.close()
  }
  io.out('')
  for (const line of outcomeLines(outcomes)) io.out(line)
  const notSent = outcomes.filter((o) => o.status === 'not-offered' || o.status === 'not-sent')
  if (source.plan && outcomes.some((o) => o.status === 'not-offered')) {
    io.out('')
    io.out('The server does not offer POST /projects/{id}/setting: make these changes by hand:')
    for (const line of manualChangeLines(source.plan, new Set(notSent.map((o) => o.id)))) io.out(line)
  }
  const applied = outcomes.filter((o) => o.status === 'applied').length
  const unknown = outcomes.filter((o) => o.undo?.state === 'unknown').length
  const held = `${applied} project${applied === 1 ? '' : 's'} applied${unknown > 0 ? `, ${unknown} in an unknown state (rollback failed)` : ''}`
  io.say(`onedev-audit: undo record ${request.undoOutput}: ${held}${applied + unknown > 0 ? `; undo with: onedev-audit fix --undo ${request.undoOutput} --apply` : ''}`)
  // A stop asked for is an exit 2 even when it came during the last project and everything was applied.
  // A restore left to a person is an exit 2 too: the undo is not complete.
  return applied === source.projects.length && !outcomes.some((o) => o.byHand) && !interrupt.stopRequested() && !unrecorded ? 0 : 2
}

/** The flags of `fix` (src/commands/fix.ts has checked how they combine). */
export interface FixFlags extends Omit<ServerFlags, 'concurrency'> {
  project?: number[]
  'all-projects'?: boolean
  snapshot?: string
  rule?: string[]
  suggestions?: boolean
  output?: string
  plan?: string
  undo?: string
  apply?: boolean
  'undo-output'?: string
  /** The key file that seals and verifies undo records (else the user's own). */
  'undo-key'?: string
  config?: string
  /** Every step left to a person, one by one (else a digest). */
  verbose?: boolean
}

/** `fix`: plan (from the server or a snapshot), or read a plan or undo record; apply with --apply. Returns the exit code. */
export async function runFix(flags: FixFlags, io: FixIo, version: string): Promise<number> {
  await checkWritable(flags.output)
  const startedAt = Date.now()
  const undoOutput = flags.apply ? await undoOutputPath(flags['undo-output'], new Date(startedAt)) : ''
  if (flags.apply) await checkWritable(undoOutput, '--undo-output')
  // The key that seals the record an apply writes, and verifies the record an undo reads: checked
  // (and made on a first apply) before the configuration is read and before any request.
  const key = flags.apply || flags.undo !== undefined ? await undoKey({...(flags['undo-key'] === undefined ? {} : {file: flags['undo-key']}), create: flags.apply === true, say: io.say}) : null
  const prepared = await prepare(flags.config)
  const known = new Set(prepared.ruleSet.listing.map((r) => r.meta.id))
  const unknown = (flags.rule ?? []).find((id) => !known.has(id))
  if (unknown !== undefined) throw new UsageError(`--rule ${unknown}: no such rule (see onedev-audit rules)`)
  const server: ServerFlags = {...flags, concurrency: 8}
  const listing: ManualListing = flags.verbose ? 'each' : 'digest'
  const deadlineAt = flags.deadline === undefined ? undefined : startedAt + flags.deadline * 1000
  const apply = (source: ApplySource) => applyToServer({source, flags: server, ...(deadlineAt === undefined ? {} : {deadlineAt}), prepared, undoOutput, key: key!, version, io})

  if (flags.undo !== undefined) {
    const source = await readUndoFile(flags.undo)
    source.seal = verdictOf(source.undo, key)
    io.say(sealLine(flags.undo, source.seal))
    for (const project of source.projects) {
      io.out(`${escapeControl(project.path)} (#${project.id}): restore`)
      for (const edit of project.edits) io.out(`  ${fieldLine(edit as Parameters<typeof fieldLine>[0])}`)
    }
    if (!flags.apply) return source.projects.length > 0 ? EXIT.findings : EXIT.ok
    return apply(source)
  }
  if (flags.plan !== undefined) {
    const source = await readPlanFile(flags.plan)
    // Applying: what is sent; the steps left to a person were printed when the plan was made.
    await printPlan(source.plan!, flags.apply ? 'count' : listing)
    if (!flags.apply) return source.projects.length > 0 ? EXIT.findings : EXIT.ok
    return apply(source)
  }

  const timer = stopwatch(io.debug)
  const {model, source} = flags.snapshot
    ? await readSnapshot(flags.snapshot, prepared)
    : await (await import('./collect-source.js')).collectFromServer({...server, 'all-projects': flags['all-projects'] === true, concurrency: 8}, prepared, {debug: io.debug, say: io.say})
  timer(`${flags.snapshot ? 'read the snapshot' : 'collected'}: ${model.projects.length} projects`)
  const {plan, errors} = makePlan(model, source, prepared, {suggestions: flags.suggestions === true, rules: flags.rule ?? []}, version)
  timer(`planned ${plan.projects.reduce((n, p) => n + p.changes.length, 0)} changes in ${plan.projects.length} projects`)
  // A plan made from an incomplete audit says so first: "Nothing to change" would read as all clear.
  const lead = incompleteLead({errors}, 'Plan')
  if (lead !== null) io.out(`${lead} (listed on standard error): it covers only the ${plural(model.projects.filter((p) => p.setting !== null).length, 'project')} that could be read.\n`)
  await printPlan(plan, listing)
  printErrors(errors, io)
  timer('printed the plan')
  if (flags.output !== undefined) {
    await writeFixFile(flags.output, plan)
    timer('wrote the plan')
    io.say(`onedev-audit: wrote the plan to ${flags.output}`)
  }
  if (errors.length > 0) {
    if (flags.apply) io.say('onedev-audit: not applied: the plan was made from an incomplete audit')
    return EXIT.incomplete
  }
  if (!flags.apply) return plan.projects.length > 0 ? EXIT.findings : EXIT.ok
  return apply({kind: 'plan', file: null, server: plan.server, projects: projectsOfPlan(plan), plan})
}
