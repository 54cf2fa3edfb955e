import ldapPlaintext from '../../../rules/server/ldap-plaintext.js'
import noPasswordPolicy from '../../../rules/server/no-password-policy.js'
import plainHttpUrl from '../../../rules/server/plain-http-url.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {serverModel} from './helpers.js'

const ldap = (fields: Record<string, unknown>) => serverModel({'/settings/authenticator': {'@type': 'LdapAuthenticator', managerDN: 'cn=x', managerPassword: 'p', groupRetrieval: {'@type': 'DoNotRetrieveGroups'}, ...fields}})

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
      model: serverModel({'/settings/authenticator': {'@type': 'ActiveDirectoryAuthenticator', ldapUrl: 'LDAP://ad.acme.example'}}),
      findings: [{subject: 'authenticator', messageIncludes: 'ActiveDirectoryAuthenticator'}],
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
