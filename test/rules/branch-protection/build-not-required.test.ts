import rule from '../../../rules/branch-protection/build-not-required.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'a job is required', model: model({projects: [project({branchProtections: [{jobNames: ['ci']}]})]})},
    {name: 'unprotected branch', model: model({projects: [project()]})},
  ],
  invalid: [
    {
      name: 'no jobs',
      model: model({projects: [project({branchProtections: [{}]})]}),
      findings: [{subject: 'main', severity: 'low', pointer: '/branchProtections/0/jobNames', messageIncludes: 'requires no jobs'}],
    },
    {
      name: 'several checked branches',
      model: model({projects: [project({branchProtections: [{branches: 'main develop'}]})]}),
      settings: {branches: ['main', 'develop']},
      findings: [{subject: 'develop'}, {subject: 'main'}],
    },
  ],
})
