import {describe, expect, it} from 'vitest'

import {normalizeIssueSetting, redactIssueSetting} from '../../src/model/issue-setting.js'
import {parseIssueSetting} from '../../src/model/issue-setting-file.js'

const contractShape = {
  stateSpecs: [
    {name: 'Open', description: null, color: '#f0ad4e'},
    {name: 'Closed', description: 'Done', color: '#5cb85c'},
  ],
  transitionSpecs: [{fromStates: ['Open'], toState: 'Closed', removeFields: ['Assignee']}],
  fieldSpecs: [{name: 'Assignee', description: null, nameOfEmptyValue: 'Nobody', promptUponIssueOpen: true, applicableProjects: null, allowMultiple: false, allowEmpty: true}],
  boardSpecs: [{name: 'Default', baseQuery: null, backlogBaseQuery: null, identifyField: 'State', columns: ['Open', 'Closed'], displayFields: ['Assignee'], displayLinks: [], editColumns: []}],
  listFields: ['State', 'Assignee'],
  listLinks: [],
  namedQueries: [{name: 'Open', query: '"State" is "Open"'}],
  issueTemplates: [],
  reconciled: true,
}

const currentShape = {
  stateSpecs: [{name: 'Open', color: '#f0ad4e'}, {name: 'Closed', color: '#5cb85c'}],
  fieldSpecs: [
    {
      '@type': 'ChoiceField',
      name: 'Type',
      allowMultiple: false,
      choiceProvider: {'@type': 'SpecifiedChoices', choices: [{value: 'Bug', color: '#f00'}, {value: 'Task', color: '#0f0'}]},
    },
    {'@type': 'UserChoiceField', name: 'Assignees', allowMultiple: true, showCondition: {inputName: 'Type', valueMatcher: {}}},
  ],
  transitionSpecs: [
    {'@type': 'ManualSpec', fromStates: ['Open'], toStates: ['Closed'], authorizedRoles: ['Developer', '{Assignees}'], promptFields: ['Type'], removeFields: [], issueQuery: null},
    {'@type': 'BranchUpdatedSpec', fromStates: [], toState: 'Closed', branches: 'main', removeFields: ['Assignees']},
  ],
  boardSpecs: [{name: 'By type', identifyField: 'Type', columns: ['Bug', null], displayFields: ['State'], displayLinks: []}],
  listFields: ['State'],
  listLinks: [],
  namedQueries: [],
  issueTemplates: [],
  timeTrackingSetting: {useHoursAndMinutesOnly: false, hoursPerDay: 8, daysPerWeek: 5},
  commitMessageFixSetting: {fixPatterns: []},
  externalIssueTransformers: {entries: []},
  reconciled: false,
}

function parse(value: unknown, file = 'issue-setting.json') {
  return parseIssueSetting(JSON.stringify(value, null, 2), file)
}

function errorOf(result: ReturnType<typeof parseIssueSetting>): string {
  if (!('error' in result)) throw new Error('expected an error')
  return result.error.message
}

describe('parseIssueSetting', () => {
  it('reads the contract shape: legacy transitions, names with pointers', () => {
    const result = parse(contractShape)
    if (!('setting' in result)) throw new Error(result.error.message)
    const setting = result.setting
    expect(setting.raw).toEqual(contractShape)
    expect(setting.states).toEqual([
      {name: 'Open', pointer: '/stateSpecs/0'},
      {name: 'Closed', pointer: '/stateSpecs/1'},
    ])
    expect(setting.fields).toEqual([{name: 'Assignee', pointer: '/fieldSpecs/0', type: null, allowMultiple: false, choices: null, showConditionField: null}])
    expect(setting.transitions).toEqual([
      {
        pointer: '/transitionSpecs/0',
        kind: 'legacy',
        type: null,
        fromStates: [{name: 'Open', pointer: '/transitionSpecs/0/fromStates/0'}],
        toStates: null,
        toState: {name: 'Closed', pointer: '/transitionSpecs/0/toState'},
        removeFields: [{name: 'Assignee', pointer: '/transitionSpecs/0/removeFields/0'}],
        promptFields: [],
        authorizedRoles: null,
        authorizedRolesPointer: '/transitionSpecs/0/authorizedRoles',
      },
    ])
    expect(setting.boards).toEqual([
      {
        pointer: '/boardSpecs/0',
        name: 'Default',
        identifyField: {name: 'State', pointer: '/boardSpecs/0/identifyField'},
        columns: [
          {name: 'Open', pointer: '/boardSpecs/0/columns/0'},
          {name: 'Closed', pointer: '/boardSpecs/0/columns/1'},
        ],
        displayFields: [{name: 'Assignee', pointer: '/boardSpecs/0/displayFields/0'}],
      },
    ])
    expect(setting.listFields).toEqual([
      {name: 'State', pointer: '/listFields/0'},
      {name: 'Assignee', pointer: '/listFields/1'},
    ])
    expect(setting.reconciled).toBe(true)
    expect(setting.omittedKeys).toEqual([])
  })

  it('reads current servers\' typed transitions, choice fields and null columns', () => {
    const result = parse(currentShape)
    if (!('setting' in result)) throw new Error(result.error.message)
    const setting = result.setting
    expect(setting.fields[0]).toMatchObject({name: 'Type', type: 'ChoiceField', allowMultiple: false, choices: ['Bug', 'Task']})
    expect(setting.fields[1]).toMatchObject({
      name: 'Assignees',
      type: 'UserChoiceField',
      allowMultiple: true,
      choices: null,
      showConditionField: {name: 'Type', pointer: '/fieldSpecs/1/showCondition/inputName'},
    })
    const [manual, automatic] = setting.transitions
    expect(manual).toMatchObject({
      kind: 'typed',
      type: 'ManualSpec',
      toStates: [{name: 'Closed', pointer: '/transitionSpecs/0/toStates/0'}],
      toState: null,
      authorizedRoles: [
        {name: 'Developer', pointer: '/transitionSpecs/0/authorizedRoles/0'},
        {name: '{Assignees}', pointer: '/transitionSpecs/0/authorizedRoles/1'},
      ],
      promptFields: [{name: 'Type', pointer: '/transitionSpecs/0/promptFields/0'}],
    })
    expect(automatic).toMatchObject({kind: 'typed', type: 'BranchUpdatedSpec', fromStates: [], toStates: null, authorizedRoles: null, toState: {name: 'Closed'}})
    expect(setting.boards[0]!.columns).toEqual([
      {name: 'Bug', pointer: '/boardSpecs/0/columns/0'},
      {name: null, pointer: '/boardSpecs/0/columns/1'},
    ])
    expect(setting.reconciled).toBe(false)
  })

  it('reads a legacy PressButtonTrigger as a manual transition with its roles', () => {
    const raw = {...contractShape, transitionSpecs: [{fromStates: ['Open'], toState: 'Closed', removeFields: [], trigger: {'@type': 'PressButtonTrigger', buttonLabel: 'Close', authorizedRoles: ['Developer'], promptFields: ['Assignee']}}]}
    const result = parse(raw)
    if (!('setting' in result)) throw new Error(result.error.message)
    expect(result.setting.transitions[0]).toMatchObject({
      kind: 'legacy',
      type: 'PressButtonTrigger',
      authorizedRoles: [{name: 'Developer', pointer: '/transitionSpecs/0/trigger/authorizedRoles/0'}],
      promptFields: [{name: 'Assignee', pointer: '/transitionSpecs/0/trigger/promptFields/0'}],
      authorizedRolesPointer: '/transitionSpecs/0/trigger/authorizedRoles',
    })
  })

  it('keeps unknown keys in raw and lists the contract keys the file leaves out', () => {
    const result = parse({stateSpecs: [{name: 'Open'}], somethingNew: {x: 1}})
    if (!('setting' in result)) throw new Error(result.error.message)
    expect(result.setting.raw).toEqual({stateSpecs: [{name: 'Open'}], somethingNew: {x: 1}})
    expect(result.setting.omittedKeys).toEqual(['transitionSpecs', 'fieldSpecs', 'boardSpecs', 'listFields', 'listLinks', 'namedQueries', 'issueTemplates'])
    expect(result.setting.reconciled).toBeNull()
  })

  it('names the JSON pointer of a shape error, in one line', () => {
    expect(errorOf(parse({stateSpecs: [{name: 42}]}))).toBe('issue-setting.json: /stateSpecs/0/name: expected string, got number')
    expect(errorOf(parse({stateSpecs: [{color: '#fff'}]}))).toBe('issue-setting.json: /stateSpecs/0/name: expected string (missing)')
    expect(errorOf(parse({stateSpecs: [{name: ''}]}))).toBe('issue-setting.json: /stateSpecs/0/name: expected a non-empty string')
    expect(errorOf(parse({stateSpecs: null}))).toBe('issue-setting.json: /stateSpecs: expected array, got null')
    expect(errorOf(parse({transitionSpecs: [{fromStates: ['Open']}]}))).toBe('issue-setting.json: /transitionSpecs/0/toState: expected string (missing)')
    expect(errorOf(parse({boardSpecs: [{name: 'B', identifyField: 'State', columns: [1]}], listFields: 'State'}))).toBe(
      'issue-setting.json: /boardSpecs/0/columns/0: expected string, got number (and 1 more problem)',
    )
    expect(errorOf(parse([1, 2]))).toBe('issue-setting.json: expected a JSON object at the top level, got array')
    const result = parse({stateSpecs: [{name: 1}]})
    expect('error' in result && result.error).toMatchObject({kind: 'invalid-payload', pointer: '/stateSpecs/0/name'})
  })

  it('accepts a typed transition without toState (ManualSpec) but not a contract-shape one', () => {
    expect('setting' in parse({transitionSpecs: [{'@type': 'ManualSpec', fromStates: [], toStates: []}]})).toBe(true)
    expect(errorOf(parse({transitionSpecs: [{'@type': 'ManualSpec', toStates: 'Closed'}]}))).toBe('issue-setting.json: /transitionSpecs/0/toStates: expected array, got string')
  })

  it('never echoes a value in a shape error', () => {
    const message = errorOf(parse({fieldSpecs: [{'@type': 'SecretField', name: 'Key', allowMultiple: 'hunter2-secret'}]}))
    expect(message).toBe('issue-setting.json: /fieldSpecs/0/allowMultiple: expected boolean, got string')
    expect(message).not.toContain('hunter2')
  })

  it('names file, line and column of a JSON syntax error without quoting the text', () => {
    const text = '{\n  "stateSpecs": [\n    {"name": "hunter2-secret",}\n  ]\n}'
    const result = parseIssueSetting(text, 'workflow/issue.json')
    expect(errorOf(result)).toBe("workflow/issue.json:3:31: invalid JSON: trailing comma before '}'")
    expect(errorOf(parseIssueSetting('{"a": tru}', 'f.json'))).toBe('f.json:1:7: invalid JSON: unexpected character')
    expect(errorOf(parseIssueSetting('{"a": "x', 'f.json'))).toBe('f.json:1:7: invalid JSON: unterminated string')
    expect(errorOf(parseIssueSetting('', 'f.json'))).toBe('f.json:1:1: invalid JSON: unexpected end of input')
    expect(errorOf(parseIssueSetting('{} x', 'f.json'))).toBe('f.json:1:4: invalid JSON: unexpected content after the JSON value')
  })

  it('accepts a byte-order mark', () => {
    expect('setting' in parseIssueSetting('\ufeff{"stateSpecs": [{"name": "Open"}]}', 'f.json')).toBe(true)
  })
})

describe('normalizeIssueSetting', () => {
  it('tolerates anything a server might answer', () => {
    expect(normalizeIssueSetting(null)).toMatchObject({states: [], fields: [], transitions: [], boards: [], reconciled: null})
    expect(normalizeIssueSetting({stateSpecs: [null, 'x', {name: 'Open'}]}).states).toEqual([{name: 'Open', pointer: '/stateSpecs/2'}])
  })
})

describe('redactIssueSetting', () => {
  it('masks SecretField defaults and password-like keys, and keeps everything else', () => {
    const raw = {
      fieldSpecs: [
        {'@type': 'SecretField', name: 'Deploy key', defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: 'hunter2-secret'}},
        {'@type': 'TextField', name: 'Note', defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: 'visible'}},
      ],
      somePlugin: {apiToken: 'tok-123', password: ['p1']},
      stateSpecs: [{name: 'Open'}],
    }
    const redacted = redactIssueSetting(raw)
    expect(redacted).toEqual({
      fieldSpecs: [
        {'@type': 'SecretField', name: 'Deploy key', defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: '<redacted>'}},
        {'@type': 'TextField', name: 'Note', defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: 'visible'}},
      ],
      somePlugin: {apiToken: '<redacted>', password: '<redacted>'},
      stateSpecs: [{name: 'Open'}],
    })
    expect(raw.fieldSpecs[0]!.defaultValueProvider.value).toBe('hunter2-secret')
  })
})
