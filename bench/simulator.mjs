#!/usr/bin/env node
/**
 * A loopback OneDev simulator for benchmarks: N projects in a parent/child hierarchy (group →
 * team → repo), realistic current-shape settings (a few protections, job secrets, webhooks, a Slack
 * notification), R roles, a fixed latency per request, and a request counter.
 *
 *   node bench/simulator.mjs [--projects 2000] [--roles 300] [--latency 10] [--port 0] [--padding-kb 0]
 *
 * `--padding-kb K` adds about K KB of saved issue queries to every project's setting: payloads the
 * size of a project with a long history of settings (the default ones are about 1 KB).
 *
 * Prints one JSON line `{"url": ..., "prefix": "/~api"}` on stdout once listening. When started
 * with an IPC channel (child_process.fork), it answers messages `{type: 'stats'}` with
 * `{type: 'stats', requests, maxInFlight}` and `{type: 'reset'}` with `{type: 'reset'}`.
 * Serves GET /~api/roles and /~api/projects (offset/count paging, count > 100 → 406),
 * /~api/projects/{id} and /~api/projects/{id}/setting; any Basic credentials are accepted, none → 401.
 */
import {createServer} from 'node:http'
import {pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'

const PREFIX = '/~api'
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

/** `repositories: false` answers 404 for /repositories/..., as a server that speaks only the contract. */
export function startSimulator({projects: projectCount = 2000, roles: roleCount = 300, latency = 10, port = 0, repositories = true, paddingKb = 0} = {}) {
  const projects = buildProjects(projectCount)
  const byId = new Map(projects.map((p) => [p.id, p]))
  // Pre-serialized, like a server answering from its cache: latency is the only cost we simulate.
  const settings = new Map(projects.map((p) => [p.id, JSON.stringify(buildSetting(p, paddingKb), null, 2)]))
  const roles = buildRoles(roleCount)
  const stats = {requests: 0, inFlight: 0, maxInFlight: 0}
  const state = {repositories}

  function answer(request) {
    const url = new URL(request.url ?? '/', 'http://sim')
    if (!request.headers.authorization?.startsWith('Basic ')) return {status: 401, text: 'Not authenticated'}
    if (!url.pathname.startsWith(`${PREFIX}/`)) return {status: 404, html: '<html><body>Not found</body></html>'}
    const path = url.pathname.slice(PREFIX.length)
    if (path === '/roles') return page(roles, url.searchParams)
    if (path === '/projects') return page(projects, url.searchParams)
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
    stats.requests++
    stats.inFlight++
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight)
    request.resume()
    setTimeout(() => {
      const result = answer(request)
      if (result.status === 204) {
        response.writeHead(204)
        response.end()
      } else if (result.bare !== undefined) send(response, result.status, 'application/json', result.bare) // a bare name, as OneDev sends it
      else if (result.json !== undefined) send(response, result.status, 'application/json', result.json)
      else if (result.html !== undefined) send(response, result.status, 'text/html', result.html)
      else send(response, result.status, 'text/plain', result.text)
      stats.inFlight--
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
        reset() {
          stats.requests = 0
          stats.maxInFlight = stats.inFlight
        },
        close: () => new Promise((done) => {
          server.closeAllConnections()
          server.close(done)
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
      latency: {type: 'string', default: '10'},
      port: {type: 'string', default: '0'},
      'padding-kb': {type: 'string', default: '0'},
    },
  })
  const simulator = await startSimulator({
    projects: Number(values.projects),
    roles: Number(values.roles),
    latency: Number(values.latency),
    port: Number(values.port),
    paddingKb: Number(values['padding-kb']),
  })
  process.stdout.write(`${JSON.stringify({url: simulator.url, prefix: simulator.prefix})}\n`)
  if (process.send) {
    process.on('message', (message) => {
      if (message?.type === 'stats') process.send({type: 'stats', requests: simulator.stats.requests, maxInFlight: simulator.stats.maxInFlight})
      else if (message?.type === 'reset') {
        simulator.reset()
        if (typeof message.repositories === 'boolean') simulator.setRepositories(message.repositories)
        process.send({type: 'reset'})
      } else if (message?.type === 'close') simulator.close().then(() => process.exit(0))
    })
    process.on('disconnect', () => process.exit(0))
  }
}
