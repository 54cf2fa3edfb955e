/**
 * A plan and an apply run as people read them (stdout): per project each change with its fields as
 * before -> after (redacted: a plan holds no secret) and the findings it clears, then what is left to
 * change by hand. Every string that came from the server is shown with its control characters escaped.
 */
import {escapeControl} from '../util/escape.js'
import type {Outcome} from './apply.js'
import {withScheme} from './patch.js'
import type {Change, Edit, FindingRef, FixPlan, ManualStep} from './plan-types.js'
import {projectPage} from './where.js'

const json = (value: unknown) => escapeControl(JSON.stringify(value) ?? 'null')

function valueAt(expect: Edit['expect'], path: string): {found: boolean; value?: unknown} {
  const seen = expect.find((e) => e.path === path)
  return seen && 'value' in seen ? {found: true, value: seen.value} : {found: false}
}

/** One edit as `path: before -> after`. */
export function fieldLine(edit: Edit): string {
  const old = valueAt(edit.expect, edit.path)
  const path = escapeControl(edit.path)
  switch (edit.op) {
    case 'replace':
      return `${path}: ${old.found ? json(old.value) : '(not set)'} -> ${json(edit.value)}`
    case 'add':
      return old.found ? `${path}: ${json(old.value)} -> ${json(edit.value)}` : `${path}: (new) ${json(edit.value)}`
    case 'remove':
      return old.found ? `${path}: ${json(old.value)} -> (removed)` : `${path}: (removed)`
    case 'set-scheme': {
      let after = `${edit.value}://…`
      try {
        after = json(withScheme(old.value, edit.value, edit.path))
      } catch {
        // The plan saw no URL there: say the scheme alone.
      }
      return `${path}: ${old.found ? json(old.value) : '(unknown)'} -> ${after}`
    }
  }
}

const SHOWN_PROJECTS = 5

/**
 * Findings as lines, the same finding of several projects (a parent's change clears it in each child)
 * on one: `high branch-protection/force-push-allowed "main" in acme/a, acme/b and 3 more`.
 */
function findingLines(findings: readonly FindingRef[]): string[] {
  const groups = new Map<string, {finding: FindingRef; projects: string[]}>()
  for (const finding of findings) {
    const key = `${finding.severity}\u0000${finding.ruleId}\u0000${finding.subject}`
    const group = groups.get(key)
    const project = finding.project ? escapeControl(finding.project.path) : null
    if (!group) groups.set(key, {finding, projects: project ? [project] : []})
    else if (project) group.projects.push(project)
  }
  return [...groups.values()].map(({finding, projects}) => {
    const more = projects.length > SHOWN_PROJECTS ? ` and ${projects.length - SHOWN_PROJECTS} more` : ''
    const where = projects.length === 0 ? '' : ` in ${projects.slice(0, SHOWN_PROJECTS).join(', ')}${more}`
    return `${finding.severity} ${finding.ruleId} "${escapeControl(finding.subject)}"${where}`
  })
}

function changeLines(change: Change): string[] {
  return [
    `  ${change.kind === 'fix' ? 'fix       ' : 'suggestion'} ${change.ruleId}: ${escapeControl(change.description)}`,
    ...change.edits.map((edit) => `             ${fieldLine(edit)}`),
    ...findingLines(change.clears).map((line) => `             clears ${line}`),
    ...findingLines(change.reveals).map((line) => `             then reports ${line} (part of what it clears)`),
  ]
}

function manualLine(step: ManualStep): string {
  const {finding} = step
  // `where` names the project that holds the setting; the judged one only when it is another.
  const inProject = finding.project && !step.where.startsWith(`${finding.project.path}: `) ? ` in ${escapeControl(finding.project.path)}` : ''
  return `  ${finding.severity.padEnd(8)} ${finding.ruleId} "${escapeControl(finding.subject)}"${inProject}: ${escapeControl(step.where)}; ${escapeControl(step.reason)}`
}

export function planSummary(plan: FixPlan): string {
  const changes = plan.projects.flatMap((p) => p.changes)
  const fixes = changes.filter((c) => c.kind === 'fix').length
  const cleared = changes.reduce((n, c) => n + c.clears.length, 0)
  const projects = plan.projects.length
  if (changes.length === 0) return `Nothing to change: no planned change clears a finding (${plan.manual.length} finding${plan.manual.length === 1 ? '' : 's'} left to change by hand).`
  return (
    `${changes.length} change${changes.length === 1 ? '' : 's'} (${fixes} fix${fixes === 1 ? '' : 'es'}, ${changes.length - fixes} suggestion${changes.length - fixes === 1 ? '' : 's'}) ` +
    `in ${projects} project${projects === 1 ? '' : 's'}, clearing ${cleared} finding${cleared === 1 ? '' : 's'}; ${plan.manual.length} left to change by hand.`
  )
}

/** The plan, for review, line by line; `manual` false: the steps left to a person only counted (when it is being applied). */
export function* planLines(plan: FixPlan, manual = true): Generator<string, void, undefined> {
  const server = plan.server ? `${escapeControl(plan.server.url)} (${escapeControl(plan.server.apiPrefix)})` : 'a snapshot without a server'
  yield `Plan for ${server}, made ${plan.createdAt}${plan.source.kind === 'snapshot' ? ` from the snapshot ${escapeControl(plan.source.snapshot ?? '')}` : ''}.`
  yield ''
  for (const project of plan.projects) {
    yield `${escapeControl(project.path)} (#${project.id}), ${project.generation} payload${project.audited ? '' : ' (not audited itself: its other child projects were not judged)'}`
    for (const change of project.changes) yield* changeLines(change)
    yield ''
  }
  if (plan.manual.length > 0 && manual) {
    yield 'Left to change by hand (never sent):'
    for (const step of plan.manual) yield manualLine(step)
    yield ''
  }
  yield planSummary(plan)
}

/** The changes of projects that were not applied, as steps for a person (after a server that does not offer the POST). */
export function manualChangeLines(plan: Pick<FixPlan, 'projects'>, ids: ReadonlySet<number>): string[] {
  const lines: string[] = []
  for (const project of plan.projects) {
    if (!ids.has(project.id)) continue
    for (const change of project.changes) {
      lines.push(`  ${escapeControl(project.path)}: ${projectPage(change.ruleId)}: ${escapeControl(change.description)}`)
      for (const edit of change.edits) lines.push(`      ${fieldLine(edit)}`)
    }
  }
  return lines
}

const LABELS: Record<Outcome['status'], string> = {
  'applied': 'applied',
  'conflict': 'CONFLICT',
  'refused': 'REFUSED',
  'rolled-back': 'ROLLED BACK',
  'rollback-failed': 'ROLLBACK FAILED',
  'unreadable': 'NOT READ',
  'not-offered': 'NOT OFFERED',
  'not-sent': 'not sent',
}

export function outcomeLines(outcomes: readonly Outcome[]): string[] {
  const lines = outcomes.map((o) => `  ${LABELS[o.status].padEnd(15)} ${escapeControl(o.path)} (#${o.id}): ${escapeControl(o.detail)}`)
  const applied = outcomes.filter((o) => o.status === 'applied').length
  lines.push(`Applied ${applied} of ${outcomes.length} project${outcomes.length === 1 ? '' : 's'}.`)
  return lines
}
