import rule from '../../../rules/issue-setting/transition-any-user.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {issueCase, workflow} from './helpers.js'

ruleTester(rule, {
  valid: [
    issueCase('contract-shape transitions (no trigger: who may perform them is not stated)', workflow()),
    issueCase('a ManualSpec with roles', workflow({transitionSpecs: [{'@type': 'ManualSpec', fromStates: [], toStates: ['Closed'], authorizedRoles: ['Developer']}]})),
    issueCase('automatic transitions', workflow({transitionSpecs: [{'@type': 'PullRequestMergedSpec', fromStates: [], toState: 'Closed', branches: 'main'}]})),
    issueCase('a legacy button with roles', workflow({transitionSpecs: [{fromStates: ['Open'], toState: 'Closed', trigger: {'@type': 'PressButtonTrigger', authorizedRoles: ['Developer']}}]})),
  ],
  invalid: [
    {
      ...issueCase('a ManualSpec with empty authorizedRoles', workflow({transitionSpecs: [{'@type': 'ManualSpec', fromStates: ['Open', 'In Review'], toStates: ['Closed'], authorizedRoles: []}]})),
      // The subject names the states in name order (it is part of the fingerprint); the message keeps the file's order.
      findings: [{subject: 'In Review, Open → Closed', severity: 'low', pointer: '/transitionSpecs/0/authorizedRoles', messageIncludes: ['(Open, In Review → Closed)', 'any user']}],
    },
    {
      ...issueCase('a ManualSpec without authorizedRoles (the default is empty)', workflow({transitionSpecs: [{'@type': 'ManualSpec'}]})),
      findings: [{subject: 'any state → any state', pointer: '/transitionSpecs/0'}],
    },
    {
      ...issueCase('a legacy PressButtonTrigger without roles', workflow({transitionSpecs: [{fromStates: ['Open'], toState: 'Closed', trigger: {'@type': 'PressButtonTrigger', authorizedRoles: []}}]})),
      findings: [{subject: 'Open → Closed', pointer: '/transitionSpecs/0/trigger/authorizedRoles'}],
    },
  ],
})
