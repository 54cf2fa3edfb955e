import rule from '../../../rules/role/confidential-issue-access.js'
import {model, role} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'no confidential access', model: model({roles: [role({id: 3, name: 'Code Reader'})]})},
    {name: 'Project Owner (allowed admin role)', model: model({roles: [role({id: 1, name: 'Project Owner', manageProject: true, accessConfidentialIssues: true})]})},
    {
      name: 'a custom role listed in allowedAdminRoles',
      model: model({roles: [role({id: 2, name: 'Security Team', accessConfidentialIssues: true})]}),
      settings: {allowedAdminRoles: ['Project Owner', 'Security Team']},
    },
  ],
  invalid: [
    {
      name: 'Code Writer with accessConfidentialIssues',
      model: model({roles: [role({id: 2, name: 'Code Writer', accessConfidentialIssues: true})]}),
      findings: [{subject: 'Code Writer', severity: 'low', pointer: '/accessConfidentialIssues', messageIncludes: 'Access Confidential Issues'}],
    },
    {
      name: 'manageIssues implies it',
      model: model({roles: [role({id: 7, name: 'Issue Manager', manageIssues: true})]}),
      findings: [{subject: 'Issue Manager', severity: 'low', pointer: '/manageIssues', messageIncludes: 'Issue Management, which implies'}],
    },
    {
      name: 'both flags: one finding at the explicit flag',
      model: model({roles: [role({id: 8, name: 'Triage', manageIssues: true, accessConfidentialIssues: true})]}),
      findings: [{subject: 'Triage', pointer: '/accessConfidentialIssues'}],
    },
  ],
})
