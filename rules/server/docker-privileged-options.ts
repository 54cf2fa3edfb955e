/**
 * Enabled server and remote Docker executors whose Run Options (or, on a remote one, Mount Docker
 * Sock) give every job container the host: `--privileged`, a host namespace, an escaping capability,
 * no confinement, the Docker socket (src/onedev/docker-options.ts).
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {jobExecutorsOf} from '../../src/model/admin-data.js'
import {dockerExecutorRisks, REMOTE_DOCKER_EXECUTOR} from '../../src/onedev/executor-settings.js'
import {describeReach, enabledExecutors, SERVER_DOCKER_EXECUTOR} from '../../src/onedev/executors.js'
import {serverRelease} from '../../src/onedev/versions.js'
import {dockerEffect, EXECUTORS_UI, optionList} from '../support/executor-findings.js'

export default defineRule({
  meta: {
    id: 'server/docker-privileged-options',
    shortDescription: 'A Docker executor runs job containers with options that give them the host',
    fullDescription:
      'Reports enabled server and remote Docker executors whose Run Options give each job container the machine that runs it: `--privileged`, ' +
      '`--network`, `--pid`, `--ipc` or `--userns host`, `--cap-add ALL`, `SYS_ADMIN` or `SYS_MODULE`, `--security-opt seccomp=unconfined`, ' +
      '`apparmor=unconfined`, `label=disable` or `systempaths=unconfined`, a bind mount of the Docker socket or of a directory holding it, ' +
      '`--use-api-socket`; and remote Docker executors with Mount Docker Sock. Critical on a server Docker executor (the OneDev server), ' +
      'high on a remote one (its agents). The options are read as OneDev splits them and docker parses them, so an option inside another ' +
      "option's value (`-e X=--privileged`) is not one.",
    defaultSeverity: 'critical',
    help: [
      '## Risk',
      'A Docker executor adds its *Run Options* to the `docker run` of every step container of every job it takes, after its own options',
      '(v16.5.6 ServerDockerExecutor.java:362–373; a remote Docker executor\'s agent does the same). A job is whatever the build spec of the',
      'commit says, so these options are in the hands of whoever can push a branch whose jobs the executor takes:',
      '',
      '- `--privileged`, `--cap-add ALL`, `SYS_ADMIN` or `SYS_MODULE`: the container can mount the host\'s disks or load kernel code: root on the host.',
      '- a bind mount of the Docker socket (`-v /var/run/docker.sock:…`, or `/`, `/run`, `/var/run`, which hold it), `--use-api-socket`, or',
      '  *Mount Docker Sock* on a remote executor: the job drives the host\'s Docker daemon and starts a privileged container: root on the host.',
      '- `--pid host`, `--ipc host`, `--network host`, `--userns host`: the host\'s processes, shared memory, network (services listening on',
      '  localhost, such as OneDev\'s database or an agent\'s) or user namespace instead of the container\'s own.',
      '- `--security-opt seccomp=unconfined`, `apparmor=unconfined`, `label=disable`, `systempaths=unconfined`: the kernel protections that',
      '  stop the usual container escapes are off.',
      '',
      'On the OneDev server that is its database, repositories and every project\'s job secrets; on an agent it is the agent\'s token (a',
      'machine that receives jobs and their secrets) and every later job that runs there. OneDev adds its own `--network=<job network>` first:',
      'docker 19.03 and later refuse it together with `--network host` (the job fails), older docker takes the last one (host).',
      '',
      '## Fix',
      'In *Administration → Job Executors*, edit the executor and remove these options from *Run Options* (under *More Settings*); on a',
      'remote Docker executor clear *Mount Docker Sock*. Build images with OneDev\'s *Build Docker Image* step, Kaniko or Buildah instead of',
      'the host\'s daemon. If a few trusted jobs need such a container, give them an executor of their own with a *Job Match* limited to',
      'named projects and protected branches, on a machine that holds nothing else.',
      '',
      '## Example',
      '```json',
      '{"@type": "ServerDockerExecutor", "enabled": true, "name": "docker", "runOptions": "--privileged --memory 2g"}           // critical',
      '{"@type": "RemoteDockerExecutor", "enabled": true, "name": "agents", "runOptions": "-v /var/run/docker.sock:/var/run/docker.sock"}  // high',
      '{"@type": "ServerDockerExecutor", "enabled": true, "name": "docker", "runOptions": "--memory 2g --cap-drop ALL -e X=--privileged"}  // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'ci', 'executors'],
    scope: 'server',
    requires: ['/settings/job-executors'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const executors = jobExecutorsOf(context.model)
    const drafts: FindingDraft[] = []
    for (const type of [SERVER_DOCKER_EXECUTOR, REMOTE_DOCKER_EXECUTOR]) {
      const remote = type === REMOTE_DOCKER_EXECUTOR
      for (const {executor, assessment} of enabledExecutors(executors, type, serverRelease(context.model))) {
        const {runOptions, mountsAgentSocket} = dockerExecutorRisks(executor)
        if (runOptions.length === 0 && !mountsAgentSocket) continue
        const what = [
          ...(runOptions.length > 0 ? [`runs its job containers with ${optionList(runOptions.map((r) => r.option))}`] : []),
          ...(mountsAgentSocket ? ["mounts its agent's Docker socket into them"] : []),
        ].join(' and ')
        const kinds = [...runOptions.map((r) => r.kind), ...(mountsAgentSocket ? (['docker-socket'] as const) : [])]
        const machine = remote ? 'the agent that runs it (its agent token, the jobs that run there after it)' : "the OneDev server (its database, every project's secrets)"
        const change = [...(runOptions.length > 0 ? ['remove them from its Run Options'] : []), ...(mountsAgentSocket ? ['clear Mount Docker Sock'] : [])].join(' and ')
        drafts.push({
          subject: executor.name,
          severity: remote ? 'high' : 'critical',
          message:
            `${remote ? 'Remote' : 'Server'} Docker executor "${executor.name}" ${what}: a job it takes (${describeReach(assessment)}) ${dockerEffect(kinds, machine)}. ` +
            `In ${EXECUTORS_UI} ${change}.`,
          pointer: `${executor.pointer}/${runOptions.length > 0 ? 'runOptions' : 'mountDockerSock'}`,
        })
      }
    }
    return drafts
  },
})
