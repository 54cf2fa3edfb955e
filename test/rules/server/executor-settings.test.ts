/**
 * The job executor rules that judge an executor's own settings: Docker run options, the Kubernetes
 * cluster role, remote shell executors, HTML report and site publishing. Executors are written in the
 * shapes OneDev's Jackson writes for `GET /settings/job-executors` at 16.5.6 and at the oldest releases
 * with each setting (test/helpers/executor-payloads.ts: 8.0.0 has runOptions, mountDockerSock,
 * clusterRole, sitePublishEnabled; 10.0.0 adds htmlReportPublishEnabled).
 */
import dockerPrivilegedOptions from '../../../rules/server/docker-privileged-options.js'
import kubernetesClusterRole from '../../../rules/server/kubernetes-cluster-role.js'
import remoteShellExecutorBroad from '../../../rules/server/remote-shell-executor-broad.js'
import untrustedHtmlPublish from '../../../rules/server/untrusted-html-publish.js'
import {dockerExecutor, kubernetesExecutor, shellExecutor} from '../../helpers/executor-payloads.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {serverModel} from './helpers.js'

const executors = (...list: Record<string, unknown>[]) => serverModel({'/settings/job-executors': list})
/** The same answer from a server that said its version (GET /version/server). */
const executorsAt = (version: string | null, ...list: Record<string, unknown>[]) => serverModel({'/settings/job-executors': list}, version)

type Fields = Record<string, unknown>
const serverDocker16 = (name: string, runOptions: string | null, fields: Fields = {}) => dockerExecutor('16.5.6', 'ServerDockerExecutor', name, null, {runOptions, ...fields})
const remoteDocker16 = (name: string, runOptions: string | null, fields: Fields = {}) => dockerExecutor('16.5.6', 'RemoteDockerExecutor', name, null, {runOptions, ...fields})
const kubernetes16 = (name: string, clusterRole: string | null, fields: Fields = {}) => kubernetesExecutor('16.5.6', name, clusterRole, fields)
const remoteShell16 = (name: string, jobMatch: string | null, fields: Fields = {}) => shellExecutor('16.5.6', 'RemoteShellExecutor', name, jobMatch, fields)
const serverShell16 = (name: string, jobMatch: string | null, fields: Fields = {}) => shellExecutor('16.5.6', 'ServerShellExecutor', name, jobMatch, fields)
const docker8 = (type: 'ServerDockerExecutor' | 'RemoteDockerExecutor', name: string, runOptions: string | null, fields: Fields = {}) => dockerExecutor('8.0.0', type, name, null, {runOptions, ...fields})

const SCOPED = '"Project" is "ops" and on branch "main"'

ruleTester(dockerPrivilegedOptions, {
  valid: [
    {name: 'job executors not read', model: serverModel({})},
    {name: 'no run options', model: executors(serverDocker16('docker', null), remoteDocker16('agents', null))},
    {name: 'resource limits and dropped capabilities', model: executors(serverDocker16('docker', '--memory 2g --cpus 2 --cap-drop ALL --read-only'))},
    {name: '--privileged inside another option\'s value', model: executors(serverDocker16('docker', '-e FLAGS=--privileged --label "note=--network host" -e --privileged'))},
    {name: 'a network of its own, a named volume', model: executors(serverDocker16('docker', '--network=ci-net -v cache:/cache --tmpfs /run'))},
    {name: 'redacted environment values', model: executors(serverDocker16('docker', '-e NPM_TOKEN=<redacted> -e "GH_TOKEN=<redacted>"'))},
    {name: 'disabled', model: executors(serverDocker16('docker', '--privileged', {enabled: false}))},
    {name: 'other executor types keep their own fields', model: executors(kubernetes16('k8s', null, {runOptions: '--privileged'}), serverShell16('shell', SCOPED, {runOptions: '--privileged'}))},
    {name: 'a server Docker executor mounting the socket is server/docker-socket\'s', model: executors(serverDocker16('docker', null, {mountDockerSock: true}))},
  ],
  invalid: [
    {
      name: 'server Docker, --privileged: critical, on its run options',
      model: executors(serverDocker16('docker', '--privileged --memory 2g')),
      findings: [{subject: 'docker', severity: 'critical', pointer: '/settings~1job-executors/0/runOptions', messageIncludes: ['`--privileged`', 'every job of every project and branch', 'gets root on the OneDev server', 'Administration > Job Executors remove them from its Run Options']}],
    },
    {
      name: 'one finding per executor, each option named once, named by the executor (not its position)',
      model: executors(serverShell16('shell', SCOPED), serverDocker16('docker', '--network=host --net host --pid=host --privileged --privileged')),
      findings: [{subject: 'docker', severity: 'critical', pointer: '/settings~1job-executors/1/runOptions', messageIncludes: '`--network host`, `--net host`, `--pid host` and `--privileged`'}],
    },
    {
      name: 'host namespaces alone: shared namespaces, not root',
      model: executors(serverDocker16('docker', '--ipc=host --userns host', {jobMatch: SCOPED})),
      findings: [{subject: 'docker', severity: 'critical', messageIncludes: ['shares namespaces with the OneDev server', 'only jobs of the projects and branches it names']}],
    },
    {
      name: 'capabilities and unconfined profiles, quoted',
      model: executors(serverDocker16('docker', '"--cap-add" "SYS_ADMIN" --security-opt "seccomp=unconfined" --security-opt=apparmor=unconfined')),
      findings: [{subject: 'docker', messageIncludes: '`--cap-add SYS_ADMIN`, `--security-opt seccomp=unconfined` and `--security-opt apparmor=unconfined`'}],
    },
    {
      name: 'remote Docker: high, the agent',
      model: executors(remoteDocker16('agents', '-v /var/run/docker.sock:/var/run/docker.sock')),
      findings: [{subject: 'agents', severity: 'high', pointer: '/settings~1job-executors/0/runOptions', messageIncludes: ['`-v /var/run/docker.sock:…`', 'gets root on the agent that runs it']}],
    },
    {
      name: 'remote Docker mounting its agent\'s socket',
      model: executors(remoteDocker16('agents', '--memory 2g', {mountDockerSock: true})),
      findings: [{subject: 'agents', severity: 'high', pointer: '/settings~1job-executors/0/mountDockerSock', messageIncludes: ["mounts its agent's Docker socket", 'clear Mount Docker Sock']}],
    },
    {
      name: 'remote Docker with both',
      model: executors(remoteDocker16('agents', '--cap-add=ALL', {mountDockerSock: true})),
      findings: [{subject: 'agents', pointer: '/settings~1job-executors/0/runOptions', messageIncludes: 'remove them from its Run Options and clear Mount Docker Sock'}],
    },
    {
      name: '8.0.0: run options and mountDockerSock already there (ServerDockerExecutor.java:64, :68)',
      model: executors(docker8('ServerDockerExecutor', 'docker', '--privileged'), docker8('RemoteDockerExecutor', 'agents', null, {mountDockerSock: true})),
      findings: [
        {subject: 'docker', severity: 'critical', pointer: '/settings~1job-executors/0/runOptions', messageIncludes: 'every job of every project and branch'},
        {subject: 'agents', severity: 'high', pointer: '/settings~1job-executors/1/mountDockerSock'},
      ],
    },
  ],
})

ruleTester(kubernetesClusterRole, {
  valid: [
    {name: 'job executors not read', model: serverModel({})},
    {name: 'no cluster role', model: executors(kubernetes16('k8s', null))},
    {name: 'an empty cluster role binds nothing', model: executors(kubernetes16('k8s', ''))},
    {name: 'disabled', model: executors(kubernetes16('k8s', 'cluster-admin', {enabled: false}))},
    {name: 'other executor types', model: executors(serverDocker16('docker', null, {clusterRole: 'cluster-admin'}))},
  ],
  invalid: [
    {
      name: 'cluster-admin: critical',
      model: executors(kubernetes16('k8s', 'cluster-admin')),
      findings: [{subject: 'k8s', severity: 'critical', pointer: '/settings~1job-executors/0/clusterRole', messageIncludes: ['binds cluster role "cluster-admin", cluster-wide', 'every job of every project and branch', 'a job can do anything in the cluster', 'Administration > Job Executors clear its Cluster Role']}],
    },
    {
      name: 'another role: high',
      model: executors(kubernetes16('k8s', 'edit', {jobMatch: SCOPED})),
      findings: [{subject: 'k8s', severity: 'high', messageIncludes: ['"edit", cluster-wide', 'in every namespace', 'only jobs of the projects and branches it names']}],
    },
    {
      name: 'a role name is not a pattern: Cluster-Admin is another role',
      model: executors(kubernetes16('k8s', 'Cluster-Admin')),
      findings: [{subject: 'k8s', severity: 'high'}],
    },
    {
      name: '8.0.0 (KubernetesExecutor.java:87)',
      model: executors(kubernetesExecutor('8.0.0', 'k8s', 'cluster-admin')),
      findings: [{subject: 'k8s', severity: 'critical', pointer: '/settings~1job-executors/0/clusterRole'}],
    },
  ],
})

ruleTester(remoteShellExecutorBroad, {
  valid: [
    {name: 'job executors not read', model: serverModel({})},
    {name: 'named projects and a protected branch', model: executors(remoteShell16('builders', SCOPED))},
    {name: '16.5.6: an empty job match admits no job (ServerShellExecutor.java:109–114)', model: executorsAt('16.5.6', remoteShell16('builders', null))},
    {name: '15.0.1: an empty job match admits no job', model: executorsAt('15.0.1', remoteShell16('builders', null))},
    {name: 'disabled', model: executors(remoteShell16('builders', 'on branch "main"', {enabled: false}))},
    {name: 'a server shell executor is server/shell-executor\'s', model: executors(serverShell16('shell', 'on branch "main"'))},
  ],
  invalid: [
    {
      name: "any project's main",
      model: executors(serverShell16('shell', SCOPED), remoteShell16('builders', 'on branch "main"')),
      findings: [{subject: 'builders', severity: 'high', pointer: '/settings~1job-executors/1/jobMatch', messageIncludes: ["as the agent's own user", 'admits jobs of projects it does not name', "read the agent's token", 'Administration > Job Executors set its Job Match']}],
    },
    {
      name: 'one project, any branch',
      model: executors(remoteShell16('builders', '"Project" is "ops"')),
      findings: [{subject: 'builders', messageIncludes: 'jobs of any branch'}],
    },
    {
      name: 'what 15.0.1 migrated an empty one to (DataMigrator.migrate223): every project',
      model: executors(remoteShell16('builders', '"Project" is "**"')),
      findings: [{subject: 'builders', severity: 'high'}],
    },
    {
      name: '15.0.0: an empty job match admits every job (DefaultJobService.isApplicable, versions.ts)',
      model: executorsAt('15.0.0', remoteShell16('builders', null)),
      findings: [{subject: 'builders', pointer: '/settings~1job-executors/0/jobMatch', messageIncludes: 'its jobMatch is empty, which OneDev 15.0.0 reads as every job'}],
    },
    {
      name: 'version unknown: an empty job match is judged by the reading that exposes more',
      model: executorsAt(null, remoteShell16('builders', null)),
      findings: [{subject: 'builders', messageIncludes: "the server's version is unknown: judged as OneDev"}],
    },
    {
      name: '8.0.0: an empty job authorization admits every job (DefaultJobManager.java:435–454)',
      model: executors(shellExecutor('8.0.0', 'RemoteShellExecutor', 'builders', null)),
      findings: [{subject: 'builders', pointer: '/settings~1job-executors/0/jobAuthorization', messageIncludes: 'its jobAuthorization is empty, which this server reads as every job'}],
    },
    {
      name: '10.x: an empty job requirement admits every job',
      model: executors(shellExecutor('10.1.0', 'RemoteShellExecutor', 'builders', null)),
      findings: [{subject: 'builders', pointer: '/settings~1job-executors/0/jobRequirement'}],
    },
  ],
})

ruleTester(untrustedHtmlPublish, {
  valid: [
    {name: 'job executors not read', model: serverModel({})},
    {name: 'publishing off', model: executors(serverDocker16('docker', null))},
    {name: 'publishing on a scoped executor', model: executors(serverDocker16('docs', null, {htmlReportPublishEnabled: true, sitePublishEnabled: true, jobMatch: SCOPED}))},
    {name: 'disabled', model: executors(serverDocker16('docker', null, {htmlReportPublishEnabled: true, enabled: false}))},
    {name: '16.5.6: a shell executor without a job match takes no job', model: executorsAt('16.5.6', serverShell16('shell', null, {sitePublishEnabled: true}), remoteShell16('builders', null, {sitePublishEnabled: true}))},
  ],
  invalid: [
    {
      name: 'HTML reports from every job',
      model: executors(serverDocker16('docker', null, {htmlReportPublishEnabled: true})),
      findings: [{subject: 'docker', severity: 'high', pointer: '/settings~1job-executors/0/htmlReportPublishEnabled', messageIncludes: ['Enable Html Report Publish on', 'its jobMatch is empty, which this server reads as every job', 'administrators included', 'Administration > Job Executors clear Enable Html Report Publish']}],
    },
    {
      name: 'both, on a remote executor taking any branch of one project',
      model: executors(remoteDocker16('agents', null, {htmlReportPublishEnabled: true, sitePublishEnabled: true, jobMatch: '"Project" is "docs"'})),
      findings: [{subject: 'agents', pointer: '/settings~1job-executors/0/htmlReportPublishEnabled', messageIncludes: ['Enable Html Report Publish and Enable Site Publish', 'jobs of any branch']}],
    },
    {
      name: 'site publishing on a Kubernetes executor for any project\'s main',
      model: executors(kubernetes16('k8s', null, {sitePublishEnabled: true, jobMatch: 'on branch "main"'})),
      findings: [{subject: 'k8s', pointer: '/settings~1job-executors/0/sitePublishEnabled', messageIncludes: 'jobs of projects it does not name'}],
    },
    {
      name: 'an expression the audit cannot parse is not assumed narrow',
      model: executors(serverDocker16('docker', null, {sitePublishEnabled: true, jobMatch: 'on branch main'})),
      findings: [{subject: 'docker', messageIncludes: 'cannot parse'}],
    },
    {
      name: '8.0.0: site publishing (JobExecutor.java:42) with an empty job authorization',
      model: executors(docker8('ServerDockerExecutor', 'docker', null, {sitePublishEnabled: true})),
      findings: [{subject: 'docker', pointer: '/settings~1job-executors/0/sitePublishEnabled', messageIncludes: ['Enable Site Publish on', 'its jobAuthorization is empty']}],
    },
  ],
})
