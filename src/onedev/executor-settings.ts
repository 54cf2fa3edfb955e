/**
 * What a job executor's own settings give the jobs it takes, besides which jobs those are
 * (executors.ts): the options of its Docker containers, the Kubernetes role of its pods, whether its
 * jobs run unisolated on an agent, whether it lets them publish pages OneDev serves as they are.
 *
 * The executor classes, as OneDev writes them to `GET /settings/job-executors` (`@type`: the simple
 * class name, default typing of ObjectMapperProvider.java:120):
 * - `ServerDockerExecutor` (v16.5.6 server-plugin-executor-serverdocker ServerDockerExecutor.java:90)
 *   and its subclass `RemoteDockerExecutor` (RemoteDockerExecutor.java:38; so since v8.0.0, :37): both
 *   hold `runOptions` and `mountDockerSock`; the remote one runs the containers on its agents.
 * - `ServerShellExecutor` and its subclass `RemoteShellExecutor` (v16.5.6 RemoteShellExecutor.java:37;
 *   v8.0.0 :38): jobs run as the process that runs them, on the server or on an agent.
 * - `KubernetesExecutor` (v16.5.6 KubernetesExecutor.java): `clusterRole`.
 * - Every executor (`JobExecutor.java`): `sitePublishEnabled` (v8.0.0 :42; v16.5.6 :39) and
 *   `htmlReportPublishEnabled` (v10.0.0 :42; v16.5.6 :37), both false by default.
 */
import type {JobExecutor} from '../model/admin-data.js'
import {type DockerRisk, riskyDockerOptions} from './docker-options.js'
import type {JobReachAssessment} from './executors.js'

export const REMOTE_DOCKER_EXECUTOR = 'RemoteDockerExecutor'
export const REMOTE_SHELL_EXECUTOR = 'RemoteShellExecutor'
export const KUBERNETES_EXECUTOR = 'KubernetesExecutor'

/** The built-in ClusterRole that grants everything on every resource of the cluster. */
export const CLUSTER_ADMIN = 'cluster-admin'

export interface DockerExecutorRisks {
  /** Options of its Run Options that hand a job the host (docker-options.ts). */
  runOptions: DockerRisk[]
  /** A remote Docker executor mounting its agent's Docker socket (a server one is judged by server/docker-socket). */
  mountsAgentSocket: boolean
}

/** What a server or remote Docker executor's settings give its jobs of the machine that runs them. */
export function dockerExecutorRisks(executor: Pick<JobExecutor, 'type' | 'runOptions' | 'mountDockerSock'>): DockerExecutorRisks {
  return {
    runOptions: executor.runOptions === null ? [] : riskyDockerOptions(executor.runOptions),
    mountsAgentSocket: executor.type === REMOTE_DOCKER_EXECUTOR && executor.mountDockerSock,
  }
}


/**
 * Whether the job restriction lets through jobs nobody vetted: of any project, of any branch (one that
 * anyone with write access can create), or an expression the audit cannot parse (never assumed narrow).
 */
export function admitsUntrustedJobs(assessment: JobReachAssessment): boolean {
  return assessment.reach === 'any-job' || assessment.reach === 'broad' || assessment.reach === 'invalid'
}

/** The publishing an executor allows, in the UI's words; empty when none. */
export function publishingAllowed(executor: Pick<JobExecutor, 'htmlReportPublishEnabled' | 'sitePublishEnabled'>): Array<'Enable Html Report Publish' | 'Enable Site Publish'> {
  const allowed: Array<'Enable Html Report Publish' | 'Enable Site Publish'> = []
  if (executor.htmlReportPublishEnabled) allowed.push('Enable Html Report Publish')
  if (executor.sitePublishEnabled) allowed.push('Enable Site Publish')
  return allowed
}
