/**
 * An LDAP or Active Directory authenticator reached over `ldap://`: every login sends the user's
 * password, and the manager password, in clear (onedev-access-reference.md §3.2, §9 item 14).
 */
import {defineRule} from '../../src/engine/rule.js'
import {authenticatorOf} from '../../src/model/admin-data.js'
import {memberPointer} from '../../src/model/pointer.js'
import {isPlainLdap} from '../../src/onedev/server-security.js'

export default defineRule({
  meta: {
    id: 'server/ldap-plaintext',
    shortDescription: 'The LDAP authenticator is reached over plain ldap://',
    fullDescription:
      'Reports an LDAP or Active Directory external authenticator whose URL is `ldap://`. OneDev binds with the manager DN and then with the ' +
      'user\'s own password for every login (web, REST API and Git over HTTP), so those passwords cross the network in clear.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'A simple bind over `ldap://` sends the password as plain text. Anyone on the path between OneDev and the directory (a shared network,',
      'a compromised switch, a mirror port) collects the manager password and the password of every user who logs in.',
      '',
      '## Fix',
      'In *Administration → Authenticator* change the LDAP URL to `ldaps://` (port 636), with the directory\'s CA trusted by the OneDev JVM.',
      '',
      '## Example',
      '```json',
      '{"@type": "LdapAuthenticator", "ldapUrl": "ldap://ldap.acme.example:389"}    // reported',
      '{"@type": "LdapAuthenticator", "ldapUrl": "ldaps://ldap.acme.example:636"}   // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'authentication', 'tls'],
    scope: 'server',
    requires: ['/settings/authenticator'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const authenticator = authenticatorOf(context.model)
    if (!authenticator || !isPlainLdap(authenticator.ldapUrl)) return []
    return [
      {
        subject: 'authenticator',
        message:
          `The ${authenticator.type} reaches the directory over plain ${authenticator.ldapUrl}: the manager password and every user's password cross the network in clear at each login. ` +
          'In Administration > Authenticator change the LDAP URL to ldaps://.',
        pointer: memberPointer(context.model.serverData, authenticator.pointer, 'ldapUrl'),
      },
    ]
  },
})
