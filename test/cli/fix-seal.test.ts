/**
 * Issue 25, the hole it left: sealed undo records. `fix --apply` seals each version of its undo record
 * with the user's undo key; `fix --undo --apply` trusts a record's account of what the apply changed
 * only when its seal verifies with that key, and from any other record sends no restore that brings
 * back a finding or weakens anything. Against a loopback server that stores what is posted; the
 * forged records come from the shared corpus (test/helpers/hostile.ts, WRITE PATH).
 */
import {execFileSync} from 'node:child_process'
import {chmod, chown, copyFile, mkdir, readFile, rm, stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {sealed, UndoKey} from '../../src/fix/seal.js'
import {expectNoCanary} from '../helpers/canaries.js'
import {runCli} from '../helpers/cli.js'
import {fixCliSetup, readJson, testUndoKey} from '../helpers/fix-cli.js'
import {EMPTY_SETTING, FIXTURE_PROJECTS, FIXTURE_REPOSITORIES, fixture, fixtureServerOptions, PARENT_SETTING, serverEnv} from '../helpers/fixture-server.js'
import {WRITE_PATH} from '../helpers/hostile.js'
import type {OneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

const {start, file} = fixCliSetup('oda-fix-seal')
const posts = (server: OneDevServer) => server.requests.filter((r) => r.method === 'POST').map((r) => r.path)
type Env = Record<string, string | undefined>

const DELETION = ['--project', '2', '--rule', 'branch-protection/deletion-allowed']
const PREVENT_DELETION = '/branchProtections/3/preventDeletion'

/** Applies the deletion fix of acme/app (#2) (`env`: more of the environment): its undo record, and the setting after. */
async function applyDeletionFix(server: OneDevServer, env: Env = {}): Promise<{undo: string; record: any; after: any; stderr: string}> {
  const undo = file('undo.json')
  const result = await runCli(['fix', ...DELETION, '--apply', '--undo-output', undo], {env: {...serverEnv(server), ...env}})
  expect(result.code, result.stdout + result.stderr).toBe(0)
  const record = await readJson(undo)
  expect(record.projects[0].applied).toEqual([{op: 'replace', path: PREVENT_DELETION, old: false, new: true}])
  server.reset()
  return {undo, record, after: structuredClone(server.settings[2]), stderr: result.stderr}
}

/** `fix --undo RECORD --apply` with the record written to a file of its own (`extra`: more flags). */
async function undoWith(server: OneDevServer, record: unknown, extra: string[] = [], env: Env = {}) {
  const path = file('edited-undo.json')
  await writeFile(path, JSON.stringify(record, null, 2))
  const undo2 = file('undo2.json')
  const result = await runCli(['fix', '--undo', path, '--apply', '--undo-output', undo2, ...extra], {env: {...serverEnv(server), ...env}})
  return {...result, path, undo2}
}

/** The record with acme/app's applied and restore lists rewritten to the attack: Prevent Forced Push "back" off where a person switched it on. */
function forged(record: any): any {
  const copy = structuredClone(record)
  const attack = WRITE_PATH.forcedPushSwitchedOff(3)
  copy.projects[0].applied = [attack.applied]
  copy.projects[0].restore = [attack.restore]
  return copy
}

/** The record as an onedev-audit older than sealed records wrote it: format 1, no seal. */
function older(record: any): any {
  const {seal: _seal, ...rest} = record
  return {...rest, undoVersion: 1}
}

const UNSEALED_TAIL = "and the undo record is not sealed by this user's key (a restore that reopens a finding or weakens anything needs a record this tool wrote, or the key that sealed it); set it by hand in Project Settings if that is really wanted"
const FORCE_PUSH_BY_HAND = `by hand: /branchProtections/3/preventForcedPush: not restored: it weakens what applies (Branch "master" (everyone else, group(release-bots)): force push prevented -> allowed.), ${UNSEALED_TAIL}`
const DELETION_BY_HAND = `by hand: ${PREVENT_DELETION}: not restored: it weakens what applies (Branch "master" (everyone else, group(release-bots)): deletion prevented -> allowed.), ${UNSEALED_TAIL}`
const EVERY_RESTORE_BY_HAND = 'BY HAND         acme/app (#2): every restore is left to a person; nothing was sent'

describe("the hole: an undo record's applied and restore lists rewritten together", () => {
  const ways: Array<[string, (record: any) => any, RegExp]> = [
    ['its seal kept as it was', (record) => forged(record), /does not verify with this user's undo key \([0-9a-f]{16}\): it was changed after onedev-audit sealed it/],
    ['its seal removed', (record) => {
      const {seal: _seal, ...rest} = forged(record)
      return rest
    }, /is not sealed: its seal was removed/],
    ['written as a record of an older onedev-audit (format 1, no seal)', (record) => older(forged(record)), /is not sealed: an onedev-audit older than sealed undo records wrote it/],
    ['sealed with the key of whoever forged it', (record) => sealed(forged(record), new UndoKey(WRITE_PATH.otherUndoKey, 'theirs')), /is sealed with another key \([0-9a-f]{16}\), not this user's undo key \([0-9a-f]{16}, .+\)/],
    ['sealed with their key, naming this user\'s key id', async (record) => {
      const resealed = sealed(forged(record), new UndoKey(WRITE_PATH.otherUndoKey, 'theirs'))
      return {...resealed, seal: {...resealed.seal, keyId: (await testUndoKey()).id}}
    }, /does not verify with this user's undo key/],
  ]

  for (const [how, forge, said] of ways) {
    it(`${how}: the restore that switches Prevent Forced Push off is never sent, it is listed by hand, exit 2`, async () => {
      const server = await start()
      const {record, after} = await applyDeletionFix(server)
      expect((after as any).branchProtections[3].preventForcedPush).toBe(true)
      const result = await undoWith(server, await forge(record))
      expect(result.code, result.stdout + result.stderr).toBe(2)
      expect(result.stderr).toMatch(said)
      expect(result.stderr).toContain('--apply sends only its restores that bring back no finding and weaken nothing, and lists the others by hand')
      expect(result.stdout).toContain(`${EVERY_RESTORE_BY_HAND}\n                  ${FORCE_PUSH_BY_HAND}\n`)
      expect(posts(server)).toEqual([])
      expect(server.settings[2]).toEqual(after)
    }, 60_000)
  }
})

describe('a record edited after it was sealed', () => {
  // The restore's expectation and the project id are edits the judgement of the restores alone accepts
  // (the record of another project is undone there): only the seal refuses them.
  const edits: Array<[string, (record: any) => void]> = [
    ['a byte of an applied edit (its new value written as 1 instead of true)', (record) => (record.projects[0].applied[0].new = 1)],
    ['a byte of a restore (an expectation it already meets, added)', (record) => record.projects[0].restore[0].expect.push({path: PREVENT_DELETION, value: true})],
  ]

  for (const [what, edit] of edits) {
    it(`${what}: does not verify; the restore that brings back a finding is listed by hand, nothing sent, exit 2`, async () => {
      const server = await start()
      const {record, after} = await applyDeletionFix(server)
      edit(record)
      const result = await undoWith(server, record)
      expect(result.code, result.stdout + result.stderr).toBe(2)
      expect(result.stderr).toMatch(/edited-undo\.json does not verify with this user's undo key \([0-9a-f]{16}\): it was changed after onedev-audit sealed it/)
      expect(result.stdout).toContain(`${EVERY_RESTORE_BY_HAND}\n                  ${DELETION_BY_HAND}\n`)
      expect(posts(server)).toEqual([])
      expect(server.settings[2]).toEqual(after)
    }, 60_000)
  }

  it("a project id: the record of acme/app pointed at acme/app2, whose deletion a person prevented by hand, switches nothing off there", async () => {
    const setting = fixture('current/setting-full.json')
    const server = await start({
      projects: [...FIXTURE_PROJECTS, {id: 5, path: 'acme/app2', name: 'app2', parentId: 1}],
      settings: {...fixtureServerOptions().settings, 5: {...structuredClone(setting), branchProtections: setting.branchProtections.map((p: any, i: number) => (i === 3 ? {...p, preventDeletion: true} : p))}},
      repositories: {...FIXTURE_REPOSITORIES, 5: FIXTURE_REPOSITORIES[2]},
    })
    const {record} = await applyDeletionFix(server)
    const before = structuredClone(server.settings[5])
    record.projects[0].id = 5
    record.projects[0].path = 'acme/app2'
    record.projects[0].judged = [5]
    const result = await undoWith(server, record)
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stderr).toMatch(/does not verify with this user's undo key/)
    expect(result.stdout).toContain(`BY HAND         acme/app2 (#5): every restore is left to a person; nothing was sent\n                  ${DELETION_BY_HAND}\n`)
    expect(posts(server)).toEqual([])
    expect(server.settings[5]).toEqual(before)
  }, 60_000)
})


describe('what an unsealed record is judged on', () => {
  it("the projects below its projects, read from the server's listing (its judged list may have been cut): a restore that weakens only a child's branch is listed by hand", async () => {
    // acme (#1) protects main (its own default branch) and develop, which only its child acme/kid (#5) has.
    const parent = structuredClone(PARENT_SETTING) as any
    parent.branchProtections.push({...structuredClone(parent.branchProtections[0]), branches: 'develop'})
    const server = await start({
      projects: [{id: 1, path: 'acme', name: 'acme', parentId: null}, {id: 5, path: 'acme/kid', name: 'kid', parentId: 1}],
      settings: {1: parent, 5: structuredClone(EMPTY_SETTING)},
      repositories: {1: {defaultBranch: 'main', branches: ['main'], tags: []}, 5: {defaultBranch: 'develop', branches: ['develop'], tags: []}},
    })
    const before = structuredClone(server.settings[1])
    const attack = WRITE_PATH.forcedPushSwitchedOff(1)
    // As an older onedev-audit wrote records: no seal, and no judged list (the project alone, it said).
    const record = {
      undoVersion: 1,
      tool: {name: 'onedev-audit', version: '0.1.0'},
      server: {url: server.url, apiPrefix: server.prefix},
      appliedAt: '2026-11-01T10:00:00.000Z',
      plan: null,
      complete: true,
      projects: [{id: 1, path: 'acme', state: 'verified', applied: [attack.applied], restore: [attack.restore]}],
    }
    const result = await undoWith(server, record)
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stdout).toContain('BY HAND         acme (#1): every restore is left to a person; nothing was sent\n                  by hand: /branchProtections/1/preventForcedPush: not restored: it weakens what applies (Branch "develop" (everyone else): force push prevented')
    expect(server.requests.some((r) => r.method === 'GET' && r.path === '/~api/projects/5/setting')).toBe(true)
    expect(posts(server)).toEqual([])
    expect(server.settings[1]).toEqual(before)
  }, 60_000)
})

describe('records this tool wrote', () => {
  it('a sealed record is undone fully, and the record the undo writes is sealed too', async () => {
    const server = await start()
    const before = structuredClone(server.settings[2])
    const {undo} = await applyDeletionFix(server)
    const key = await testUndoKey()
    const undo2 = file('undo2.json')
    const result = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', undo2], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stderr).toContain(`onedev-audit: ${undo} is sealed by this user's undo key (${key.id}): its restores are judged as those of a record this tool wrote\n`)
    expect(server.settings[2]).toEqual(before)
    const again = await runCli(['fix', '--undo', undo2], {env: serverEnv(server)})
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/is sealed by this user's undo key/)
  }, 60_000)

  /** The record of undoing the deletion fix: its restores make the fix again (they weaken nothing). */
  async function undoneRecord(server: OneDevServer): Promise<any> {
    const {undo} = await applyDeletionFix(server)
    const undo2 = file('undo2.json')
    const result = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', undo2], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect((server.settings[2] as any).branchProtections[3].preventDeletion).toBe(false)
    server.reset()
    return readJson(undo2)
  }

  it('an unsealed record (of an older onedev-audit) whose restores weaken nothing is applied, and says it is not sealed', async () => {
    const server = await start()
    const record = older(await undoneRecord(server))
    const result = await undoWith(server, record)
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stderr).toContain(`onedev-audit: ${result.path} is not sealed: an onedev-audit older than sealed undo records wrote it: --apply sends only its restores that bring back no finding and weaken nothing, and lists the others by hand\n`)
    expect(result.stdout).toContain('applied         acme/app (#2): applied and verified: 1 edit')
    expect((server.settings[2] as any).branchProtections[3].preventDeletion).toBe(true)
  }, 60_000)

  it("an unsealed record with the attack added: the project's restores that weaken nothing are applied, the attack's is listed by hand, exit 2", async () => {
    const server = await start()
    const record = older(await undoneRecord(server))
    const attack = WRITE_PATH.forcedPushSwitchedOff(3)
    record.projects[0].applied.push(attack.applied)
    record.projects[0].restore.unshift(attack.restore)
    const result = await undoWith(server, record)
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stdout).toContain(`  applied         acme/app (#2): applied and verified: 1 edit\n                  ${FORCE_PUSH_BY_HAND}\n`)
    const protection = (server.settings[2] as any).branchProtections[3]
    expect([protection.preventForcedPush, protection.preventDeletion]).toEqual([true, true])
    // The record of this undo names only what was sent.
    expect((await readJson(result.undo2)).projects[0].applied.map((e: any) => e.path)).toEqual([PREVENT_DELETION])
  }, 60_000)
})

describe('the undo key', () => {
  /** A home folder of its own (another user, another machine): no XDG_CONFIG_HOME, HOME there. */
  async function home(): Promise<{dir: string; env: Env}> {
    const dir = join(await tempDir('oda-home'), 'home')
    await mkdir(dir, {mode: 0o700})
    return {dir, env: {HOME: dir, XDG_CONFIG_HOME: undefined}}
  }

  it('is made on first use in ~/.config/onedev-audit (32 bytes, mode 0600, in a folder of mode 0700), and used from then on', async () => {
    const server = await start()
    const {dir, env} = await home()
    const {stderr, record} = await applyDeletionFix(server, env)
    const path = join(dir, '.config', 'onedev-audit', 'undo-key')
    expect(stderr).toContain(`onedev-audit: made your undo key ${path} (32 random bytes that only you can read): it seals the undo records fix --apply writes; to undo on another machine, copy it there and name it with --undo-key\n`)
    expect((await readFile(path)).length).toBe(32)
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect((await stat(join(dir, '.config', 'onedev-audit'))).mode & 0o777).toBe(0o700)
    const second = await undoWith(server, record, [], env)
    expect(second.code, second.stdout + second.stderr).toBe(0)
    expect(second.stderr).not.toContain('made your undo key')
  }, 60_000)

  it('undoing on another machine (another home): refused by hand without the key of the user who applied; with --undo-key or ONEDEV_UNDO_KEY_FILE naming a copy of it, verified and undone', async () => {
    const server = await start()
    const before = structuredClone(server.settings[2])
    const applier = await home()
    const {record, after} = await applyDeletionFix(server, applier.env)
    const other = await home()

    const own = await undoWith(server, record, [], other.env)
    expect(own.code, own.stdout + own.stderr).toBe(2)
    expect(own.stderr).toMatch(/is sealed with another key \([0-9a-f]{16}\), not this user's undo key/)
    expect(own.stdout).toContain(`${EVERY_RESTORE_BY_HAND}\n                  ${DELETION_BY_HAND}\n`)
    expect(server.settings[2]).toEqual(after)

    // The key copied over: a file of the other user's, mode 0600, in a folder only they can write.
    const keys = join(other.dir, 'keys')
    await mkdir(keys, {mode: 0o700})
    const copy = join(keys, 'applier-undo-key')
    await copyFile(join(applier.dir, '.config', 'onedev-audit', 'undo-key'), copy)
    await chmod(copy, 0o600)
    const reviewed = await runCli(['fix', '--undo', own.path], {env: {...serverEnv(server), ...other.env, ONEDEV_UNDO_KEY_FILE: copy}})
    expect(reviewed.stderr).toMatch(/is sealed by this user's undo key/)
    const named = await undoWith(server, record, ['--undo-key', copy], other.env)
    expect(named.code, named.stdout + named.stderr).toBe(0)
    expect(named.stderr).toMatch(/is sealed by this user's undo key \([0-9a-f]{16}\)/)
    expect(server.settings[2]).toEqual(before)
  }, 60_000)

  const loose: Array<[string, (key: string, folder: string) => Promise<string[]>, (key: string, folder: string) => string]> = [
    ['a key others can read', async (key) => (await chmod(key, 0o644), []), (key) => `the undo key ${key} can be read or written by others (mode 0644): make it yours alone (chmod 600), or make a new key if others may have read it`],
    ['a key folder others can list', async (_key, folder) => (await chmod(folder, 0o755), []), (_key, folder) => `${folder}, the folder of your undo key, can be read or written by others (mode 0755): make it yours alone (chmod 700)`],
    ['a key folder others can write', async (_key, folder) => (await chmod(folder, 0o777), []), (_key, folder) => `${folder}, the folder of your undo key, can be read or written by others (mode 0777): make it yours alone (chmod 700)`],
    [
      'a named key in a shared temporary folder',
      async (key, folder) => {
        const shared = join(folder, '..', 'shared')
        await mkdir(shared)
        await chmod(shared, 0o1777)
        await copyFile(key, join(shared, 'undo-key'))
        return ['--undo-key', join(shared, 'undo-key')]
      },
      (_key, folder) => `${join(folder, '..', 'shared')}, a folder of the undo key, can be written by others (mode 1777): keep the key in a folder only you can write, never in a shared temporary folder`,
    ],
    ['a named key that is too short', async (_key, folder) => (await writeFile(join(folder, 'short'), 'CANARY-short-7f3a', {mode: 0o600}), ['--undo-key', join(folder, 'short')]), (_key, folder) => `the undo key ${join(folder, 'short')} has 17 bytes: an undo key has at least 32`],
    ['a named key that is not there', async (_key, folder) => ['--undo-key', join(folder, 'nope')], (_key, folder) => `the undo key ${join(folder, 'nope')}: no such file (--undo-key or ONEDEV_UNDO_KEY_FILE names the key file of the user who applied; leave it out to use your own)`],
    // Issue 33: opened before it was checked, a named pipe blocked the run for ever.
    [
      'a named key that is a named pipe (FIFO)',
      async (_key, folder) => (execFileSync('mkfifo', ['-m', '600', join(folder, 'pipe')]), ['--undo-key', join(folder, 'pipe')]),
      (_key, folder) => `the undo key ${join(folder, 'pipe')} is not a file but a named pipe (FIFO): an undo key is a regular file`,
    ],
    ['your own key replaced by a named pipe (FIFO)', async (key) => (await rm(key), execFileSync('mkfifo', ['-m', '600', key]), []), (key) => `the undo key ${key} is not a file but a named pipe (FIFO): an undo key is a regular file`],
  ]
  if (process.getuid?.() === 0) {
    loose.push(['a key of another user', async (key) => (await chown(key, 65534, 65534), []), (key) => `the undo key ${key} belongs to another user (uid 65534): use a key file of your own`])
  }

  for (const [what, loosen, message] of loose) {
    it(`${what}: refused in one line, exit 2, before any request; nothing is written`, async () => {
      const server = await start()
      const {dir, env} = await home()
      const {undo} = await applyDeletionFix(server, env)
      const folder = join(dir, '.config', 'onedev-audit')
      const key = join(folder, 'undo-key')
      const extra = await loosen(key, folder)
      const outputs = [file('undo2.json'), file('undo3.json')]
      for (const args of [['fix', '--project', '2', '--apply', '--undo-output', outputs[0]!], ['fix', '--undo', undo, '--apply', '--undo-output', outputs[1]!], ['fix', '--undo', undo]]) {
        const result = await runCli([...args, ...extra], {env: {...serverEnv(server), ...env}, timeoutMs: 20_000})
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2)
        expect(result.stderr).toBe(`onedev-audit: error: ${message(key, folder)}\n`)
        expect(result.stdout).toBe('')
      }
      expect(server.requests).toEqual([])
      for (const output of outputs) await expect(stat(output)).rejects.toThrow(/ENOENT/)
    }, 60_000)
  }

  it('never appears in any output: stdout, stderr (--debug), the plan, the undo records', async () => {
    const server = await start()
    const {dir, env} = await home()
    const plan = file('plan.json')
    const planned = await runCli(['fix', '--all-projects', '--output', plan, '--debug'], {env: {...serverEnv(server), ...env}})
    const undo = file('undo.json')
    const applied = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo, '--debug'], {env: {...serverEnv(server), ...env}})
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    const reviewed = await runCli(['fix', '--undo', undo, '--debug'], {env: {...serverEnv(server), ...env}})
    const undo2 = file('undo2.json')
    const undone = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', undo2, '--debug'], {env: {...serverEnv(server), ...env}})
    expect(undone.code, undone.stdout + undone.stderr).toBe(0)
    const key = await readFile(join(dir, '.config', 'onedev-audit', 'undo-key'))
    const outputs = [planned, applied, reviewed, undone].flatMap((r) => [r.stdout, r.stderr])
    const files = await Promise.all([plan, undo, undo2].map((path) => readFile(path)))
    const forms = [key.toString('hex'), key.toString('base64'), key.toString('base64url'), key.toString('base64').replace(/=+$/, ''), key.toString('latin1')]
    for (const text of [...outputs, ...files.map((bytes) => bytes.toString('utf8'))]) {
      for (const form of forms) expect(text.toLowerCase()).not.toContain(form.toLowerCase())
      // Any 8 bytes of it, in hexadecimal.
      for (let at = 0; at + 8 <= key.length; at++) expect(text.toLowerCase()).not.toContain(key.subarray(at, at + 8).toString('hex'))
    }
    for (const bytes of files) expect(bytes.indexOf(key)).toBe(-1)
    expect(applied.stderr).toContain('made your undo key')
    expectNoCanary(outputs.join('\n'))
  }, 60_000)
})
