import rule from '../../../rules/branch-protection/unprotected-branch.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const parent = project({id: 10, path: 'acme', branchProtections: [{branches: 'main'}]})

ruleTester(rule, {
  valid: [
    {name: 'main protected', model: model({projects: [project({branchProtections: [{branches: 'main'}]})]})},
    {name: 'exclusion-only pattern protects other branches', model: model({projects: [project({branchProtections: [{branches: '-main'}]})]}), settings: {branches: ['develop']}},
    {name: 'release/** covers release/1/x', model: model({projects: [project({branchProtections: [{branches: 'release/**'}]})]}), settings: {branches: ['release/1/x']}},
    {name: 'inherited from the parent', model: model({projects: [project({id: 11, parentId: 10})], ancestors: [parent]})},
    {
      name: 'a disabled protection is skipped but a later one applies',
      model: model({projects: [project({branchProtections: [{branches: 'main', enabled: false}, {branches: '**'}]})]}),
    },
    {
      name: 'weak protection is not this rule’s business',
      model: model({projects: [project({branchProtections: [{branches: 'main', preventForcedPush: false, preventDeletion: false}]})]}),
    },
  ],
  invalid: [
    {
      name: 'no protections at all',
      model: model({projects: [project()]}),
      findings: [{subject: 'main', severity: 'high', pointer: '/branchProtections', messageIncludes: ['No enabled branch protection applies to branch "main"', 'Project Settings > Branch Protection']}],
    },
    {
      name: 'exclusion-only pattern leaves main unprotected',
      model: model({projects: [project({branchProtections: [{branches: '-main'}]})]}),
      findings: [{subject: 'main', pointer: '/branchProtections'}],
    },
    {
      name: 'case matters: Main does not protect main',
      model: model({projects: [project({branchProtections: [{branches: 'Main'}]})]}),
      findings: [{subject: 'main', messageIncludes: '/branchProtections/0 has "Main", which does not match "main" because matching is case-sensitive'}],
    },
    {
      name: '* does not cross segments',
      model: model({projects: [project({branchProtections: [{branches: 'release/*'}]})]}),
      settings: {branches: ['release/1.0', 'release/1/x']},
      findings: [{subject: 'release/1/x', messageIncludes: 'use "release/**"'}],
    },
    {
      name: 'disabled protection does not count',
      model: model({projects: [project({branchProtections: [{branches: 'main', enabled: false}]})]}),
      findings: [{subject: 'main', messageIncludes: '/branchProtections/0 ("main") matches but is disabled'}],
    },
    {
      name: 'a protection for one user leaves everyone else unprotected',
      model: model({projects: [project({branchProtections: [{branches: 'main', userMatch: 'user(alice)'}]})]}),
      findings: [{subject: 'main', messageIncludes: 'leaves everyone else out'}],
    },
    {
      name: 'checked branches come from the settings',
      model: model({projects: [project({branchProtections: [{branches: 'main'}]})]}),
      settings: {branches: ['main', 'develop', 'main']},
      findings: [{subject: 'develop'}],
    },
    {
      name: 'root pointer when the payload has no branchProtections key',
      model: model({projects: [{...project({id: 20}), raw: {}}]}),
      findings: [{subject: 'main', pointer: ''}],
    },
  ],
})
