/**
 * What the `fix` command-line tests share: the fixture server of a test (closed after it), numbered
 * files in the test file's temporary folder, and the requests of project settings a run made.
 */
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterEach, beforeAll} from 'vitest'

import {UndoKey} from '../../src/fix/seal.js'
import {testConfigHome} from './cli.js'

import {EMPTY_ACCESS, fixtureServerOptions} from './fixture-server.js'
import {type OneDevServer, type OneDevServerOptions, startOneDevServer} from './onedev-server.js'
import {tempDir} from './temp-dir.js'

/**
 * Registers the hooks of a test file: `start` serves the fixtures (acme #1 with acme/app #2 current,
 * legacy/tool #3 legacy, acme/empty #4, no access grants), with overrides; `file` names a new file.
 */
export function fixCliSetup(prefix: string): {start: (overrides?: OneDevServerOptions) => Promise<OneDevServer>; file: (name: string) => string} {
  let dir = ''
  let servers: OneDevServer[] = []
  let count = 0
  beforeAll(async () => {
    dir = await tempDir(prefix)
  })
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()))
    servers = []
  })
  return {
    async start(overrides = {}) {
      const server = await startOneDevServer(fixtureServerOptions({access: EMPTY_ACCESS, admin: {}, ...overrides}))
      servers.push(server)
      return server
    },
    file: (name) => join(dir, `${++count}-${name}`),
  }
}

/** `METHOD path` of each request of a project's setting, in order. */
export const settingRequests = (server: OneDevServer): string[] => server.requests.filter((r) => /\/projects\/\d+\/setting$/.test(r.path)).map((r) => `${r.method} ${r.path}`)

/** The fixture plan applied: GET, POST, GET of legacy/tool (#3), then of acme/app (#2). */
export const FIXTURE_APPLY_REQUESTS = [3, 2].flatMap((id) => ['GET', 'POST', 'GET'].map((method) => `${method} /~api/projects/${id}/setting`))

/** A project applied, verified, and rolled back: GET, POST, GET, then the rollback's POST and read-back. */
export const rolledBackRequests = (id: number): string[] => ['GET', 'POST', 'GET', 'POST', 'GET'].map((method) => `${method} /~api/projects/${id}/setting`)

export async function readJson(path: string): Promise<any> {
  return JSON.parse(await readFile(path, 'utf8'))
}

/** The undo key `fix --apply` made for the CLI runs of this test file (in its own configuration folder, testConfigHome). */
export async function testUndoKey(): Promise<UndoKey> {
  const path = join(await testConfigHome(), 'onedev-audit', 'undo-key')
  return new UndoKey(await readFile(path), path)
}
