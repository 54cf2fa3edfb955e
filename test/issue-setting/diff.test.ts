import {describe, expect, it} from 'vitest'

import {diffSettings} from '../../src/issue-setting/diff.js'

const before = {
  stateSpecs: [
    {name: 'Open', color: '#f0ad4e', description: null},
    {name: 'In Review', color: '#5bc0de'},
    {name: 'Closed', color: '#5cb85c'},
  ],
  transitionSpecs: [
    {'@type': 'ManualSpec', fromStates: ['Open'], toStates: ['Closed'], authorizedRoles: ['Developer']},
    {'@type': 'BranchUpdatedSpec', fromStates: [], toState: 'Closed', branches: 'main'},
  ],
  fieldSpecs: [{'@type': 'SecretField', name: 'Key', defaultValueProvider: {value: 'hunter2-secret'}}],
  boardSpecs: [{name: 'Default', identifyField: 'State', columns: ['Open', 'Closed']}],
  listFields: ['State'],
  listLinks: [],
  namedQueries: [{name: 'Open', query: '"State" is "Open"'}],
  issueTemplates: [],
  timeTrackingSetting: {hoursPerDay: 8, daysPerWeek: 5},
  reconciled: true,
}

describe('diffSettings', () => {
  it('is empty when nothing changes, whatever the key order and reconciled say', () => {
    const reordered = Object.fromEntries(Object.entries(before).reverse())
    expect(diffSettings(before, {...reordered, reconciled: false})).toEqual([])
  })

  it('names states, fields, boards and queries added, removed and changed, and transitions by their moves', () => {
    const after = {
      ...before,
      stateSpecs: [
        {name: 'Open', color: '#000000', description: 'New issues'},
        {name: 'Closed', color: '#5cb85c'},
        {name: 'Verified', color: '#337ab7'},
      ],
      transitionSpecs: [
        {'@type': 'ManualSpec', fromStates: ['Open'], toStates: ['Closed'], authorizedRoles: ['Developer']},
        {'@type': 'ManualSpec', fromStates: ['Closed'], toStates: ['Verified'], authorizedRoles: []},
      ],
      fieldSpecs: [{'@type': 'SecretField', name: 'Key', defaultValueProvider: {value: 'other-secret'}}],
      boardSpecs: [],
      listFields: ['State', 'Key'],
      namedQueries: [{name: 'Mine', query: 'submitted by me'}],
      timeTrackingSetting: {hoursPerDay: 7, daysPerWeek: 5},
      somethingNew: {a: 1},
    }
    const lines = diffSettings(before, after)
    expect(lines).toEqual([
      '- state "In Review"',
      '~ state "Open": color, description changed',
      '+ state "Verified"',
      '~ field "Key": defaultValueProvider changed',
      '- board "Default"',
      '- named query "Open"',
      '+ named query "Mine"',
      '- transition any state → Closed (BranchUpdatedSpec)',
      '+ transition Closed → Verified (ManualSpec)',
      '~ listFields: "State" → "State", "Key"',
      '~ timeTrackingSetting: hoursPerDay changed',
      '+ somethingNew',
    ])
    expect(lines.join('\n')).not.toContain('secret')
  })

  it('shows a reordering of states (the first state is the initial one)', () => {
    const after = {...before, stateSpecs: [before.stateSpecs[2], before.stateSpecs[0], before.stateSpecs[1]]}
    expect(diffSettings(before, after)).toEqual(['~ stateSpecs order: "Open", "In Review", "Closed" → "Closed", "Open", "In Review"'])
  })

  it('says which keys the file leaves out, since the server resets them', () => {
    const {issueTemplates: _t, timeTrackingSetting: _s, ...after} = before
    expect(diffSettings(before, after)).toEqual([
      '- issueTemplates (absent from the file: the server resets it to its stock default)',
      '- timeTrackingSetting (absent from the file: the server resets it to its stock default)',
    ])
  })

  it('escapes control characters in names from either side', () => {
    const after = {...before, stateSpecs: [...before.stateSpecs, {name: 'Evil\u001b[31m\u202e'}]}
    expect(diffSettings(before, after)).toEqual(['+ state "Evil\\u001b[31m\\u202e"'])
  })

  it('treats a server answer of any shape without failing', () => {
    expect(diffSettings(null, {stateSpecs: [{name: 'Open'}]})).toEqual(['+ state "Open"'])
    expect(diffSettings({stateSpecs: 'odd'}, {stateSpecs: [{name: 'Open'}]})).toEqual(['~ stateSpecs changed'])
  })
})
