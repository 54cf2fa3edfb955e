import rule from '../../../rules/issue-setting/no-states.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {issueCase, workflow} from './helpers.js'

ruleTester(rule, {
  valid: [
    issueCase('three states', workflow()),
    issueCase('stateSpecs left out (the server uses its stock states; omitted-key reports it)', (() => {
      const {stateSpecs: _s, ...rest} = workflow()
      return rest
    })()),
  ],
  invalid: [
    {...issueCase('empty stateSpecs', workflow({stateSpecs: [], transitionSpecs: [], boardSpecs: []})), findings: [{subject: 'stateSpecs', severity: 'high', pointer: '/stateSpecs', messageIncludes: 'at least one'}]},
  ],
})
