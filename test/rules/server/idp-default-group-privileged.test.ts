import rule from '../../../rules/server/idp-default-group-privileged.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {ldapAuthenticator, ssoConnector8, ssoProvider16} from '../../helpers/server-payloads.js'
import {serverModel} from './helpers.js'

const GROUPS = [
  {id: 1, name: 'Administrators', description: null, administrator: true, createRootProjects: false, enforce2FA: true},
  {id: 2, name: 'Developers', description: null, administrator: false, createRootProjects: true, enforce2FA: false},
  {id: 3, name: 'sso-users', description: null, administrator: false, createRootProjects: false, enforce2FA: false},
  {id: 4, name: 'readers', description: null, administrator: false, createRootProjects: false, enforce2FA: false},
]
const AUTHORIZATIONS = {'/groups/1/authorizations': [], '/groups/2/authorizations': [], '/groups/3/authorizations': [], '/groups/4/authorizations': [{id: 1, projectId: 1, roleId: 2, groupId: 4}]}

ruleTester(rule, {
  valid: [
    {name: '16.x: a default group without privileges', model: serverModel({'/groups': GROUPS, ...AUTHORIZATIONS, '/sso-providers': [ssoProvider16(1, 'okta', 3, 's')], '/settings/authenticator': ldapAuthenticator('sso-users', 'p')})},
    {name: 'no default group', model: serverModel({'/groups': GROUPS, ...AUTHORIZATIONS, '/sso-providers': [ssoProvider16(1, 'okta', null, 's')], '/settings/authenticator': ldapAuthenticator(null, 'p')})},
    {name: 'no authenticator (204), no SSO provider', model: serverModel({'/groups': GROUPS, '/sso-providers': [], '/settings/authenticator': null})},
    {name: 'groups not read', model: serverModel({'/sso-providers': [ssoProvider16(1, 'okta', 1, 's')]})},
    {name: 'a default group that does not exist', model: serverModel({'/groups': GROUPS, '/settings/sso-connectors': [ssoConnector8('keycloak', 'gone', 's')]})},
  ],
  invalid: [
    {
      name: '16.x: an SSO provider into the administrator group (critical), another into a group that may create root projects (high)',
      model: serverModel({'/groups': GROUPS, ...AUTHORIZATIONS, '/sso-providers': [ssoProvider16(1, 'okta', 1, 's'), ssoProvider16(2, 'github', 2, 's'), ssoProvider16(3, 'entra', 3, 's')]}),
      findings: [
        {subject: 'SSO provider okta', severity: 'critical', pointer: '/sso-providers/0/defaultGroupId', messageIncludes: ['"okta"', 'Administrators', 'site administrators', 'Single Sign On']},
        {subject: 'SSO provider github', severity: 'high', pointer: '/sso-providers/1/defaultGroupId', messageIncludes: ['may create root projects']},
      ],
    },
    {
      name: 'the LDAP authenticator (written with @class) into a group holding a project authorization',
      model: serverModel({'/groups': GROUPS, ...AUTHORIZATIONS, '/sso-providers': [], '/settings/authenticator': ldapAuthenticator('readers', 'p')}),
      findings: [{subject: 'authenticator', severity: 'high', pointer: '/settings~1authenticator/defaultGroup', messageIncludes: ['holds 1 project authorization', 'Password Authenticator']}],
    },
    {
      name: '8.0.0 – 12.0.8: an SSO connector\'s default group by name',
      model: serverModel({'/groups': GROUPS, ...AUTHORIZATIONS, '/settings/sso-connectors': [ssoConnector8('keycloak', 'Administrators', 's')]}),
      findings: [{subject: 'SSO provider keycloak', severity: 'critical', pointer: '/settings~1sso-connectors/0/defaultGroup'}],
    },
  ],
})
