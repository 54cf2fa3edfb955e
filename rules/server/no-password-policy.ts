/** No password policy on a server that supports one (12.0+; onedev-access-reference.md §3.1, §9 item 15). */
import {defineRule} from '../../src/engine/rule.js'
import {securitySettingOf} from '../../src/model/access-data.js'
import {joinPointer} from '../../src/model/pointer.js'

export default defineRule({
  meta: {
    id: 'server/no-password-policy',
    shortDescription: 'No password policy is set (OneDev 12.0+)',
    fullDescription:
      'Reports a server (12.0 or later) whose security setting has no password policy: new passwords may be one character long. ' +
      'Passwords work for the web login and, without two-factor authentication, for the REST API and Git over HTTP. Older servers have no such setting and are not reported.',
    defaultSeverity: 'low',
    help: [
      '## Risk',
      'Without a policy users may choose passwords that fall to guessing or to a list of leaked passwords, and a password alone opens the REST API',
      'and Git over HTTP (two-factor authentication applies only to the web login).',
      '',
      '## Fix',
      'In *Administration → Security Settings* enable *Password Policy* (OneDev proposes a minimum length of 8 with upper case, lower case, digits',
      'and special characters); prefer SSO or LDAP logins for people and access tokens for tools.',
      '',
      '## Example',
      '```json',
      '{"passwordPolicy": null}                                                    // reported',
      '{"passwordPolicy": {"minLength": 12, "mustContainUppercase": true, ...}}   // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'authentication'],
    scope: 'server',
    requires: ['/settings/security'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const security = securitySettingOf(context.model)
    if (!security || !security.hasPasswordPolicyKey || security.passwordPolicy !== null) return []
    return [
      {
        subject: 'password policy',
        message:
          'No password policy is set: users may choose any password, and a password alone opens the REST API and Git over HTTP. ' +
          'In Administration > Security Settings enable Password Policy.',
        pointer: joinPointer(security.pointer, 'passwordPolicy'),
      },
    ]
  },
})
