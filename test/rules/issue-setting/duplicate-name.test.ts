import rule from '../../../rules/issue-setting/duplicate-name.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {issueCase, workflow} from './helpers.js'

const base = workflow()

ruleTester(rule, {
  valid: [
    issueCase('distinct names', base),
    issueCase('a state and a field may share a name', workflow({fieldSpecs: [{name: 'Open'}]})),
    issueCase('names differing in case are distinct', workflow({stateSpecs: [{name: 'open'}, {name: 'Open'}]})),
  ],
  invalid: [
    {
      ...issueCase('a state defined twice', workflow({stateSpecs: [{name: 'Open'}, {name: 'Closed'}, {name: 'Open'}]})),
      findings: [{subject: 'Open', severity: 'high', pointer: '/stateSpecs/2/name', messageIncludes: ['state name "Open"', '/stateSpecs/0']}],
    },
    {
      ...issueCase('two fields each defined twice', workflow({fieldSpecs: [{name: 'Type'}, {name: 'Kind'}, {name: 'Type'}, {name: 'Kind'}]})),
      findings: [
        {subject: 'Kind', pointer: '/fieldSpecs/3/name', messageIncludes: ['field name "Kind"', '/fieldSpecs/1']},
        {subject: 'Type', pointer: '/fieldSpecs/2/name', messageIncludes: '/fieldSpecs/0'},
      ],
    },
    {
      ...issueCase('two boards with one name', workflow({boardSpecs: [
        {name: 'Board', identifyField: 'State', columns: ['Open', 'Closed']},
        {name: 'Board', identifyField: 'State', columns: ['Open', 'Closed']},
      ]})),
      findings: [{subject: 'Board', pointer: '/boardSpecs/1/name', messageIncludes: 'board name "Board"'}],
    },
  ],
})
