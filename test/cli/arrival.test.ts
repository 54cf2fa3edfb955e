/**
 * Judged on arrival (issue 12): a live scan judges each project as soon as it and its ancestors are
 * in and drops its payload, and reports exactly what a scan of the snapshot of the same server does.
 */
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {fixture, fixtureServerOptions, serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

let server: OneDevServer
let dir: string

beforeAll(async () => {
  server = await startFixtureServer()
  dir = await tempDir('oda-arrival')
})
afterAll(async () => {
  await server.close()
})

describe('a live scan judges projects on arrival', () => {
  it('drops every payload and reports what the snapshot of the same server reports, for both payload generations', async () => {
    const env = serverEnv(server)
    const snapshot = join(dir, 'snapshot.json')
    expect((await runCli(['collect', '--all-projects', '--output', snapshot], {env})).code).toBe(0)
    for (const format of ['sarif', 'json']) {
      const live = await runCli(['scan', '--all-projects', '--format', format, '--debug'], {env})
      const offline = await runCli(['scan', '--snapshot', snapshot, '--format', format], {env: {}})
      expect(live.code).toBe(1)
      expect(offline.code).toBe(1)
      // acme, acme/app (current), acme/empty and legacy/tool (legacy) judged before the end; every payload dropped.
      expect(live.stderr).toContain('judged 4 projects on arrival, released 4 payloads')
      const [a, b] = [JSON.parse(live.stdout), JSON.parse(offline.stdout)]
      if (format === 'sarif') {
        expect(a.runs[0].results.length).toBeGreaterThan(20)
        // Fingerprints, messages and every location (file, line, fully qualified name) the same.
        expect(a.runs[0].results).toEqual(b.runs[0].results)
      } else {
        expect(a.findings).toEqual(b.findings)
        expect(a.summary).toEqual(b.summary)
        expect(a.errors).toEqual(b.errors)
      }
    }
  })

  it('waits for the last project on servers whose users listing has no ids (users are resolved as projects name them), with the same findings', async () => {
    const access = fixture('access/access.json')
    const byId = Object.fromEntries(access.users.map((u: any) => [u.id, {...u, id: undefined}]))
    const old = await startOneDevServer(fixtureServerOptions({access: {...access, users: access.users.map(({id, ...rest}: any) => rest), usersById: byId}}))
    try {
      const env = serverEnv(old)
      const snapshot = join(dir, 'no-ids.json')
      expect((await runCli(['collect', '--all-projects', '--output', snapshot], {env})).code).toBe(0)
      const live = await runCli(['scan', '--all-projects', '--format', 'json', '--debug'], {env})
      const offline = await runCli(['scan', '--snapshot', snapshot, '--format', 'json'], {env: {}})
      expect(live.stderr).toContain('judged 0 projects on arrival, released 0 payloads')
      expect(JSON.parse(live.stdout).findings).toEqual(JSON.parse(offline.stdout).findings)
    } finally {
      await old.close()
    }
  })
})
