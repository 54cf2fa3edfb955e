import boardColumns from '../../../rules/issue-setting/board-columns.js'
import boardIdentifyField from '../../../rules/issue-setting/board-identify-field.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {issueCase, workflow} from './helpers.js'

ruleTester(boardColumns, {
  valid: [
    issueCase('three state columns', workflow()),
    issueCase('choice columns and the empty value', workflow({boardSpecs: [{name: 'Types', identifyField: 'Type', columns: ['Bug', null]}]})),
    issueCase('columns of a field whose choices are not known', workflow({boardSpecs: [{name: 'A', identifyField: 'Assignee', columns: ['x', 'y']}]})),
  ],
  invalid: [
    {
      ...issueCase('one column', workflow({boardSpecs: [{name: 'Solo', identifyField: 'State', columns: ['Open']}]})),
      findings: [{subject: 'Solo', severity: 'medium', pointer: '/boardSpecs/0/columns', messageIncludes: 'only one column'}],
    },
    {
      ...issueCase('no columns at all', workflow({boardSpecs: [{name: 'Empty', identifyField: 'State'}]})),
      findings: [{subject: 'Empty', pointer: '/boardSpecs/0', messageIncludes: 'no column'}],
    },
    {
      ...issueCase('a column that is not a choice', workflow({boardSpecs: [{name: 'Types', identifyField: 'Type', columns: ['Bug', 'Feature']}]})),
      findings: [{subject: 'Types', pointer: '/boardSpecs/0/columns/1', messageIncludes: ['"Feature"', 'not a choice of its field "Type"']}],
    },
  ],
})

ruleTester(boardIdentifyField, {
  valid: [
    issueCase('State', workflow()),
    issueCase('a single-valued ChoiceField', workflow({boardSpecs: [{name: 'Types', identifyField: 'Type', columns: ['Bug', 'Task']}]})),
    issueCase('a contract-shape field without @type', workflow({boardSpecs: [{name: 'A', identifyField: 'Assignee', columns: ['x', 'y']}]})),
    issueCase('an undefined field (undefined-field reports it)', workflow({boardSpecs: [{name: 'A', identifyField: 'Nope', columns: ['x', 'y']}]})),
  ],
  invalid: [
    {
      ...issueCase('a multi-valued choice field', workflow({fieldSpecs: [{'@type': 'ChoiceField', name: 'Labels', allowMultiple: true}], boardSpecs: [{name: 'L', identifyField: 'Labels', columns: ['a', 'b']}]})),
      findings: [{subject: 'L', severity: 'high', pointer: '/boardSpecs/0/identifyField', messageIncludes: 'multi-valued'}],
    },
    {
      ...issueCase('a user choice field', workflow({fieldSpecs: [{'@type': 'UserChoiceField', name: 'Owner'}], boardSpecs: [{name: 'O', identifyField: 'Owner', columns: ['a', 'b']}]})),
      findings: [{subject: 'O', pointer: '/boardSpecs/0/identifyField', messageIncludes: 'a UserChoiceField'}],
    },
  ],
})
