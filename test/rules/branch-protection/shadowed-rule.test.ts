import rule from '../../../rules/branch-protection/shadowed-rule.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const parent = project({id: 60, path: 'acme', branchProtections: [{branches: 'main', reviewRequirement: 'group(core)'}]})

ruleTester(rule, {
  valid: [
    {name: 'specific before broad', model: model({projects: [project({branchProtections: [{branches: 'main'}, {branches: '**'}]})]})},
    {name: 'earlier one has exclusions', model: model({projects: [project({branchProtections: [{branches: '** -main'}, {branches: 'main'}]})]})},
    {name: 'earlier one is for some users only', model: model({projects: [project({branchProtections: [{branches: '**', userMatch: 'group(bots)'}, {branches: 'main'}]})]})},
    {name: 'earlier one is disabled', model: model({projects: [project({branchProtections: [{branches: '**', enabled: false}, {branches: 'main'}]})]})},
    {name: '* does not cover deeper branches', model: model({projects: [project({branchProtections: [{branches: 'release/*'}, {branches: 'release/**'}]})]})},
    {
      name: 'merged semantics: nothing is shadowed',
      model: model({projects: [project({branchProtections: [{branches: '**'}, {branches: 'main'}]})]}),
      settings: {protectionSemantics: 'merged'},
    },
  ],
  invalid: [
    {
      name: 'an earlier broad rule shadows a stricter one',
      model: model({projects: [project({branchProtections: [{branches: '**', preventForcedPush: false}, {branches: 'main', reviewRequirement: 'group(core):2'}]})]}),
      findings: [{subject: 'main', severity: 'medium', pointer: '/branchProtections/1', messageIncludes: 'The branch protection /branchProtections/1 ("main") never applies: the branch protection /branchProtections/0 ("**") comes first'}],
    },
    {
      name: 'a child’s broad rule shadows the parent’s rule',
      model: model({projects: [project({id: 63, parentId: 60, path: 'acme/app', branchProtections: [{branches: '**'}]})], ancestors: [parent]}),
      findings: [{subject: 'main', sourceId: 60, pointer: '/branchProtections/0', messageIncludes: 'inherited from parent project acme'}],
    },
    {
      name: 'a pair inside an audited parent is reported once, on the parent',
      model: model({projects: [project({id: 64, parentId: 65, path: 'b/app'}), project({id: 65, path: 'b', branchProtections: [{branches: 'release/**'}, {branches: 'release/1.*'}]})]}),
      findings: [{subject: 'release/1.*', projectId: 65, pointer: '/branchProtections/1', sourceId: null}],
    },
    {
      name: 'a pair inside a parent fetched only for inheritance is reported on the child',
      model: model({projects: [project({id: 66, parentId: 67, path: 'c/app'})], ancestors: [project({id: 67, path: 'c', branchProtections: [{branches: 'main develop'}, {branches: 'develop'}]})]}),
      findings: [{subject: 'develop', projectId: 66, sourceId: 67, pointer: '/branchProtections/1'}],
    },
  ],
})
