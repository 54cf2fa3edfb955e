import rule from '../../../rules/branch-protection/review-not-required.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'reviewers required', model: model({projects: [project({branchProtections: [{reviewRequirement: 'group(core):2'}]})]})},
    {name: 'legacy syntax', model: model({projects: [project({branchProtections: [{reviewRequirement: 'user(a) and group(core):all'}]})]})},
    {name: 'unprotected branch', model: model({projects: [project()]})},
  ],
  invalid: [
    {
      name: 'no reviewers',
      model: model({projects: [project({branchProtections: [{jobNames: ['ci']}]})]}),
      findings: [{subject: 'main', severity: 'medium', pointer: '/branchProtections/0/reviewRequirement', messageIncludes: 'requires no reviewers, so direct pushes are accepted'}],
    },
    {
      name: 'a review requirement that does not parse asks for no one',
      model: model({projects: [project({branchProtections: [{reviewRequirement: 'group(core'}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/reviewRequirement'}],
    },
    {
      name: 'an earlier broad rule shadows the stricter one',
      model: model({projects: [project({branchProtections: [{branches: '**'}, {branches: 'main', reviewRequirement: 'group(core)'}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/reviewRequirement'}],
    },
  ],
})
