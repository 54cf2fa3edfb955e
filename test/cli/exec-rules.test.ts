/**
 * The rules on job executors, base roles and strict builds, end to end: `scan` against a loopback
 * server that answers in the shapes OneDev's Jackson writes (field visibility ANY, superclass fields
 * first, `@type` the simple class name: ObjectMapperProvider.java:120–129), at 16.5.6 and at the
 * oldest releases that have each setting:
 *
 * - 8.0.0: `runOptions`, `mountDockerSock` (ServerDockerExecutor.java:64, :68), `clusterRole`
 *   (KubernetesExecutor.java:87), `sitePublishEnabled` (JobExecutor.java:42), remote shell executors,
 *   `requireStrictBuilds` (BranchProtection.java:61); roles without packages or cache upload.
 * - 10.1.0: `packPrivilege` (since 10.0.0, Role.java:53), `uploadCache` (Role.java:70),
 *   `htmlReportPublishEnabled` (since 10.0.0, JobExecutor.java:42), job executors restricted by
 *   `jobRequirement` (JobExecutor.java:38), one default role per project (`defaultRoleId`).
 */
import {afterAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {dockerExecutor, kubernetesExecutor, shellExecutor} from '../helpers/executor-payloads.js'
import {branchProtection, legacyBranchProtection} from '../helpers/fix-builders.js'
import {serverEnv} from '../helpers/fixture-server.js'
import {type OneDevServer, type OneDevServerOptions, startOneDevServer} from '../helpers/onedev-server.js'

const RULES = [
  'server/docker-privileged-options',
  'server/kubernetes-cluster-role',
  'server/remote-shell-executor-broad',
  'server/untrusted-html-publish',
  'access/base-role-cache-upload',
  'access/base-role-pack-write',
  'branch-protection/strict-builds-not-required',
]

const started: OneDevServer[] = []
afterAll(async () => {
  await Promise.all(started.map((server) => server.close()))
})

async function scan(options: OneDevServerOptions): Promise<{findings: string[]; server: OneDevServer}> {
  const server = await startOneDevServer(options)
  started.push(server)
  const result = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none'], {env: serverEnv(server)})
  expect(result.code, result.stderr).toBe(0)
  const report = JSON.parse(result.stdout)
  return {
    findings: report.findings.filter((f: any) => RULES.includes(f.ruleId)).map((f: any) => `${f.ruleId} ${f.severity} ${f.project?.path ?? '-'} ${f.subject}: ${f.message}`),
    server,
  }
}

const REPOSITORIES = {1: {defaultBranch: 'main', branches: ['main']}, 2: {defaultBranch: 'main', branches: ['main']}}
const ACCESS = {security: {enableSelfRegister: false}, groups: [], users: [], memberships: {}, groupAuthorizations: {}, groupProjectAuthorizations: {}, userProjectAuthorizations: {}}

// ---------------------------------------------------------------- 16.5.6

const SCOPED = '"Project" is "ops" and on branch "main"'

/** v16.5.6 Role.java:90–134 (the collections of authorizations are not written). */
const role16 = (id: number, name: string, fields: Record<string, unknown>) => ({
  id,
  name,
  description: null,
  manageProject: false,
  createChildren: false,
  managePullRequests: false,
  manageCodeComments: false,
  codePrivilege: 'READ',
  packPrivilege: 'READ',
  manageIssues: false,
  accessConfidentialIssues: false,
  accessTimeTracking: true,
  scheduleIssues: false,
  editableIssueFields: {'@type': 'AllIssueFields'},
  canEditFieldsOfOtherIssues: false,
  editableIssueLinks: [],
  manageBuilds: false,
  uploadCache: false,
  jobPrivileges: [],
  manageWorkspaces: false,
  createWorkspaces: false,
  ...fields,
})

/** v16.5.6 BranchProtection.java:48–76 (test/helpers/fix-builders.ts). */
const protection16 = (branches: string, jobNames: string[], requireStrictBuilds: boolean) => branchProtection({branches, jobNames, requireStrictBuilds})
const setting16 = (protections: unknown[]) => ({branchProtections: protections, tagProtections: [], buildSetting: {jobSecrets: [], buildPreservations: []}, webHooks: [], contributedSettings: []})

describe('16.5.6', () => {
  it('each planted value is found once, named by its executor, role or branch; the safe twins are not', async () => {
    const {findings} = await scan({
      // GET /version/server: an empty shell executor job match takes no job from 15.0.1 (versions.ts).
      version: '16.5.6',
      projects: [
        {id: 1, path: 'app', name: 'app', parentId: null},
        {id: 2, path: 'lib', name: 'lib', parentId: null},
      ],
      roles: [
        role16(3, 'Code Reader', {}),
        role16(11, 'Cache Uploader', {uploadCache: true}),
        role16(12, 'Packager', {packPrivilege: 'WRITE'}),
      ],
      settings: {1: setting16([protection16('main', ['ci'], false)]), 2: setting16([protection16('main', ['ci'], true)])},
      repositories: REPOSITORIES,
      access: {...ACCESS, baseAuthorizations: {1: [{id: 1, projectId: 1, roleId: 11}, {id: 2, projectId: 1, roleId: 12}], 2: [{id: 3, projectId: 2, roleId: 3}]}},
      admin: {
        '/settings/job-executors': [
          dockerExecutor('16.5.6', 'ServerDockerExecutor', 'docker', null, {runOptions: '--memory 2g --network=host -e NPM_TOKEN=<redacted>'}),
          dockerExecutor('16.5.6', 'ServerDockerExecutor', 'safe-docker', SCOPED, {runOptions: '--memory 2g --cap-drop ALL -e FLAGS=--privileged', sitePublishEnabled: true}),
          dockerExecutor('16.5.6', 'RemoteDockerExecutor', 'agents', null, {mountDockerSock: true, htmlReportPublishEnabled: true}),
          kubernetesExecutor('16.5.6', 'k8s', 'cluster-admin'),
          kubernetesExecutor('16.5.6', 'k8s-plain', null),
          shellExecutor('16.5.6', 'RemoteShellExecutor', 'builders', 'on branch "main"'),
          shellExecutor('16.5.6', 'RemoteShellExecutor', 'ops-shell', SCOPED),
          // 16.x: an empty job match admits no job (ServerShellExecutor.java:109–114).
          shellExecutor('16.5.6', 'RemoteShellExecutor', 'empty-shell', null),
        ],
      },
    })
    expect(findings.map((line) => line.slice(0, line.indexOf(':')))).toEqual([
      'server/docker-privileged-options critical - docker',
      'server/kubernetes-cluster-role critical - k8s',
      'server/docker-privileged-options high - agents',
      'server/remote-shell-executor-broad high - builders',
      'server/untrusted-html-publish high - agents',
      'access/base-role-cache-upload high app Cache Uploader',
      'access/base-role-pack-write high app Packager',
      'branch-protection/strict-builds-not-required low app main',
    ])
    expect(findings.find((f) => f.includes(' - docker:'))).toContain('`--network host`')
    expect(findings.find((f) => f.startsWith('server/docker-privileged-options high'))).toContain("mounts its agent's Docker socket")
  }, 60_000)
})

// ---------------------------------------------------------------- the oldest releases

/** v8.0.0 BranchProtection.java:39–61 (test/helpers/fix-builders.ts). */
const protection8 = (jobNames: string[], requireStrictBuilds: boolean) => legacyBranchProtection({jobNames, requireStrictBuilds})

describe('the oldest releases with each setting', () => {
  it('8.0.0: run options, socket, cluster role, remote shell, site publishing, strict builds; roles of then have no packages or cache upload', async () => {
    const {findings, server} = await scan({
      projects: [
        {id: 1, path: 'app', name: 'app', parentId: null, defaultRoleId: 1},
        {id: 2, path: 'lib', name: 'lib', parentId: null, defaultRoleId: null},
      ],
      // v8.0.0 Role.java:78–107: no packPrivilege, no uploadCache; a project owner as default role.
      roles: [
        {
          id: 1,
          name: 'Project Owner',
          manageProject: true,
          createChildren: false,
          managePullRequests: false,
          manageCodeComments: false,
          codePrivilege: 'WRITE',
          manageIssues: false,
          accessConfidentialIssues: false,
          scheduleIssues: false,
          editableIssueFields: {'@type': 'AllIssueFields'},
          editableIssueLinks: [],
          manageBuilds: true,
          jobPrivileges: [],
        },
      ],
      settings: {
        1: {branchProtections: [protection8(['ci'], false)], tagProtections: [], buildSetting: {jobSecrets: [], actionAuthorizations: []}, webHooks: []},
        2: {branchProtections: [protection8(['ci'], true)], tagProtections: [], buildSetting: {jobSecrets: [], actionAuthorizations: []}, webHooks: []},
      },
      repositories: REPOSITORIES,
      access: ACCESS,
      admin: {
        '/settings/job-executors': [
          dockerExecutor('8.0.0', 'ServerDockerExecutor', 'docker', null, {runOptions: '"--cap-add" SYS_ADMIN'}),
          dockerExecutor('8.0.0', 'RemoteDockerExecutor', 'agents', null, {sitePublishEnabled: true, runOptions: '--memory 2g', mountDockerSock: true}),
          kubernetesExecutor('8.0.0', 'k8s', 'view'),
          // An empty job authorization admits every job (DefaultJobManager.java:435–454).
          shellExecutor('8.0.0', 'RemoteShellExecutor', 'builders', null),
        ],
      },
    })
    expect(findings.map((line) => line.slice(0, line.indexOf(':')))).toEqual([
      'server/docker-privileged-options critical - docker',
      'server/docker-privileged-options high - agents',
      'server/kubernetes-cluster-role high - k8s',
      'server/remote-shell-executor-broad high - builders',
      'server/untrusted-html-publish high - agents',
      'branch-protection/strict-builds-not-required low app main',
    ])
    expect(findings.find((f) => f.includes('remote-shell-executor-broad'))).toContain('its jobAuthorization is empty, which this server reads as every job')
    expect(server.requests.filter((r) => r.path.endsWith('/base-authorizations'))).toEqual([])
  }, 60_000)

  it('10.1.0: package privilege, cache upload and HTML report publishing, with default roles and job requirements', async () => {
    // v10.1.0 Role.java:41–74: the 16.x fields but description, accessTimeTracking, canEditFieldsOfOtherIssues and the workspace ones.
    const role10 = (id: number, name: string, fields: Record<string, unknown>) => {
      const {description: _d, accessTimeTracking: _a, canEditFieldsOfOtherIssues: _c, manageWorkspaces: _m, createWorkspaces: _w, ...rest} = role16(id, name, fields)
      return rest
    }
    const {findings} = await scan({
      projects: [
        {id: 1, path: 'app', name: 'app', parentId: null, defaultRoleId: 6},
        {id: 2, path: 'lib', name: 'lib', parentId: null, defaultRoleId: 7},
      ],
      roles: [role10(6, 'Builder', {manageBuilds: true}), role10(7, 'Packager', {packPrivilege: 'WRITE'}), role10(8, 'Reader', {})],
      settings: {1: setting16([]), 2: setting16([])},
      repositories: REPOSITORIES,
      access: ACCESS,
      admin: {
        '/settings/job-executors': [
          dockerExecutor('10.1.0', 'ServerDockerExecutor', 'docker', null, {htmlReportPublishEnabled: true}),
          dockerExecutor('10.1.0', 'ServerDockerExecutor', 'docs', SCOPED, {htmlReportPublishEnabled: true, sitePublishEnabled: true}),
        ],
      },
    })
    expect(findings.map((line) => line.slice(0, line.indexOf(':')))).toEqual([
      'server/untrusted-html-publish high - docker',
      'access/base-role-cache-upload high app Builder',
      'access/base-role-pack-write high lib Packager',
    ])
    expect(findings.find((f) => f.includes('base-role-cache-upload'))).toContain('Default role "Builder" of app lets every logged-in user upload build caches to it and its child projects (Manage Builds, which includes uploading caches)')
  }, 60_000)
})
