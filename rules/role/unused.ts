/**
 * Roles no authorization references.
 */
import {defineRule} from '../../src/engine/rule.js'

export default defineRule({
  meta: {
    id: 'role/unused',
    shortDescription: 'A role is held by nobody',
    fullDescription:
      'No base, group, user or access-token authorization read by the audit references the role (nor a default role of servers before 11.11). ' +
      'Unused roles are clutter that gets granted by mistake later, often with more privileges than anyone remembers. ' +
      'Only the authorizations of the projects that were read count: audit every project (`--all-projects`) for an exact answer.',
    defaultSeverity: 'low',
    help: [
      '## Risk',
      'A forgotten role still exists and can be granted in one click; if it is broad, whoever grants it later may not know what it allows.',
      '',
      '## Fix',
      'In OneDev open *Administration → Role Management* and delete the role, or keep it deliberately and suppress this finding.',
      '',
      '## Example',
      'Role `Legacy Deployer` referenced by no project, group, user or access token: reported.',
    ].join('\n'),
    tags: ['access-control', 'hygiene'],
    scope: 'role',
    requires: ['/projects', '/projects/{id}/base-authorizations', '/projects/{id}/group-authorizations', '/projects/{id}/user-authorizations', '/groups/{id}/authorizations'],
  },
  check(context) {
    if (context.scope !== 'role') return []
    const {role, facts} = context
    const holdings = facts.roleHoldings
    if (!holdings || holdings.byRole.has(role.id)) return []
    return [
      {
        subject: role.name,
        pointer: '',
        message: `Role "${role.name}" is held by nobody: no authorization of the ${holdings.projectsRead} project${holdings.projectsRead === 1 ? '' : 's'} read references it. Delete it in Administration > Role Management if it is not needed.`,
      },
    ]
  },
})
