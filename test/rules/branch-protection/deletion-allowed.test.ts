import rule from '../../../rules/branch-protection/deletion-allowed.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'deletion prevented', model: model({projects: [project({branchProtections: [{}]})]})},
    {name: 'unprotected branch', model: model({projects: [project()]})},
    {
      name: 'protection for another branch only',
      model: model({projects: [project({branchProtections: [{branches: 'develop', preventDeletion: false}, {branches: 'main'}]})]}),
    },
  ],
  invalid: [
    {
      name: 'deletion allowed even with reviews',
      model: model({projects: [project({branchProtections: [{preventDeletion: false, reviewRequirement: 'group(core)'}]})]}),
      findings: [{subject: 'main', severity: 'medium', pointer: '/branchProtections/0/preventDeletion', messageIncludes: 'Branch "main" (configured) can be deleted'}],
    },
    {
      name: 'exclusion-only pattern applies to develop',
      model: model({projects: [project({branchProtections: [{branches: '-main', preventDeletion: false}]})]}),
      settings: {branches: ['main', 'develop']},
      findings: [{subject: 'develop', pointer: '/branchProtections/0/preventDeletion'}],
    },
  ],
})
