import rule from '../../../rules/tag-protection/deletion-allowed.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'deletion prevented', model: model({projects: [project({tagProtections: [{}]})]})},
    {name: 'weaker protection for a named group only', model: model({projects: [project({tagProtections: [{userMatch: 'group(release)', preventDeletion: false}, {}]})]})},
  ],
  invalid: [
    {
      name: 'deletion allowed',
      model: model({projects: [project({tagProtections: [{preventDeletion: false}]})]}),
      findings: [{subject: 'v*', severity: 'medium', pointer: '/tagProtections/0/preventDeletion', messageIncludes: 'Tag "v1.0.0" can be deleted'}],
    },
  ],
})
