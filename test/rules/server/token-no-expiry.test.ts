import rule from '../../../rules/server/token-no-expiry.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {serverModel} from './helpers.js'

const token = (fields: Record<string, unknown>) => ({id: 1, name: 't', value: 'secret-value', hasOwnerPermissions: false, createDate: '2025-01-01T00:00:00.000+00:00', expireDate: null, ...fields})
const USERS = [
  {id: 1, disabled: false, type: 'ORDINARY', name: 'admin'},
  {id: 5, disabled: false, type: 'ORDINARY', name: 'alice'},
  {id: 6, disabled: false, type: 'SERVICE', name: 'ci-bot'},
  {id: 8, disabled: true, type: 'ORDINARY', name: 'bob'},
]
const GROUPS = [{id: 1, name: 'Administrators', administrator: true}, {id: 2, name: 'Developers', administrator: false}]

ruleTester(rule, {
  valid: [
    {name: 'tokens not read', model: serverModel({'/users': USERS})},
    {name: 'tokens that expire', model: serverModel({'/users/1/access-tokens': [token({ownerId: 1, hasOwnerPermissions: true, expireDate: '2027-01-01T00:00:00.000+00:00'})]})},
    {name: 'a user without tokens', model: serverModel({'/users/5/access-tokens': []})},
    {name: 'a disabled user\'s token no longer authenticates', model: serverModel({'/users': USERS, '/users/8/access-tokens': [token({ownerId: 8, hasOwnerPermissions: true})]})},
  ],
  invalid: [
    {
      // v10.2.0 model/support/AccessToken.java:25-31 (value, description, createDate, expireDate), listed by
      // rest/resource/UserResource.java:103-109: no id, no name, no hasOwnerPermissions; such a token acts
      // with every permission of its owner (per-token permissions came with v10.7.0 model/AccessToken.java:45).
      name: 'OneDev 8.3 to 10.6: a token without hasOwnerPermissions has every permission of its owner',
      model: serverModel({
        '/groups': GROUPS,
        '/users/1/access-tokens': [{value: 'secret-value', description: 'ci', createDate: '2024-01-01T00:00:00.000+00:00', expireDate: null}],
      }),
      findings: [{subject: 'user #1/ci', severity: 'high', messageIncludes: 'owner permissions of an administrator'}],
    },
    {
      name: 'owner permissions of an administrator (group member), of root, of a non-admin, and none',
      model: serverModel({
        '/users': USERS,
        '/groups': GROUPS,
        '/groups/1/memberships': [{id: 9, userId: 5, groupId: 1}],
        '/groups/2/memberships': [{id: 10, userId: 6, groupId: 2}],
        '/users/1/access-tokens': [token({id: 1, name: 'root-cli', ownerId: 1, hasOwnerPermissions: true})],
        '/users/5/access-tokens': [token({id: 2, name: 'laptop', ownerId: 5, hasOwnerPermissions: true}), token({id: 3, name: 'limited', ownerId: 5})],
        '/users/6/access-tokens': [token({id: 4, name: 'deploy', ownerId: 6, hasOwnerPermissions: true})],
      }),
      findings: [
        {subject: 'admin/root-cli', severity: 'high', pointer: '/users~11~1access-tokens/0/expireDate', messageIncludes: ['owner permissions of an administrator', 'Administration > User Management > admin > Access Tokens']},
        {subject: 'alice/laptop', severity: 'high', pointer: '/users~15~1access-tokens/0/expireDate'},
        {subject: 'alice/limited', severity: 'medium', pointer: '/users~15~1access-tokens/1/expireDate'},
        {subject: 'ci-bot/deploy', severity: 'medium', messageIncludes: 'acts with all of its owner\'s permissions'},
      ],
    },
    {
      name: 'without groups and users only root is known as administrator; owners are named by id',
      model: serverModel({'/users/1/access-tokens': [token({ownerId: 1, name: 'cli', hasOwnerPermissions: true})], '/users/5/access-tokens': [token({ownerId: 5, name: 'laptop', hasOwnerPermissions: true})]}),
      findings: [
        {subject: 'user #1/cli', severity: 'high'},
        {subject: 'user #5/laptop', severity: 'medium'},
      ],
    },
  ],
})
