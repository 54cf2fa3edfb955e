/**
 * The product's promise: no secret from the server, and not the credentials, in any output of any
 * command in any format, in any snapshot file or error message, even with --debug. The fixtures hold a
 * distinct canary in every secret place (test/helpers/canaries.ts).
 */
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {CANARIES, expectNoCanary} from '../helpers/canaries.js'
import {collectToFileAndFolder, runCli} from '../helpers/cli.js'
import {serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import type {OneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

let server: OneDevServer
let dir: string

beforeAll(async () => {
  server = await startFixtureServer()
  dir = await tempDir('oda-secrets')
})
afterAll(async () => {
  await server.close()
})

function expectClean(text: string): void {
  expectNoCanary(text)
  expect(text).not.toContain(server.secret)
}

describe('no secret in any output', () => {
  it('the fixtures really hold canaries in every secret place', () => {
    expect(CANARIES.length).toBeGreaterThanOrEqual(15)
  })

  for (const format of ['stylish', 'json', 'sarif', 'markdown', 'html', 'junit', 'oscal']) {
    it(`scan --format ${format} --debug`, async () => {
      const result = await runCli(['scan', '--all-projects', '--format', format, '--debug'], {env: serverEnv(server)})
      expect(result.code).toBe(1)
      expectClean(result.stdout)
      expectClean(result.stderr)
    })
  }

  // Ten CLI runs one after the other (with the server data): far more than the default timeout on a busy 2-core machine.
  it('collect --output and --output-dir, then scan --snapshot of each, in every format', async () => {
    const file = join(dir, 'snapshot.json')
    const folder = join(dir, 'snapshot-dir')
    const {printed, written} = await collectToFileAndFolder(serverEnv(server), file, folder)
    expectClean(printed)
    for (const text of written) expectClean(text)
    for (const snapshot of [file, folder]) {
      // checkstyle names the files of a folder: a single-file snapshot has none.
      for (const format of ['stylish', 'json', 'sarif', 'markdown', 'html', 'junit', 'oscal', ...(snapshot === folder ? ['checkstyle'] : [])]) {
        const result = await runCli(['scan', '--snapshot', snapshot, '--format', format, '--debug'])
        expect(result.code).toBe(1)
        expectClean(result.stdout + result.stderr)
      }
    }
  }, 300_000)

  it('error messages: a server that echoes the secret and the payload in its error text', async () => {
    server.override('GET /projects/2/setting', {status: 500, text: `failed for ${server.secret}: CANARY-jobsecret-npm-token-7f3a`})
    try {
      const result = await runCli(['scan', '--all-projects', '--format', 'json', '--debug'], {env: serverEnv(server)})
      expect(result.code).toBe(2)
      expect(result.stdout + result.stderr).not.toContain(server.secret)
    } finally {
      server.reset()
    }
  })
})
