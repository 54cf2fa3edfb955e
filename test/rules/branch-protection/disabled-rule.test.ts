import rule from '../../../rules/branch-protection/disabled-rule.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'all enabled', model: model({projects: [project({branchProtections: [{}, {branches: '**'}]})]})},
    {
      name: 'a disabled protection of an ancestor is not the child’s finding',
      model: model({projects: [project({id: 71, parentId: 70})], ancestors: [project({id: 70, branchProtections: [{enabled: false}]})]}),
    },
  ],
  invalid: [
    {
      name: 'disabled protection',
      model: model({projects: [project({branchProtections: [{}, {branches: 'release/**', enabled: false}]})]}),
      findings: [{subject: 'release/**', severity: 'info', pointer: '/branchProtections/1/enabled', messageIncludes: 'is disabled, so OneDev skips it'}],
    },
    {
      name: 'two disabled protections with the same branches stay distinct',
      model: model({projects: [project({branchProtections: [{enabled: false}, {enabled: false}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/enabled'}, {subject: 'main', pointer: '/branchProtections/1/enabled'}],
    },
  ],
})
