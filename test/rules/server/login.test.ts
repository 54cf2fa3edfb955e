import ldapPlaintext from '../../../rules/server/ldap-plaintext.js'
import noPasswordPolicy from '../../../rules/server/no-password-policy.js'
import plainHttpUrl from '../../../rules/server/plain-http-url.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {serverModel} from './helpers.js'

/**
 * GET /settings/authenticator as OneDev writes it: `Authenticator` carries @JsonTypeInfo(use=Id.CLASS)
 * (v16.5.6 model/support/administration/authenticator/Authenticator.java:14, v8.0.0 :16), so the type is
 * `@class`, fully qualified (server-plugin-authenticator-ldap …/ldap/LdapAuthenticator.java:44,
 * ActiveDirectoryAuthenticator.java:12); `groupRetrieval` is an interface (GroupRetrieval.java:8): `@type`.
 */
const LDAP_CLASS = 'io.onedev.server.plugin.authenticator.ldap.LdapAuthenticator'
const AD_CLASS = 'io.onedev.server.plugin.authenticator.ldap.ActiveDirectoryAuthenticator'
const ldap = (fields: Record<string, unknown>) => serverModel({'/settings/authenticator': {'@class': LDAP_CLASS, managerDN: 'cn=x', managerPassword: 'p', groupRetrieval: {'@type': 'DoNotRetrieveGroups'}, ...fields}})

ruleTester(ldapPlaintext, {
  valid: [
    {name: 'authenticator not read', model: serverModel({})},
    {name: 'no authenticator (204)', model: serverModel({'/settings/authenticator': null})},
    {name: 'ldaps://', model: ldap({ldapUrl: 'ldaps://ldap.acme.example:636'})},
  ],
  invalid: [
    {
      name: 'ldap://',
      model: ldap({ldapUrl: 'ldap://ldap.acme.example:389'}),
      findings: [{subject: 'authenticator', severity: 'medium', pointer: '/settings~1authenticator/ldapUrl', messageIncludes: ['ldap://ldap.acme.example:389', 'Administration > Authenticator', 'ldaps://']}],
    },
    {
      name: 'Active Directory, upper case scheme',
      model: serverModel({'/settings/authenticator': {'@class': AD_CLASS, ldapUrl: 'LDAP://ad.acme.example'}}),
      findings: [{subject: 'authenticator', messageIncludes: 'ActiveDirectoryAuthenticator'}],
    },
    {
      // No OneDev writes it so (the class annotation wins), but a type is a type, whichever property says it.
      name: 'the type under the default typing\'s @type',
      model: serverModel({'/settings/authenticator': {'@type': 'LdapAuthenticator', ldapUrl: 'ldap://ldap.acme.example'}}),
      findings: [{subject: 'authenticator', messageIncludes: 'LdapAuthenticator'}],
    },
  ],
})

const security = (fields: Record<string, unknown>) => serverModel({'/settings/security': {enableAnonymousAccess: false, enableSelfRegister: false, enforce2FA: false, ...fields}})

ruleTester(noPasswordPolicy, {
  valid: [
    {name: 'security setting not read', model: serverModel({})},
    {name: 'a policy', model: security({passwordPolicy: {minLength: 8, mustContainUppercase: true, mustContainLowercase: true, mustContainNumber: true, mustContainSpecial: true}})},
    {name: 'a server before 12.0 has no policy setting', model: security({defaultLoginGroupName: null})},
  ],
  invalid: [
    {
      name: 'passwordPolicy null',
      model: security({passwordPolicy: null, corsAllowedOrigins: []}),
      findings: [{subject: 'password policy', severity: 'low', pointer: '/settings~1security/passwordPolicy', messageIncludes: 'Administration > Security Settings'}],
    },
  ],
})

const system = (serverUrl: unknown) => serverModel({'/settings/system': {serverUrl, sshRootUrl: null, sessionTimeout: 30}})

ruleTester(plainHttpUrl, {
  valid: [
    {name: 'system setting not read', model: serverModel({})},
    {name: 'https://', model: system('https://onedev.acme.example')},
    {name: 'no server URL', model: system(null)},
  ],
  invalid: [
    {
      name: 'http://',
      model: system('http://onedev.acme.example:6610'),
      findings: [{severity: 'low', pointer: '/settings~1system/serverUrl', messageIncludes: ['http://onedev.acme.example:6610', 'Administration > System Settings']}],
    },
  ],
})
