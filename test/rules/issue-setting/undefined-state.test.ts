import rule from '../../../rules/issue-setting/undefined-state.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {issueCase, workflow} from './helpers.js'

ruleTester(rule, {
  valid: [
    issueCase('every transition and column names a defined state', workflow()),
    issueCase('typed transitions with empty fromStates and toStates (any state)', workflow({transitionSpecs: [
      {'@type': 'ManualSpec', fromStates: [], toStates: [], authorizedRoles: ['Developer']},
      {'@type': 'NoActivitySpec', fromStates: ['Open'], toState: 'Closed', days: 30},
    ]})),
    issueCase('columns of a board identified by a field are not states', workflow({boardSpecs: [{name: 'Types', identifyField: 'Type', columns: ['Bug', 'Task', null]}]})),
    issueCase('a null column of a State board', workflow({boardSpecs: [{name: 'Default', identifyField: 'State', columns: ['Open', null]}]})),
    issueCase('stateSpecs left out: the stock states cannot be judged', {transitionSpecs: [{fromStates: ['Open'], toState: 'Nowhere'}]}),
  ],
  invalid: [
    {
      ...issueCase('a legacy transition from and to unknown states', workflow({transitionSpecs: [{fromStates: ['Open', 'Reopened'], toState: 'Done', removeFields: []}]})),
      findings: [
        {subject: 'Done', severity: 'high', pointer: '/transitionSpecs/0/toState', messageIncludes: ['Open, Reopened → Done', 'state "Done"']},
        {subject: 'Reopened', severity: 'high', pointer: '/transitionSpecs/0/fromStates/1'},
      ],
    },
    {
      ...issueCase('typed transitions: toStates of a ManualSpec, toState of an automatic one', workflow({transitionSpecs: [
        {'@type': 'ManualSpec', fromStates: ['Open'], toStates: ['Closed', 'Rejected'], authorizedRoles: []},
        {'@type': 'BuildSuccessfulSpec', fromStates: ['In Review'], toState: 'Verified', jobNames: 'ci', branches: 'main'},
      ]})),
      findings: [
        {subject: 'Rejected', pointer: '/transitionSpecs/0/toStates/1'},
        {subject: 'Verified', pointer: '/transitionSpecs/1/toState'},
      ],
    },
    {
      ...issueCase('a board column naming an unknown state', workflow({boardSpecs: [{name: 'Default', identifyField: 'State', columns: ['Open', 'Doing']}]})),
      findings: [{subject: 'Doing', pointer: '/boardSpecs/0/columns/1', messageIncludes: 'board "Default"'}],
    },
  ],
})
