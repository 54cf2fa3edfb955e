import anonymousAccess from '../../../rules/server/anonymous-access.js'
import defaultGroupPrivileged from '../../../rules/server/default-group-privileged.js'
import openSignUp from '../../../rules/server/open-sign-up.js'
import tooManyAdmins from '../../../rules/server/too-many-admins.js'
import twoFactorNotEnforced from '../../../rules/server/two-factor-not-enforced.js'
import disabledUserGrants from '../../../rules/access/disabled-user-grants.js'
import {accessModel, type AccessInput} from '../../helpers/access-builders.js'
import {project} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const app = () => project({id: 1, path: 'acme/app'})
const m = (input: AccessInput) => accessModel({projects: [app()], ...input})
const ADMINS = {groups: [{id: 1, name: 'Administrators', administrator: true}], users: [{id: 1, name: 'admin'}, {id: 2, name: 'alice'}, {id: 3, name: 'bob'}, {id: 4, name: 'bot', type: 'SERVICE'}, {id: 5, name: 'ai', type: 'AI'}]}

ruleTester(anonymousAccess, {
  valid: [
    {name: 'anonymous access off', model: m({security: {enableAnonymousAccess: false}, base: {1: [3]}})},
    {name: 'no base role', model: m({security: {enableAnonymousAccess: true}, base: {}})},
    {name: 'base authorizations not read', model: m({security: {enableAnonymousAccess: true}})},
    {name: 'security setting not read', model: m({base: {1: [3]}})},
  ],
  invalid: [
    {name: 'a base role reads code', model: m({security: {enableAnonymousAccess: true}, base: {1: [3]}}), findings: [{subject: 'anonymous access', severity: 'high', pointer: '/settings~1security/enableAnonymousAccess', messageIncludes: 'acme/app'}]},
    {name: 'a base role only shows the project', model: m({security: {enableAnonymousAccess: true}, base: {1: [4]}}), findings: [{severity: 'medium', messageIncludes: 'though not their code'}]},
  ],
})

ruleTester(openSignUp, {
  valid: [
    {name: 'sign-up off', model: m({security: {enableSelfRegister: false}, base: {1: [2]}})},
    {name: 'limited to a domain', model: m({security: {enableSelfRegister: true, allowedSelfRegisterEmailDomain: '*.acme.example'}, base: {1: [2]}})},
    {name: 'no base role and no default group', model: m({security: {}, base: {}})},
    {name: 'nothing read but the setting', model: m({security: {}})},
  ],
  invalid: [
    {name: 'a fresh install (sign-up on by default) with a writing base role', model: m({security: {}, base: {1: [2]}}), findings: [{subject: 'self sign-up', severity: 'critical', pointer: '/settings~1security'}]},
    {name: 'a reading base role', model: m({security: {enableSelfRegister: true}, base: {1: [3]}}), findings: [{severity: 'high', messageIncludes: 'base roles read 1 project'}]},
    {name: 'an administrator default group', model: m({security: {enableSelfRegister: true, defaultGroupName: 'Administrators'}, groups: ADMINS.groups, base: {}}), findings: [{severity: 'critical', messageIncludes: 'an administrator group'}]},
  ],
})

ruleTester(defaultGroupPrivileged, {
  valid: [
    {name: 'no default group', model: m({security: {}, groups: [{id: 2, name: 'Everyone'}]})},
    {name: 'an unprivileged default group', model: m({security: {defaultGroupName: 'Everyone'}, groups: [{id: 2, name: 'Everyone'}], groupAuthorizations: {2: []}})},
    {name: 'groups not read', model: m({security: {defaultGroupName: 'Everyone'}})},
  ],
  invalid: [
    {name: 'an administrator group', model: m({security: {defaultGroupName: 'Administrators'}, groups: ADMINS.groups}), findings: [{subject: 'Administrators', severity: 'critical', pointer: '/groups/0/administrator'}]},
    {name: 'servers before 11.9.2: the default login group', model: m({security: {defaultLoginGroupName: 'Administrators'}, groups: ADMINS.groups}), findings: [{severity: 'critical', messageIncludes: 'every logged-in user'}]},
    {name: 'it holds authorizations', model: m({security: {defaultGroupName: 'Everyone'}, groups: [{id: 2, name: 'Everyone'}], groupAuthorizations: {2: [[1, 2]]}}), findings: [{severity: 'high', pointer: '/groups/0', messageIncludes: 'holds 1 project authorization'}]},
    {name: 'it may create root projects', model: m({security: {defaultGroupName: 'Everyone'}, groups: [{id: 2, name: 'Everyone', createRootProjects: true}]}), findings: [{severity: 'high', pointer: '/groups/0/createRootProjects'}]},
  ],
})

ruleTester(twoFactorNotEnforced, {
  valid: [
    {name: 'enforced for everyone', model: m({security: {enforce2FA: true}, ...ADMINS, members: {1: [2]}})},
    {name: 'every administrator in an enforcing group (root too)', model: m({security: {}, groups: [{id: 1, name: 'Administrators', administrator: true, enforce2FA: true}], users: ADMINS.users, members: {1: [1, 2]}})},
    {name: 'users not read', model: m({security: {}, groups: ADMINS.groups})},
  ],
  invalid: [
    {name: 'root and an administrator without it', model: m({security: {}, ...ADMINS, members: {1: [2]}}), findings: [{subject: 'two-factor authentication', severity: 'high', pointer: '/settings~1security', messageIncludes: ['"admin" and "alice"', 'passwords still work on the API and Git over HTTP']}]},
  ],
})

ruleTester(tooManyAdmins, {
  valid: [
    {name: 'three administrators', model: m({...ADMINS, members: {1: [2, 3]}})},
    {name: 'a disabled member does not count', model: m({groups: ADMINS.groups, users: [...ADMINS.users.slice(0, 3), {id: 4, name: 'gone', disabled: true}], members: {1: [2, 3, 4]}})},
    {name: 'more, with a higher maximum', model: m({...ADMINS, members: {1: [2, 3, 4]}}), options: {maxAdministrators: 4}},
  ],
  invalid: [
    {name: 'five, service and AI accounts named apart', model: m({...ADMINS, members: {1: [2, 3, 4, 5]}}), findings: [{subject: 'administrators', severity: 'medium', pointer: '/groups', messageIncludes: ['admin, alice and bob', 'bot (service account) and ai (ai account)']}]},
  ],
})

ruleTester(disabledUserGrants, {
  valid: [
    {name: 'a disabled user with nothing', model: m({groups: [{id: 2, name: 'devs'}], users: [{id: 7, name: 'gone', disabled: true}], userGrants: {}})},
    {name: 'an enabled user with grants', model: m({groups: [{id: 2, name: 'devs'}], members: {2: [7]}, users: [{id: 7, name: 'here'}], userGrants: {1: [[7, 2]]}})},
  ],
  invalid: [
    {
      name: 'a disabled user still in a group and with a user authorization',
      model: m({groups: [{id: 2, name: 'devs'}], members: {2: [7]}, users: [{id: 7, name: 'gone', disabled: true}], userGrants: {1: [[7, 2]]}}),
      findings: [{subject: 'gone', severity: 'low', pointer: '/users/0/disabled', messageIncludes: ['memberships of devs', 'user authorizations on acme/app']}],
    },
  ],
})
