import rule from '../../../rules/branch-protection/force-push-allowed.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const parent = project({id: 30, path: 'acme', branchProtections: [{branches: '**', preventForcedPush: false}]})

ruleTester(rule, {
  valid: [
    {name: 'default protection prevents forced pushes', model: model({projects: [project({branchProtections: [{}]})]})},
    {name: 'unprotected branch is reported by unprotected-branch only', model: model({projects: [project()]})},
    {
      name: 'disabled weak protection is skipped',
      model: model({projects: [project({branchProtections: [{preventForcedPush: false, enabled: false}, {branches: 'main'}]})]}),
    },
    {
      name: 'a weaker protection for a named group is user-bypass’s business',
      model: model({projects: [project({branchProtections: [{userMatch: 'group(bots)', preventForcedPush: false}, {branches: 'main'}]})]}),
    },
    {
      name: 'merged semantics: a later protection that prevents it counts',
      model: model({projects: [project({branchProtections: [{branches: '**', preventForcedPush: false}, {branches: 'main'}]})]}),
      settings: {protectionSemantics: 'merged'},
    },
  ],
  invalid: [
    {
      name: 'own protection allows forced pushes',
      model: model({projects: [project({branchProtections: [{preventForcedPush: false}]})]}),
      findings: [{subject: 'main', severity: 'high', pointer: '/branchProtections/0/preventForcedPush', sourceId: null, messageIncludes: 'Forced pushes to branch "main" (configured) are not prevented by the branch protection /branchProtections/0 ("main")'}],
    },
    {
      name: 'an earlier broad rule wins under first-match',
      model: model({projects: [project({branchProtections: [{branches: '**', preventForcedPush: false}, {branches: 'main'}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections/0/preventForcedPush'}],
    },
    {
      name: 'inherited from the parent: the finding points into the parent',
      model: model({projects: [project({id: 31, parentId: 30, path: 'acme/app'})], ancestors: [parent]}),
      findings: [{subject: 'main', sourceId: 30, pointer: '/branchProtections/0/preventForcedPush', messageIncludes: ['inherited from parent project acme', 'Project Settings > Branch Protection of parent project acme']}],
    },
    {
      name: 'a review requirement blocks direct pushes on current servers: low',
      model: model({projects: [project({branchProtections: [{preventForcedPush: false, reviewRequirement: 'group(core)'}]})]}),
      findings: [{subject: 'main', severity: 'low', messageIncludes: 'rejected today only because the branch requires reviews'}],
    },
    {
      name: 'merged semantics: reviews do not soften it, and the pointer is the first source',
      model: model({projects: [project({branchProtections: [{branches: '**', preventForcedPush: false, reviewRequirement: 'group(core)'}, {branches: 'main', preventForcedPush: false}]})]}),
      settings: {protectionSemantics: 'merged'},
      findings: [{subject: 'main', severity: 'high', pointer: '/branchProtections/0/preventForcedPush', messageIncludes: 'the 2 branch protections that apply together'}],
    },
  ],
})
