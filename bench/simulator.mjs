#!/usr/bin/env node
/**
 * A loopback OneDev simulator for benchmarks: N projects in a parent/child hierarchy (group →
 * team → repo), realistic current-shape settings (a few protections, job secrets, webhooks, a Slack
 * notification), R roles, a fixed latency per request, and a request counter.
 *
 *   node bench/simulator.mjs [--projects 2000] [--roles 300] [--users 300] [--groups 40] [--latency 10] [--port 0] [--padding-kb 0] [--log FILE] [--contract-only]
 *   node bench/simulator.mjs --in-flight FILE [--gap 50] [--run-start REGEX]   (reads a log: each run's requests, span and mean requests in flight)
 *
 * `--log FILE` appends one line per request answered: `arrival answer status url` (ms on this
 * process's clock), from which `--in-flight FILE` tells, for each run of a client (requests separated
 * by `--gap` ms or more with nothing in flight, or starting at each request whose URL matches
 * `--run-start`, such as '^/~api/projects\?offset=0&'), how many requests were in flight on average.
 * `--padding-kb K` adds about K KB of saved issue queries to every project's setting: payloads the
 * size of a project with a long history of settings (the default ones are about 1 KB).
 * `--contract-only` starts it as a server that speaks only the contract (roles, projects, settings).
 *
 * Prints one JSON line `{"url": ..., "prefix": "/~api"}` on stdout once listening. When started
 * with an IPC channel (child_process.fork), it answers messages `{type: 'stats'}` with
 * `{type: 'stats', requests, maxInFlight, meanInFlight, spanMs}` (since the last reset) and `{type: 'reset', repositories?, access?}` (the toggles)
 * with `{type: 'reset'}`.
 * Serves GET /~api/roles and /~api/projects (offset/count paging, count > 100 → 406),
 * /~api/projects/{id} and /~api/projects/{id}/setting, /~api/repositories/{id}/default-branch,
 * branches and tags, and the access and administration endpoints (buildAccess: /settings/security,
 * /users, /groups, memberships, authorizations, access tokens, executors, ...); any Basic
 * credentials are accepted, none → 401.
 */
import {createWriteStream} from 'node:fs'
import {createServer} from 'node:http'
import {performance} from 'node:perf_hooks'
import {pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'

const PREFIX = '/~api'
/**
 * What GET /version/server answers while the access endpoints are on (a current server): a Java String
 * under application/json, which Jersey writes unquoted (v16.5.6 server-core/src/main/java/io/onedev/
 * server/rest/resource/VersionResource.java:18-23); with them off, 404 as a server before 10.2.0.
 */
export const SIMULATED_VERSION = '16.5.6'
const MAX_PAGE_SIZE = 100

/** Project i (1-based): every 50th starts a group (root), every 10th a team under it, the rest are repos. */
export function buildProjects(count) {
  const projects = []
  let group = null
  let team = null
  for (let id = 1; id <= count; id++) {
    if ((id - 1) % 50 === 0) {
      group = {id, name: `group-${id}`, path: `group-${id}`, parentId: null}
      team = null
      projects.push(group)
    } else if ((id - 1) % 10 === 0) {
      team = {id, name: `team-${id}`, path: `${group.path}/team-${id}`, parentId: group.id}
      projects.push(team)
    } else {
      const parent = team ?? group
      projects.push({id, name: `repo-${id}`, path: `${parent.path}/repo-${id}`, parentId: parent.id})
    }
  }
  return projects.map((p) => ({
    id: p.id,
    parentId: p.parentId,
    forkedFromId: null,
    name: p.name,
    key: null,
    path: p.path,
    description: `Simulated project ${p.id}`,
    createDate: '2025-03-01T08:00:00.000+00:00',
    codeManagement: true,
    packManagement: true,
    issueManagement: true,
    timeTracking: false,
    serviceDeskEmailAddress: null,
    gitPackConfig: {windowMemory: null, packSizeLimit: null, threads: null, window: null},
    codeAnalysisSetting: {analysisFiles: null},
  }))
}

function branchProtection(branches, variant) {
  return {
    enabled: true,
    branches,
    userMatch: variant % 3 === 0 ? 'anyone except group(release-bots)' : 'anyone',
    preventForcedPush: variant % 4 !== 1,
    preventDeletion: true,
    preventCreation: variant % 2 === 0,
    commitSignatureRequired: variant % 5 === 0,
    commitMessageChecker: null,
    maxCommitMessageLineLength: null,
    disallowedFileTypes: [],
    reviewRequirement: variant % 3 === 0 ? 'user(alice) group(core-devs):2' : null,
    jobNames: variant % 2 === 0 ? ['ci'] : [],
    fileProtections: variant % 7 === 0 ? [{paths: '.onedev-buildspec.yml', reviewRequirement: 'group(devops)', jobNames: []}] : [],
    requireStrictBuilds: false,
  }
}

export function buildSetting(project, paddingKb = 0) {
  const id = project.id
  const root = project.parentId === null
  const setting = {
    branchProtections: root ? [branchProtection('main release/**', id), branchProtection('develop', id + 1)] : id % 4 === 0 ? [branchProtection('main', id)] : [],
    tagProtections: root
      ? [{enabled: true, tags: 'v*', userMatch: 'anyone', preventUpdate: true, preventDeletion: true, preventCreation: false, commitSignatureRequired: false, disallowedFileTypes: []}]
      : [],
    issueSetting: {listFields: null, listLinks: null, boardSpecs: null, namedQueries: null, transitionSpecs: [], timesheetSettings: {}, branchPrefix: null},
    buildSetting: {
      listParams: null,
      namedQueries: null,
      jobProperties: [{name: 'registry', value: 'registry.example.com', archived: false}],
      jobSecrets: [
        {name: 'deploy-token', value: `sim-secret-deploy-${id}`, authorization: id % 6 === 0 ? null : 'on branch "main"', archived: false},
        ...(id % 3 === 0 ? [{name: 'npm-token', value: `sim-secret-npm-${id}`, authorization: 'on branch "**"', archived: false}] : []),
      ],
      buildPreservations: [{condition: 'successful and on branch "main"', count: 20}],
      defaultFixedIssueFilters: [],
      cachePreserveDays: null,
    },
    packSetting: {namedQueries: null},
    pullRequestSetting: {namedQueries: null, defaultMergeStrategy: null, defaultAssignees: [], deleteSourceBranchAfterMerge: null},
    workspaceSetting: {namedQueries: null},
    namedCommitQueries: [{name: 'All', query: null}],
    namedCodeCommentQueries: [],
    webHooks:
      id % 5 === 0
        ? [
            {
              postUrl: id % 10 === 0 ? 'http://ci.internal/hook' : `https://ci.example.com/hook?token=sim-hook-token-${id}`,
              eventTypes: ['CODE_PUSH', 'PULL_REQUEST'],
              secret: `sim-webhook-secret-${id}`,
              headers: [{name: 'Authorization', value: `Bearer sim-header-${id}`}],
            },
          ]
        : [],
    contributedSettings: root
      ? [
          {
            '@type': 'SlackNotificationSetting',
            notifications: [
              {
                webhookUrl: `https://hooks.slack.com/services/T0SIM/B0SIM/sim-slack-${id}`,
                issues: true,
                issueQuery: null,
                pullRequests: true,
                pullRequestQuery: null,
                builds: false,
                buildQuery: null,
                codePush: false,
                commitQuery: null,
                codeComments: false,
                codeCommentQuery: null,
              },
            ],
          },
        ]
      : [],
  }
  // About 100 bytes a query, JSON-encoded.
  const queries = Math.round((paddingKb * 1024) / 100)
  if (queries > 0) setting.issueSetting.namedQueries = Array.from({length: queries}, (_, i) => ({name: `query ${i} of ${id}`, query: `"State" is "Open" and "Assignee" is "user-${i}" order by "Priority" desc`}))
  return setting
}

export function buildRoles(count) {
  const privileges = ['NONE', 'READ', 'WRITE']
  return Array.from({length: count}, (_, i) => ({
    id: i + 1,
    name: i === 0 ? 'Project Owner' : `Role ${String(i + 1).padStart(4, '0')}`,
    description: null,
    manageProject: i === 0 || i % 97 === 0,
    createChildren: i % 11 === 0,
    managePullRequests: i % 13 === 0,
    manageCodeComments: false,
    codePrivilege: privileges[i % 3],
    packPrivilege: privileges[(i + 1) % 3],
    manageIssues: i % 7 === 0,
    accessConfidentialIssues: false,
    accessTimeTracking: true,
    scheduleIssues: false,
    editableIssueFields: {'@type': 'AllIssueFields'},
    canEditFieldsOfOtherIssues: false,
    manageBuilds: i % 17 === 0,
    uploadCache: false,
    jobPrivileges: [{jobNames: i % 5 === 0 ? '*' : 'build-*', manageJob: false, runJob: i % 2 === 0, accessLog: true, accessPipeline: true, accessibleReports: null}],
    manageWorkspaces: false,
    createWorkspaces: false,
  }))
}

function send(response, status, type, body) {
  response.writeHead(status, {'content-type': type, 'content-length': Buffer.byteLength(body)})
  response.end(body)
}

function page(items, query) {
  const offset = Number(query.get('offset'))
  const count = Number(query.get('count'))
  if (!query.has('offset') || !query.has('count')) return {status: 406, text: 'Missing query params: [offset, count]'}
  if (count > MAX_PAGE_SIZE) return {status: 406, text: `Count should not be greater than ${MAX_PAGE_SIZE}`}
  return {status: 200, json: JSON.stringify(items.slice(offset, offset + count), null, 2)}
}

/**
 * A project's repository as a current server describes it: most default to `main`, every third to
 * `master`, every 50th is not initialized (204); two release tags each.
 */
export function repositoryOf(id) {
  if (id % 50 === 0) return {defaultBranch: null}
  const defaultBranch = id % 3 === 0 ? 'master' : 'main'
  return {defaultBranch, branches: [defaultBranch, 'develop'], tags: ['v1.0.0', 'v1.1.0']}
}

/**
 * Requests in flight over time, from a request log (`stats.log`: arrival and answer times in ms, in
 * pairs): the requests, the span from the first arrival to the last answer, and the mean number in
 * flight over that span (the time every request spent at the server, summed, divided by the span).
 */
export function inFlightOf(log) {
  let first = Number.POSITIVE_INFINITY
  let last = Number.NEGATIVE_INFINITY
  let busy = 0
  for (let i = 0; i + 1 < log.length; i += 2) {
    first = Math.min(first, log[i])
    last = Math.max(last, log[i + 1])
    busy += log[i + 1] - log[i]
  }
  const requests = Math.floor(log.length / 2)
  const spanMs = requests === 0 ? 0 : last - first
  return {requests, spanMs, meanInFlight: spanMs > 0 ? busy / spanMs : 0}
}

/**
 * The runs in a request log (`--log FILE`, one line `arrival answer status url` per request, several
 * runs of a client one after the other): requests sorted by arrival, a new run after `gapMs` or more
 * with nothing in flight, or at each request whose URL matches `start` (on a busy host a client
 * starved of CPU leaves pauses inside its own run). Each run as inFlightOf says.
 */
export function runsOfLog(text, gapMs = 50, start) {
  const requests = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [arrived, answered, , url] = line.split(' ', 4)
      return [Number(arrived), Number(answered), url ?? '']
    })
    .sort((a, b) => a[0] - b[0])
  const runs = []
  let current = []
  let busyUntil = Number.NEGATIVE_INFINITY
  for (const [arrived, answered, url] of requests) {
    if (current.length > 0 && (arrived - busyUntil >= gapMs || start?.test(url))) {
      runs.push(inFlightOf(current))
      current = []
    }
    current.push(arrived, answered)
    busyUntil = Math.max(busyUntil, answered)
  }
  if (current.length > 0) runs.push(inFlightOf(current))
  return runs
}

const pad = (n) => String(n).padStart(4, '0')

/**
 * The access and administration data of a server (issues 11 and 14), deterministic: `users` users
 * (1 is root; every 50th a service account, the last an AI account, every 37th disabled), `groups`
 * groups (Administrators with four members, Everyone, the default group of new users, with all of
 * them, core-devs, release-bots, devops and teams), the security setting, job executors, a groovy
 * script, the system setting, no external authenticator (204), an SSO provider, access tokens (every
 * fourth user has one, some without expiry), build agents and their tokens (two unused), a mail
 * service over TLS, a confidential service desk for one group, and per project its base, group and
 * user authorizations: roots grant a base reading role and core-devs a writing role, teams a team
 * group, repos an owner, some a base writing role or release-bots; every fifth repo grants nothing.
 * Returns the payloads by path (under the prefix); `/users`, `/groups`, `/agents` and `/agent-tokens`
 * are listings (paged).
 */
export function buildAccess({projects, roles: roleCount, users: userCount = 300, groups: groupCount = 40}) {
  const role = (n) => ((n - 1) % roleCount) + 1
  const OWNER = role(1)
  const READER = role(2) // codePrivilege READ in buildRoles
  const WRITER = role(3) // codePrivilege WRITE
  const REPORTER = role(8) // manageIssues
  const users = Array.from({length: userCount}, (_, i) => {
    const id = i + 1
    const type = id === userCount && id > 2 ? 'AI' : id % 50 === 0 ? 'SERVICE' : 'ORDINARY'
    const name = id === 1 ? 'admin' : id === 2 ? 'alice' : `${type === 'SERVICE' ? 'svc' : type === 'AI' ? 'ai' : 'user'}-${pad(id)}`
    return {
      id,
      disabled: id % 37 === 0,
      type,
      name,
      fullName: id === 1 ? 'Site Admin' : type === 'ORDINARY' ? `User ${pad(id)}` : null,
      notifyOwnEvents: false,
      // An AI user's settings as 16.x lists them (UserResource.java:118-119, AiSetting.java:22-34).
      aiSetting:
        type === 'AI'
          ? {modelSetting: {baseUrl: 'https://ai.example.com/v1', apiKey: `sim-ai-key-${id}`, name: 'gpt', timeoutSeconds: 30}, entitleToAll: false, systemPrompt: null, pullRequestAssigneeResponsibilities: ['FIX_FAILED_BUILDS', 'RESOLVE_MERGE_CONFLICTS'], proactive: false, maxLoopCount: 3}
          : null,
    }
  })
  const names = ['Administrators', 'Everyone', 'core-devs', 'release-bots', 'devops']
  const groups = Array.from({length: groupCount}, (_, i) => ({
    id: i + 1,
    name: names[i] ?? `team-${pad(i + 1)}`,
    description: i === 1 ? 'Every user (the default group)' : null,
    administrator: i === 0,
    createRootProjects: i === 0 || i === 2,
    enforce2FA: i === 0,
  }))
  const teams = Math.max(1, groupCount - names.length)
  const memberOf = (groupId, userId) => {
    if (userId === 1) return false
    if (groupId === 1) return userId <= 5
    if (groupId === 2) return true
    if (groupId === 3) return userId % 5 === 1 || userId === 2
    if (groupId === 4) return users[userId - 1].type === 'SERVICE'
    if (groupId === 5) return userId % 23 === 0
    return userId % teams === groupId - names.length - 1
  }
  const payloads = new Map()
  let membershipId = 0
  for (const group of groups) {
    const members = users.filter((user) => memberOf(group.id, user.id)).map((user) => ({id: ++membershipId, userId: user.id, groupId: group.id}))
    payloads.set(`/groups/${group.id}/memberships`, members)
  }
  const byGroup = new Map(groups.map((group) => [group.id, []]))
  const byUser = new Map(users.map((user) => [user.id, []]))
  let authorizationId = 0
  for (const project of projects) {
    const p = project.id
    const root = project.parentId === null
    const team = !root && (p - 1) % 10 === 0
    const none = !root && !team && p % 5 === 0
    const base = root ? [READER] : !team && !none && p % 40 === 7 ? [WRITER] : []
    const groupGrants = root
      ? [[3, WRITER], ...(p % 250 === 1 && groupCount >= 2 ? [[2, REPORTER]] : [])]
      : team
        ? [[names.length + 1 + (Math.floor(p / 10) % teams), WRITER]]
        : !none && p % 3 === 0
          ? [[4, role(5)]]
          : []
    const userGrants = root || none ? [] : [[2 + ((p * 7) % (userCount - 1)), OWNER]]
    payloads.set(`/projects/${p}/base-authorizations`, base.map((roleId) => ({id: ++authorizationId, projectId: p, roleId})))
    const groupRows = groupGrants.filter(([groupId]) => groupId <= groupCount).map(([groupId, roleId]) => ({id: ++authorizationId, projectId: p, groupId, roleId}))
    const userRows = userGrants.filter(([userId]) => userId <= userCount).map(([userId, roleId]) => ({id: ++authorizationId, projectId: p, userId, roleId}))
    payloads.set(`/projects/${p}/group-authorizations`, groupRows)
    payloads.set(`/projects/${p}/user-authorizations`, userRows)
    for (const row of groupRows) byGroup.get(row.groupId).push(row)
    for (const row of userRows) byUser.get(row.userId).push(row)
  }
  for (const [id, rows] of byGroup) payloads.set(`/groups/${id}/authorizations`, rows)
  for (const user of users) {
    payloads.set(`/users/${user.id}`, user)
    payloads.set(`/users/${user.id}/authorizations`, byUser.get(user.id))
    const tokens =
      user.id === 1 || user.id % 4 === 0
        ? [{id: user.id, name: user.type === 'ORDINARY' ? 'laptop' : 'ci', ownerId: user.id, value: `sim-access-token-${user.id}`, hasOwnerPermissions: user.id % 8 === 0, createDate: '2025-03-01T08:00:00.000+00:00', expireDate: user.id % 12 === 0 ? null : '2027-03-01T08:00:00.000+00:00'}]
        : []
    payloads.set(`/users/${user.id}/access-tokens`, tokens)
  }
  payloads.set('/settings/security', {
    enableAnonymousAccess: false,
    disableInternalLogin: false,
    enableSelfRegister: true,
    allowedSelfRegisterEmailDomain: '*@example.com',
    enableSelfDeregister: false,
    passwordPolicy: {minLength: 12, mustContainUppercase: true, mustContainLowercase: true, mustContainNumber: true, mustContainSpecial: false},
    defaultGroupName: groupCount >= 2 ? 'Everyone' : null,
    enforce2FA: false,
    corsAllowedOrigins: ['https://portal.example.com'],
  })
  payloads.set('/settings/job-executors', [
    {'@type': 'RemoteDockerExecutor', enabled: true, name: 'agents', htmlReportPublishEnabled: false, sitePublishEnabled: false, jobMatch: null, agentQuery: null, registryLogins: [{registryUrl: 'https://registry.example.com', userName: 'robot', password: 'sim-registry-password'}], mountDockerSock: false},
    {'@type': 'ServerDockerExecutor', enabled: true, name: 'server-docker', htmlReportPublishEnabled: false, sitePublishEnabled: false, jobMatch: '"Project" is "group-1/**"', registryLogins: [], mountDockerSock: false},
  ])
  payloads.set('/settings/groovy-scripts', [{name: 'notify', content: ['return 1'], canBeUsedByBuildJobs: false, jobAuthorization: null, canBeUsedByWorkspaceSpecs: false, applicableWorkspaceProjects: null}])
  payloads.set('/settings/system', {serverUrl: 'https://onedev.example.com', sshRootUrl: 'ssh://onedev.example.com:6611', sessionTimeout: 30, useAvatarService: false})
  payloads.set('/settings/authenticator', null)
  payloads.set('/sso-providers', [
    {id: 1, name: 'okta', defaultGroupId: null, connector: {'@type': 'OpenIdConnector', configurationDiscoveryUrl: 'https://example.okta.com/.well-known/openid-configuration', clientId: 'sim', clientSecret: 'sim-sso-client-secret', requestScopes: 'openid email profile', groupsClaim: 'groups', buttonImageUrl: null}},
  ])
  // Issue 34, in the shapes of v16.5.6: `agents` build agents, each on its own token, and two tokens no
  // agent uses (AgentToken.java:24-25, Agent.java:102-136); an SMTP/IMAP mail service over TLS, root
  // without @type (SmtpImapConnector.java:26-40); a service desk for one group's projects, confidential
  // (ServiceDeskSetting.java:32, IssueCreationSetting.java:28-32).
  const agentCount = Math.max(1, Math.round(userCount / 15))
  const agentTokens = Array.from({length: agentCount + 2}, (_, i) => ({id: i + 1, value: `sim-agent-token-${i + 1}`}))
  const agents = Array.from({length: agentCount}, (_, i) => ({id: i + 1, tokenId: i + 1, name: `agent-${pad(i + 1)}`, ipAddress: `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`, osName: 'Linux', osVersion: '6.8.0', osArch: 'amd64', cpuCount: 8, paused: false, online: i % 7 !== 0}))
  payloads.set('/settings/mail-service', {
    smtpHost: 'smtp.example.com',
    sslSetting: {'@type': 'SmtpExplicitSsl', trustAll: false, port: 587},
    smtpUser: 'onedev@example.com',
    smtpPassword: 'sim-smtp-password',
    systemAddress: 'onedev@example.com',
    inboxPollSetting: {imapHost: 'imap.example.com', sslSetting: {'@type': 'ImapImplicitSsl', trustAll: false, port: 993}, imapUser: 'onedev@example.com', imapPassword: 'sim-imap-password', pollInterval: 60},
    concurrency: 2,
    timeout: 60,
  })
  payloads.set('/settings/service-desk', {issueCreationSettings: [{applicableProjects: 'group-1/**', confidential: true, issueFields: []}]})
  return {users, groups, agents, agentTokens, payloads}
}

/**
 * `repositories: false` answers 404 for /repositories/..., as a server that speaks only the contract;
 * `access: false` answers 404 for the access and administration endpoints (buildAccess), as a server
 * that offers none of them. `record: true` keeps every request's path and query in `stats.paths`.
 */
export function startSimulator({projects: projectCount = 2000, roles: roleCount = 300, users: userCount = 300, groups: groupCount = 40, latency = 10, port = 0, repositories = true, access = true, record = false, paddingKb = 0, log} = {}) {
  const projects = buildProjects(projectCount)
  const byId = new Map(projects.map((p) => [p.id, p]))
  // Pre-serialized, like a server answering from its cache: latency is the only cost we simulate.
  const settings = new Map(projects.map((p) => [p.id, JSON.stringify(buildSetting(p, paddingKb), null, 2)]))
  const roles = buildRoles(roleCount)
  const accessData = buildAccess({projects, roles: roleCount, users: userCount, groups: groupCount})
  const accessPayloads = new Map([...accessData.payloads].map(([path, payload]) => [path, payload === null ? null : JSON.stringify(payload, null, 2)]))
  const stats = {requests: 0, inFlight: 0, maxInFlight: 0, paths: [], log: []}
  const state = {repositories, access}
  const logFile = log ? createWriteStream(log, {flags: 'a'}) : undefined

  function answer(request) {
    const url = new URL(request.url ?? '/', 'http://sim')
    if (!request.headers.authorization?.startsWith('Basic ')) return {status: 401, text: 'Not authenticated'}
    if (!url.pathname.startsWith(`${PREFIX}/`)) return {status: 404, html: '<html><body>Not found</body></html>'}
    const path = url.pathname.slice(PREFIX.length)
    if (path === '/roles') return page(roles, url.searchParams)
    if (path === '/projects') return page(projects, url.searchParams)
    if (state.access) {
      if (path === '/version/server') return {status: 200, bare: SIMULATED_VERSION}
      if (path === '/users') return page(accessData.users, url.searchParams)
      if (path === '/groups') return page(accessData.groups, url.searchParams)
      if (path === '/agents') return page(accessData.agents, url.searchParams)
      if (path === '/agent-tokens') return page(accessData.agentTokens, url.searchParams)
      if (accessPayloads.has(path)) {
        const body = accessPayloads.get(path)
        return body === null ? {status: 204, text: ''} : {status: 200, json: body}
      }
      // An unknown id on a known path, as the server answers it.
      const unknown = /^\/(users|groups)\/(\d+)(\/[a-z-]+)?$|^\/projects\/(\d+)\/(base|group|user)-authorizations$/.exec(path)
      if (unknown) return {status: 404, text: `No row with the given identifier exists: [${unknown[1] === 'users' ? 'User' : unknown[1] === 'groups' ? 'Group' : 'Project'}#${unknown[2] ?? unknown[4]}]`}
    }
    const repository = /^\/repositories\/(\d+)\/(default-branch|branches|tags)$/.exec(path)
    if (repository && state.repositories && byId.has(Number(repository[1]))) {
      const info = repositoryOf(Number(repository[1]))
      if (repository[2] === 'default-branch') return info.defaultBranch === null ? {status: 204, text: ''} : {status: 200, bare: info.defaultBranch}
      return {status: 200, json: JSON.stringify(info[repository[2]] ?? [], null, 2)}
    }
    const match = /^\/projects\/(\d+)(\/setting)?$/.exec(path)
    if (match) {
      const id = Number(match[1])
      if (!byId.has(id)) return {status: 404, text: `No row with the given identifier exists: [Project#${id}]`}
      return {status: 200, json: match[2] ? settings.get(id) : JSON.stringify(byId.get(id), null, 2)}
    }
    return {status: 404, text: 'HTTP 404 Not Found'}
  }

  const server = createServer((request, response) => {
    const arrived = performance.now()
    stats.requests++
    if (record) stats.paths.push(request.url ?? '')
    stats.inFlight++
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight)
    request.resume()
    setTimeout(() => {
      const result = answer(request)
      if (result.status === 204) {
        response.writeHead(204)
        response.end()
      } else if (result.bare !== undefined) send(response, result.status, 'application/json', result.bare) // a bare String (a name, the version), as OneDev sends it
      else if (result.json !== undefined) send(response, result.status, 'application/json', result.json)
      else if (result.html !== undefined) send(response, result.status, 'text/html', result.html)
      else send(response, result.status, 'text/plain', result.text)
      stats.inFlight--
      // The request log: when each request arrived and when its answer was sent (ms), for requests in flight over time.
      const answered = performance.now()
      stats.log.push(arrived, answered)
      logFile?.write(`${arrived.toFixed(3)} ${answered.toFixed(3)} ${result.status} ${request.url ?? ''}\n`)
    }, latency)
  })
  server.keepAliveTimeout = 30_000

  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        prefix: PREFIX,
        stats,
        /** Turns the repository endpoints on or off (a current server, or one that speaks only the contract). */
        setRepositories(enabled) {
          state.repositories = enabled
        },
        /** Turns the access and administration endpoints on or off (a current server, or one that offers none of them). */
        setAccess(enabled) {
          state.access = enabled
        },
        reset() {
          stats.requests = 0
          stats.paths = []
          stats.log = []
          stats.maxInFlight = stats.inFlight
        },
        close: () => new Promise((done) => {
          server.closeAllConnections()
          server.close(() => (logFile ? logFile.end(done) : done()))
        }),
      })
    })
  })
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href
if (isMain) {
  const {values} = parseArgs({
    options: {
      projects: {type: 'string', default: '2000'},
      roles: {type: 'string', default: '300'},
      users: {type: 'string', default: '300'},
      groups: {type: 'string', default: '40'},
      latency: {type: 'string', default: '10'},
      port: {type: 'string', default: '0'},
      'padding-kb': {type: 'string', default: '0'},
      log: {type: 'string'},
      'contract-only': {type: 'boolean', default: false},
      'in-flight': {type: 'string'},
      gap: {type: 'string', default: '50'},
      'run-start': {type: 'string'},
    },
  })
  if (values['in-flight'] !== undefined) {
    const {readFileSync} = await import('node:fs')
    const start = values['run-start'] === undefined ? undefined : new RegExp(values['run-start'])
    for (const run of runsOfLog(readFileSync(values['in-flight'], 'utf8'), Number(values.gap), start)) process.stdout.write(`${JSON.stringify(run)}\n`)
    process.exit(0)
  }
  const simulator = await startSimulator({
    projects: Number(values.projects),
    roles: Number(values.roles),
    users: Number(values.users),
    groups: Number(values.groups),
    latency: Number(values.latency),
    port: Number(values.port),
    paddingKb: Number(values['padding-kb']),
    ...(values.log !== undefined ? {log: values.log} : {}),
    ...(values['contract-only'] ? {repositories: false, access: false} : {}),
  })
  process.stdout.write(`${JSON.stringify({url: simulator.url, prefix: simulator.prefix})}\n`)
  // Stopped from outside: the request log is written out first.
  process.once('SIGTERM', () => simulator.close().then(() => process.exit(0)))
  process.once('SIGINT', () => simulator.close().then(() => process.exit(0)))
  if (process.send) {
    process.on('message', (message) => {
      if (message?.type === 'stats') process.send({type: 'stats', ...inFlightOf(simulator.stats.log), requests: simulator.stats.requests, maxInFlight: simulator.stats.maxInFlight})
      else if (message?.type === 'reset') {
        simulator.reset()
        if (typeof message.repositories === 'boolean') simulator.setRepositories(message.repositories)
        if (typeof message.access === 'boolean') simulator.setAccess(message.access)
        process.send({type: 'reset'})
      } else if (message?.type === 'close') simulator.close().then(() => process.exit(0))
    })
    process.on('disconnect', () => process.exit(0))
  }
}
