/**
 * The default group of an SSO provider or of the external authenticator (LDAP, Active Directory) is
 * an administrator group, holds authorizations, or may create root projects: every account the
 * provider or directory logs in joins it (onedev-access-reference.md §9 item 3).
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {type Group, groupsOf} from '../../src/model/access-data.js'
import {authenticatorDefaultGroupOf, ssoProvidersOf} from '../../src/model/admin-data.js'
import {groupPrivilege} from '../support/group-privilege.js'

export default defineRule({
  meta: {
    id: 'server/idp-default-group-privileged',
    shortDescription: 'The default group of an SSO provider or of the external authenticator is privileged',
    fullDescription:
      'Every account an SSO provider creates or logs in joins its *Default Group* (`defaultGroupId` of `GET /sso-providers`; `defaultGroup` of the ' +
      'SSO connectors of servers up to 12.0.8), and every account the external authenticator (LDAP, Active Directory) creates or syncs joins its ' +
      '*Default Group* (`defaultGroup` of `GET /settings/authenticator`). Critical when that group is an administrator group; high when it holds project ' +
      'authorizations or may create root projects. The default group of new users (Security Settings) is judged by server/default-group-privileged.',
    defaultSeverity: 'critical',
    help: [
      '## Risk',
      'Whatever the default group may do, everyone who can log in through the identity provider or the directory may do: a whole tenant, every',
      'employee in the directory, or, for a public provider such as GitHub, anyone with an account there. An administrator default group makes',
      'them all site administrators at their first login.',
      '',
      '## Fix',
      'In OneDev open *Administration → External Authentication → Single Sign On*, the provider, and change *Default Group* to a group without',
      'privileges (or none); for LDAP or Active Directory, *Password Authenticator* in the same menu, *Default Group*. The menu is *External Auth',
      'Source* (with *Authenticator*) on 12.x and *Authentication Source* (with *External Authentication*) on 8.x. Or clear *Is Site Admin* and',
      '*Can Create Root Projects* of that group in *Administration → Group Management* and remove its project authorizations.',
      '',
      '## In OneDev\'s source',
      '- v16.5.6 `server-core/src/main/java/io/onedev/server/model/SsoProvider.java:32-33` (`defaultGroup`, written `defaultGroupId`, from v13.1.7);',
      '  `server-core/src/main/java/io/onedev/server/web/page/security/SsoProcessPage.java:222-231` (joined at each login that syncs groups, and by new accounts).',
      '- v8.0.0 to v12.0.8 `server-core/src/main/java/io/onedev/server/model/support/administration/sso/SsoConnector.java:19` (v12.0.8 `:18`; `defaultGroup`, a name);',
      '  v8.0.0 `server-core/src/main/java/io/onedev/server/security/realm/SsoAuthorizingRealm.java:73-77` (new accounts without groups join it).',
      '- v16.5.6 `server-core/src/main/java/io/onedev/server/model/support/administration/authenticator/Authenticator.java:19` (`defaultGroup`; the class',
      '  carries `@JsonTypeInfo(use=Id.CLASS)`, :14); `server-core/src/main/java/io/onedev/server/security/DefaultAuthenticatingService.java:97-108`.',
      '',
      '## Example',
      '```json',
      '// /sso-providers: [{"id": 1, "name": "okta", "defaultGroupId": 1, "connector": {"@type": "OpenIdConnector", …}}]',
      '// /groups:        [{"id": 1, "name": "Administrators", "administrator": true}]     → critical',
      '```',
    ].join('\n'),
    tags: ['server', 'authentication', 'access-control', 'least-privilege'],
    scope: 'server',
    requires: ['/groups', '/groups/{id}/authorizations', '/projects', '/projects/{id}/group-authorizations', '/sso-providers or /settings/sso-connectors', '/settings/authenticator'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const groups = groupsOf(context.model)
    if (!groups) return []
    const drafts: FindingDraft[] = []
    const report = (group: Group | undefined, subject: string, who: string, pointer: string, fix: string) => {
      const privilege = group ? groupPrivilege(context, group) : null
      if (!group || !privilege) return
      drafts.push({
        subject,
        severity: privilege.kind === 'administrator' ? 'critical' : 'high',
        message:
          privilege.kind === 'administrator'
            ? `${who} joins group ${group.name}, an administrator group: they are all site administrators. ${fix}, or clear Is Site Admin of the group.`
            : `${who} joins group ${group.name}, which ${privilege.reasons}: they all get that. ${fix}, or move the privileges to a group people are added to deliberately.`,
        pointer,
      })
    }
    for (const provider of ssoProvidersOf(context.model) ?? []) {
      const group = provider.defaultGroupId !== null ? groups.find((g) => g.id === provider.defaultGroupId) : provider.defaultGroupName !== null ? groups.find((g) => g.name === provider.defaultGroupName) : undefined
      report(
        group,
        `SSO provider ${provider.name}`,
        `Every account SSO provider "${provider.name}" logs in`,
        provider.defaultGroupPointer,
        'Choose a default group without privileges in Administration > External Authentication > Single Sign On',
      )
    }
    const authenticator = authenticatorDefaultGroupOf(context.model)
    if (authenticator) {
      report(
        groups.find((g) => g.name === authenticator.group),
        'authenticator',
        'Every account the external authenticator (LDAP or Active Directory) creates or syncs',
        authenticator.pointer,
        'Choose a default group without privileges in Administration > External Authentication > Password Authenticator',
      )
    }
    return drafts
  },
})
