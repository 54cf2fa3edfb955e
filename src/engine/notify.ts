/**
 * `onedev-audit notify` decided, as pure functions: which issue each audited project (and the server)
 * gets, and what is done with it: open, update, close, reopen, or nothing.
 *
 * The rule that keeps it quiet: the description of notify's issue carries a marker with a digest of
 * the findings it describes (src/model/issue.ts). A run writes only when that digest differs from
 * the digest of the findings now (never because the wording or the date would differ), closes the
 * issue (writing the digest of no finding, `none`, first) when no finding is left, and reopens it
 * when findings come back. An issue someone closed while its findings stayed the same is left
 * closed: nothing changed since. Suppress a finding (with a justification) to accept it.
 */
import {hash} from 'node:crypto'

import {ISSUE_TITLES, type NotifyScope, parseMarker, sameScope, type ServerIssue} from '../model/issue.js'
import type {IssueWorkflow, ManualTransition} from '../model/issue-workflow.js'
import {type FieldValues, fieldsOnOpen, manualTransition, missingRequiredFields, type TransitionChoice} from '../onedev/issue-workflow.js'
import {type Finding, SEVERITIES, type Severity} from './rule.js'

/** The marker's digest of no finding: the issue says that none is left. */
export const NO_FINDINGS = 'none'

export interface ProjectRef {
  id: number
  path: string
}

/** One issue's worth of findings: an audited project's, or the server-wide ones (in the configured project). */
export interface NotifyTarget {
  scope: NotifyScope
  /** The project the issue lives in. */
  project: ProjectRef
  /** Active findings at or above the threshold, in the report's order (most severe first). */
  findings: Finding[]
}

/**
 * The digest of a set of findings: what they are about (fingerprints) and how severe they are, in no
 * particular order. Messages and help text are not part of it: a new wording never writes an issue.
 */
export function findingsDigest(findings: readonly Finding[]): string {
  if (findings.length === 0) return NO_FINDINGS
  const lines = findings.map((finding) => `${finding.fingerprint} ${finding.severity}`).sort()
  return `sha256:${hash('sha256', lines.join('\n'), 'hex')}`
}

export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold)
}

/**
 * The issues to keep: one per project in `projects` (every audited project judged completely, with
 * its findings or none: an issue left from an earlier run may have to be closed), and one for the
 * server-wide findings (of no project: roles, server settings) in `serverProject` when it is
 * configured and they were judged completely. `unrouted`: server-wide findings with nowhere to go.
 */
export function notifyTargets(
  findings: readonly Finding[],
  options: {threshold: Severity; projects: readonly ProjectRef[]; serverProject: ProjectRef | null; serverJudged: boolean},
): {targets: NotifyTarget[]; unrouted: Finding[]} {
  const byProject = new Map<number, Finding[]>(options.projects.map((project) => [project.id, []]))
  const serverWide: Finding[] = []
  for (const finding of findings) {
    if (!atOrAbove(finding.severity, options.threshold)) continue
    if (finding.project === null) serverWide.push(finding)
    else byProject.get(finding.project.id)?.push(finding)
  }
  const targets: NotifyTarget[] = options.projects.map((project) => ({scope: {kind: 'project', id: project.id}, project, findings: byProject.get(project.id)!}))
  if (options.serverProject === null) return {targets, unrouted: serverWide}
  if (options.serverJudged) targets.push({scope: {kind: 'server'}, project: options.serverProject, findings: serverWide})
  return {targets, unrouted: []}
}

/** What a query found in a target's project, sorted out by whose the issues are. */
export interface IssuesOfTarget {
  /** notify's issue: the oldest its own account opened for the target. */
  issue: ServerIssue | null
  /** notify's own issues for the target besides it that are not closed (two runs opened one at once): oldest first. */
  duplicates: ServerIssue[]
  /** Issues for the target by their marker or title that another account opened: never written, never taken. */
  lookalikes: ServerIssue[]
}

/**
 * notify's issue for a target among the issues a query found in its project. An issue is for the
 * target when its marker names it, or it has notify's title and no marker (the marker was edited
 * away); of those, only the ones notify's account opened (`me`, their `submitterId`) are notify's:
 * anyone who may open an issue in the project can copy a title or a marker. The oldest (by number,
 * then id) is kept; the others of notify's that are still open are duplicates (two runs that opened
 * an issue at once). `me` null: the account opened no issue yet, so none is notify's.
 */
export function ownIssue(issues: readonly ServerIssue[], target: NotifyTarget, me: number | null, closedState: string): IssuesOfTarget {
  const title = ISSUE_TITLES[target.scope.kind]
  const forTarget = issues.filter((issue) => {
    if (issue.projectId !== null && issue.projectId !== target.project.id) return false
    const marker = parseMarker(issue.description)
    return marker ? sameScope(marker.scope, target.scope) : issue.title.trim() === title
  })
  const oldestFirst = (a: ServerIssue, b: ServerIssue) => (a.number ?? a.id) - (b.number ?? b.id) || a.id - b.id
  const own = forTarget.filter((issue) => me !== null && issue.submitterId === me).sort(oldestFirst)
  return {
    issue: own[0] ?? null,
    duplicates: own.slice(1).filter((issue) => issue.state !== closedState),
    lookalikes: forTarget.filter((issue) => !own.includes(issue)).sort(oldestFirst),
  }
}

/** What the server's workflow says, as far as it could be read. */
export interface WorkflowView {
  workflow: IssueWorkflow
  /** Manual transitions that apply in the target's project: its own, its ancestors', then the global ones. */
  transitions: readonly ManualTransition[]
}

export interface DecisionInput {
  target: NotifyTarget
  issue: ServerIssue | null
  /** null: the workflow could not be read (a server without GET /settings/issue). */
  workflow: WorkflowView | null
  closedState: string
  /** Field values from the configuration (`notify.fields`). */
  fields: FieldValues
}

export type NotifyAction =
  /** No finding and no issue: nothing to say. */
  | {kind: 'none'}
  | {kind: 'open'; digest: string}
  /** Digest `none`: a closed issue whose description still lists findings (a close whose description was not written) says none is left. */
  | {kind: 'update'; issue: ServerIssue; digest: string; was: string | null}
  /** `describe`: the description still lists findings; it is rewritten (digest `none`) after the transition. */
  | {kind: 'close'; issue: ServerIssue; describe: boolean; toState: string; transition: TransitionChoice; fields: FieldValues}
  | {kind: 'reopen'; issue: ServerIssue; digest: string; toState: string; transition: TransitionChoice; fields: FieldValues}
  | {kind: 'unchanged'; issue: ServerIssue; note?: string}
  | {kind: 'refused'; issue: ServerIssue | null; reason: string}

/** `notify.fields` set for the fields the request prompts. */
function promptedValues(fields: FieldValues, prompted: readonly string[]): FieldValues {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => prompted.includes(name)))
}

function requiredReason(missing: readonly string[], what: string): string {
  const names = missing.map((name) => JSON.stringify(name)).join(', ')
  return `${what}: the issue field${missing.length === 1 ? '' : 's'} ${names} ${missing.length === 1 ? 'is' : 'are'} required and ${missing.length === 1 ? 'has' : 'have'} no default value; set ${missing.map((name) => `notify.fields[${JSON.stringify(name)}]`).join(', ')} in the configuration`
}

/** A transition of the issue to `to`, or why there is none. */
function transitionTo(input: DecisionInput, issue: ServerIssue, to: string, what: string): {choice: TransitionChoice; fields: FieldValues} | {reason: string} {
  const {workflow} = input
  if (workflow === null) return {reason: `cannot ${what} issue ${issueLabel(issue)}: the server's issue workflow could not be read (GET /settings/issue), so no transition can be chosen`}
  if (!workflow.workflow.states.includes(to)) {
    return {reason: `cannot ${what} issue ${issueLabel(issue)}: the issue workflow has no state ${JSON.stringify(to)}${to === input.closedState ? ' (set notify.closedState to the state notify closes its issues in)' : ''}`}
  }
  const choice = manualTransition(workflow.transitions, issue.state, to)
  if (choice === null) return {reason: `cannot ${what} issue ${issueLabel(issue)}: no manual transition of the issue workflow leads from ${JSON.stringify(issue.state)} to ${JSON.stringify(to)}; add one (Administration → Issue Settings → State Transitions)`}
  const missing = missingRequiredFields(workflow.workflow, choice.transition.promptFields, input.target.project.path, input.fields)
  if (missing.length > 0) return {reason: requiredReason(missing, `cannot ${what} issue ${issueLabel(issue)}`)}
  return {choice, fields: promptedValues(input.fields, choice.transition.promptFields)}
}

export function issueLabel(issue: ServerIssue): string {
  return `#${issue.number ?? `id ${issue.id}`}`
}

const NOT_CONFIDENTIAL = 'is not confidential: its description would show the findings to everyone who may read the project\'s issues; make it confidential again (or delete it), then run notify again'

/** What is done with a duplicate of notify's issue (ownIssue), besides what decide() does with the issue kept. */
export type DuplicateAction =
  | {kind: 'close'; issue: ServerIssue; toState: string; transition: TransitionChoice; fields: FieldValues}
  /** The issue kept changes state this run: one transition per target and run, the duplicate's comes next run. */
  | {kind: 'later'; issue: ServerIssue}
  | {kind: 'refused'; issue: ServerIssue; reason: string}

/**
 * The first duplicate is closed, through a manual transition to the closed state like a close of
 * notify's issue; its description is left as it is. At most one transition per target and run: when
 * the issue kept is closed or reopened this run, the duplicate waits for the next.
 */
export function decideDuplicate(input: Omit<DecisionInput, 'issue'>, duplicate: ServerIssue, kept: NotifyAction): DuplicateAction {
  if (kept.kind === 'close' || kept.kind === 'reopen') return {kind: 'later', issue: duplicate}
  const transition = transitionTo({...input, issue: duplicate}, duplicate, input.closedState, 'close the duplicate')
  if ('reason' in transition) return {kind: 'refused', issue: duplicate, reason: transition.reason}
  return {kind: 'close', issue: duplicate, toState: input.closedState, transition: transition.choice, fields: transition.fields}
}

/** What to do for one target. */
export function decide(input: DecisionInput): NotifyAction {
  const {target, issue} = input
  const digest = findingsDigest(target.findings)
  if (issue === null) {
    if (digest === NO_FINDINGS) return {kind: 'none'}
    if (input.workflow !== null) {
      const missing = missingRequiredFields(input.workflow.workflow, fieldsOnOpen(input.workflow.workflow, target.project.path), target.project.path, input.fields)
      if (missing.length > 0) return {kind: 'refused', issue: null, reason: requiredReason(missing, 'cannot open an issue')}
    }
    return {kind: 'open', digest}
  }
  const was = parseMarker(issue.description)?.findings ?? null
  const closed = issue.state === input.closedState
  if (closed) {
    if (digest === NO_FINDINGS) return was === NO_FINDINGS ? {kind: 'unchanged', issue, note: 'closed, no finding'} : {kind: 'update', issue, digest, was}
    // Closed by someone with the same findings: nothing changed since.
    if (was === digest) return {kind: 'unchanged', issue, note: 'closed while its findings remain; left closed (suppress them in the configuration to accept them)'}
    if (!issue.confidential) return {kind: 'refused', issue, reason: `issue ${issueLabel(issue)} ${NOT_CONFIDENTIAL}`}
    const initial = input.workflow?.workflow.states[0]
    if (input.workflow !== null && (initial === undefined || initial === input.closedState)) {
      return {kind: 'refused', issue, reason: `cannot reopen issue ${issueLabel(issue)}: the issue workflow has no initial state other than ${JSON.stringify(input.closedState)}`}
    }
    const transition = transitionTo(input, issue, initial ?? '', 'reopen')
    if ('reason' in transition) return {kind: 'refused', issue, reason: transition.reason}
    return {kind: 'reopen', issue, digest, toState: initial!, transition: transition.choice, fields: transition.fields}
  }
  if (digest === NO_FINDINGS) {
    const transition = transitionTo(input, issue, input.closedState, 'close')
    if ('reason' in transition) return {kind: 'refused', issue, reason: transition.reason}
    return {kind: 'close', issue, describe: was !== NO_FINDINGS, toState: input.closedState, transition: transition.choice, fields: transition.fields}
  }
  if (was === digest) return {kind: 'unchanged', issue}
  if (!issue.confidential) return {kind: 'refused', issue, reason: `issue ${issueLabel(issue)} ${NOT_CONFIDENTIAL}`}
  return {kind: 'update', issue, digest, was}
}
