/**
 * `onedev-audit fix` against a loopback server that stores what is posted: plan → apply → verify →
 * undo, in both payload generations, with every failure the issue names (conflict, refusal, a server
 * that drops a field, 405, Ctrl-C), and no secret in any plan, undo record or output.
 */
import {spawn} from 'node:child_process'
import {readFile, stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterEach, beforeAll, describe, expect, it} from 'vitest'

import {expectNoCanary} from '../helpers/canaries.js'
import {BIN, ROOT, runCli} from '../helpers/cli.js'
import {EMPTY_ACCESS, fixture, fixtureServerOptions, serverEnv} from '../helpers/fixture-server.js'
import {type OneDevServer, type OneDevServerOptions, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

let dir: string
let servers: OneDevServer[] = []

beforeAll(async () => {
  dir = await tempDir('oda-fix')
})
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

/** The fixture server (acme #1 with acme/app #2 current, legacy/tool #3 legacy, acme/empty #4), with overrides. */
async function start(overrides: OneDevServerOptions = {}): Promise<OneDevServer> {
  const server = await startOneDevServer(fixtureServerOptions({access: EMPTY_ACCESS, admin: {}, ...overrides}))
  servers.push(server)
  return server
}

let fileCount = 0
const file = (name: string) => join(dir, `${++fileCount}-${name}`)

const settingRequests = (server: OneDevServer) => server.requests.filter((r) => /\/projects\/\d+\/setting$/.test(r.path)).map((r) => `${r.method} ${r.path}`)

async function readJson(path: string): Promise<any> {
  return JSON.parse(await readFile(path, 'utf8'))
}

function clean(...texts: string[]): void {
  for (const text of texts) expectNoCanary(text)
}

describe('plan, apply, undo against a current and a legacy project', () => {
  it('plans with GET requests only, applies with exactly GET, POST, GET per changed project, keeps every secret byte for byte, and undoes', async () => {
    const server = await start()
    const plan = file('plan.json')
    const planned = await runCli(['fix', '--all-projects', '--output', plan, '--debug'], {env: serverEnv(server)})
    expect(planned.code, planned.stderr).toBe(1)
    expect(server.requests.every((r) => r.method === 'GET')).toBe(true)
    expect(planned.stdout).toContain('/branchProtections/3/preventDeletion: false -> true')
    expect(planned.stdout).toContain('/branchProtections/1/preventForcedPush: false -> true')
    expect((await stat(plan)).mode & 0o777).toBe(0o600)
    const document = await readJson(plan)
    expect(document.projects.map((p: any) => [p.id, p.generation, p.changes.map((c: any) => c.edits.map((e: any) => [e.op, e.path, e.value]))])).toEqual([
      [3, 'legacy', [[['replace', '/branchProtections/1/preventForcedPush', true]]]],
      [2, 'current', [[['replace', '/branchProtections/3/preventDeletion', true]]]],
    ])
    clean(planned.stdout, planned.stderr, await readFile(plan, 'utf8'))

    const before2 = structuredClone(server.settings[2]) as any
    const before3 = structuredClone(server.settings[3]) as any
    server.reset()
    const undo = file('undo.json')
    const applied = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo, '--debug'], {env: serverEnv(server)})
    expect(applied.code, applied.stderr).toBe(0)
    expect(settingRequests(server)).toEqual([
      'GET /~api/projects/3/setting',
      'POST /~api/projects/3/setting',
      'GET /~api/projects/3/setting',
      'GET /~api/projects/2/setting',
      'POST /~api/projects/2/setting',
      'GET /~api/projects/2/setting',
    ])
    expect(server.requests).toHaveLength(6)
    expect(applied.stdout).toContain('Applied 2 of 2 projects.')
    expect(applied.stderr).toContain(`onedev-audit: undo record ${undo}: 2 projects applied; undo with: onedev-audit fix --undo ${undo} --apply`)

    // Exactly the planned field changed; everything else (secrets, unknown keys, nulls) as it was.
    const expected2 = structuredClone(before2)
    expected2.branchProtections[3].preventDeletion = true
    expect(server.settings[2]).toEqual(expected2)
    const expected3 = structuredClone(before3)
    expected3.branchProtections[1].preventForcedPush = true
    expect(server.settings[3]).toEqual(expected3)
    // The secrets went back as the server sent them, byte for byte, in the body posted.
    const post2 = server.requests.find((r) => r.method === 'POST' && r.path === '/~api/projects/2/setting')!.body
    for (const secret of before2.buildSetting.jobSecrets.map((s: any) => s.value)) expect(post2).toContain(JSON.stringify(secret))
    expect(post2).toContain(JSON.stringify(before2.webHooks[0].secret))
    expect(post2).toContain(JSON.stringify(before2.contributedSettings[0].notifications[0].webhookUrl))
    const record = await readJson(undo)
    expect(record.complete).toBe(true)
    expect(record.projects.map((p: any) => [p.id, p.applied])).toEqual([
      [3, [{op: 'replace', path: '/branchProtections/1/preventForcedPush', old: false, new: true}]],
      [2, [{op: 'replace', path: '/branchProtections/3/preventDeletion', old: false, new: true}]],
    ])
    expect((await stat(undo)).mode & 0o777).toBe(0o600)
    clean(applied.stdout, applied.stderr, await readFile(undo, 'utf8'))

    // The findings are gone: planning again has nothing to change.
    const again = await runCli(['fix', '--all-projects'], {env: serverEnv(server)})
    expect(again.code, again.stdout + again.stderr).toBe(0)
    expect(again.stdout).toContain('Nothing to change')

    server.reset()
    const undone = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', file('undo-of-undo.json')], {env: serverEnv(server)})
    expect(undone.code, undone.stderr).toBe(0)
    expect(server.settings[2]).toEqual(before2)
    expect(server.settings[3]).toEqual(before3)
    expect(server.requests).toHaveLength(6)
    clean(undone.stdout, undone.stderr)
  }, 60_000)
})
