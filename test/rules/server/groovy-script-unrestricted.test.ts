import rule from '../../../rules/server/groovy-script-unrestricted.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {serverModel} from './helpers.js'

const scripts = (...list: Record<string, unknown>[]) => serverModel({'/settings/groovy-scripts': list.map((s) => ({content: ['return 1'], canBeUsedByWorkspaceSpecs: false, ...s}))})

ruleTester(rule, {
  valid: [
    {name: 'groovy scripts not read', model: serverModel({})},
    {name: 'not usable by build jobs', model: scripts({name: 'a', canBeUsedByBuildJobs: false, jobAuthorization: null})},
    {name: 'a job authorization', model: scripts({name: 'a', canBeUsedByBuildJobs: true, jobAuthorization: 'on branch "main"'})},
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
  ],
})
