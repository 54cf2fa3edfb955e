import dockerSocket from '../../../rules/server/docker-socket.js'
import noExecutor from '../../../rules/server/no-executor.js'
import shellExecutor from '../../../rules/server/shell-executor.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {executor, serverModel} from './helpers.js'

const executors = (...list: Record<string, unknown>[]) => serverModel({'/settings/job-executors': list.map(executor)})
/** The executors of a server that answered GET /version/server with `version` (null: it could not be read). */
const executorsOn = (version: string | null, ...list: Record<string, unknown>[]) => serverModel({'/settings/job-executors': list.map(executor)}, version)
const shell = (fields: Record<string, unknown>) => ({'@type': 'ServerShellExecutor', name: 'shell', ...fields})
const docker = (fields: Record<string, unknown>) => ({'@type': 'ServerDockerExecutor', name: 'docker', mountDockerSock: false, registryLogins: [], ...fields})

ruleTester(shellExecutor, {
  valid: [
    {name: 'job executors not read (404 or snapshot without them)', model: serverModel({})},
    {name: 'no job executor', model: executors()},
    // v15.0.1 ServerShellExecutor.java:108-113, v16.5.6 :109-114: no job match, no job.
    {name: 'OneDev 15.0.1: a null job match admits no job', model: executorsOn('15.0.1', shell({jobMatch: null}))},
    {name: 'OneDev 16.5.6: an empty job match admits no job', model: executorsOn('16.5.6', shell({jobMatch: ''}))},
    {name: 'disabled', model: executors(shell({enabled: false, jobMatch: '"Job" is "x"'}))},
    {name: 'other executor types', model: executors(docker({jobMatch: null}), {'@type': 'RemoteShellExecutor', name: 'remote', jobMatch: null})},
  ],
  invalid: [
    {
      // v14.1.0 DefaultJobService.java:507,528: no job match, no check.
      name: 'OneDev 14.1.0: a null job match admits every job',
      model: executorsOn('14.1.0', shell({jobMatch: null})),
      findings: [{subject: 'shell', severity: 'critical', pointer: '/settings~1job-executors/0/jobMatch', messageIncludes: 'its jobMatch is empty, which OneDev 14.1.0 reads as every job (11.11.1 to 15.0.0 do; from 15.0.1 it takes no job)'}],
    },
    {
      name: 'OneDev 15.0.0, the last release where an empty job match takes every job',
      model: executorsOn('15.0.0', shell({jobMatch: ''})),
      findings: [{subject: 'shell', severity: 'critical', messageIncludes: 'which OneDev 15.0.0 reads as every job'}],
    },
    {
      name: 'version unknown: judged by the reading that exposes more, and the message says so',
      model: executorsOn(null, shell({jobMatch: null})),
      findings: [{subject: 'shell', severity: 'critical', messageIncludes: "the server's version is unknown: judged as OneDev 11.11.1 to 15.0.0 reads it: every job (from 15.0.1 it takes no job)"}],
    },
    {
      name: 'a model that never asked the version: unknown too',
      model: executors(shell({jobMatch: null})),
      findings: [{subject: 'shell', severity: 'critical', messageIncludes: "the server's version is unknown"}],
    },
    {
      name: 'a version before jobMatch existed: the payload wins, judged as unknown',
      model: executorsOn('10.9.10', shell({jobMatch: null})),
      findings: [{subject: 'shell', severity: 'critical', messageIncludes: 'the server says it is OneDev 10.9.10, which has no jobMatch yet (from 11.11.1)'}],
    },
    {
      name: 'on branch "main": any project has a main',
      model: executors(shell({jobMatch: 'on branch "main"'})),
      findings: [{subject: 'shell', severity: 'critical', pointer: '/settings~1job-executors/0/jobMatch', messageIncludes: ['admits jobs of projects it does not name', 'Administration > Job Executors']}],
    },
    {
      name: 'one project, any branch',
      model: executors(shell({jobMatch: '"Project" is "ops"'})),
      findings: [{subject: 'shell', severity: 'critical', messageIncludes: 'jobs of any branch'}],
    },
    {
      name: 'a project wildcard matching every project',
      model: executors(shell({jobMatch: '"Project" is "**" and on branch "main"'})),
      findings: [{subject: 'shell', severity: 'critical'}],
    },
    {
      name: 'scoped to one project and a protected branch: high',
      model: executors(shell({jobMatch: '"Project" is "ops" and on branch "main"'})),
      findings: [{subject: 'shell', severity: 'high', messageIncludes: 'only jobs of the projects and branches it names'}],
    },
    {
      name: 'v8.0.5 – v11.11.0: a null job requirement admits every job',
      model: executors(shell({jobRequirement: null, shellAccessEnabled: false})),
      findings: [{subject: 'shell', severity: 'critical', pointer: '/settings~1job-executors/0/jobRequirement', messageIncludes: 'its jobRequirement is empty, which this server reads as every job'}],
    },
    {
      name: 'v8.0.4: a null job authorization admits every job',
      model: executors(shell({jobAuthorization: null, cacheTTL: 7})),
      findings: [{subject: 'shell', severity: 'critical', pointer: '/settings~1job-executors/0/jobAuthorization'}],
    },
    {
      name: 'v11: a scoped job requirement',
      model: executors(shell({jobRequirement: '"Project" is "ops" and on branch "main"'})),
      findings: [{subject: 'shell', severity: 'high', pointer: '/settings~1job-executors/0/jobRequirement'}],
    },
    {
      name: 'an expression OneDev cannot parse is not assumed safe',
      model: executors(shell({jobMatch: 'on branch main'})),
      findings: [{subject: 'shell', severity: 'high', messageIncludes: 'an expression OneDev cannot parse'}],
    },
  ],
})

ruleTester(dockerSocket, {
  valid: [
    {name: 'job executors not read', model: serverModel({})},
    {name: 'scoped, no socket', model: executors(docker({jobMatch: '"Project" is "app"'}))},
    {name: 'disabled, socket mounted', model: executors(docker({enabled: false, mountDockerSock: true, jobMatch: null}))},
    {name: 'a remote Docker executor mounting the socket of its agent', model: executors({'@type': 'RemoteDockerExecutor', name: 'agents', mountDockerSock: true, jobMatch: null})},
    {name: 'v8.0.4: scoped job authorization', model: executors(docker({jobAuthorization: '"Project" is "app" and on branch "main"'}))},
  ],
  invalid: [
    {
      name: 'socket mounted, any job',
      model: executors(docker({mountDockerSock: true, jobMatch: null})),
      findings: [{subject: 'docker', severity: 'critical', pointer: '/settings~1job-executors/0/mountDockerSock', messageIncludes: ['every job of every project and branch', 'clear Mount Docker Sock and set a Job Match']}],
    },
    {
      name: 'socket mounted, scoped job match: still critical',
      model: executors(docker({mountDockerSock: true, jobMatch: '"Project" is "app" and on branch "main"'})),
      findings: [{subject: 'docker', severity: 'critical', messageIncludes: 'only jobs of the projects and branches it names'}],
    },
    {
      name: 'no job match: high',
      model: executors(docker({jobMatch: null})),
      findings: [{subject: 'docker', severity: 'high', pointer: '/settings~1job-executors/0/jobMatch', messageIncludes: 'has no jobMatch'}],
    },
    {
      name: 'v11: null job requirement',
      model: executors(shell({jobRequirement: '"Project" is "ops" and on branch "main"'}), docker({jobRequirement: null})),
      findings: [{subject: 'docker', severity: 'high', pointer: '/settings~1job-executors/1/jobRequirement'}],
    },
  ],
})

ruleTester(noExecutor, {
  valid: [
    {name: 'job executors not read', model: serverModel({})},
    {name: 'one executor', model: executors(docker({jobMatch: null}))},
    {name: 'only disabled executors are still defined', model: executors(docker({enabled: false}))},
    {name: 'items the audit cannot read are not "no executor"', model: serverModel({'/settings/job-executors': [{name: 'no type'}]})},
  ],
  invalid: [
    {
      // From 11.11.1 no shell executor is discovered (v11.11.1 ServerShellModule.java:23).
      name: 'OneDev 16.5.6, an empty list: a discovered container executor',
      model: executorsOn('16.5.6'),
      findings: [{subject: 'job executors', severity: 'medium', pointer: '/settings~1job-executors', messageIncludes: 'auto-discovers a server Docker'}],
    },
    {
      // Up to 11.11.0, outside Docker, a server shell executor is discovered (v11.11.0 ServerShellModule.java:24,39-51).
      name: 'OneDev 11.7.0, an empty list: a discovered shell executor outside Docker',
      model: executorsOn('11.7.0'),
      findings: [{subject: 'job executors', severity: 'high', pointer: '/settings~1job-executors', messageIncludes: 'OneDev 11.7.0, as every release from 8.0.0 to 11.11.0, discovers a server shell executor when OneDev does not run in Docker'}],
    },
    {
      name: 'version unknown, an empty list: the reading that exposes more',
      model: executorsOn(null),
      findings: [{subject: 'job executors', severity: 'high', messageIncludes: "the server's version is unknown, so it is judged as OneDev 8.0.0 to 11.11.0: discovers a server shell executor"}],
    },
  ],
})
