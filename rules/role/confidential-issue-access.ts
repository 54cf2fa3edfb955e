/** Roles other than the allowed admin roles that can read confidential issues. */
import {defineRule} from '../../src/engine/rule.js'
import {memberPointer} from '../../src/onedev/url.js'

export default defineRule({
  meta: {
    id: 'role/confidential-issue-access',
    shortDescription: 'A role that is not an allowed admin role can read confidential issues',
    fullDescription:
      'Confidential issues often hold vulnerability reports and incident details. The rule reports roles not listed in `allowedAdminRoles` that have `accessConfidentialIssues`, ' +
      'or `manageIssues`, which implies it. OneDev\'s built-in Code Writer and Package Writer roles have it, so every writer can read them.',
    defaultSeverity: 'low',
    help: [
      '## Risk',
      'Security reports filed as confidential issues are visible to everyone holding such a role on the project, including',
      'every logged-in user when the role is a project\'s default role.',
      '',
      '## Fix',
      'In OneDev open *Administration → Role Management*, edit the role and clear *Access Confidential Issues* (and *Issue Management*',
      'if the role does not need to administer issues). Grant confidential access through a dedicated role given to the people who triage them.',
      '',
      '## Example',
      '```json',
      '{"name": "Code Writer", "accessConfidentialIssues": true}   // reported',
      '```',
    ].join('\n'),
    tags: ['access-control', 'confidentiality'],
    scope: 'role',
  },
  check(context) {
    if (context.scope !== 'role') return []
    const {role, settings} = context
    if (settings.allowedAdminRoles.includes(role.name)) return []
    if (!role.accessConfidentialIssues && !role.manageIssues) return []
    const via = role.accessConfidentialIssues ? 'Access Confidential Issues' : 'Issue Management, which implies access to confidential issues'
    return [
      {
        subject: role.name,
        message: `Role "${role.name}" can read confidential issues (${via}). Clear it unless everyone holding the role should see them.`,
        pointer: memberPointer(role.raw, '', role.accessConfidentialIssues ? 'accessConfidentialIssues' : 'manageIssues'),
      },
    ]
  },
})
