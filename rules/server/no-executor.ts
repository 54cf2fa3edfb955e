/**
 * No job executor defined: each build auto-discovers a server Docker (or Kubernetes) executor with no
 * job restriction (onedev-access-reference.md §3.2, §9 item 11).
 */
import {defineRule} from '../../src/engine/rule.js'
import {JOB_EXECUTORS_KEY, jobExecutorsOf} from '../../src/model/admin-data.js'
import {joinPointer} from '../../src/model/pointer.js'

export default defineRule({
  meta: {
    id: 'server/no-executor',
    shortDescription: 'No job executor is defined: builds use an auto-discovered executor that takes every job',
    fullDescription:
      'Reports a server whose job executor list is empty. OneDev then auto-discovers an executor for each build: a server Docker executor when ' +
      '`docker version` works on the server (or Kubernetes when it runs in a cluster), with no job restriction, so every job of every project and branch runs on the OneDev host.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'The auto-discovered executor has no job match and its settings cannot be reviewed: any job of any project, including jobs of branches anyone',
      'with write access can create, runs in a container on the OneDev server itself.',
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
    return [
      {
        subject: 'job executors',
        message:
          'No job executor is defined: every build auto-discovers a server Docker (or Kubernetes) executor with no job restriction, so any job of any project and branch runs on the OneDev server. ' +
          'In Administration > Job Executors add the executors you mean to use, each with a Job Match.',
        pointer: joinPointer('', JOB_EXECUTORS_KEY),
      },
    ]
  },
})
