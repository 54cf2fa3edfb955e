import rule from '../../../rules/tag-protection/update-allowed.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const parent = project({id: 90, path: 'acme', tagProtections: [{tags: '**', preventUpdate: false}]})

ruleTester(rule, {
  valid: [
    {name: 'update prevented', model: model({projects: [project({tagProtections: [{}]})]})},
    {name: 'unprotected tags are unprotected-tags’ business', model: model({projects: [project()]})},
    {
      name: 'merged semantics: any source preventing it is enough',
      model: model({projects: [project({tagProtections: [{tags: '**', preventUpdate: false}, {tags: 'v*'}]})]}),
      settings: {protectionSemantics: 'merged'},
    },
  ],
  invalid: [
    {
      name: 'update allowed',
      model: model({projects: [project({tagProtections: [{preventUpdate: false}]})]}),
      findings: [{subject: 'v*', severity: 'high', pointer: '/tagProtections/0/preventUpdate', messageIncludes: 'Tag "v1.0.0" can be moved to another commit: the tag protection /tagProtections/0 ("v*")'}],
    },
    {
      name: 'first-match: earlier broad rule decides',
      model: model({projects: [project({tagProtections: [{tags: '**', preventUpdate: false}, {tags: 'v*'}]})]}),
      findings: [{subject: '**', pointer: '/tagProtections/0/preventUpdate'}],
    },
    {
      name: 'inherited from the parent',
      model: model({projects: [project({id: 91, parentId: 90, path: 'acme/app'})], ancestors: [parent]}),
      findings: [{subject: '**', sourceId: 90, pointer: '/tagProtections/0/preventUpdate', messageIncludes: 'inherited from parent project acme'}],
    },
  ],
})
