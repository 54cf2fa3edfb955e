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

/**
 * Notify's issue for a target among the issues a query found in its project: one whose marker names
 * the target, else one with notify's title and no marker (the marker was edited away). Marked before
 * unmarked, open before closed, then the oldest. `others`: more issues of the target (never a second
 * one is opened; they are named so a person can close them).
 */
export function ownIssue(issues: readonly ServerIssue[], target: NotifyTarget, closedState: string): {issue: ServerIssue | null; others: ServerIssue[]} {
  const title = ISSUE_TITLES[target.scope.kind]
  const candidates = issues.flatMap((issue) => {
    if (issue.projectId !== null && issue.projectId !== target.project.id) return []
    const marker = parseMarker(issue.description)
    if (marker) return sameScope(marker.scope, target.scope) ? [{issue, marked: 1}] : []
    return issue.title.trim() === title ? [{issue, marked: 0}] : []
  })
  candidates.sort(
    (a, b) =>
      b.marked - a.marked ||
      Number(a.issue.state === closedState) - Number(b.issue.state === closedState) ||
      (a.issue.number ?? a.issue.id) - (b.issue.number ?? b.issue.id) ||
      a.issue.id - b.issue.id,
  )
  return {issue: candidates[0]?.issue ?? null, others: candidates.slice(1).map((candidate) => candidate.issue)}
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
  | {kind: 'update'; issue: ServerIssue; digest: string; was: string | null}
  /** `describe`: the description still lists findings; it is rewritten (digest `none`) before the transition. */
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
    if (digest === NO_FINDINGS) return {kind: 'unchanged', issue, note: 'closed, no finding'}
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
