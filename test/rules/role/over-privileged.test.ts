import rule from '../../../rules/role/over-privileged.js'
import {model, role} from '../../helpers/model-builders.js'
import {ruleTester} from '../../helpers/rule-tester.js'

const owner = role({id: 1, name: 'Project Owner', manageProject: true})
const admins = role({id: 2, name: 'Admins', manageProject: true})
const three = role({id: 3, name: 'Release Manager', managePullRequests: true, manageIssues: true, manageBuilds: true})
const two = role({id: 4, name: 'Triage', managePullRequests: true, manageIssues: true})

ruleTester(rule, {
  valid: [
    {name: 'Project Owner with manageProject (allowed by default)', model: model({roles: [owner]})},
    {name: 'two management privileges', model: model({roles: [two]})},
    {name: 'a custom admin role listed in allowedAdminRoles', model: model({roles: [admins]}), settings: {allowedAdminRoles: ['Admins']}},
    {name: 'three privileges with maxManagePrivileges 3', model: model({roles: [three]}), options: {maxManagePrivileges: 3}},
    {name: 'reader roles', model: model({roles: [role({id: 5, name: 'Code Reader', codePrivilege: 'READ'})]})},
  ],
  invalid: [
    {
      name: 'a custom role with manageProject',
      model: model({roles: [owner, admins]}),
      findings: [{subject: 'Admins', severity: 'high', pointer: '/manageProject', roleName: 'Admins', messageIncludes: ['implies every permission', 'allowed now: "Project Owner"']}],
    },
    {
      name: 'allowedAdminRoles replaces the default, compared exactly',
      model: model({roles: [owner, admins, role({id: 6, name: 'admins', manageProject: true})]}),
      settings: {allowedAdminRoles: ['Admins']},
      findings: [
        {subject: 'Project Owner', severity: 'high', pointer: '/manageProject'},
        {subject: 'admins', severity: 'high', pointer: '/manageProject'},
      ],
    },
    {
      name: 'three management privileges',
      model: model({roles: [three, two]}),
      findings: [{subject: 'Release Manager', severity: 'medium', pointer: '', messageIncludes: '3 management privileges (managePullRequests, manageIssues, manageBuilds), more than the 2 allowed'}],
    },
    {
      name: 'maxManagePrivileges 0 reports a single privilege',
      model: model({roles: [role({id: 7, name: 'Forker', createChildren: true})]}),
      options: {maxManagePrivileges: 0},
      findings: [{subject: 'Forker', severity: 'medium', pointer: ''}],
    },
    {
      name: 'manageProject with stale management flags: one high finding',
      model: model({roles: [role({id: 8, name: 'Lead', manageProject: true, managePullRequests: true, manageIssues: true, manageBuilds: true})]}),
      findings: [{subject: 'Lead', severity: 'high', pointer: '/manageProject'}],
    },
  ],
})
