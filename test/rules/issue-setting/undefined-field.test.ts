import rule from '../../../rules/issue-setting/undefined-field.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {issueCase, workflow} from './helpers.js'

ruleTester(rule, {
  valid: [
    issueCase('every field reference is defined or built in', workflow()),
    issueCase('State and Iteration are built in', workflow({listFields: ['State', 'Iteration'], boardSpecs: [{name: 'B', identifyField: 'State', columns: ['Open', 'Closed'], displayFields: ['Iteration', 'State']}]})),
    issueCase('role names and a {Field} role naming a defined field', workflow({transitionSpecs: [
      {'@type': 'ManualSpec', fromStates: [], toStates: ['Closed'], authorizedRoles: ['Developer', '<Issue Submitter>', '{Assignee}'], promptFields: ['Type'], removeFields: ['Assignee']},
    ]})),
    issueCase('fieldSpecs left out: the stock fields cannot be judged', {listFields: ['Priority']}),
  ],
  invalid: [
    {
      ...issueCase('removeFields and promptFields of transitions', workflow({transitionSpecs: [
        {fromStates: ['Open'], toState: 'Closed', removeFields: ['Asignee']},
        {'@type': 'ManualSpec', fromStates: [], toStates: [], promptFields: ['Resolution'], authorizedRoles: ['{Reviewer}']},
        {fromStates: ['Open'], toState: 'Closed', trigger: {'@type': 'PressButtonTrigger', authorizedRoles: ['Dev'], promptFields: ['Why']}},
      ]})),
      findings: [
        {subject: 'Asignee', severity: 'high', pointer: '/transitionSpecs/0/removeFields/0', messageIncludes: ['field "Asignee"', 'Open → Closed']},
        {subject: 'Resolution', pointer: '/transitionSpecs/1/promptFields/0'},
        {subject: 'Reviewer', pointer: '/transitionSpecs/1/authorizedRoles/0', messageIncludes: 'authorized role'},
        {subject: 'Why', pointer: '/transitionSpecs/2/trigger/promptFields/0'},
      ],
    },
    {
      ...issueCase('listFields', workflow({listFields: ['State', 'Priority']})),
      findings: [{subject: 'Priority', pointer: '/listFields/1', messageIncludes: 'listFields'}],
    },
    {
      ...issueCase('board identifyField and displayFields', workflow({boardSpecs: [{name: 'Sprint', identifyField: 'Status', columns: ['a', 'b'], displayFields: ['Estimate']}]})),
      findings: [
        {subject: 'Estimate', pointer: '/boardSpecs/0/displayFields/0'},
        {subject: 'Status', pointer: '/boardSpecs/0/identifyField', messageIncludes: 'identified by the field "Status"'},
      ],
    },
    {
      ...issueCase('Iteration does not identify a board', workflow({boardSpecs: [{name: 'Sprint', identifyField: 'Iteration', columns: ['a', 'b']}]})),
      findings: [{subject: 'Iteration', pointer: '/boardSpecs/0/identifyField'}],
    },
    {
      ...issueCase('a show condition naming an unknown field', workflow({fieldSpecs: [{name: 'Assignee', showCondition: {inputName: 'Kind', valueMatcher: {}}}, {name: 'Type'}]})),
      findings: [{subject: 'Kind', pointer: '/fieldSpecs/0/showCondition/inputName', messageIncludes: 'show condition of the field "Assignee"'}],
    },
  ],
})
