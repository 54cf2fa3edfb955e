/**
 * Access tokens that never expire; high when the token carries its owner's permissions and the owner
 * is an administrator (onedev-access-reference.md §5, §6, §9 item 15).
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {groupsOf, membershipsOf, usersOf} from '../../src/model/access-data.js'
import {accessTokensOf} from '../../src/model/admin-data.js'
import {memberPointer} from '../../src/model/pointer.js'
import {administratorIds} from '../../src/onedev/server-security.js'

export default defineRule({
  meta: {
    id: 'server/token-no-expiry',
    shortDescription: 'An access token never expires',
    fullDescription:
      'Reports access tokens with no expiry date. High when the token has owner permissions and its owner is an administrator (the root user or a ' +
      'member of a group with *Is Site Admin*): a leaked token is then a permanent administrator login that two-factor authentication does not cover. ' +
      'Tokens of disabled users are not reported (they no longer authenticate).',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'Access tokens end up in CI variables, scripts and shell histories. One without an expiry date works until someone remembers to delete it. With',
      '*Has Owner Permissions* a token acts as its owner with every right they hold, including administration, and no second factor is asked.',
      '',
      '## Fix',
      'Have the owner (or an administrator, in *Administration → User Management → the user → Access Tokens*) set an expiry date, or replace the',
      'token with one that expires; give tools tokens without owner permissions, authorized only on the projects they need.',
      '',
      '## Example',
      '```json',
      '{"name": "deploy", "ownerId": 1, "hasOwnerPermissions": true, "expireDate": null}     // high: root\'s token',
      '{"name": "ci", "ownerId": 6, "hasOwnerPermissions": false, "expireDate": null}        // medium',
      '{"name": "ci", "ownerId": 6, "expireDate": "2027-01-01T00:00:00.000+00:00"}           // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'authentication', 'credentials'],
    scope: 'server',
    requires: ['/users', '/users/{id}', '/users/{id}/access-tokens'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const tokens = accessTokensOf(context.model)
    if (!tokens) return []
    const users = new Map((usersOf(context.model) ?? []).flatMap((user) => (user.id === null ? [] : [[user.id, user] as const])))
    const disabled = (id: number) => users.get(id)?.disabled === true
    const admins = administratorIds(groupsOf(context.model) ?? [], (groupId) => membershipsOf(context.model, groupId)?.map((m) => m.userId), disabled)
    const drafts: FindingDraft[] = []
    for (const token of tokens) {
      if (token.expireDate !== null || disabled(token.ownerId)) continue
      const owner = users.get(token.ownerId)?.name ?? `user #${token.ownerId}`
      const adminToken = token.hasOwnerPermissions && admins.has(token.ownerId)
      drafts.push({
        subject: `${owner}/${token.name}`,
        severity: adminToken ? 'high' : 'medium',
        message:
          `Access token "${token.name}" of ${owner} never expires` +
          (adminToken
            ? ` and has owner permissions of an administrator: if it leaks, it is a permanent administrator login without two-factor authentication. `
            : token.hasOwnerPermissions
              ? ' and acts with all of its owner\'s permissions. '
              : '. ') +
          `Set an expiry date (Administration > User Management > ${owner} > Access Tokens), or replace it with a token that expires` +
          (token.hasOwnerPermissions ? ' and has no owner permissions.' : '.'),
        pointer: memberPointer(context.model.serverData, token.pointer, 'expireDate'),
        key: token.pointer,
      })
    }
    return drafts
  },
})
