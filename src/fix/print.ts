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
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

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

/** `63 findings left (1 not proven, 13 with a suggestion not asked for, 49 by hand)`. */
function leftPhrase(steps: readonly ManualStep[]): string {
  const count = (...why: ManualStep['why'][]) => steps.filter((s) => why.includes(s.why)).length
  const parts = [
    [count('not-proven', 'unreadable'), 'not proven'],
    [count('suggestion'), 'with a suggestion not asked for'],
    [count('no-change', 'global'), 'by hand'],
  ] as const
  const shown = parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`)
  return `${plural(steps.length, 'finding')} left${shown.length > 0 ? ` (${shown.join(', ')})` : ''}`
}

export function planSummary(plan: FixPlan): string {
  const changes = plan.projects.flatMap((p) => p.changes)
  const fixes = changes.filter((c) => c.kind === 'fix').length
  const cleared = changes.reduce((n, c) => n + c.clears.length, 0)
  if (changes.length === 0) return `Nothing to change: no planned change clears a finding; ${leftPhrase(plan.manual)}.`
  return (
    `${plural(changes.length, 'change')} (${fixes} fix${fixes === 1 ? '' : 'es'}, ${plural(changes.length - fixes, 'suggestion')}) ` +
    `in ${plural(plan.projects.length, 'project')}, clearing ${plural(cleared, 'finding')}; ${leftPhrase(plan.manual)}.`
  )
}

/** How the steps left to a person are shown: each one, a digest (the default), or only counted (when the plan is applied). */
export type ManualListing = 'each' | 'digest' | 'count'

/** Steps counted by rule, most first: `  12 role/unused (Administration > Roles)`, with how many projects they are in. */
function countedByRule(steps: readonly ManualStep[]): string[] {
  const byRule = new Map<string, {count: number; page: string; projects: Set<number>}>()
  for (const step of steps) {
    const {ruleId, project} = step.finding
    let entry = byRule.get(ruleId)
    // The page without the project that holds the setting: the same for every finding of a rule.
    if (!entry) byRule.set(ruleId, (entry = {count: 0, page: step.where.slice(step.where.lastIndexOf(': ') + 1).trim(), projects: new Set()}))
    entry.count++
    if (project) entry.projects.add(project.id)
  }
  return [...byRule]
    .sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : a > b ? 1 : 0))
    .map(([ruleId, {count, page, projects}]) => `  ${String(count).padStart(5)} ${ruleId}${projects.size > 1 ? ` in ${plural(projects.size, 'project')}` : ''} (${escapeControl(page)})`)
}

/**
 * The steps left to a person. A digest by default: a change that was tried and did not prove out is
 * shown one by one (a fix was expected there, and the reason matters), the others are counted by rule;
 * `each` lists every step with its project, where and why (as the plan file holds them).
 */
function* manualLines(steps: readonly ManualStep[], listing: ManualListing): Generator<string, void, undefined> {
  if (steps.length === 0 || listing === 'count') return
  if (listing === 'each') {
    yield 'Left to change by hand (never sent):'
    for (const step of steps) yield manualLine(step)
    yield ''
    return
  }
  const notPlanned = steps.filter((s) => s.why === 'not-proven' || s.why === 'unreadable')
  const suggestions = steps.filter((s) => s.why === 'suggestion')
  const byHand = steps.filter((s) => s.why === 'no-change' || s.why === 'global')
  if (notPlanned.length > 0) {
    yield `Not planned: ${plural(notPlanned.length, 'change')} did not prove out (nothing is sent for these):`
    for (const step of notPlanned) yield manualLine(step)
    yield ''
  }
  if (suggestions.length > 0) {
    yield `Suggestions not asked for: ${plural(suggestions.length, 'finding')} (plan them with --suggestions, or one rule with --rule ID):`
    yield* countedByRule(suggestions)
    yield ''
  }
  if (byHand.length > 0) {
    yield `Left to change by hand: ${plural(byHand.length, 'finding')} no change is offered for (roles, server settings, access, ...; never sent):`
    yield* countedByRule(byHand)
    yield ''
  }
  yield 'Each of them with its project, where to change it and why: --verbose, or the plan file (--output).'
  yield ''
}

/** The plan, for review, line by line. */
export function* planLines(plan: FixPlan, listing: ManualListing = 'digest'): Generator<string, void, undefined> {
  const server = plan.server ? `${escapeControl(plan.server.url)} (${escapeControl(plan.server.apiPrefix)})` : 'a snapshot without a server'
  yield `Plan for ${server}, made ${plan.createdAt}${plan.source.kind === 'snapshot' ? ` from the snapshot ${escapeControl(plan.source.snapshot ?? '')}` : ''}.`
  yield ''
  for (const project of plan.projects) {
    yield `${escapeControl(project.path)} (#${project.id}), ${project.generation} payload${project.audited ? '' : ' (not audited itself: its other child projects were not judged)'}`
    for (const change of project.changes) yield* changeLines(change)
    yield ''
  }
  yield* manualLines(plan.manual, listing)
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
  'by-hand': 'BY HAND',
  'conflict': 'CONFLICT',
  'rejected': 'REJECTED',
  'refused': 'REFUSED',
  'rolled-back': 'ROLLED BACK',
  'rollback-failed': 'ROLLBACK FAILED',
  'unreadable': 'NOT READ',
  'not-offered': 'NOT OFFERED',
  'not-sent': 'not sent',
}

export function outcomeLines(outcomes: readonly Outcome[]): string[] {
  const lines = outcomes.flatMap((o) => [
    `  ${LABELS[o.status].padEnd(15)} ${escapeControl(o.path)} (#${o.id}): ${escapeControl(o.detail)}`,
    ...(o.byHand ?? []).map((line) => `${' '.repeat(18)}by hand: ${escapeControl(line)}`),
  ])
  const applied = outcomes.filter((o) => o.status === 'applied').length
  lines.push(`Applied ${applied} of ${outcomes.length} project${outcomes.length === 1 ? '' : 's'}.`)
  return lines
}
