/**
 * `notify` from the command line: the findings (of a snapshot, or collected now), the issue workflow,
 * the account of the credentials and each target's issues read from the server, what to do decided per
 * target (src/engine/notify.ts), printed, and with --apply done: at most one write per target (the
 * new issue, or its description), plus one transition when its state changes or else when a duplicate
 * of its issue is closed.
 */
import {findProjectByPath, ISSUES_PATH, listProjects, openIssue, queryNotifyIssues, readOwnAccount, setIssueDescription, transitIssue} from '../api/issues.js'
import {ApiError, type ApiClient} from '../api/types.js'
import {readServerVersion, type ServerVersion} from '../api/version.js'
import type {NotifyConfig} from '../engine/config-schema.js'
import {EVERYTHING, failedEndpoints, fewOf} from '../engine/availability.js'
import {type ActiveRule, evaluate, serverKey} from '../engine/evaluate.js'
import {decide, decideDuplicate, type DuplicateAction, findingsDigest, issueLabel, NO_FINDINGS, type NotifyAction, notifyTargets, type NotifyTarget, ownIssue, type ProjectRef, type WorkflowView} from '../engine/notify.js'
import type {RuleMeta, RuleScope, Severity} from '../engine/rule.js'
import {applyBaseline, applySuppressions, readBaseline} from '../engine/suppress.js'
import {fetchIssueSetting} from '../issue-setting/apply.js'
import {ISSUE_TITLES, type ServerIssue} from '../model/issue.js'
import {projectTransitions, readIssueWorkflow, type IssueWorkflow, type ManualTransition} from '../model/issue-workflow.js'
import {VERSION_ENDPOINT} from '../model/server-version.js'
import type {AuditError, AuditModel} from '../model/types.js'
import {DEFAULT_CLOSED_STATE, fieldConfigurationProblems, fieldsNotCarried, type FieldValues} from '../onedev/issue-workflow.js'
import {allClearDescription, duplicateComment, issueDescription, transitionComment} from '../report/notify-issue.js'
import {escapeControl, oneLine} from '../util/escape.js'
import {createLimiter} from '../util/limit.js'
import {activeRules, type Prepared, prepare, stopwatch} from './audit.js'
import {auditErrorOf, describeAuditError, errorLines, EXIT, UsageError} from './errors.js'
import {connect, parseBaseUrl, type ServerFlags} from './server.js'
import {readSnapshot} from './sources.js'

export interface NotifyFlags extends ServerFlags {
  project?: number[]
  'all-projects'?: boolean
  snapshot?: string
  branch?: string[]
  tag?: string[]
  'min-severity': Severity
  baseline?: string
  apply?: boolean
  concurrency: number
  config?: string
  verbose?: boolean
  debug?: boolean
}

export interface NotifyIo {
  /** What is (or would be) done, per target: stdout. */
  out: (line: string) => void
  /** Notices, errors and the summary: stderr. */
  say: (line: string) => void
  debug: (line: string) => void
}

const SCOPES: RuleScope[] = ['project', 'role', 'server']

/** What one target came to. */
interface Outcome {
  target: NotifyTarget
  action: NotifyAction | null
  /** The issue opened (its id), with --apply. */
  openedId?: number
  /** The first duplicate of the issue (two runs opened one at once), and what is done with it. */
  duplicate?: DuplicateAction
  /** More duplicates: closed one per run, at the next runs. */
  moreDuplicates: ServerIssue[]
  /** Issues for the target by title or marker that another account opened: named once, never touched. */
  lookalikes: ServerIssue[]
  error?: AuditError
  /** Not attempted: the run was stopped first (Ctrl-C, or --deadline passed). */
  skipped?: boolean
  /** --verbose: the requests that change the issue. */
  writes?: Write[]
  /** The issue query failed (nothing was decided): its error. */
  queryFailure?: ApiError
  /** The duplicate's transition was sent and went through (with --apply). */
  duplicateClosed?: boolean
}

function fieldValues(config: NotifyConfig | undefined): FieldValues {
  return Object.fromEntries(Object.entries(config?.fields ?? {}).map(([name, value]) => [name, typeof value === 'string' ? [value] : value]))
}

function asError(error: unknown, project: ProjectRef): AuditError {
  const known = auditErrorOf(error)
  if (known) return {...known, project: {id: project.id, path: project.path}}
  return {kind: 'internal', message: `unexpected failure (${error instanceof Error ? oneLine(error.name, 60) : 'exception'})`, project: {id: project.id, path: project.path}}
}

/** The findings of the model: every active rule, then suppressions and the baseline. */
function activeFindings(model: AuditModel, prepared: Prepared, rules: ActiveRule[], baseline: Set<string> | undefined) {
  const evaluation = evaluate(model, rules, prepared.settings)
  let filtered = applySuppressions(evaluation.findings, prepared.loaded.config.suppressions ?? [], new Date().toISOString().slice(0, 10))
  if (baseline) filtered = applyBaseline(filtered, baseline)
  return {findings: filtered.findings, errors: [...model.errors, ...evaluation.errors]}
}

/**
 * Projects judged completely: audited, with a setting, and no error naming them or an ancestor they
 * inherit from (an ancestor not read leaves what the project inherits unknown). The server is judged
 * completely when no error names no project.
 */
function judged(model: AuditModel, errors: readonly AuditError[]): {projects: ProjectRef[]; server: boolean} {
  const failed = new Set(errors.flatMap((error) => (error.project ? [error.project.id] : [])))
  const whole = (id: number): boolean => {
    const seen = new Set<number>()
    for (let current = model.projectsById.get(id); ; ) {
      if (!current || current.setting === null || failed.has(current.id) || seen.has(current.id)) return false
      seen.add(current.id)
      if (current.parentId === null) return true
      current = model.projectsById.get(current.parentId)
    }
  }
  return {
    projects: model.projects.filter((project) => whole(project.id)).map((project) => ({id: project.id, path: project.path})),
    server: !errors.some((error) => !error.project),
  }
}

/**
 * The project rules this run could not judge anywhere: server-wide data they need could not be read
 * (a request failed, not an endpoint the server does not offer). Their findings this run say nothing
 * of what is gone: rule id → why. (A rule that failed on a project names it: judged() leaves that
 * project alone.)
 */
function rulesNotJudged(model: AuditModel, errors: readonly AuditError[], rules: readonly ActiveRule[]): Map<string, string> {
  const failed = failedEndpoints(model, errors)
  const out = new Map<string, string>()
  for (const {rule} of rules) {
    if (rule.meta.scope !== 'project') continue
    const endpoint = failed.has(EVERYTHING) ? EVERYTHING : (rule.meta.requires ?? []).flatMap((requirement) => requirement.split('#')[0]!.split(' or ')).find((name) => failed.has(name))
    if (endpoint === EVERYTHING) out.set(rule.meta.id, 'the audit is incomplete')
    else if (endpoint !== undefined) out.set(rule.meta.id, `GET ${endpoint} failed`)
  }
  return out
}

/** Manual transitions that apply in a project: its own, its ancestors', then the global ones (OneDev's order). */
function hierarchyTransitions(model: AuditModel, projectId: number, global: readonly ManualTransition[]): ManualTransition[] {
  const own: ManualTransition[] = []
  const seen = new Set<number>()
  for (let project = model.projectsById.get(projectId); project && !seen.has(project.id); project = project.parentId === null ? undefined : model.projectsById.get(project.parentId)) {
    seen.add(project.id)
    own.push(...projectTransitions(project.raw))
  }
  return [...own, ...global]
}

function targetLabel(target: NotifyTarget): string {
  const where = `${escapeControl(target.project.path)} (#${target.project.id})`
  return target.scope.kind === 'server' ? `server-wide findings, in ${where}` : where
}

const VERBS: Record<NotifyAction['kind'], [string, string]> = {
  none: ['', ''],
  open: ['open', 'opened'],
  update: ['update', 'updated'],
  close: ['close', 'closed'],
  reopen: ['reopen', 'reopened'],
  unchanged: ['unchanged', 'unchanged'],
  refused: ['refused', 'refused'],
}

function findingCount(target: NotifyTarget): string {
  const n = target.findings.length
  const rules = new Set(target.findings.map((f) => f.ruleId)).size
  return `${n} finding${n === 1 ? '' : 's'} in ${rules} rule${rules === 1 ? '' : 's'}`
}

/** The line of one target: `open       acme/app (#2): 3 findings in 2 rules`. */
function outcomeLine(outcome: Outcome, applied: boolean): string | null {
  const {target, action} = outcome
  const label = targetLabel(target)
  if (outcome.skipped) return `${'not done'.padEnd(10)} ${label}: the run stopped first (interrupted, or --deadline passed)`
  if (outcome.error && (!action || action.kind === 'none' || action.kind === 'unchanged' || action.kind === 'refused')) return `${'error'.padEnd(10)} ${label}: ${describeAuditError({...outcome.error, project: null})}`
  if (!action || action.kind === 'none') return null
  const verb = VERBS[action.kind][applied && !outcome.error ? 1 : 0]
  let detail: string
  switch (action.kind) {
    case 'open':
      detail = `${outcome.openedId !== undefined ? `confidential issue (id ${outcome.openedId}) ` : 'a confidential issue '}for ${findingCount(target)}`
      break
    case 'update':
      detail =
        action.digest === NO_FINDINGS
          ? `issue ${issueLabel(action.issue)} (closed): no finding left, which its description now says`
          : `issue ${issueLabel(action.issue)}: ${findingCount(target)}${action.was === null ? ' (its description had no marker of notify)' : ', changed since it was written'}`
      break
    case 'close':
      detail = `issue ${issueLabel(action.issue)}: no finding left; to ${escapeControl(JSON.stringify(action.toState))}${action.transition.conditional ? ' (a transition with an applicable-issues query: the server judges it)' : ''}`
      break
    case 'reopen':
      detail = `issue ${issueLabel(action.issue)}: ${findingCount(target)}; back to ${escapeControl(JSON.stringify(action.toState))}${action.transition.conditional ? ' (a transition with an applicable-issues query: the server judges it)' : ''}`
      break
    case 'unchanged':
      detail = `issue ${issueLabel(action.issue)}${action.note ? `: ${action.note}` : ''}`
      break
    case 'refused':
      detail = escapeControl(action.reason)
      break
  }
  const failed = outcome.error ? `; failed: ${describeAuditError({...outcome.error, project: null})}` : ''
  return `${verb.padEnd(10)} ${label}: ${detail}${duplicatePhrase(outcome)}${failed}`
}

/** `; closed #12, a second issue of notify here, as a duplicate of it`: what became of the duplicates. */
function duplicatePhrase(outcome: Outcome): string {
  const {duplicate} = outcome
  if (!duplicate) return ''
  const which = `${issueLabel(duplicate.issue)}, a second issue of notify here`
  const more = outcome.moreDuplicates.length > 0 ? ` (${outcome.moreDuplicates.map(issueLabel).join(', ')} too: one is closed per run)` : ''
  switch (duplicate.kind) {
    case 'close':
      return `; ${outcome.duplicateClosed ? 'closed' : 'close'} ${which}, as a duplicate of it${more}`
    case 'later':
      return `; ${which}, is closed as a duplicate at the next run${more}`
    case 'refused':
      return `; ${escapeControl(duplicate.reason)}${more}`
  }
}

/** One request that changes an issue. */
type Write =
  | {kind: 'open'; projectId: number; title: string; description: string; fields: FieldValues}
  | {kind: 'describe'; issueId: number; description: string}
  | {kind: 'transit'; issueId: number; state: string; fields: FieldValues; comment: string; duplicate?: true}

interface WriteContext {
  target: NotifyTarget
  threshold: Severity
  rules: ReadonlyMap<string, RuleMeta>
  asOf: string
  closedState: string
  fields: FieldValues
}

/** The requests an action sends, in order: one write, plus the transition when the state changes. */
function writesOf(action: NotifyAction, context: WriteContext): Write[] {
  const {target} = context
  const described = (digest: string) => issueDescription({target, digest, threshold: context.threshold, rules: context.rules, asOf: context.asOf})
  const allClear = (issueId: number): Write => ({kind: 'describe', issueId, description: allClearDescription({target, digest: findingsDigest([]), threshold: context.threshold, asOf: context.asOf})})
  switch (action.kind) {
    case 'open':
      return [{kind: 'open', projectId: target.project.id, title: ISSUE_TITLES[target.scope.kind], description: described(action.digest), fields: context.fields}]
    case 'update':
      return [action.digest === NO_FINDINGS ? allClear(action.issue.id) : {kind: 'describe', issueId: action.issue.id, description: described(action.digest)}]
    case 'close':
      // The transition first: were it refused (the server judges transitions too), the issue is left
      // as it is. Were the description then refused, the next run finds the issue closed with
      // findings described, and rewrites its description alone.
      return [{kind: 'transit', issueId: action.issue.id, state: action.toState, fields: action.fields, comment: transitionComment('close', 0, context.threshold)}, ...(action.describe ? [allClear(action.issue.id)] : [])]
    case 'reopen':
      // The transition first: were the description then refused, the next run finds the issue open
      // with other findings described, and updates it.
      return [
        {kind: 'transit', issueId: action.issue.id, state: action.toState, fields: action.fields, comment: transitionComment('reopen', target.findings.length, context.threshold)},
        {kind: 'describe', issueId: action.issue.id, description: described(action.digest)},
      ]
    default:
      return []
  }
}

/** The duplicate's transition: the comment OneDev shows in its activities. */
function duplicateWrite(duplicate: DuplicateAction & {kind: 'close'}, kept: ServerIssue): Write {
  return {kind: 'transit', issueId: duplicate.issue.id, state: duplicate.toState, fields: duplicate.fields, comment: duplicateComment(issueLabel(kept)), duplicate: true}
}

/**
 * The server refused a transition with 400 or 406: no manual transition applies (10.0.0 to 12.0.8
 * answer 400, 12.0.9 and later 406: src/api/issues.ts), or a field it prompts was refused. Nothing of
 * the target was written before it (a transition is always its first write).
 */
class TransitionRefused extends Error {
  constructor(
    readonly write: Write & {kind: 'transit'},
    readonly refusal: ApiError,
  ) {
    super(refusal.message)
  }
}

/** Sends the writes in order; the first failure throws (the rest is not sent). `onSent`: each write that went through, with the new issue's id for an open. */
async function send(client: ApiClient, writes: readonly Write[], onSent: (write: Write, id?: number) => void): Promise<void> {
  for (const write of writes) {
    if (write.kind === 'open') onSent(write, await openIssue(client, write))
    else if (write.kind === 'describe') await setIssueDescription(client, write.issueId, write.description)
    else {
      await transitIssue(client, write.issueId, write).catch((error: unknown) => {
        throw error instanceof ApiError && (error.error.status === 400 || error.error.status === 406) ? new TransitionRefused(write, error) : error
      })
    }
    if (write.kind !== 'open') onSent(write)
  }
}

/** --verbose: each write as it is (or would be) sent, indented under its target's line. */
function writeLines(writes: readonly Write[]): string[] {
  const indent = (text: string) => text.trimEnd().split('\n').map((line) => `      ${escapeControl(line)}`)
  return writes.flatMap((write) => {
    if (write.kind === 'transit') return [`    POST state-transitions of ${write.duplicate ? 'the duplicate, ' : ''}issue id ${write.issueId}: to ${escapeControl(JSON.stringify(write.state))}${Object.keys(write.fields).length > 0 ? ` with fields ${escapeControl(JSON.stringify(write.fields))}` : ''}; comment: ${escapeControl(write.comment)}`]
    const head = write.kind === 'open' ? `    POST a new confidential issue, title ${JSON.stringify(write.title)}${Object.keys(write.fields).length > 0 ? `, fields ${escapeControl(JSON.stringify(write.fields))}` : ''}, description:` : `    POST the description of issue id ${write.issueId}:`
    return [head, ...indent(write.description)]
  })
}

/** Ctrl-C (SIGTERM, SIGHUP) while writing: targets in flight are finished, none is started after. */
function interruptible(io: NotifyIo): {stopped: () => boolean; release: () => void} {
  let stopped = false
  const onSignal = () => {
    if (!stopped) io.say('onedev-audit: interrupted: finishing the issues in flight, starting no other')
    stopped = true
  }
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
  for (const signal of signals) process.on(signal, onSignal)
  return {stopped: () => stopped, release: () => signals.forEach((signal) => process.off(signal, onSignal))}
}

/** `notify`: returns the exit code. */
export async function runNotify(flags: NotifyFlags, io: NotifyIo): Promise<number> {
  const timer = stopwatch(io.debug)
  // --deadline is checked between targets when writing: a target's requests are never cut.
  const deadlineAt = flags.apply && flags.deadline !== undefined ? Date.now() + flags.deadline * 1000 : undefined
  const url = parseBaseUrl(flags.url)
  const prepared = await prepare(flags.config, {branches: flags.branch, tags: flags.tag})
  const config = prepared.loaded.config.notify
  const fields = fieldValues(config)
  const closedState = config?.closedState ?? DEFAULT_CLOSED_STATE
  const baseline = flags.baseline ? await readBaseline(flags.baseline) : undefined
  timer(`loaded the configuration and ${prepared.ruleSet.listing.length} rules`)

  const {model} = flags.snapshot
    ? await readSnapshot(flags.snapshot, prepared)
    : await (await import('./collect-source.js')).collectFromServer({...flags, 'all-projects': flags['all-projects'] === true}, prepared, {debug: io.debug, say: io.say})
  if (flags.snapshot && model.server && serverKey(model) !== serverKey({server: {url, apiPrefix: ''}})) {
    throw new UsageError(`${flags.snapshot}: collected from ${escapeControl(model.server.url)}, but --url is ${url}: notify keeps the issues of a server's findings on that server`)
  }
  timer(`${flags.snapshot ? 'read the snapshot' : 'collected'}: ${model.projects.length} projects`)
  const active = activeRules(prepared, SCOPES)
  const {findings, errors} = activeFindings(model, prepared, active, baseline)
  const complete = judged(model, errors)
  // A finding missing because its rule could not be judged this time is not gone: no project's issue
  // is updated or closed on it (nor opened without it), as a project not read is left alone.
  const unjudged = rulesNotJudged(model, errors, active)
  if (unjudged.size > 0 && complete.projects.length > 0) {
    const [first] = unjudged.values()
    io.say(`onedev-audit: notice: the findings of ${unjudged.size} rule${unjudged.size === 1 ? '' : 's'} (${fewOf([...unjudged.keys()].sort(), 4)}) could not be judged this time (${first}): every project's issue is left as it is`)
    complete.projects = []
  }
  timer(`evaluated: ${findings.length} active findings`)

  const {client} = await connect({...flags, deadline: flags.apply ? undefined : flags.deadline, concurrency: flags.concurrency}, io.debug, io.say)
  const interrupt = interruptible(io)
  try {
    // The workflow: which transitions close and reopen, which fields a new issue needs.
    const rawSetting = await fetchIssueSetting(client)
    const workflow: IssueWorkflow | null = rawSetting === null ? null : readIssueWorkflow(rawSetting)
    if (workflow === null) io.say('onedev-audit: notice: the server does not offer GET /settings/issue: notify opens and updates issues, but cannot choose a transition to close or reopen one')
    else {
      const problems = fieldConfigurationProblems(workflow, fields)
      if (problems.length > 0) throw new UsageError(`${prepared.loaded.label}: notify.fields: ${problems.join('; ')}`)
    }
    // Several values of one field: only servers from 10.0 read them (src/onedev/issue-workflow.ts readsFieldLists).
    if (Object.values(fields).some((values) => values.length > 1)) {
      const version = collectedVersion(model) ?? (await readServerVersion(client))
      const refused = fieldsNotCarried(fields, version.version)
      if (refused.length > 0) throw new UsageError(`${prepared.loaded.label}: ${severalValuesRefused(refused, fields, version)}`)
    }

    // Where the issues go: each project's path now (a snapshot's may be older), the server-wide project.
    let projects = complete.projects
    if (flags.snapshot) {
      const listed = await listProjects(client)
      const current = new Map(listed.projects.map((project) => [project.id, project.path]))
      const gone = projects.filter((project) => !current.has(project.id))
      if (gone.length > 0) io.say(`onedev-audit: notice: ${gone.length} project${gone.length === 1 ? '' : 's'} of the snapshot ${gone.length === 1 ? 'is' : 'are'} not on the server (deleted, or not visible to these credentials), e.g. ${escapeControl(gone[0]!.path)} (#${gone[0]!.id}): left out`)
      projects = projects.flatMap((project) => (current.has(project.id) ? [{id: project.id, path: current.get(project.id)!}] : []))
    }
    let serverProject: ProjectRef | null = null
    if (config?.serverProject !== undefined) {
      const found = await findProjectByPath(client, config.serverProject)
      if (found === null) throw new UsageError(`${prepared.loaded.label}: notify.serverProject: no project ${JSON.stringify(config.serverProject)} on the server (or not visible to these credentials)`)
      serverProject = {id: found.id, path: found.path}
    }
    const {targets, unrouted} = notifyTargets(findings, {threshold: flags['min-severity'], projects, serverProject, serverJudged: complete.server})
    if (unrouted.length > 0) io.say(`onedev-audit: notice: ${unrouted.length} server-wide finding${unrouted.length === 1 ? '' : 's'} (roles, administration, security) at or above ${flags['min-severity']} get no issue: name a project for them with notify.serverProject in the configuration`)
    if (serverProject !== null && !complete.server) io.say('onedev-audit: notice: the server-wide findings were not all judged (see the errors): their issue is left as it is')
    timer(`read the workflow and placed ${targets.length} targets`)

    const rules = new Map(prepared.ruleSet.listing.map((rule) => [rule.meta.id, rule.meta]))
    const asOf = model.collectedAt ?? new Date().toISOString()
    const limit = createLimiter(Math.max(1, flags.concurrency))
    const outcomes: Outcome[] = targets.map((target) => ({target, action: null, moreDuplicates: [], lookalikes: []}))
    // The account of the credentials, asked once, after the first query (a server without the issue
    // endpoints is said as such): only the issues it opened are notify's.
    let account: Promise<number | null> | undefined
    const me = () => (account ??= readOwnAccount(client))

    const handle = async (outcome: Outcome): Promise<void> => {
      if (interrupt.stopped() || (deadlineAt !== undefined && Date.now() >= deadlineAt)) {
        outcome.skipped = true
        return
      }
      const {target} = outcome
      const issues = await queryNotifyIssues(client, target.project.path).catch((error: unknown) => {
        if (error instanceof ApiError) outcome.queryFailure = error
        throw error
      })
      const own = ownIssue(issues, target, await me(), closedState)
      outcome.lookalikes = own.lookalikes
      const view: WorkflowView | null = workflow === null ? null : {workflow, transitions: hierarchyTransitions(model, target.project.id, workflow.transitions)}
      const action = decide({target, issue: own.issue, workflow: view, closedState, fields})
      outcome.action = action
      const [duplicate, ...more] = own.duplicates
      if (duplicate) {
        outcome.duplicate = decideDuplicate({target, workflow: view, closedState, fields}, duplicate, action)
        outcome.moreDuplicates = more
      }
      // The descriptions are written only when they are sent or shown.
      if (!flags.apply && !flags.verbose) return
      const writes = writesOf(action, {target, threshold: flags['min-severity'], rules, asOf, closedState, fields})
      if (outcome.duplicate?.kind === 'close') writes.push(duplicateWrite(outcome.duplicate, own.issue!))
      if (flags.verbose) outcome.writes = writes
      if (!flags.apply) return
      try {
        await send(client, writes, (write, id) => {
          if (write.kind === 'open') outcome.openedId = id
          if (write.kind === 'transit' && write.duplicate) outcome.duplicateClosed = true
        })
      } catch (error) {
        if (!(error instanceof TransitionRefused)) throw error
        const refusal = `the server refused the transition to ${escapeControl(JSON.stringify(error.write.state))} (${describeAuditError({...error.refusal.error, project: null})}); the issue is left as it is`
        if (error.write.duplicate) outcome.duplicate = {kind: 'refused', issue: outcome.duplicate!.issue, reason: `cannot close the duplicate issue ${issueLabel(outcome.duplicate!.issue)}: ${refusal}`}
        else outcome.action = {kind: 'refused', issue: own.issue, reason: `cannot ${action.kind === 'reopen' ? 'reopen' : 'close'} issue ${issueLabel(own.issue!)}: ${refusal}`}
      }
    }
    const settle = (outcome: Outcome) =>
      handle(outcome).catch((error: unknown) => {
        outcome.error = asError(error, outcome.target.project)
        if (!auditErrorOf(error) && error instanceof Error && error.stack) io.debug(error.stack)
      })

    // The first target alone: a server without the issue endpoints is said once, and nothing else is
    // asked; refused credentials or a web page instead of the API stop the run.
    const [first, ...rest] = outcomes
    if (first) {
      await settle(first)
      if (first.action === null && first.error) {
        if (first.queryFailure?.noResource) {
          throw new ApiError({kind: 'not-found', message: `the server does not offer GET ${client.apiPrefix}${ISSUES_PATH} (OneDev's issue REST interface, ${first.error.status ?? 404}): notify cannot keep issues on it`, status: first.error.status})
        }
        if (first.error.kind === 'auth' || first.error.kind === 'not-json') throw new ApiError({...first.error, project: null})
      }
      // Without the account nothing can be told notify's: the run stops (its request was sent by the first target, or now).
      await me().catch((error: unknown) => {
        if (!(error instanceof ApiError) || error.error.kind === 'auth' || error.error.kind === 'not-json' || error.error.kind === 'interrupted') throw error
        throw new ApiError({...error.error, message: `${error.message}; notify takes as its own only the issues its account opened, and cannot tell which those are without it`})
      })
    }
    await Promise.all(rest.map((outcome) => limit(() => settle(outcome))))
    io.debug(`${client.requestCount} requests`)
    timer(`${flags.apply ? 'notified' : 'judged'} ${targets.length} targets`)

    for (const outcome of outcomes) {
      const line = outcomeLine(outcome, flags.apply === true)
      if (line !== null) io.out(line)
      for (const write of outcome.writes ? writeLines(outcome.writes) : []) io.out(write)
    }
    return summarize(outcomes, errors, flags, io)
  } finally {
    interrupt.release()
    await client.close()
  }
}

/** One notice naming every issue that looks like notify's but another account opened, once per run. */
function lookalikeNotice(outcomes: readonly Outcome[]): string | null {
  const named = outcomes.flatMap((outcome) => outcome.lookalikes.map((issue) => `${escapeControl(outcome.target.project.path)} ${issueLabel(issue)}`))
  if (named.length === 0) return null
  const one = named.length === 1
  return `onedev-audit: notice: ${named.length} issue${one ? '' : 's'} carr${one ? 'ies' : 'y'} notify's title or marker but ${one ? 'was' : 'were'} opened by another account than notify's: ${fewOf(named, 10)}; notify never writes ${one ? 'it' : 'them'} nor takes ${one ? 'it' : 'them'} for its own (close ${one ? 'it' : 'them'} if ${one ? 'it misleads' : 'they mislead'})`
}

function summarize(outcomes: readonly Outcome[], auditErrors: readonly AuditError[], flags: NotifyFlags, io: NotifyIo): number {
  const count = (kind: NotifyAction['kind']) => outcomes.filter((o) => o.action?.kind === kind && !o.error).length
  const duplicates = (kind: DuplicateAction['kind']) => outcomes.filter((o) => o.duplicate?.kind === kind && !o.error).length
  const failed = outcomes.filter((o) => o.error)
  const skipped = outcomes.filter((o) => o.skipped).length
  for (const line of errorLines(auditErrors)) io.say(line)
  const notice = lookalikeNotice(outcomes)
  if (notice !== null) io.say(notice)
  const todo = count('open') + count('update') + count('close') + count('reopen') + duplicates('close')
  const parts = flags.apply
    ? [`${count('open')} opened`, `${count('update')} updated`, `${count('close')} closed`, `${count('reopen')} reopened`]
    : [`${count('open')} to open`, `${count('update')} to update`, `${count('close')} to close`, `${count('reopen')} to reopen`]
  parts.push(`${count('unchanged')} unchanged`, `${count('none')} without finding or issue`)
  const closing = duplicates('close')
  if (closing > 0) parts.push(`${closing} duplicate${closing === 1 ? '' : 's'} ${flags.apply ? 'closed' : 'to close'}`)
  if (duplicates('later') > 0) parts.push(`${duplicates('later')} duplicate${duplicates('later') === 1 ? '' : 's'} to close at the next run`)
  const refused = count('refused') + duplicates('refused')
  const problems = [refused > 0 ? `${refused} refused` : '', failed.length > 0 ? `${failed.length} failed` : '', skipped > 0 ? `${skipped} not done` : '', auditErrors.length > 0 ? `${auditErrors.length} audit error${auditErrors.length === 1 ? '' : 's'}` : ''].filter(Boolean)
  const tail = flags.apply ? '' : todo > 0 ? ' (dry run: nothing was sent; --apply does it)' : ' (dry run)'
  io.say(`onedev-audit: notify: ${parts.join(', ')}${problems.length > 0 ? `; ${problems.join(', ')}` : ''}${tail}`)
  if (problems.length > 0) return EXIT.incomplete
  return !flags.apply && todo > 0 ? EXIT.findings : EXIT.ok
}

/** The version the collection read (`server.version`, null when it could not, and why); undefined when it did not ask (a snapshot that predates it). */
function collectedVersion(model: AuditModel): ServerVersion | undefined {
  const version = model.server?.version
  if (typeof version === 'string') return {version}
  if (version !== null) return undefined
  const notOffered = model.notEvaluated?.some((entry) => entry.endpoint === VERSION_ENDPOINT)
  const at = `GET ${model.server?.apiPrefix ?? ''}${VERSION_ENDPOINT}`
  return {version: null, why: notOffered ? `${at} is not offered, as before OneDev 10.2` : `${at} could not be read`}
}

/** `notify.fields["Assignees"]: 2 values, but ...`: fields of several values a server that reads one value per field cannot take. */
function severalValuesRefused(names: readonly string[], fields: FieldValues, version: ServerVersion): string {
  const which = names.map((name) => `notify.fields[${escapeControl(JSON.stringify(name))}]: ${fields[name]!.length} values`).join('; ')
  const server =
    version.version === null
      ? `this server does not say its version (${version.why}), and OneDev 8.x reads one value per field (it would store "a,b" as one value)`
      : `OneDev ${version.version} reads one value per field (it would store "a,b" as one value)`
  return `${which}, but ${server}: give ${names.length === 1 ? 'the field' : 'each field'} one value, or upgrade the server to 10.0 or later`
}
