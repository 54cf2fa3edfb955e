import {describe, expect, it} from 'vitest'

import rule from '../../../rules/role/broad-job-privilege.js'
import {model, role} from '../../helpers/model-builders.js'
import {ruleTester, runRule} from '../../helpers/rule-tester.js'

const withPrivileges = (jobPrivileges: Parameters<typeof role>[0]['jobPrivileges']) => model({roles: [role({id: 2, name: 'Code Writer', jobPrivileges})]})

const nullJobNames = role({id: 3, name: 'Legacy Runner', jobPrivileges: [{runJob: true}]})
nullJobNames.jobPrivileges[0]!.jobNames = null

ruleTester(rule, {
  valid: [
    {name: 'runJob on release-* only', model: withPrivileges([{jobNames: 'release-*', runJob: true}])},
    {name: 'runJob on listed jobs', model: withPrivileges([{jobNames: 'ci test', runJob: true}])},
    {name: '* with all flags false (the default Code Reader entry)', model: withPrivileges([{jobNames: '*'}])},
    {name: '* with log and pipeline access only', model: withPrivileges([{jobNames: '*', accessLog: true, accessPipeline: true, accessibleReports: '*'}])},
    {name: 'a role with manageProject is left to role/over-privileged', model: model({roles: [role({id: 1, name: 'Project Owner', manageProject: true, manageBuilds: true, jobPrivileges: [{jobNames: '*', runJob: true}]})]})},
    {name: 'unparsable job names', model: withPrivileges([{jobNames: '"ci', runJob: true}])},
  ],
  invalid: [
    {
      name: 'runJob on * (the default Code Writer)',
      model: withPrivileges([{jobNames: '*', runJob: true}]),
      findings: [{subject: 'Code Writer', severity: 'medium', pointer: '/jobPrivileges/0/runJob', roleName: 'Code Writer', messageIncludes: ['may run every job (job names "*")', 'secrets']}],
    },
    {
      name: 'manageJob on **',
      model: withPrivileges([{jobNames: 'ci', runJob: true}, {jobNames: '**', manageJob: true}]),
      findings: [{subject: 'Code Writer', pointer: '/jobPrivileges/1/manageJob', messageIncludes: 'may manage and run every job'}],
    },
    {name: 'exclusion-only -deploy', model: withPrivileges([{jobNames: '-deploy', runJob: true}]), findings: [{subject: 'Code Writer', pointer: '/jobPrivileges/0/runJob'}]},
    {name: '* matches job names with slashes too (string matcher)', model: withPrivileges([{jobNames: 'release-* *', runJob: true}]), findings: [{subject: 'Code Writer'}]},
    {
      name: 'null job names count as every job',
      model: model({roles: [nullJobNames]}),
      findings: [{subject: 'Legacy Runner', pointer: '/jobPrivileges/0/runJob', messageIncludes: 'no job names (every job)'}],
    },
    {
      name: 'manageBuilds implies ManageJob on *',
      model: model({roles: [role({id: 4, name: 'Build Admin', manageBuilds: true})]}),
      findings: [{subject: 'Build Admin', severity: 'medium', pointer: '/manageBuilds', messageIncludes: 'Build Management'}],
    },
  ],
})

describe('role/broad-job-privilege keys', () => {
  it('reports manageBuilds and each broad privilege of one role as distinct findings', () => {
    const findings = runRule(rule, {
      name: 'several',
      model: model({roles: [role({id: 5, name: 'Ops', manageBuilds: true, jobPrivileges: [{jobNames: '*', runJob: true}, {jobNames: '**', manageJob: true}]})]}),
    })
    expect(findings.map((f) => f.pointer).sort()).toEqual(['/jobPrivileges/0/runJob', '/jobPrivileges/1/manageJob', '/manageBuilds'])
    expect(new Set(findings.map((f) => f.fingerprint)).size).toBe(3)
  })
})
