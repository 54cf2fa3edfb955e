/**
 * Enabled server Docker executors that mount the Docker socket into job containers (control of the
 * whole host) or admit every job (onedev-access-reference.md §3.2, §9 item 11).
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {jobExecutorsOf} from '../../src/model/admin-data.js'
import {describeReach, enabledExecutors, SERVER_DOCKER_EXECUTOR} from '../../src/onedev/executors.js'
import {serverRelease} from '../../src/onedev/versions.js'

export default defineRule({
  meta: {
    id: 'server/docker-socket',
    shortDescription: 'A server Docker executor mounts the Docker socket or admits every job',
    fullDescription:
      'Reports enabled server Docker executors that mount the Docker socket into job containers (critical: a job can start a privileged container ' +
      'and take over the OneDev host) or that have no job match (high: every job of every project and branch runs on the OneDev server).',
    defaultSeverity: 'critical',
    help: [
      '## Risk',
      'With *Mount Docker Sock* a job talks to the host\'s Docker daemon: `docker run --privileged -v /:/host ...` is root on the OneDev server,',
      'with its database, repositories and every project\'s secrets. OneDev warns that this lets jobs "take control of whole OneDev". Without',
      'a job match the executor takes every job of every project and branch, including branches anyone with write access can create.',
      '',
      '## Fix',
      'In *Administration → Job Executors*, edit the server Docker executor: clear *Mount Docker Sock* (build images with Kaniko or Buildah instead),',
      'and set a *Job Match* limited to the projects and branches that need the executor, or move those jobs to a remote executor on a separate machine.',
      '',
      '## Example',
      '```json',
      '{"@type": "ServerDockerExecutor", "enabled": true, "name": "docker", "mountDockerSock": true, "jobMatch": "on branch \\"main\\""}  // critical',
      '{"@type": "ServerDockerExecutor", "enabled": true, "name": "docker", "mountDockerSock": false, "jobMatch": null}             // high',
      '{"@type": "ServerDockerExecutor", "enabled": true, "name": "docker", "mountDockerSock": false, "jobMatch": "\\"Project\\" is \\"app\\""}  // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'ci', 'executors'],
    scope: 'server',
    requires: ['/settings/job-executors'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const drafts: FindingDraft[] = []
    for (const {executor, assessment} of enabledExecutors(jobExecutorsOf(context.model), SERVER_DOCKER_EXECUTOR, serverRelease(context.model))) {
      const anyJob = assessment.reach === 'any-job'
      if (executor.mountDockerSock) {
        drafts.push({
          subject: executor.name,
          severity: 'critical',
          message:
            `Server Docker executor "${executor.name}" mounts the Docker socket into job containers: a job it takes (${describeReach(assessment)}) can start a privileged container and take over the OneDev server. ` +
            'In Administration > Job Executors clear Mount Docker Sock' +
            (anyJob ? ' and set a Job Match.' : '.'),
          pointer: `${executor.pointer}/mountDockerSock`,
          key: executor.pointer,
        })
      } else if (anyJob) {
        drafts.push({
          subject: executor.name,
          severity: 'high',
          message:
            `Server Docker executor "${executor.name}" has no ${executor.jobMatchKey ?? 'job match'}: every job of every project and branch runs on the OneDev server. ` +
            'In Administration > Job Executors set its Job Match to the projects and branches that need it.',
          pointer: executor.jobMatchPointer,
          key: executor.pointer,
        })
      }
    }
    return drafts
  },
})
