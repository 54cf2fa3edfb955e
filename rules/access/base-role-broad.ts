/**
 * Base (default) roles that give every logged-in user more than reading.
 */
import {defineRule, type Severity} from '../../src/engine/rule.js'
import {type Breadth, roleBreadth} from '../../src/onedev/access.js'
import {baseRoleFindings, baseRoleSetting, describeBaseRole} from '../support/base-role-findings.js'

const SEVERITY: Partial<Record<Breadth, Severity>> = {manage: 'critical', write: 'high', jobs: 'high', 'children-or-issues': 'medium'}
const WHAT: Partial<Record<Breadth, string>> = {
  manage: 'manage the project (settings, job secrets, protections, members)',
  write: 'write code (push, or what implies it: manage pull requests, code comments or workspaces)',
  jobs: 'run jobs or manage builds (jobs receive the secrets their authorizations admit)',
  'children-or-issues': 'create child projects or manage issues',
}

export default defineRule({
  meta: {
    id: 'access/base-role-broad',
    shortDescription: 'A base role gives every logged-in user more than reading',
    fullDescription:
      'Base authorizations (default roles before 11.11) give their role to every logged-in user, on the project and all its descendants. ' +
      'Critical when the role manages the project; high when it writes code (including manage pull requests, code comments or workspaces), runs jobs or manages builds; medium when it creates child projects or manages issues. ' +
      'Reported at the project that grants it, once (an ancestor that is not audited is reported with each audited descendant).',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'Everyone with an account, including accounts created by self sign-up or SSO, holds a base role. A base role that writes code lets any of them push; one that manages the project gives them its secrets.',
      '',
      '## Fix',
      'In OneDev open *Project Settings → Authorization → Base Authorization* (or *General → Default Roles* before 11.11) and choose a read-only role such as *Code Reader*;',
      'grant writing roles to groups instead.',
      '',
      '## Example',
      '```json',
      '[{"id": 7, "projectId": 42, "roleId": 2}]   // role 2 = Code Writer: reported (high)',
      '```',
    ].join('\n'),
    tags: ['access-control', 'least-privilege'],
    scope: 'project',
    requires: ['/roles', '/projects/{id}/base-authorizations'],
  },
  check(context) {
    if (context.scope !== 'project') return []
    return baseRoleFindings(context, (grant) => {
      const breadth = roleBreadth(grant.role)
      const severity = SEVERITY[breadth]
      if (!severity) return null
      return {
        severity,
        message:
          `${describeBaseRole(context, grant)} lets every logged-in user ${WHAT[breadth]} on it and its child projects. ` +
          `Choose a read-only base role in ${baseRoleSetting(grant)} and grant this role to groups instead.`,
      }
    })
  },
})
