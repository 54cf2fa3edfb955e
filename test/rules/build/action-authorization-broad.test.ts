import rule from '../../../rules/build/action-authorization-broad.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const withAuthorizations = (actionAuthorizations: Array<{type: string; authorizedBranches: string | null; names: string | null}>) =>
  model({projects: [project({id: 1, path: 'acme/app', actionAuthorizations})]})

ruleTester(rule, {
  valid: [
    {name: 'no action authorizations (current servers)', model: model({projects: [project()]})},
    {name: 'create tag on main only', model: withAuthorizations([{type: 'CreateTagAuthorization', authorizedBranches: 'main', names: 'v*'}])},
    {name: 'close milestone on release/*', model: withAuthorizations([{type: 'CloseMilestoneAuthorization', authorizedBranches: 'release/*', names: null}])},
    {name: 'unparsable branches are not judged', model: withAuthorizations([{type: 'CreateTagAuthorization', authorizedBranches: '"main', names: null}])},
  ],
  invalid: [
    {
      name: 'the two OneDev 8.0 defaults with every field null',
      model: withAuthorizations([
        {type: 'CloseMilestoneAuthorization', authorizedBranches: null, names: null},
        {type: 'CreateTagAuthorization', authorizedBranches: null, names: null},
      ]),
      findings: [
        {
          subject: 'close milestone',
          severity: 'high',
          pointer: '/buildSetting/actionAuthorizations/0/authorizedBranches',
          messageIncludes: ['close any milestone (milestone names are empty, which means any)', 'reads as "**"'],
        },
        {
          subject: 'create tag',
          severity: 'high',
          pointer: '/buildSetting/actionAuthorizations/1/authorizedBranches',
          messageIncludes: ['CreateTagAuthorization lets a build of any branch create any tag (tag names are empty, which means any)', 'such as `main`'],
        },
      ],
    },
    {
      name: '** with restricted tag names still lets any branch create those tags',
      model: withAuthorizations([{type: 'CreateTagAuthorization', authorizedBranches: '**', names: 'v*'}]),
      findings: [{subject: 'create tag', messageIncludes: ['create tags matching `v*`', 'branches `**` match branch names anyone can create']}],
    },
    {
      name: 'exclusion-only -main',
      model: withAuthorizations([{type: 'CreateTagAuthorization', authorizedBranches: '-main', names: 'v*'}]),
      findings: [{subject: 'create tag', pointer: '/buildSetting/actionAuthorizations/0/authorizedBranches'}],
    },
    {
      name: 'empty string branches',
      model: withAuthorizations([{type: 'CloseMilestoneAuthorization', authorizedBranches: '', names: 'sprint-*'}]),
      findings: [{subject: 'close milestone', messageIncludes: 'close milestones matching `sprint-*`'}],
    },
  ],
})
