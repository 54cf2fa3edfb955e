/**
 * The default group of new users is an administrator group, holds authorizations, or may create root projects.
 */
import {defineRule} from '../../src/engine/rule.js'
import {securitySettingOf} from '../../src/model/access-data.js'
import {groupPrivilege} from '../support/group-privilege.js'

export default defineRule({
  meta: {
    id: 'server/default-group-privileged',
    shortDescription: 'The default group of new users is privileged',
    fullDescription:
      'Every new user (sign-up, invitation, SSO or LDAP login) joins the default group (`defaultGroupName`); on servers before 11.9.2 every logged-in user counted as a member of the default login group. ' +
      'Critical when that group is an administrator group; high when it holds project authorizations or may create root projects.',
    defaultSeverity: 'critical',
    help: [
      '## Risk',
      'Whatever the default group may do, every account may do, including accounts created by self sign-up or by an SSO or LDAP login. An administrator default group makes every user a site administrator.',
      '',
      '## Fix',
      'In OneDev open *Administration → Security Settings* and change *Default Group* to a group without privileges, or in *Administration → Groups* clear',
      '*Is Site Admin* and *Can Create Root Projects* of that group and remove its project authorizations.',
      '',
      '## Example',
      '```json',
      '{"defaultGroupName": "Administrators"}   // with Administrators.administrator = true: critical',
      '```',
    ].join('\n'),
    tags: ['access-control', 'least-privilege'],
    scope: 'server',
    requires: ['/settings/security', '/groups', '/groups/{id}/authorizations', '/projects', '/projects/{id}/group-authorizations'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const {model, facts} = context
    const security = securitySettingOf(model)
    const {data} = facts.access
    if (!security || !data.groups) return []
    const legacy = security.defaultLoginGroupName !== null
    const name = security.defaultGroupName ?? security.defaultLoginGroupName
    if (name === null) return []
    const group = data.groups.find((g) => g.name === name)
    if (!group) return []
    const who = legacy ? 'every logged-in user (the default login group of servers before 11.9.2 applies to all of them)' : 'every new user joins it'
    const where = `Group ${group.name} is the default group: ${who}`
    const privilege = groupPrivilege(context, group)
    if (privilege === null) return []
    if (privilege.kind === 'administrator') {
      return [
        {
          subject: group.name,
          pointer: privilege.pointer,
          message: `${where}, and it is an administrator group, so they are all site administrators. Choose a default group without privileges in Administration > Security Settings, or clear Is Site Admin of this group.`,
        },
      ]
    }
    return [
      {
        subject: group.name,
        severity: 'high',
        pointer: privilege.pointer,
        message: `${where}, and it ${privilege.reasons}: every account gets that. Choose a default group without privileges in Administration > Security Settings, or move the privileges to a group people are added to deliberately.`,
      },
    ]
  },
})
