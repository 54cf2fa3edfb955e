/**
 * The issue workflow as notify reads it (src/model/issue-workflow.ts) and judges it
 * (src/onedev/issue-workflow.ts): which manual transition closes or reopens an issue, in OneDev's
 * order, which fields a new issue would be refused without, and which servers read several values
 * of one field.
 */
import {describe, expect, it} from 'vitest'

import {manualTransitions, projectTransitions, readIssueWorkflow} from '../../src/model/issue-workflow.js'
import {defaultValues, fieldConfigurationProblems, fieldsNotCarried, fieldsOnOpen, manualTransition, missingRequiredFields, readsFieldLists} from '../../src/onedev/issue-workflow.js'
import {DEFAULT_WORKFLOW} from '../helpers/issue-store.js'

const manual = (spec: Record<string, unknown>) => ({'@type': 'ManualSpec', fromStates: [], toStates: [], authorizedRoles: [], promptFields: [], removeFields: [], issueQuery: null, ...spec})

describe('readIssueWorkflow', () => {
  it('reads states in order, manual transitions only (typed and the legacy press-button ones), and what each field asks of a new issue', () => {
    const workflow = readIssueWorkflow({
      ...DEFAULT_WORKFLOW,
      transitionSpecs: [
        ...DEFAULT_WORKFLOW.transitionSpecs,
        {fromStates: ['Open'], toState: 'Closed', removeFields: [], trigger: {'@type': 'PressButtonTrigger', authorizedRoles: ['Code Writer'], promptFields: ['Resolution'], issueQuery: '"Type" is "Bug"'}},
        {fromStates: ['Open'], toState: 'Closed', removeFields: [], trigger: {'@type': 'BuildSuccessfulTrigger', jobNames: 'ci'}},
      ],
    })
    expect(workflow.states).toEqual(['Open', 'In Progress', 'Closed'])
    expect(workflow.transitions).toEqual([
      {pointer: '/transitionSpecs/1', fromStates: [], toStates: [], issueQuery: null, promptFields: [], authorizedRoles: ['Code Writer', '<Issue Submitter>']},
      {pointer: '/transitionSpecs/2', fromStates: ['Open'], toStates: ['Closed'], issueQuery: '"Type" is "Bug"', promptFields: ['Resolution'], authorizedRoles: ['Code Writer']},
    ])
    expect(workflow.fields.map((field) => [field.name, field.allowEmpty, field.promptUponIssueOpen, field.defaultValue])).toEqual([
      ['Type', false, true, {kind: 'specified', entries: [{applicableProjects: null, values: ['Task']}]}],
      ['Assignees', true, true, {kind: 'none'}],
    ])
  })

  it('takes the server defaults for absent members, and tells a scripted default from none', () => {
    const workflow = readIssueWorkflow({
      stateSpecs: [{name: 'Open'}],
      fieldSpecs: [
        {'@type': 'TextField', name: 'Note'},
        {'@type': 'ChoiceField', name: 'Team', allowMultiple: true, defaultMultiValueProvider: {'@type': 'SpecifiedDefaultMultiValue', defaultValues: [{value: ['a', 'b'], applicableProjects: 'acme/**'}]}},
        {'@type': 'UserChoiceField', name: 'Owner', defaultValueProvider: {'@type': 'io.onedev.server.model.support.issue.field.spec.userchoicefield.defaultvalueprovider.ScriptingDefaultValue', scriptName: 'owner'}},
        {'@type': 'TextField', name: 'Blank', defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: null}},
      ],
    })
    expect(workflow.fields.map((field) => [field.name, field.allowEmpty, field.promptUponIssueOpen, field.applicableProjects, field.defaultValue])).toEqual([
      ['Note', false, true, null, {kind: 'none'}],
      ['Team', false, true, null, {kind: 'specified', entries: [{applicableProjects: 'acme/**', values: ['a', 'b']}]}],
      ['Owner', false, true, null, {kind: 'computed'}],
      ['Blank', false, true, null, {kind: 'specified', entries: [{applicableProjects: null, values: []}]}],
    ])
  })

  it('tolerates anything: no states, transitions that are not objects, a setting that is not one', () => {
    expect(readIssueWorkflow(null)).toEqual({states: [], fields: [], transitions: []})
    expect(readIssueWorkflow({transitionSpecs: [null, 3, manual({toStates: 'Closed'})]}).transitions).toEqual([
      {pointer: '/transitionSpecs/2', fromStates: [], toStates: [], issueQuery: null, promptFields: [], authorizedRoles: []},
    ])
  })

  it("reads a project's own transitions from its setting, pointing into it", () => {
    expect(projectTransitions({issueSetting: {transitionSpecs: [manual({fromStates: ['Review']})]}})).toEqual([
      {pointer: '/issueSetting/transitionSpecs/0', fromStates: ['Review'], toStates: [], issueQuery: null, promptFields: [], authorizedRoles: []},
    ])
    expect(projectTransitions({branchProtections: []})).toEqual([])
    expect(manualTransitions('not a list')).toEqual([])
  })
})

describe('manualTransition', () => {
  const transitions = manualTransitions([
    manual({fromStates: ['In Progress'], toStates: ['Closed']}),
    manual({fromStates: ['Open'], toStates: ['Closed'], issueQuery: '"Type" is "Bug"'}),
    manual({fromStates: ['Open'], toStates: ['Closed', 'Done']}),
    manual({fromStates: ['Closed'], toStates: []}),
  ])

  it('takes the first that leads from the state to the state, preferring one without an applicable-issues query', () => {
    expect(manualTransition(transitions, 'Open', 'Closed')).toEqual({transition: transitions[2], conditional: false})
    expect(manualTransition(transitions, 'In Progress', 'Closed')).toEqual({transition: transitions[0], conditional: false})
    expect(manualTransition(transitions, 'Closed', 'Open')).toEqual({transition: transitions[3], conditional: false})
  })

  it('offers a transition with a query as conditional when it is the only one, and none when nothing leads there', () => {
    const onlyConditional = manualTransitions([manual({fromStates: ['Open'], toStates: ['Closed'], issueQuery: 'confidential'})])
    expect(manualTransition(onlyConditional, 'Open', 'Closed')).toEqual({transition: onlyConditional[0], conditional: true})
    expect(manualTransition(transitions, 'Review', 'Closed')).toBeNull()
    expect(manualTransition(transitions, 'Open', 'Review')).toBeNull()
  })
})

describe('fields a new issue needs', () => {
  const workflow = readIssueWorkflow({
    stateSpecs: [{name: 'Open'}],
    fieldSpecs: [
      {'@type': 'ChoiceField', name: 'Type', allowEmpty: false, choiceProvider: {'@type': 'SpecifiedChoices', choices: [{value: 'Bug'}, {value: 'Task'}]}, defaultValueProvider: {'@type': 'SpecifiedDefaultValue', defaultValues: [{value: 'Bug', applicableProjects: 'acme/**'}]}},
      {'@type': 'TextField', name: 'Severity', allowEmpty: false},
      {'@type': 'TextField', name: 'Optional', allowEmpty: true},
      {'@type': 'TextField', name: 'Later', allowEmpty: false, promptUponIssueOpen: false},
      {'@type': 'TextField', name: 'Elsewhere', allowEmpty: false, applicableProjects: 'legacy/** -legacy/keep'},
      {'@type': 'TextField', name: 'Bug detail', allowEmpty: false, showCondition: {inputName: 'Type', valueMatcher: {'@type': 'ValueIsOneOf', values: ['Bug']}}},
      {'@type': 'TextField', name: 'Scripted', allowEmpty: false, defaultValueProvider: {'@type': 'ScriptingDefaultValue', scriptName: 'x'}},
    ],
  })

  it('knows which fields a project prompts on open (applicable projects with excludes)', () => {
    expect(fieldsOnOpen(workflow, 'acme/app')).toEqual(['Type', 'Severity', 'Optional', 'Bug detail', 'Scripted'])
    expect(fieldsOnOpen(workflow, 'legacy/tool')).toEqual(['Type', 'Severity', 'Optional', 'Elsewhere', 'Bug detail', 'Scripted'])
    expect(fieldsOnOpen(workflow, 'legacy/keep')).not.toContain('Elsewhere')
  })

  it('names each prompted field that may not be empty, is visible, and has neither a value nor a default for the project', () => {
    // acme/app: Type defaults to Bug there, so "Bug detail" shows and is empty.
    expect(missingRequiredFields(workflow, fieldsOnOpen(workflow, 'acme/app'), 'acme/app', {})).toEqual(['Severity', 'Bug detail'])
    // legacy/tool: Type has no default there (refused too); "Bug detail" is hidden (Type empty).
    expect(missingRequiredFields(workflow, fieldsOnOpen(workflow, 'legacy/tool'), 'legacy/tool', {})).toEqual(['Type', 'Severity', 'Elsewhere'])
  })

  it('takes configured values into account, for the field and for what shows it', () => {
    expect(missingRequiredFields(workflow, fieldsOnOpen(workflow, 'acme/app'), 'acme/app', {Severity: ['High'], Type: ['Task']})).toEqual([])
    expect(missingRequiredFields(workflow, fieldsOnOpen(workflow, 'legacy/tool'), 'legacy/tool', {Severity: ['High'], Type: ['Bug'], Elsewhere: ['x']})).toEqual(['Bug detail'])
  })

  it('judges a transition by its prompt fields only', () => {
    expect(missingRequiredFields(workflow, ['Later', 'Optional'], 'acme/app', {})).toEqual(['Later'])
    expect(missingRequiredFields(workflow, [], 'acme/app', {})).toEqual([])
  })

  it("picks a default the way OneDev's SpecifiedDefaultValue does: the first entry for the project", () => {
    const value = {kind: 'specified' as const, entries: [{applicableProjects: 'acme/app', values: ['one']}, {applicableProjects: null, values: ['all']}]}
    expect(defaultValues(value, 'acme/app')).toEqual(['one'])
    expect(defaultValues(value, 'other')).toEqual(['all'])
    expect(defaultValues({kind: 'computed'}, 'x')).toBeNull()
    expect(defaultValues({kind: 'none'}, 'x')).toEqual([])
  })

  it('refuses configured fields the workflow does not have, values a choice does not offer, several values for one', () => {
    expect(fieldConfigurationProblems(workflow, {Type: ['Task'], Severity: ['anything']})).toEqual([])
    expect(fieldConfigurationProblems(workflow, {Priority: ['High'], Type: ['Epic'], Severity: ['a', 'b']})).toEqual([
      '"Priority": the server\'s issue workflow has no such field',
      '"Type": "Epic" is not one of its choices ("Bug", "Task")',
      '"Severity": the field takes one value, 2 are given',
    ])
  })
})

describe('several values of one field', () => {
  it('are read from OneDev 10.0 on; 8.x, and a server that does not say its version, read one value per field', () => {
    expect(['16.5.6', '12.0.8', '10.0.0', '11.1.6'].map(readsFieldLists)).toEqual([true, true, true, true])
    expect(['8.6.13', '8.0.0', 'unknown', ''].map(readsFieldLists)).toEqual([false, false, false, false])
    expect(readsFieldLists(null)).toBe(false)
    const configured = {Type: ['Task'], Assignees: ['alice', 'bob'], Watchers: ['carol', 'dave']}
    expect(fieldsNotCarried(configured, null)).toEqual(['Assignees', 'Watchers'])
    expect(fieldsNotCarried(configured, '8.6.13')).toEqual(['Assignees', 'Watchers'])
    expect(fieldsNotCarried(configured, '16.5.6')).toEqual([])
    expect(fieldsNotCarried({Type: ['Task']}, null)).toEqual([])
  })
})
