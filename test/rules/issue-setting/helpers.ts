import {normalizeIssueSetting, type IssueSetting} from '../../../src/model/issue-setting.js'
import {model} from '../../helpers/model-builders.js'

/** A complete, consistent workflow in the contract's shape; cases change one part of it. */
export function workflow(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    stateSpecs: [
      {name: 'Open', color: '#f0ad4e'},
      {name: 'In Review', color: '#5bc0de'},
      {name: 'Closed', color: '#5cb85c'},
    ],
    transitionSpecs: [
      {fromStates: ['Open'], toState: 'In Review', removeFields: []},
      {fromStates: ['In Review'], toState: 'Closed', removeFields: ['Assignee']},
    ],
    fieldSpecs: [
      {name: 'Assignee', allowMultiple: false, allowEmpty: true},
      {'@type': 'ChoiceField', name: 'Type', allowMultiple: false, choiceProvider: {'@type': 'SpecifiedChoices', choices: [{value: 'Bug'}, {value: 'Task'}]}},
    ],
    boardSpecs: [{name: 'Default', identifyField: 'State', columns: ['Open', 'In Review', 'Closed'], displayFields: ['Type', 'Assignee'], displayLinks: []}],
    listFields: ['State', 'Iteration', 'Type'],
    listLinks: [],
    namedQueries: [{name: 'Open', query: '"State" is "Open"'}],
    issueTemplates: [],
    reconciled: true,
    ...overrides,
  }
}

export function issueCase(name: string, raw: Record<string, unknown>): {name: string; model: ReturnType<typeof model>; issueSetting: IssueSetting} {
  return {name, model: model(), issueSetting: normalizeIssueSetting(raw)}
}
