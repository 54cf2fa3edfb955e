import rule from '../../../rules/server/idp-admin-group.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {serverModel} from './helpers.js'

const ADMIN_GROUPS = [
  {id: 1, name: 'Administrators', administrator: true, createRootProjects: false, enforce2FA: true},
  {id: 2, name: 'Developers', administrator: false, createRootProjects: true, enforce2FA: false},
]
const okta = (groupsClaim: string | null) => ({id: 1, name: 'okta', defaultGroupId: null, connector: {'@type': 'OpenIdConnector', clientId: 'c', clientSecret: 's', groupsClaim}})
/** As OneDev writes it: `@class` at the root (v16.5.6 Authenticator.java:14), `@type` for the GroupRetrieval interface inside (LdapAuthenticator.java:70). */
const ldap = (retrieval: string) => ({'@class': 'io.onedev.server.plugin.authenticator.ldap.LdapAuthenticator', ldapUrl: 'ldaps://ldap', managerPassword: 'p', groupRetrieval: {'@type': retrieval}})

ruleTester(rule, {
  valid: [
    {name: 'groups not read', model: serverModel({'/sso-providers': [okta('groups')]})},
    {name: 'no administrator group', model: serverModel({'/groups': [ADMIN_GROUPS[1]], '/sso-providers': [okta('groups')]})},
    {name: 'no groups claim, LDAP does not retrieve groups', model: serverModel({'/groups': ADMIN_GROUPS, '/sso-providers': [okta(null)], '/settings/authenticator': ldap('DoNotRetrieveGroups')})},
    {name: 'no SSO provider and no authenticator (204)', model: serverModel({'/groups': ADMIN_GROUPS, '/sso-providers': [], '/settings/authenticator': null})},
  ],
  invalid: [
    {
      name: 'an SSO provider with a groups claim, and LDAP retrieving groups',
      model: serverModel({'/groups': ADMIN_GROUPS, '/sso-providers': [okta(null), {...okta('groups'), id: 2, name: 'entra'}], '/settings/authenticator': ldap('SearchGroupsUsingFilter')}),
      findings: [
        {subject: 'LDAP authenticator', severity: 'high', pointer: '/settings~1authenticator/groupRetrieval', messageIncludes: ['SearchGroupsUsingFilter', 'Administration > Authenticator']},
        {subject: 'SSO provider entra', severity: 'high', pointer: '/sso-providers/1/connector/groupsClaim', messageIncludes: ['"groups" claim', '"Administrators"', 'Administration > SSO Providers']},
      ],
    },
    {
      name: 'servers up to 12.0: SSO connectors',
      model: serverModel({'/groups': ADMIN_GROUPS, '/settings/sso-connectors': [{'@type': 'OpenIdConnector', name: 'keycloak', clientSecret: 's', groupsClaim: 'roles'}]}),
      findings: [{subject: 'SSO provider keycloak', pointer: '/settings~1sso-connectors/0/groupsClaim'}],
    },
  ],
})
