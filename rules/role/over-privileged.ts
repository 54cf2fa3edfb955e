/**
 * Roles that hand out project administration (`manageProject`, which implies every permission) or
 * an accumulation of management privileges, outside the roles the audit allows to be admins.
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import type {Role} from '../../src/model/types.js'
import {memberPointer} from '../../src/onedev/url.js'
import {holdingNote} from '../support/access-findings.js'

interface Options {
  maxManagePrivileges: number
}

const MANAGE_FLAGS = ['managePullRequests', 'manageCodeComments', 'manageIssues', 'manageBuilds', 'createChildren'] as const

export default defineRule<Options>({
  meta: {
    id: 'role/over-privileged',
    shortDescription: 'A role that is not an allowed admin role grants project administration or many management privileges',
    fullDescription:
      '`manageProject` implies every permission on the project and its descendants: settings, job secrets (in clear text over the API), protections, members. ' +
      'The rule reports it in any role not listed in `allowedAdminRoles` (default: `Project Owner`). ' +
      'It also reports (medium) roles that combine more than `maxManagePrivileges` of managePullRequests, manageCodeComments, manageIssues, manageBuilds and createChildren: ' +
      'such a role is close to an administrator and is easy to grant without noticing.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'Roles are global and are granted per project, to users, groups, and as a project\'s default role for every logged-in user.',
      'A custom role with *Project Management* turns everyone who holds it into an administrator of the project and all its children,',
      'able to read job secrets, remove branch protections and change who has access.',
      '',
      '## Fix',
      'In OneDev open *Administration → Role Management*, edit the role and clear *Project Management*, granting only the specific',
      'privileges the role needs. If the role is meant to be an admin role, list it in the audit configuration\'s `allowedAdminRoles`.',
      '',
      '## Example',
      '```yaml',
      '# .onedev-audit.yml',
      'allowedAdminRoles: ["Project Owner", "Platform Admin"]',
      'rules:',
      '  role/over-privileged: [high, {maxManagePrivileges: 2}]',
      '```',
    ].join('\n'),
    tags: ['access-control', 'least-privilege'],
    scope: 'role',
    optionsSchema: {
      type: 'object',
      properties: {
        maxManagePrivileges: {
          type: 'integer',
          minimum: 0,
          maximum: MANAGE_FLAGS.length,
          description: 'How many of managePullRequests, manageCodeComments, manageIssues, manageBuilds and createChildren a role may hold before it is reported.',
        },
      },
      additionalProperties: false,
    },
    defaultOptions: {maxManagePrivileges: 2},
  },
  check(context) {
    if (context.scope !== 'role') return []
    const {role, settings, options} = context
    if (settings.allowedAdminRoles.includes(role.name)) return []
    const held = holdingNote(context.facts.roleHoldings, role, 'high')
    if (role.manageProject) {
      return [
        {
          subject: role.name,
          message:
            `Role "${role.name}" has Project Management, which implies every permission (settings, job secrets, protections, members) on each project it is granted on and on their children. ` +
            `Clear it and grant only the privileges the role needs, or list the role in allowedAdminRoles if it is meant to be an admin role (allowed now: ${settings.allowedAdminRoles.map((r) => `"${r}"`).join(', ') || 'none'}).` +
            held.text,
          pointer: memberPointer(role.raw, '', 'manageProject'),
          ...held.severity,
        },
      ]
    }
    const flags = MANAGE_FLAGS.filter((flag) => role[flag as keyof Role] === true)
    const max = typeof options.maxManagePrivileges === 'number' ? options.maxManagePrivileges : 2
    if (flags.length <= max) return []
    const lesser = holdingNote(context.facts.roleHoldings, role, 'medium')
    const finding: FindingDraft = {
      subject: role.name,
      message:
        `Role "${role.name}" combines ${flags.length} management privileges (${flags.join(', ')}), more than the ${max} allowed: it is close to a project administrator. ` +
        'Split it into narrower roles, or raise maxManagePrivileges if this is intended.' +
        lesser.text,
      pointer: '',
      severity: lesser.severity.severity ?? 'medium',
    }
    return [finding]
  },
})
