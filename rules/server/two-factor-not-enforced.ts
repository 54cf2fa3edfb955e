/**
 * Two-factor authentication is enforced neither globally nor for every administrator.
 */
import {defineRule} from '../../src/engine/rule.js'
import {securitySettingOf} from '../../src/model/access-data.js'
import {memberPointer} from '../../src/model/pointer.js'
import {examplesPhrase} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'server/two-factor-not-enforced',
    shortDescription: 'Two-factor authentication is not enforced for every administrator',
    fullDescription:
      'A user must use two-factor authentication when the security setting enforces it for everyone, or when one of their groups enforces it. ' +
      'The rule reports when neither covers every administrator (root and members of administrator groups). ' +
      'Even when enforced, OneDev checks the second factor only in the web login form: a password alone still works on the REST API and Git over HTTP.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'An administrator\'s password is the whole server: one phished or reused password and the attacker administers every project, secret and user.',
      'Note that OneDev asks for the second factor only in the web login form: passwords still work on `/~api` and Git over HTTP, so administrators should use access tokens for those and keep their password out of scripts.',
      '',
      '## Fix',
      'In OneDev open *Administration → Security Settings* and set *Enforce Two-factor Authentication*, or set *Enforce Two-factor Authentication* on every administrator group in *Administration → Groups*',
      '(and put root in such a group).',
      '',
      '## Example',
      '```json',
      '{"enforce2FA": false}   // with group Administrators {"administrator": true, "enforce2FA": false}: reported',
      '```',
    ].join('\n'),
    tags: ['authentication'],
    scope: 'server',
    requires: ['/settings/security', '/groups', '/groups/{id}/memberships', '/users', '/users/{id}'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const {model} = context
    const security = securitySettingOf(model)
    const {data, administrators: admins, groupIdsByUser} = context.facts.access
    if (!security || !data.groups || !admins) return []
    if (security.enforce2FA) return []
    const enforcing = new Set(data.groups.filter((g) => g.enforce2FA).map((g) => g.id))
    const uncovered = admins.filter((a) => !(groupIdsByUser.get(a.user.id!) ?? []).some((id) => enforcing.has(id)))
    if (uncovered.length === 0) return []
    return [
      {
        subject: 'two-factor authentication',
        pointer: memberPointer(model.serverData, security.pointer, 'enforce2FA'),
        message:
          `Two-factor authentication is not enforced for ${uncovered.length} administrator${uncovered.length === 1 ? '' : 's'} (${examplesPhrase(uncovered.map((a) => a.user.name), 10)}): neither the security setting nor any of their groups enforces it. ` +
          'Enforce it in Administration > Security Settings or on every administrator group. Even then, passwords still work on the API and Git over HTTP without a second factor: have administrators use access tokens there.',
      },
    ]
  },
})
