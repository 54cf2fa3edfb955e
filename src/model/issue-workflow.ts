/**
 * What `onedev-audit notify` needs of an issue workflow (GET {prefix}/settings/issue, and a project's
 * own `issueSetting.transitionSpecs`): the states, the manual transitions with who may use them and on
 * which issues, and what each custom field asks of a new issue (onedev-reference.md §6; OneDev's
 * `ManualSpec`, `FieldSpec`, `Issue#validateFields`). Built on normalizeIssueSetting (the same reading
 * as the issue-setting rules) plus the members only notify reads. Tolerant of anything: what is not
 * understood is left out, and an absent member takes the server's own default.
 */
import {normalizeIssueSetting, type IssueTransition} from './issue-setting.js'
import {resolvePointer} from './pointer.js'
import {typeOf} from './polymorphic.js'
import {isObject} from '../util/json.js'

/**
 * A field's default value as the workflow states it: `none`; `specified` (per project: the first entry
 * whose applicable projects match, as OneDev's SpecifiedDefaultValue picks; `values` empty when the
 * entry names none); or `computed` (a script, or a provider only the server can evaluate).
 */
export type FieldDefault = {kind: 'none'} | {kind: 'computed'} | {kind: 'specified'; entries: Array<{applicableProjects: string | null; values: string[]}>}

/** A field's `showCondition`: visible when the value of `field` matches (`ValueIsOneOf`, `ValueIsNotAnyOf`, `ValueIsEmpty`, `ValueIsNotEmpty`). */
export interface ShowCondition {
  field: string
  /** The matcher's `@type` without its package; null when absent (OneDev's default is ValueIsOneOf). */
  matcher: string | null
  values: string[]
}

export interface WorkflowField {
  name: string
  /** `@type` (`ChoiceField`, `TextField`, ...); null when the file has none. */
  type: string | null
  allowMultiple: boolean
  /** `allowEmpty`; absent: false (OneDev's InputSpec default). */
  allowEmpty: boolean
  /** Whether it is added to a new issue (`promptUponIssueOpen`; absent: true, FieldSpec's default). */
  promptUponIssueOpen: boolean
  /** The projects a new issue prompts it in (pattern set of paths); null: every project. */
  applicableProjects: string | null
  defaultValue: FieldDefault
  /** A choice field's specified choices; null when not known. */
  choices: string[] | null
  showCondition: ShowCondition | null
}

/** A transition a person (or a token) performs: ManualSpec (11.0.2 and later) or a legacy PressButtonTrigger. */
export interface ManualTransition {
  /** Where it is: `/transitionSpecs/3` of the global setting, or of the project's `issueSetting`. */
  pointer: string
  /** Empty: from any state. */
  fromStates: string[]
  /** Empty: to any state. */
  toStates: string[]
  /** Applicable issues (`issueQuery`); null or empty: every issue. */
  issueQuery: string | null
  /** Fields asked for when it is performed (OneDev adds them with their defaults, then validates). */
  promptFields: string[]
  /** Empty: any user. */
  authorizedRoles: string[]
}

export interface IssueWorkflow {
  /** State names in order: the first is where a new issue starts. */
  states: string[]
  fields: WorkflowField[]
  /** The manual transitions of the global setting, in order. */
  transitions: ManualTransition[]
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null)
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [])

function defaultOf(provider: unknown): FieldDefault {
  if (!isObject(provider)) return {kind: 'none'}
  const type = typeOf(provider) ?? ''
  if (!/^Specified/.test(type)) return {kind: 'computed'}
  if (Array.isArray(provider['defaultValues'])) {
    return {
      kind: 'specified',
      entries: provider['defaultValues'].flatMap((entry) => {
        if (!isObject(entry)) return []
        const value = entry['value']
        const values = typeof value === 'string' ? [value] : strings(value)
        return [{applicableProjects: stringOrNull(entry['applicableProjects']), values: values.filter((v) => v !== '')}]
      }),
    }
  }
  const value = provider['value']
  const values = typeof value === 'string' || typeof value === 'number' ? [String(value)] : strings(value)
  return {kind: 'specified', entries: [{applicableProjects: null, values: values.filter((v) => v !== '')}]}
}

function fieldOf(raw: unknown, pointer: string, base: {name: string; type: string | null; allowMultiple: boolean; choices: string[] | null}): WorkflowField {
  const item = resolvePointer(raw, pointer)
  const object = isObject(item) ? item : {}
  // A multi-valued choice or user field keeps its default in defaultMultiValueProvider.
  const providerKey = base.allowMultiple && 'defaultMultiValueProvider' in object ? 'defaultMultiValueProvider' : 'defaultValueProvider'
  const condition = object['showCondition']
  const matcher = isObject(condition) ? condition['valueMatcher'] : undefined
  return {
    name: base.name,
    type: base.type,
    allowMultiple: base.allowMultiple,
    choices: base.choices,
    allowEmpty: object['allowEmpty'] === true,
    promptUponIssueOpen: object['promptUponIssueOpen'] !== false,
    applicableProjects: stringOrNull(object['applicableProjects']),
    defaultValue: defaultOf(object[providerKey]),
    showCondition:
      isObject(condition) && typeof condition['inputName'] === 'string'
        ? {field: condition['inputName'], matcher: typeOf(matcher), values: isObject(matcher) ? strings(matcher['values']) : []}
        : null,
  }
}

function manualOf(transition: IssueTransition, document: unknown): ManualTransition | null {
  if (transition.authorizedRoles === null) return null
  const item = resolvePointer(document, transition.pointer)
  const trigger = isObject(item) && isObject(item['trigger']) ? item['trigger'] : null
  const query = transition.kind === 'legacy' ? trigger?.['issueQuery'] : isObject(item) ? item['issueQuery'] : null
  const names = (refs: ReadonlyArray<{name: string}>) => refs.map((ref) => ref.name)
  return {
    pointer: transition.pointer,
    fromStates: names(transition.fromStates),
    // A legacy press-button transition leads to its one `toState`.
    toStates: transition.toStates ? names(transition.toStates) : transition.toState ? [transition.toState.name] : [],
    issueQuery: stringOrNull(query),
    promptFields: names(transition.promptFields),
    authorizedRoles: names(transition.authorizedRoles),
  }
}

/** The manual transitions of a list of transition specs (the global setting's, or a project's `issueSetting.transitionSpecs`). */
export function manualTransitions(transitionSpecs: unknown, pointerBase = ''): ManualTransition[] {
  const document = {transitionSpecs: Array.isArray(transitionSpecs) ? transitionSpecs : []}
  return normalizeIssueSetting(document)
    .transitions.flatMap((transition) => manualOf(transition, document) ?? [])
    .map((transition) => ({...transition, pointer: pointerBase + transition.pointer}))
}

/** The global issue setting as notify reads it. */
export function readIssueWorkflow(raw: unknown): IssueWorkflow {
  const setting = normalizeIssueSetting(raw)
  return {
    states: setting.states.map((state) => state.name),
    fields: setting.fields.map((field) => fieldOf(raw, field.pointer, field)),
    transitions: setting.transitions.flatMap((transition) => manualOf(transition, raw) ?? []),
  }
}

/** A project's own manual transitions, from its raw setting (`issueSetting.transitionSpecs`, current servers); [] when it has none. */
export function projectTransitions(projectRaw: unknown): ManualTransition[] {
  const issueSetting = isObject(projectRaw) ? projectRaw['issueSetting'] : undefined
  return isObject(issueSetting) ? manualTransitions(issueSetting['transitionSpecs'], '/issueSetting') : []
}
