/**
 * How OneDev's issue workflow treats the requests of `onedev-audit notify`, as pure functions: which
 * manual transition moves an issue from one state to another (`Project#getManualSpec`: the project's
 * transitions, its ancestors', then the global ones, the first that `canTransit` and `isAuthorized`),
 * and which fields a new issue (or a transition) needs a value for (`Issue#addMissingFields` adds the
 * prompted fields with their defaults, then `Issue#validateFields` refuses an empty one that may not be
 * empty and is visible: HTTP 406 `Invalid fields: ...`).
 *
 * The caller is an administrator (the token notify needs), for whom OneDev authorizes every manual
 * transition: with authorized roles, because an administrator manages issues; without, because any
 * user may. A transition's applicable-issues query is the server's to judge: one without a query is
 * preferred, one with a query is offered as `conditional`.
 */
import type {FieldDefault, IssueWorkflow, ManualTransition, WorkflowField} from '../model/issue-workflow.js'
import {pathMatcher} from './matchers.js'
import {tryParsePatternSet} from './pattern-set.js'
import {ISSUE_FIELD_VALUES, readingAt, releaseOfVersion} from './versions.js'

/** The state an issue of notify is closed in, unless the configuration names another (`notify.closedState`). */
export const DEFAULT_CLOSED_STATE = 'Closed'

/** Values configured for issue fields (`notify.fields`): each field's values (one for a single-valued field). */
export type FieldValues = Readonly<Record<string, readonly string[]>>

export interface TransitionChoice {
  transition: ManualTransition
  /** It has an applicable-issues query: the server decides whether it applies to the issue. */
  conditional: boolean
}

/**
 * The manual transition that moves an issue from state `from` to state `to`, among `transitions` in
 * OneDev's order (the project's own, its ancestors', then the global ones): the first without an
 * applicable-issues query, else the first with one (conditional). null when none leads there.
 */
export function manualTransition(transitions: readonly ManualTransition[], from: string, to: string): TransitionChoice | null {
  let conditional: ManualTransition | null = null
  for (const transition of transitions) {
    if (transition.fromStates.length > 0 && !transition.fromStates.includes(from)) continue
    if (transition.toStates.length > 0 && !transition.toStates.includes(to)) continue
    if (!transition.issueQuery?.trim()) return {transition, conditional: false}
    conditional ??= transition
  }
  return conditional ? {transition: conditional, conditional: true} : null
}

/** Whether a project path is among `patterns` (a pattern set of paths; null: every project). A set the server could not parse counts as matching. */
function applies(patterns: string | null, projectPath: string): boolean {
  if (patterns === null || patterns.trim() === '') return true
  const set = tryParsePatternSet(patterns)
  return set === null || set.matches(projectPath, pathMatcher)
}

/** A field's default values in a project: [] when none, null when only the server can tell (a script). */
export function defaultValues(value: FieldDefault, projectPath: string): readonly string[] | null {
  if (value.kind === 'none') return []
  if (value.kind === 'computed') return null
  const entry = value.entries.find((candidate) => applies(candidate.applicableProjects, projectPath))
  return entry ? entry.values : []
}

/** The fields a new issue of the project is opened with (prompted upon open and applicable to it), in the workflow's order. */
export function fieldsOnOpen(workflow: IssueWorkflow, projectPath: string): string[] {
  return workflow.fields.filter((field) => field.promptUponIssueOpen && applies(field.applicableProjects, projectPath)).map((field) => field.name)
}

function visible(field: WorkflowField, valueOf: (name: string) => readonly string[] | null): boolean {
  const condition = field.showCondition
  if (condition === null) return true
  const values = valueOf(condition.field)
  if (values === null) return true
  switch (condition.matcher ?? 'ValueIsOneOf') {
    case 'ValueIsOneOf':
      return values.some((value) => condition.values.includes(value))
    case 'ValueIsNotAnyOf':
      return !values.some((value) => condition.values.includes(value))
    case 'ValueIsEmpty':
      return values.length === 0
    case 'ValueIsNotEmpty':
      return values.length > 0
    default:
      return true
  }
}

/**
 * The fields among `prompted` (what the request adds to the issue: the fields of a new issue, or a
 * transition's prompt fields) that would be refused as empty: not allowed empty, visible, with no
 * value configured and no default for the project. A default only the server can compute counts as a
 * value; so does a visibility that depends on one. In the workflow's order.
 */
export function missingRequiredFields(workflow: IssueWorkflow, prompted: readonly string[], projectPath: string, configured: FieldValues): string[] {
  const byName = new Map(workflow.fields.map((field) => [field.name, field]))
  const present = new Set([...prompted, ...Object.keys(configured)])
  const valueOf = (name: string): readonly string[] | null => {
    const given = configured[name]
    if (given !== undefined) return given
    const field = byName.get(name)
    return field && present.has(name) ? defaultValues(field.defaultValue, projectPath) : []
  }
  return workflow.fields
    .filter((field) => prompted.includes(field.name) && !field.allowEmpty && configured[field.name] === undefined)
    .filter((field) => visible(field, valueOf))
    .filter((field) => defaultValues(field.defaultValue, projectPath)?.length === 0)
    .map((field) => field.name)
}

/** Configured fields the workflow does not define, and configured values a choice field does not offer, as one line each. */
export function fieldConfigurationProblems(workflow: IssueWorkflow, configured: FieldValues): string[] {
  const byName = new Map(workflow.fields.map((field) => [field.name, field]))
  const problems: string[] = []
  for (const [name, values] of Object.entries(configured)) {
    const field = byName.get(name)
    if (!field) {
      problems.push(`${JSON.stringify(name)}: the server's issue workflow has no such field`)
      continue
    }
    if (values.length > 1 && !field.allowMultiple) problems.push(`${JSON.stringify(name)}: the field takes one value, ${values.length} are given`)
    const offered = field.choices
    const unknown = offered === null ? [] : values.filter((value) => !offered.includes(value))
    if (unknown.length > 0) problems.push(`${JSON.stringify(name)}: ${unknown.map((value) => JSON.stringify(value)).join(', ')} is not one of its choices (${offered!.map((value) => JSON.stringify(value)).join(', ')})`)
  }
  return problems
}

/**
 * Whether the server reads several values of one field in a request (a JSON list in `fields` of a new
 * issue or a transition): from 10.0.0 (versions.ts ISSUE_FIELD_VALUES, where it was read); an unknown
 * version is taken for one value. `version` as GET /version/server answers it (`11.1.6` is a tag of
 * the 14.1 line: at or past 10 either way).
 */
export function readsFieldLists(version: string | null): boolean {
  return readingAt(ISSUE_FIELD_VALUES, releaseOfVersion(version)).reading === 'lists'
}

/** The configured fields with several values, which a server that reads one value per field (readsFieldLists) cannot take: their names, in the configuration's order. */
export function fieldsNotCarried(configured: FieldValues, version: string | null): string[] {
  return readsFieldLists(version) ? [] : Object.entries(configured).flatMap(([name, values]) => (values.length > 1 ? [name] : []))
}
