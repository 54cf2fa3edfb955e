import rule from '../../../rules/job-secret/shadowed-by-parent.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

type Auth = {authorization: string | null} | {authorizedBranches: string | null}

/** A parent (id 10, not audited) and its audited child (id 11), each with one secret named `deploy-token`. */
function pair(parentAuth: Auth, childAuth: Auth, name = 'deploy-token') {
  const parent = project({id: 10, path: 'acme', jobSecrets: [{name, ...parentAuth}]})
  const child = project({id: 11, path: 'acme/app', parentId: 10, jobSecrets: [{name: 'deploy-token', ...childAuth}]})
  return model({projects: [child], ancestors: [parent]})
}

const POINTER = '/buildSetting/jobSecrets/0/authorization'

ruleTester(rule, {
  valid: [
    {name: 'same authorization in parent and child', model: pair({authorization: 'on branch "main"'}, {authorization: 'on branch "main"'})},
    {name: 'same authorization written with other spacing', model: pair({authorization: 'on  branch "main"'}, {authorization: 'on branch "main"'})},
    {
      name: 'parent provably narrower (child\'s criteria plus a job)',
      model: pair({authorization: 'on branch "main" and "Job" is "deploy"'}, {authorization: 'on branch "main"'}),
    },
    {name: 'parent on fewer branches', model: pair({authorization: 'on branch "main"'}, {authorization: 'on branch "main", "release/*"'})},
    {name: 'parent scoped, child on branch "**"', model: pair({authorization: 'on branch "main"'}, {authorization: 'on branch "**"'})},
    {name: 'child already any job (null): nothing is broader', model: pair({authorization: 'on branch "**"'}, {authorization: null})},
    {name: 'different names', model: pair({authorization: 'on branch "**"'}, {authorization: 'on branch "main"'}, 'other-token')},
    {name: 'legacy: parent on fewer branches', model: pair({authorizedBranches: 'main'}, {authorizedBranches: 'main release/*'})},
    {name: 'legacy: child null (meant **)', model: pair({authorizedBranches: 'main'}, {authorizedBranches: null})},
    {name: 'parent authorization unparsable', model: pair({authorization: 'on branch'}, {authorization: 'on branch "main"'})},
    {name: 'no ancestors', model: model({projects: [project({jobSecrets: [{name: 'x', authorization: 'on branch "main"'}]})]})},
    ...[0, 1].map((first) => {
      const own = [{name: 'deploy-token', authorization: 'on branch "main"'}, {name: 'deploy-token', authorization: 'on branch "release/*"'}]
      return {
        name: `two own secrets of that name, the parent within the ${first === 0 ? 'second' : 'first'} listed (their order does not matter)`,
        model: model({
          projects: [project({id: 11, path: 'acme/app', parentId: 10, jobSecrets: [own[first]!, own[1 - first]!]})],
          ancestors: [project({id: 10, path: 'acme', jobSecrets: [{name: 'deploy-token', authorization: 'on branch "release/*"'}]})],
        }),
      }
    }),
  ],
  invalid: [
    {
      name: 'child scoped to main, parent on branch "**"',
      model: pair({authorization: 'on branch "**"'}, {authorization: 'on branch "main"'}),
      findings: [
        {
          subject: 'deploy-token',
          severity: 'medium',
          projectId: 11,
          sourceId: 10,
          pointer: POINTER,
          messageIncludes: ['`on branch "main"` here', 'acme defines a secret of the same name authorized for `on branch "**"`', 'fall through'],
        },
      ],
    },
    {
      name: 'parent with null authorization (any job)',
      model: pair({authorization: null}, {authorization: 'on branch "main"'}),
      findings: [{subject: 'deploy-token', severity: 'medium', sourceId: 10, messageIncludes: 'any job, including pull requests from forks'}],
    },
    {
      name: 'child narrowed by job, parent not: the parent admits other jobs on main',
      model: pair({authorization: 'on branch "main"'}, {authorization: 'on branch "main" and "Job" is "deploy"'}),
      findings: [{subject: 'deploy-token', sourceId: 10}],
    },
    {
      name: 'different branches: neither is within the other',
      model: pair({authorization: 'on branch "release/*"'}, {authorization: 'on branch "main"'}),
      findings: [{subject: 'deploy-token', sourceId: 10}],
    },
    {
      name: 'legacy: parent null (meant **), child main',
      model: pair({authorizedBranches: null}, {authorizedBranches: 'main'}),
      findings: [{subject: 'deploy-token', sourceId: 10, pointer: '/buildSetting/jobSecrets/0/authorizedBranches', messageIncludes: 'every branch (empty authorized branches)'}],
    },
    {
      name: 'grandparent broader, parent the same as the child: the grandparent is reported',
      model: model({
        projects: [project({id: 12, path: 'acme/team/app', parentId: 11, jobSecrets: [{name: 'deploy-token', authorization: 'on branch "main"'}]})],
        ancestors: [
          project({id: 11, path: 'acme/team', parentId: 10, jobSecrets: [{name: 'deploy-token', authorization: 'on branch "main"'}]}),
          project({id: 10, path: 'acme', jobSecrets: [{name: 'other', authorization: null}, {name: 'deploy-token', authorization: 'on branch "**"'}]}),
        ],
      }),
      findings: [{subject: 'deploy-token', projectId: 12, sourceId: 10, pointer: '/buildSetting/jobSecrets/1/authorization'}],
    },
    {
      name: 'reported on the child even when the parent is audited too',
      model: model({
        projects: [
          project({id: 10, path: 'acme', jobSecrets: [{name: 'deploy-token', authorization: 'on branch "**"'}]}),
          project({id: 11, path: 'acme/app', parentId: 10, jobSecrets: [{name: 'deploy-token', authorization: 'on branch "main"'}]}),
        ],
      }),
      findings: [{subject: 'deploy-token', projectId: 11, sourceId: 10, pointer: POINTER}],
    },
    {
      name: 'two own secrets of that name, the parent broader than both: one finding naming both',
      model: model({
        projects: [project({id: 11, path: 'acme/app', parentId: 10, jobSecrets: [{name: 'deploy-token', authorization: 'on branch "main"'}, {name: 'deploy-token', authorization: 'on branch "release/*"'}]})],
        ancestors: [project({id: 10, path: 'acme', jobSecrets: [{name: 'deploy-token', authorization: 'on branch "**"'}]})],
      }),
      findings: [{subject: 'deploy-token', sourceId: 10, pointer: POINTER, messageIncludes: 'authorized for `on branch "main"` or `on branch "release/*"` here'}],
    },
  ],
})
