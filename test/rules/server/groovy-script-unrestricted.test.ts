import rule from '../../../rules/server/groovy-script-unrestricted.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {serverModel} from './helpers.js'

const scripts = (...list: Record<string, unknown>[]) => serverModel({'/settings/groovy-scripts': list.map((s) => ({content: ['return 1'], canBeUsedByWorkspaceSpecs: false, ...s}))})
/** GroovyScript as 8.0.5 to 14.1.x write it: `authorization` (v8.0.5 and v14.1.0 model/support/administration/GroovyScript.java:24-30). */
const v14 = (fields: Record<string, unknown>) => serverModel({'/settings/groovy-scripts': [{name: 'deploy', content: ['return 1'], canBeUsedByBuildJobs: true, ...fields}]})
/** Up to 8.0.4: `allowedProjects` and `allowedBranches`, pattern sets, null = all (v8.0.0 GroovyScript.java:33-41, isAuthorized :110-118). */
const v8 = (fields: Record<string, unknown>) => serverModel({'/settings/groovy-scripts': [{name: 'deploy', content: ['return 1'], canBeUsedByBuildJobs: true, ...fields}]})

ruleTester(rule, {
  valid: [
    {name: 'groovy scripts not read', model: serverModel({})},
    {name: 'not usable by build jobs', model: scripts({name: 'a', canBeUsedByBuildJobs: false, jobAuthorization: null})},
    {name: 'a job authorization', model: scripts({name: 'a', canBeUsedByBuildJobs: true, jobAuthorization: 'on branch "main"'})},
    {name: 'OneDev 8.0.5 to 14.1: restricted by its authorization', model: v14({authorization: '"Project" is "ops" and on branch "main"'})},
    {name: 'OneDev 8.0.4: restricted to some projects', model: v8({allowedProjects: 'ops', allowedBranches: null})},
  ],
  invalid: [
    {
      name: 'usable by every job',
      model: scripts({name: 'ok', canBeUsedByBuildJobs: false, jobAuthorization: null}, {name: 'deploy', canBeUsedByBuildJobs: true, jobAuthorization: null}),
      findings: [{subject: 'deploy', severity: 'medium', pointer: '/settings~1groovy-scripts/1/jobAuthorization', messageIncludes: 'Administration > Groovy Scripts'}],
    },
    {
      name: 'usable by build jobs is the default (key absent), and an empty authorization is none',
      model: scripts({name: 'a', jobAuthorization: ''}),
      findings: [{subject: 'a'}],
    },
    {
      name: 'OneDev 8.0.5 to 14.1: no authorization',
      model: v14({authorization: null}),
      findings: [{subject: 'deploy', pointer: '/settings~1groovy-scripts/0/authorization'}],
    },
    {
      name: 'OneDev 8.0.4: neither allowed projects nor branches',
      model: v8({allowedProjects: null, allowedBranches: null}),
      findings: [{subject: 'deploy', pointer: '/settings~1groovy-scripts/0/allowedProjects'}],
    },
  ],
})
