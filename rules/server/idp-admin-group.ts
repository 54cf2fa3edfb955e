/**
 * Group names synced from an identity provider or LDAP while an administrator group exists: OneDev
 * maps them to its groups by exact name at each login (onedev-access-reference.md §3.3, §9 item 14).
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {groupsOf} from '../../src/model/access-data.js'
import {authenticatorOf, ssoProvidersOf} from '../../src/model/admin-data.js'
import {memberPointer} from '../../src/model/pointer.js'
import {DO_NOT_RETRIEVE_GROUPS} from '../../src/onedev/server-security.js'

export default defineRule({
  meta: {
    id: 'server/idp-admin-group',
    shortDescription: 'Group names from an identity provider or LDAP can make a user administrator',
    fullDescription:
      'Reports SSO providers with a groups claim, and an LDAP or Active Directory authenticator that retrieves groups, while some OneDev group is an administrator group. ' +
      'OneDev maps the group names the identity provider asserts to its own groups by exact name and re-syncs memberships at every login, ' +
      'so whoever can put a user in a group of that name at the identity provider makes them a OneDev administrator.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'At each SSO or LDAP login OneDev replaces the user\'s memberships with the groups whose names the identity provider sent. If a OneDev group',
      'named `Administrators` has *Is Site Admin* set, anyone who can create or join a group called `Administrators` at the identity provider (a',
      'self-service group in the directory, a tenant admin of another team, a misconfigured claim mapping) becomes a OneDev administrator.',
      '',
      '## Fix',
      'Rename the OneDev administrator group to a name the identity provider can never send (or make sure only the right people can be in that group',
      'there), or clear *Groups Claim* in *Administration → SSO Providers* / set *Group Retrieval* to *Do Not Retrieve Groups* in',
      '*Administration → Authenticator*, and manage administrators in *Administration → Group Management*.',
      '',
      '## Example',
      '```json',
      '// /sso-providers: [{"name": "okta", "connector": {"@type": "OpenIdConnector", "groupsClaim": "groups"}}]',
      '// /groups:        [{"name": "Administrators", "administrator": true}]      → reported',
      '```',
    ].join('\n'),
    tags: ['server', 'authentication', 'access-control'],
    scope: 'server',
    requires: ['/groups', '/sso-providers or /settings/sso-connectors', '/settings/authenticator'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const adminGroups = (groupsOf(context.model) ?? []).filter((group) => group.administrator)
    if (adminGroups.length === 0) return []
    const names = adminGroups.map((group) => `"${group.name}"`).join(', ')
    const drafts: FindingDraft[] = []
    for (const provider of ssoProvidersOf(context.model) ?? []) {
      if (provider.groupsClaim === null) continue
      drafts.push({
        subject: `SSO provider ${provider.name}`,
        message:
          `SSO provider "${provider.name}" syncs group names from its "${provider.groupsClaim}" claim, and the administrator group${adminGroups.length > 1 ? 's' : ''} ${names} can be matched by name: ` +
          'an identity-provider group with that name makes its members OneDev administrators at their next login. ' +
          'Rename the administrator group in Administration > Group Management to a name the provider cannot send, or clear Groups Claim in Administration > SSO Providers.',
        pointer: provider.groupsClaimPointer,
        key: provider.pointer,
      })
    }
    const authenticator = authenticatorOf(context.model)
    if (authenticator && authenticator.groupRetrieval !== null && authenticator.groupRetrieval !== DO_NOT_RETRIEVE_GROUPS) {
      drafts.push({
        subject: 'LDAP authenticator',
        message:
          `The ${authenticator.type} retrieves group names (${authenticator.groupRetrieval}), and the administrator group${adminGroups.length > 1 ? 's' : ''} ${names} can be matched by name: ` +
          'a directory group with that name makes its members OneDev administrators at their next login. ' +
          'Rename the administrator group in Administration > Group Management, or set Group Retrieval to Do Not Retrieve Groups in Administration > Authenticator.',
        pointer: memberPointer(context.model.serverData, authenticator.pointer, 'groupRetrieval'),
        key: authenticator.pointer,
      })
    }
    return drafts
  },
})
