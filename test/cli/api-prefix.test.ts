/**
 * The API prefix as a user meets it: no --api-prefix against a current server (/~api) finds it by
 * itself and says so once; a given prefix is never probed; a URL where neither prefix answers, and
 * a server that refuses every connection, each give one error line.
 */
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import {closedPort, type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

const NOTICE = 'onedev-audit: notice: /api answered an HTML page; using /~api (current OneDev servers). Skip this probe with --api-prefix /~api'
const WRONG_PREFIX =
  'the server answered an HTML page (status 404), not JSON; this is what a wrong API prefix gives: current OneDev servers need --api-prefix /~api'

let server: OneDevServer
let dir: string

/** What a user sets, without ONEDEV_API_PREFIX. */
const env = (extra: Record<string, string | undefined> = {}) => ({...serverEnv(server), ONEDEV_API_PREFIX: undefined, ...extra})
const apiRequests = () => server.requests.filter((r) => r.path.startsWith('/api/')).map((r) => r.path)

beforeAll(async () => {
  server = await startFixtureServer()
  dir = await tempDir('oda-prefix')
})
afterAll(async () => {
  await server.close()
})

describe('no --api-prefix against a current server', () => {
  it('scan finds /~api, says so once, and reports exactly what a run with --api-prefix /~api reports', async () => {
    server.reset()
    // Both at once (two CLI starts take long on a loaded machine); only the probing one sends to /api.
    const [probed, given] = await Promise.all([
      runCli(['scan', '--all-projects', '--format', 'json'], {env: env()}),
      runCli(['scan', '--all-projects', '--format', 'json', '--api-prefix', '/~api'], {env: env()}),
    ])
    expect(probed.stderr).toBe(`${NOTICE}\n`)
    expect(apiRequests()).toHaveLength(1)
    const report = JSON.parse(probed.stdout)
    expect(report.server).toEqual({url: server.url, apiPrefix: '/~api', version: '16.5.6'})
    expect(report.complete).toBe(true)
    expect(given.stderr).toBe('')
    expect(probed.code).toBe(given.code)
    expect(probed.code).toBe(1)
    const strip = (r: any) => ({...r, generatedAt: null, collectedAt: null})
    expect(strip(report)).toEqual(strip(JSON.parse(given.stdout)))
  }, 60_000)

  it('collect writes /~api into the snapshot', async () => {
    server.reset()
    const output = join(dir, 'snapshot.json')
    const collected = await runCli(['collect', '--all-projects', '--output', output], {env: env()})
    expect(collected.code).toBe(0)
    expect(collected.stderr.split('\n').filter((line) => line.includes('notice'))).toEqual([NOTICE])
    expect(JSON.parse(await readFile(output, 'utf8')).server).toEqual({url: server.url, apiPrefix: '/~api', version: '16.5.6'})
    expect(apiRequests()).toHaveLength(1)
  })

  it('issue-setting pull finds /~api too', async () => {
    server.reset()
    const pulled = await runCli(['issue-setting', 'pull', '--output', join(dir, 'issue-setting.json')], {env: env()})
    expect(pulled.code).toBe(0)
    expect(pulled.stderr.split('\n')[0]).toBe(NOTICE)
    expect(server.requests.map((r) => r.path)).toEqual(['/api/settings/issue', '/~api/settings/issue'])
  })
})

describe('a given prefix is never probed', () => {
  for (const [how, args, extra] of [
    ['--api-prefix /api', ['--api-prefix', '/api'], {}],
    ['ONEDEV_API_PREFIX=/api', [], {ONEDEV_API_PREFIX: '/api'}],
  ] as const) {
    it(`${how} against a /~api server: the wrong-prefix error as before, no request under /~api`, async () => {
      server.reset()
      const result = await runCli(['scan', '--all-projects', '--format', 'json', ...args], {env: env(extra)})
      expect(result.code).toBe(2)
      const paths = server.requests.map((r) => r.path)
      expect(paths).toEqual(expect.arrayContaining(['/api/roles', '/api/projects']))
      expect(paths.filter((path) => !path.startsWith('/api/'))).toEqual([])
      // Both required requests failed the same way: one error line.
      expect(result.stderr.split('\n').filter((line) => line.startsWith('onedev-audit: error:'))).toEqual([
        `onedev-audit: error: GET /api/roles: ${WRONG_PREFIX} (and 15 more requests failed the same way)`,
      ])
      const report = JSON.parse(result.stdout)
      expect(report.server.apiPrefix).toBe('/api')
      // The roles and projects first, then each administration and access endpoint the server data asked for.
      const errorPaths: string[] = report.errors.map((e: any) => e.path)
      expect(errorPaths.slice(0, 2)).toEqual(['/api/roles', '/api/projects'])
      // The version, the agents and agent tokens, the mail service and the service desk (issues 32, 34) among them.
      expect(errorPaths).toHaveLength(16)
      expect(new Set(errorPaths).size).toBe(16)
      expect(errorPaths.every((path) => path.startsWith('/api/'))).toBe(true)
    })
  }
})

describe('a wrong explicit prefix', () => {
  const WRONG = (path: string) =>
    `onedev-audit: error: GET /wrong${path}: the server answered an HTML page (status 404), not JSON; nothing answers like the API under the given prefix "/wrong": ` +
    'current OneDev servers answer under /~api and the contract under /api; leave out --api-prefix and ONEDEV_API_PREFIX and the audit finds it'

  for (const [how, args, extra] of [
    ['--api-prefix /wrong', ['--api-prefix', '/wrong'], {}],
    ['ONEDEV_API_PREFIX=/wrong', [], {ONEDEV_API_PREFIX: '/wrong'}],
  ] as const) {
    it(`${how} on a server that answers HTML there: one error line saying where OneDev answers, exit 2, nothing probed`, async () => {
      server.reset()
      const result = await runCli(['scan', '--all-projects', '--format', 'json', ...args], {env: env(extra)})
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(`${WRONG('/roles')} (and 15 more requests failed the same way)\n`)
      expect(server.requests.every((r) => r.path.startsWith('/wrong/'))).toBe(true)
    })
  }

  it('issue-setting pull with the wrong prefix: the same advice, exit 2', async () => {
    server.reset()
    const result = await runCli(['issue-setting', 'pull', '--output', join(dir, 'wrong.json')], {env: env({ONEDEV_API_PREFIX: '/wrong'})})
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`${WRONG('/settings/issue')}\n`)
  })
})

describe('one error line for a failure every request shares', () => {
  it('neither /api nor /~api answers like the API: exactly one error line naming both, exit 2', async () => {
    // The URL lacks the path OneDev is served under: both prefixes reach its web UI.
    const nested = await startOneDevServer({prefix: '/onedev/~api'})
    try {
      const result = await runCli(['scan', '--all-projects'], {env: {...serverEnv(nested), ONEDEV_API_PREFIX: undefined}})
      expect(result.code).toBe(2)
      const lines = `${result.stdout}${result.stderr}`.split('\n').filter((line) => /\berror\b/.test(line) && !/\d errors?$/.test(line))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(
        "GET /api/roles answered an HTML page (status 404), and GET /~api/roles answered an HTML page (status 404): neither is OneDev's REST interface; check --url",
      )
      expect(nested.requests.map((r) => r.path)).toEqual(['/api/roles', '/~api/roles'])
    } finally {
      await nested.close()
    }
  })

  it('connection refused for every request: one line with the count, on stderr and in the stylish report', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const projects = ['--project', '1', '--project', '2', '--project', '3']
    const base = {...serverEnv(server), ONEDEV_URL: url}

    const [json, stylish] = await Promise.all([
      runCli(['scan', ...projects, '--format', 'json', '--retries', '0'], {env: base}),
      runCli(['scan', ...projects, '--retries', '0'], {env: base}),
    ])
    expect(json.code).toBe(2)
    const report = JSON.parse(json.stdout)
    // The JSON report keeps one entry per failure: the roles first, then each project's requests.
    expect(report.errors[0].path).toBe('/~api/roles')
    expect(new Set(report.errors.map((e: any) => e.project?.id).filter((id: unknown) => id !== undefined))).toEqual(new Set([1, 2, 3]))
    expect(report.errors.every((e: any) => e.kind === 'network' && e.message.endsWith(': connection failed (ECONNREFUSED)'))).toBe(true)
    const more = report.errors.length - 1
    expect(more).toBeGreaterThan(6)
    expect(json.stderr).toBe(`onedev-audit: error: GET /~api/roles: connection failed (ECONNREFUSED) (and ${more} more requests failed the same way)\n`)

    expect(stylish.code).toBe(2)
    expect(stylish.stderr).toBe('')
    expect(stylish.stdout.split('\n').filter((line) => line.startsWith('error'))).toEqual([
      `error  /~api/roles: GET /~api/roles: connection failed (ECONNREFUSED) (and ${more} more requests failed the same way)`,
    ])
    // The summary says first that the audit is incomplete, counting the failures, not the lines they were collapsed into;
    // the three projects asked for could not be read. Never a check mark or "No findings" (issue 26).
    expect(stylish.stdout.trimEnd().split('\n').at(-1)).toBe(
      `✖ Audit incomplete: ${more + 1} errors (listed above). Judged 0 projects (3 more could not be read) and 0 roles (OneDev version unknown): nothing could be judged`,
    )
    expect(report.summary).toMatchObject({complete: false, projects: 0, notRead: 3, findings: 0, errors: more + 1})
  }, 60_000)
})
