/**
 * Job executors as OneDev's Jackson writes them for `GET /settings/job-executors`: every field (field
 * visibility ANY), the superclass's first, `@type` the simple class name (default typing,
 * ObjectMapperProvider.java:120–129), with the fields' initial values unless overridden.
 *
 * - 16.5.6: JobExecutor.java:33–41; ServerDockerExecutor.java:96–116; RemoteDockerExecutor.java:38
 *   (extends ServerDockerExecutor), :44; KubernetesExecutor.java:118–142; ServerShellExecutor.java:78;
 *   RemoteShellExecutor.java:37 (extends ServerShellExecutor), :43.
 * - 10.1.0: JobExecutor.java:34–44 (jobRequirement, htmlReportPublishEnabled since 10.0.0);
 *   ServerDockerExecutor.java:60–78.
 * - 8.0.0: JobExecutor.java:34–44 (jobAuthorization, no htmlReportPublishEnabled); ServerDockerExecutor.java:62–76;
 *   RemoteDockerExecutor.java:37, :41; KubernetesExecutor.java:85–105; ServerShellExecutor.java:61; RemoteShellExecutor.java:38, :42.
 */
type Fields = Record<string, unknown>

export type OneDevVersion = '16.5.6' | '10.1.0' | '8.0.0'

/** JobExecutor's own fields; `restriction` is the job match, job requirement or job authorization of that version. */
function base(version: OneDevVersion, name: string, restriction: string | null): Fields {
  if (version === '16.5.6') return {enabled: true, name, htmlReportPublishEnabled: false, sitePublishEnabled: false, jobMatch: restriction}
  if (version === '10.1.0') return {enabled: true, name, jobRequirement: restriction, shellAccessEnabled: false, htmlReportPublishEnabled: false, sitePublishEnabled: false}
  return {enabled: true, name, jobAuthorization: restriction, shellAccessEnabled: false, sitePublishEnabled: false, cacheTTL: 7}
}

const DOCKER: Record<OneDevVersion, Fields> = {
  '16.5.6': {registryLogins: [], runOptions: null, alwaysPullImage: true, dockerExecutable: null, mountDockerSock: false, dockerSockPath: null, dockerBuilder: 'onedev', networkOptions: null, cpuLimit: null, memoryLimit: null, concurrency: null},
  '10.1.0': {registryLogins: [], runOptions: null, dockerExecutable: null, mountDockerSock: false, dockerSockPath: null, networkOptions: null, cpuLimit: null, memoryLimit: null, concurrency: null, imageMappings: []},
  '8.0.0': {registryLogins: [], runOptions: null, dockerExecutable: null, mountDockerSock: false, dockerSockPath: null, cpuLimit: null, memoryLimit: null, concurrency: null},
}

const KUBERNETES: Record<'16.5.6' | '8.0.0', Fields> = {
  '16.5.6': {nodeSelector: [], clusterRole: null, registryLogins: [], storageClass: null, storageSize: '10Gi', serviceLocators: [], configFile: null, kubectlPath: null, cpuRequest: '100m', memoryRequest: '256Mi', cpuLimit: null, memoryLimit: null, alwaysPullImage: true},
  '8.0.0': {nodeSelector: [], clusterRole: null, registryLogins: [], serviceLocators: [], configFile: null, kubeCtlPath: null, mountContainerSock: false, cpuRequest: '250m', memoryRequest: '256Mi', cpuLimit: null, memoryLimit: null},
}

/** A server or remote Docker executor; `fields` override (e.g. `runOptions`, `mountDockerSock`, `enabled`). */
export function dockerExecutor(version: OneDevVersion, type: 'ServerDockerExecutor' | 'RemoteDockerExecutor', name: string, restriction: string | null, fields: Fields = {}): Fields {
  return {'@type': type, ...base(version, name, restriction), ...DOCKER[version], ...(type === 'RemoteDockerExecutor' ? {agentQuery: null} : {}), ...fields}
}

export function kubernetesExecutor(version: '16.5.6' | '8.0.0', name: string, clusterRole: string | null, fields: Fields = {}): Fields {
  return {'@type': 'KubernetesExecutor', ...base(version, name, null), ...KUBERNETES[version], clusterRole, ...fields}
}

/** A server or remote shell executor (the remote one adds `agentQuery`). */
export function shellExecutor(version: OneDevVersion, type: 'ServerShellExecutor' | 'RemoteShellExecutor', name: string, restriction: string | null, fields: Fields = {}): Fields {
  return {'@type': type, ...base(version, name, restriction), concurrency: null, ...(type === 'RemoteShellExecutor' ? {agentQuery: null} : {}), ...fields}
}
