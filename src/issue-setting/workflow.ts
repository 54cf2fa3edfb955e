/**
 * Questions about an issue workflow that several issue-setting rules ask. Pure.
 */
import {BUILT_IN_FIELDS, type IssueSetting, type IssueTransition} from '../model/issue-setting.js'

/** `"name"` for messages: JSON-quoted, so quotes and control characters in a name stay visible. */
export function quoted(name: string): string {
  return JSON.stringify(name)
}

export function stateNames(setting: IssueSetting): Set<string> {
  return new Set(setting.states.map((state) => state.name))
}

/** Names a reference may use: the defined fields plus the built-in State and Iteration. */
export function fieldNames(setting: IssueSetting): Set<string> {
  return new Set([...BUILT_IN_FIELDS, ...setting.fields.map((field) => field.name)])
}

/** `Open, In Review → Closed`: how a transition is named in findings (it has no name of its own). */
export function transitionLabel(transition: IssueTransition): string {
  const from = transition.fromStates.length > 0 ? transition.fromStates.map((s) => s.name).join(', ') : 'any state'
  const targets = transition.toStates ?? (transition.toState ? [transition.toState] : [])
  const to = targets.length > 0 ? targets.map((s) => s.name).join(', ') : 'any state'
  return `${from} → ${to}`
}

/** Whether the file defines this list itself; when it leaves it out, the server uses its stock default and references cannot be judged. */
export function defines(setting: IssueSetting, key: 'stateSpecs' | 'fieldSpecs'): boolean {
  return !setting.omittedKeys.includes(key)
}
