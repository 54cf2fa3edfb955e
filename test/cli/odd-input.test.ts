/**
 * Resources and odd input (issue 25), as a user meets them: a server paging without end, numbers,
 * keys and charsets a round trip through JavaScript would change, values nested deeper than any
 * setting, output files that cannot be written, and symbolic links inside an output folder. Each
 * ends in a one-line error naming what and where, exit 2, and the report of what was collected.
 */
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterEach, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {EMPTY_ACCESS, fixtureServerOptions, serverEnv} from '../helpers/fixture-server.js'
import {endlessRolesPage} from '../helpers/hostile.js'
import {type OneDevServer, type OneDevServerOptions, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

let dir: string
let servers: OneDevServer[] = []

beforeAll(async () => {
  dir = await tempDir('oda-odd')
})
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

async function start(overrides: OneDevServerOptions = {}): Promise<OneDevServer> {
  const server = await startOneDevServer(fixtureServerOptions({access: EMPTY_ACCESS, admin: {}, ...overrides}))
  servers.push(server)
  return server
}

let fileCount = 0
const file = (name: string) => join(dir, `${++fileCount}-${name}`)

describe('a listing without end', () => {
  it('endless distinct pages of roles (600 KB each) stop at the byte bound with one line naming the listing; the report holds the projects', async () => {
    const server = await start()
    server.setHandler('GET /roles', (request, response) => {
      const url = new URL(request.url ?? '', 'http://x')
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(endlessRolesPage(Number(url.searchParams.get('offset')), Number(url.searchParams.get('count'))))
    })
    const report = file('report.json')
    const result = await runCli(['scan', '--all-projects', '--max-listing-mb', '3', '--format', 'json', '--output', report], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(2)
    const roleErrors = result.stderr.split('\n').filter((line) => line.includes('/roles'))
    expect(roleErrors).toEqual([
      'onedev-audit: error: GET /~api/roles: stopped paging at offset 500: the listings of this run passed 3 MiB (--max-listing-mb), which bounds the memory they take; a server paging without end, or raise the limit',
    ])
    expect(result.stderr).not.toContain('    at ')
    expect(server.requests.filter((r) => r.path === '/~api/roles')).toHaveLength(6)
    const document = JSON.parse(await readFile(report, 'utf8'))
    expect(document.errors.map((e: any) => e.kind)).toContain('paging')
    expect(document.findings.some((f: any) => f.project?.path === 'acme/app')).toBe(true)
  }, 60_000)

  it('each listing past --max-listing-items (projects, roles) stops with its own error in the report', async () => {
    const server = await start()
    const report = file('report.json')
    const result = await runCli(['scan', '--all-projects', '--max-listing-items', '3', '--format', 'json', '--output', report, '--fail-on', 'none'], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(2)
    const document = JSON.parse(await readFile(report, 'utf8'))
    expect(document.errors.filter((e: any) => e.kind === 'paging').map((e: any) => e.message).sort()).toEqual([
      'GET /~api/projects: stopped paging at offset 0: the listing passed 3 items (--max-listing-items); a server paging without end, or raise the limit',
      'GET /~api/roles: stopped paging at offset 0: the listing passed 3 items (--max-listing-items); a server paging without end, or raise the limit',
    ])
  }, 60_000)
})
