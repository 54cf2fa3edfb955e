import baseRoleBroad from '../../../rules/access/base-role-broad.js'
import directPush from '../../../rules/access/direct-push.js'
import secretReachable from '../../../rules/access/secret-reachable.js'
import broadJobPrivilege from '../../../rules/role/broad-job-privilege.js'
import overPrivileged from '../../../rules/role/over-privileged.js'
import unused from '../../../rules/role/unused.js'
import {accessModel, ROLES} from '../../helpers/access-builders.js'
import {model, project, role} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const REVIEWED = {branches: 'main', userMatch: 'anyone', reviewRequirement: 'group(devs)'}
const GROUPS = [{id: 2, name: 'devs'}]

ruleTester(baseRoleBroad, {
  valid: [
    {name: 'a reading base role', model: accessModel({projects: [project({id: 1, path: 'app'})], base: {1: [3]}})},
    {name: 'base authorizations not read', model: accessModel({projects: [project({id: 1, path: 'app'})]})},
  ],
  invalid: [
    {name: 'manage project for everyone', model: accessModel({projects: [project({id: 1, path: 'app'})], base: {1: [1]}}), findings: [{subject: 'Project Owner', severity: 'critical', pointer: '/projects~11~1base-authorizations/0/roleId'}]},
    {name: 'code write', model: accessModel({projects: [project({id: 1, path: 'app'})], base: {1: [2]}}), findings: [{subject: 'Code Writer', severity: 'high'}]},
    {name: 'manage builds', model: accessModel({projects: [project({id: 1, path: 'app'})], base: {1: [6]}}), findings: [{subject: 'Builder', severity: 'high'}]},
    {name: 'manage issues', model: accessModel({projects: [project({id: 1, path: 'app'})], base: {1: [5]}}), findings: [{subject: 'Issue Manager', severity: 'medium'}]},
    {
      name: 'inherited from an ancestor that is not audited',
      model: accessModel({projects: [project({id: 2, path: 'org/app', parentId: 1})], ancestors: [project({id: 1, path: 'org'})], base: {1: [2]}}),
      findings: [{subject: 'Code Writer', sourceId: 1, messageIncludes: 'inherited from org'}],
    },
    {
      name: 'an audited parent reports its own, once: the child does not repeat it',
      model: accessModel({projects: [project({id: 1, path: 'org'}), project({id: 2, path: 'org/app', parentId: 1})], base: {1: [2]}}),
      findings: [{subject: 'Code Writer', projectId: 1, sourceId: null}],
    },
    {
      name: 'a default role of a server before 11.11',
      model: (() => {
        const p = project({id: 1, path: 'app'})
        p.defaultRoleId = 2
        const m = accessModel({projects: [p]})
        return m
      })(),
      findings: [{subject: 'Code Writer', pointer: '', messageIncludes: 'Default role'}],
    },
  ],
})

ruleTester(directPush, {
  valid: [
    {name: 'writers must get reviews on main', model: accessModel({projects: [project({id: 1, path: 'app', branchProtections: [REVIEWED]})], groups: GROUPS, users: [], base: {1: [3]}, groupGrants: {1: [[2, 2]]}})},
    {name: 'nobody writes', model: accessModel({projects: [project({id: 1, path: 'app'})], groups: [], users: [], base: {1: [3]}})},
    {name: 'authorizations not read', model: accessModel({projects: [project({id: 1, path: 'app'})], groups: GROUPS, users: []})},
  ],
  invalid: [
    {
      name: 'every logged-in user can push to an unprotected main',
      model: accessModel({projects: [project({id: 1, path: 'app'})], groups: [], users: [], base: {1: [2]}}),
      findings: [{subject: 'main', severity: 'critical', pointer: '/branchProtections', messageIncludes: 'every logged-in user'}],
    },
    {
      name: 'a user left out of the reviewed protection',
      model: accessModel({
        projects: [project({id: 1, path: 'app', branchProtections: [{...REVIEWED, userMatch: 'anyone except user(bob)'}]})],
        groups: GROUPS,
        users: [{id: 3, name: 'bob'}],
        members: {2: [3]},
        groupGrants: {1: [[2, 2]]},
      }),
      findings: [{subject: 'main', severity: 'high', messageIncludes: 'user bob'}],
    },
  ],
})

const secretProject = (authorization: string, protections = [REVIEWED]) =>
  project({id: 1, path: 'app', branchProtections: protections.map((p) => ({...p, preventCreation: true})), jobSecrets: [{name: 'deploy', authorization}]})

const legacySecretProject = (authorizedBranches: string) =>
  project({id: 1, path: 'app', branchProtections: [{...REVIEWED, preventCreation: true}], jobSecrets: [{name: 'deploy', authorizedBranches}]})

ruleTester(secretReachable, {
  valid: [
    {name: 'scoped to a reviewed main', model: accessModel({projects: [secretProject('on branch "main"')], groups: GROUPS, users: [], groupGrants: {1: [[2, 2]]}})},
    {name: 'any branch, but nobody writes', model: accessModel({projects: [secretProject('on branch "**"')], groups: [], users: [], base: {1: [3]}})},
    // An `on branch` value is one path pattern (OneDev's OnBranchCriteria: matchPath), not a pattern set:
    // `-main` names the branch "-main" and `main dev` the branch "main dev", so dev (unreviewed) gets neither.
    {
      name: 'on branch "-main" never admits dev',
      model: accessModel({projects: [secretProject('on branch "-main"')], groups: GROUPS, users: [], groupGrants: {1: [[2, 2]]}}),
      settings: {branches: ['main', 'dev']},
    },
    // Creation prevented for `**`; `/src/**/*.java` matches only names beginning with "/", which git refuses.
    {
      name: 'no route through a branch git cannot create (/src/x/y/x.java)',
      model: accessModel({projects: [secretProject('on branch "/src/**/*.java"', [{...REVIEWED, branches: '**'}])], groups: GROUPS, users: [], groupGrants: {1: [[2, 2]]}}),
    },
    {
      name: 'on branch "main dev" admits neither main nor dev',
      model: accessModel({projects: [secretProject('on branch "main dev"')], groups: GROUPS, users: [], groupGrants: {1: [[2, 2]]}}),
      settings: {branches: ['main', 'dev']},
    },
  ],
  invalid: [
    {
      name: 'any branch: writers create one',
      model: accessModel({projects: [secretProject('on branch "**"')], groups: GROUPS, users: [], groupGrants: {1: [[2, 2]]}}),
      findings: [{subject: 'deploy', severity: 'high', pointer: '/buildSetting/jobSecrets/0/authorization', messageIncludes: ['group devs', 'create a branch such as']}],
    },
    {
      name: 'main without review, for every logged-in user',
      model: accessModel({projects: [secretProject('on branch "main"', [])], groups: [], users: [], base: {1: [2]}}),
      findings: [{subject: 'deploy', severity: 'critical', messageIncludes: 'push a build spec change to branch "main"'}],
    },
    {
      name: 'a route through a branch git accepts, where creation is not prevented for it',
      model: accessModel({projects: [secretProject('on branch "src/**/*.java"', [{...REVIEWED, branches: 'main'}])], groups: GROUPS, users: [], groupGrants: {1: [[2, 2]]}}),
      findings: [{subject: 'deploy', severity: 'high', messageIncludes: 'create a branch such as "src/x/y/x.java"'}],
    },
    {
      name: '8.x authorizedBranches "main dev" stays a pattern set: dev, unreviewed, admits it',
      model: accessModel({projects: [legacySecretProject('main dev')], groups: GROUPS, users: [], groupGrants: {1: [[2, 2]]}}),
      settings: {branches: ['main', 'dev']},
      findings: [{subject: 'deploy', severity: 'high', pointer: '/buildSetting/jobSecrets/0/authorizedBranches', messageIncludes: 'push a build spec change to branch "dev"'}],
    },
    {
      name: '8.x authorizedBranches "-main" stays a pattern set: every branch but main',
      model: accessModel({projects: [legacySecretProject('-main')], groups: GROUPS, users: [], groupGrants: {1: [[2, 2]]}}),
      settings: {branches: ['main', 'dev']},
      findings: [{subject: 'deploy', severity: 'high', messageIncludes: 'push a build spec change to branch "dev"'}],
    },
  ],
})

const lonely = role({id: 9, name: 'Deployer', manageProject: true}, 6)
const jobs = role({id: 10, name: 'Runner', jobPrivileges: [{jobNames: '*', runJob: true}]}, 7)
const withRoles = (input: Parameters<typeof accessModel>[0]) => accessModel({...input, roles: [...ROLES, lonely, jobs]})

ruleTester(unused, {
  valid: [
    {name: 'authorizations not read', model: model({roles: [lonely]})},
    {name: 'held through a group', model: withRoles({projects: [project({id: 1, path: 'app'})], groupGrants: {1: [[2, 9], [2, 10]]}, base: {1: [1, 2, 3, 4, 5, 6]}})},
  ],
  invalid: [
    {
      name: 'held by nobody',
      model: withRoles({projects: [project({id: 1, path: 'app'})], base: {1: [1, 2, 3, 4, 5, 6, 10]}}),
      findings: [{subject: 'Deployer', severity: 'low', roleName: 'Deployer', messageIncludes: 'held by nobody'}],
    },
  ],
})

ruleTester(overPrivileged, {
  valid: [],
  invalid: [
    {name: 'held by nobody: one level lower', model: withRoles({projects: [project({id: 1, path: 'app'})], base: {}}), findings: [{subject: 'Deployer', severity: 'medium', messageIncludes: 'held by nobody'}]},
    {
      name: 'held: where and by how many',
      model: withRoles({projects: [project({id: 1, path: 'app'})], groupGrants: {1: [[2, 9]]}, userGrants: {1: [[5, 9]]}}),
      findings: [{subject: 'Deployer', severity: 'high', messageIncludes: 'held by 1 group, 1 user on app (2 principals)'}],
    },
  ],
})

ruleTester(broadJobPrivilege, {
  valid: [],
  invalid: [
    {
      name: 'held by nobody: one level lower; held: as before',
      model: withRoles({projects: [project({id: 1, path: 'app'})], base: {1: [2]}}),
      findings: [
        {subject: 'Code Writer', severity: 'medium', messageIncludes: 'every logged-in user (base role of 1 project)'},
        {subject: 'Builder', severity: 'low'},
        {subject: 'Runner', severity: 'low'},
      ],
    },
  ],
})
