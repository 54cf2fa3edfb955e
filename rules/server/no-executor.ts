/**
 * No job executor defined: each build auto-discovers an executor with no job restriction: a server
 * Docker (or Kubernetes) executor, and up to 11.11.0 a server shell executor when OneDev does not run
 * in Docker (src/onedev/versions.ts NO_EXECUTOR_DISCOVERY; onedev-access-reference.md §3.2).
 */
import {defineRule} from '../../src/engine/rule.js'
import {JOB_EXECUTORS_KEY, jobExecutorsOf} from '../../src/model/admin-data.js'
import {joinPointer} from '../../src/model/pointer.js'
import {NO_EXECUTOR_DISCOVERY, readingAt, releasesOf, serverRelease} from '../../src/onedev/versions.js'

export default defineRule({
  meta: {
    id: 'server/no-executor',
    shortDescription: 'No job executor is defined: builds use an auto-discovered executor that takes every job',
    fullDescription:
      'Reports a server whose job executor list is empty. OneDev then auto-discovers an executor for each build: a server Docker executor when ' +
      '`docker version` works on the server (or Kubernetes when it runs in a cluster), with no job restriction, so every job of every project and branch runs on the OneDev host. ' +
      'Up to OneDev 11.11.0 (and when the version is unknown) high: outside Docker, the executor discovered may be a server shell executor, which runs every job as the OneDev process.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'The auto-discovered executor has no job match and its settings cannot be reviewed: any job of any project, including jobs of branches anyone',
      'with write access can create, runs in a container on the OneDev server itself. Up to OneDev 11.11.0, when OneDev does not run in Docker and Docker',
      'is not available on its host, the executor discovered is a server shell executor: every job runs as the OneDev process, with its database,',
      'its keys and every project\'s secrets. 11.11.1 stopped discovering it.',
      '',
      '## Fix',
      'In *Administration → Job Executors* add the executors you mean to use (for example a remote Docker executor on a build agent), each with',
      'a *Job Match* naming the projects and branches it serves.',
      '',
      '## Example',
      '```json',
      '[]                                                                      // reported',
      '[{"@type": "RemoteDockerExecutor", "name": "agents", "jobMatch": null}]   // fine for this rule',
      '```',
    ].join('\n'),
    tags: ['server', 'ci', 'executors'],
    scope: 'server',
    requires: ['/settings/job-executors'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const executors = jobExecutorsOf(context.model)
    if (executors === undefined || executors.length > 0) return []
    // An executor list whose items were all unreadable is not empty.
    const raw = context.model.serverData?.[JOB_EXECUTORS_KEY]
    if (!Array.isArray(raw) || raw.length > 0) return []
    const fix = 'In Administration > Job Executors add the executors you mean to use, each with a Job Match.'
    const discovery = readingAt(NO_EXECUTOR_DISCOVERY, serverRelease(context.model))
    if (discovery.reading === 'containers-only') {
      return [
        {
          subject: 'job executors',
          message: `No job executor is defined: every build auto-discovers a server Docker (or Kubernetes) executor with no job restriction, so any job of any project and branch runs on the OneDev server. ${fix}`,
          pointer: joinPointer('', JOB_EXECUTORS_KEY),
        },
      ]
    }
    const releases = releasesOf(NO_EXECUTOR_DISCOVERY, discovery.applied)
    const which = discovery.assumed === null ? `OneDev ${context.model.server?.version}, as every release from ${releases},` : `the server's version is unknown, so it is judged as OneDev ${releases}:`
    return [
      {
        subject: 'job executors',
        severity: 'high',
        message:
          `No job executor is defined: every build auto-discovers an executor with no job restriction, and ${which} discovers a server shell executor when OneDev does not run in Docker ` +
          `and Docker is not available on its host: any job of any project and branch would then run as the OneDev process, with its database, its keys and every project's secrets. ${fix}`,
        pointer: joinPointer('', JOB_EXECUTORS_KEY),
      },
    ]
  },
})
