import rule from '../../../rules/tag-protection/unprotected-tags.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'v* protects v1.0.0', model: model({projects: [project({tagProtections: [{tags: 'v*'}]})]})},
    {name: '** protects everything', model: model({projects: [project({tagProtections: [{tags: '**'}]})]}), settings: {tags: ['v1.0.0', 'releases/2024/1']}},
    {name: 'inherited', model: model({projects: [project({id: 81, parentId: 80})], ancestors: [project({id: 80, tagProtections: [{}]})]})},
    {name: 'weak but present is not this rule’s business', model: model({projects: [project({tagProtections: [{preventUpdate: false}]})]})},
  ],
  invalid: [
    {
      name: 'no tag protection',
      model: model({projects: [project()]}),
      findings: [{subject: 'tags', severity: 'high', pointer: '/tagProtections', messageIncludes: ['No enabled tag protection applies to tag "v1.0.0"', 'Project Settings > Tag Protection']}],
    },
    {
      name: 'case-sensitive: V* does not cover v1.0.0',
      model: model({projects: [project({tagProtections: [{tags: 'V*'}]})]}),
      findings: [{subject: 'tags', messageIncludes: 'because matching is case-sensitive'}],
    },
    {
      name: 'exclusion-only pattern that excludes the release tags',
      model: model({projects: [project({tagProtections: [{tags: '-v*'}]})]}),
      findings: [{subject: 'tags'}],
    },
    {
      name: 'disabled protection',
      model: model({projects: [project({tagProtections: [{enabled: false}]})]}),
      findings: [{subject: 'tags', messageIncludes: 'matches but is disabled'}],
    },
    {
      name: 'checked tags from the settings',
      model: model({projects: [project({tagProtections: [{tags: 'v*'}]})]}),
      settings: {tags: ['v2.0', 'release-1']},
      findings: [{subject: 'tags', messageIncludes: 'applies to tag "release-1"'}],
    },
  ],
})
