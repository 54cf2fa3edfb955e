/**
 * Running `onedev-audit notify` against the fixture server (acme #1, acme/app #2, legacy/tool #3,
 * acme/empty #4) with the issue endpoints of test/helpers/issue-store.ts, as the CLI tests of notify
 * do: `notifyHarness()` registers a file's hooks (a temporary folder, servers closed after each test)
 * and gives `start`, `notify` (one run; every output and request body checked for secrets), and
 * `configFile`. `budget` maps a run's issue requests to the projects they concern.
 */
import {writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterEach, beforeAll} from 'vitest'

import {expectNoCanary} from './canaries.js'
import {runCli} from './cli.js'
import {EMPTY_ACCESS, FIXTURE_PROJECTS, fixtureServerOptions, serverEnv} from './fixture-server.js'
import {DEFAULT_WORKFLOW, type IssueStore, installIssueStore, type IssueStoreOptions} from './issue-store.js'
import {type OneDevServer, type OneDevServerOptions, type RecordedRequest, startOneDevServer} from './onedev-server.js'
import {tempDir} from './temp-dir.js'

export interface Setup {
  server: OneDevServer
  store: IssueStore
  projects: Array<{id: number; path: string; name: string; parentId: number | null}>
}

export interface NotifyRun {
  code: number
  stdout: string
  stderr: string
  /** Every request of the run. */
  sent: RecordedRequest[]
  /** GET /issues requests. */
  queries: number
  /** POSTs in the order they were sent (a target's requests are sequential; targets run concurrently). */
  writes: string[]
}

export function notifyHarness() {
  let dir: string
  let servers: OneDevServer[] = []
  let fileCount = 0
  beforeAll(async () => {
    dir = await tempDir('oda-notify')
  })
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()))
    servers = []
  })

  /** The fixture server with the issue endpoints of a OneDev (a current one unless `store.flavor` says otherwise). */
  async function start(options: {server?: OneDevServerOptions; store?: Partial<IssueStoreOptions>; workflow?: any} = {}): Promise<Setup> {
    const workflow = options.workflow ?? DEFAULT_WORKFLOW
    const projects = FIXTURE_PROJECTS.map((project) => ({...project}))
    const server = await startOneDevServer(fixtureServerOptions({access: EMPTY_ACCESS, admin: {}, projects, issueSetting: workflow, ...options.server}))
    servers.push(server)
    const store = installIssueStore(server, {projects: options.server?.projects ?? projects, workflow, ...options.store})
    return {server, store, projects}
  }

  async function configFile(config: unknown): Promise<string> {
    const path = join(dir, `config-${++fileCount}.json`)
    await writeFile(path, JSON.stringify(config))
    return path
  }

  /** Runs notify against the server; every output and request body is checked for secrets. */
  async function notify(setup: Setup, ...args: string[]): Promise<NotifyRun> {
    const before = setup.server.requests.length
    const result = await runCli(['notify', ...args], {env: serverEnv(setup.server)})
    expectNoCanary(result.stdout)
    expectNoCanary(result.stderr)
    const sent = setup.server.requests.slice(before)
    for (const request of sent) expectNoCanary(request.body)
    const writes = sent.filter((r) => r.method === 'POST').map((r) => `POST ${r.path.slice(setup.server.prefix.length)}`)
    const queries = sent.filter((r) => r.method === 'GET' && r.path === `${setup.server.prefix}/issues`).length
    return {...result, sent, queries, writes}
  }

  return {start, configFile, notify, dir: () => dir, track: (server: OneDevServer) => servers.push(server)}
}

/** What one run asked of one project's issues. */
export interface ProjectRequests {
  /** GET /issues pages of its query. */
  queries: number
  opens: number
  descriptions: number
  transitions: number
}

/**
 * A run's issue requests by project (the query's project path, the new issue's project, the issue's
 * project), and those of no project (`/users/me`, `/version/server`, `/settings/issue`, the account's
 * `submitted by me` query) by path.
 */
export function budget(run: NotifyRun, setup: Setup): {projects: Map<string, ProjectRequests>; run: Record<string, number>} {
  const projects = new Map<string, ProjectRequests>()
  const runWide: Record<string, number> = {}
  const of = (path: string) => {
    let entry = projects.get(path)
    if (!entry) projects.set(path, (entry = {queries: 0, opens: 0, descriptions: 0, transitions: 0}))
    return entry
  }
  const pathOf = (id: number) => setup.projects.find((project) => project.id === id)?.path ?? `#${id}`
  for (const request of run.sent) {
    const path = request.path.slice(setup.server.prefix.length)
    const query = /^"Project" is "((?:[^"\\]|\\.)*)"/.exec(request.query.query ?? '')
    if (request.method === 'GET' && path === '/issues' && query) of(query[1]!.replace(/\\(.)/g, '$1')).queries++
    else if (request.method === 'POST' && path === '/issues') of(pathOf(JSON.parse(request.body).projectId)).opens++
    else if (request.method === 'POST' && /^\/issues\/\d+\//.test(path)) {
      const issue = setup.store.issues.find((candidate) => candidate.id === Number(path.split('/')[2]))
      const entry = of(issue ? pathOf(issue.projectId) : path)
      if (path.endsWith('/description')) entry.descriptions++
      else entry.transitions++
    } else {
      const key = `${request.method} ${path}${request.query.query ? `?query=${request.query.query}` : ''}`
      runWide[key] = (runWide[key] ?? 0) + 1
    }
  }
  return {projects, run: runWide}
}
