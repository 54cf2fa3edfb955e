/**
 * Issue 25, the write path: `fix --apply` against a loopback server that stores what is posted, with
 * plans and undo records edited by hand after review (each edit satisfying its own expectations), and a
 * colleague or the server changing the setting between our POST and its read-back. Whoever edits a
 * file gains nothing; a rollback touches only the fields the fix edited. The hostile values come from
 * the shared corpus (test/helpers/hostile.ts).
 */
import {readFile, writeFile} from 'node:fs/promises'

import {describe, expect, it} from 'vitest'

import {sealed} from '../../src/fix/seal.js'
import {expectNoCanary} from '../helpers/canaries.js'
import {runCli} from '../helpers/cli.js'
import {fixCliSetup, readJson, rolledBackRequests, settingRequests, testUndoKey} from '../helpers/fix-cli.js'
import {fixture, fixtureServerOptions, PARENT_SETTING, serverEnv} from '../helpers/fixture-server.js'
import {WRITE_PATH} from '../helpers/hostile.js'
import type {OneDevServer} from '../helpers/onedev-server.js'

const {start, file} = fixCliSetup('oda-fix-trust')
const posts = (server: OneDevServer) => server.requests.filter((r) => r.method === 'POST').map((r) => r.path)

/** A plan of the live server written to a file (`extra`: more flags); the request log cleared after. */
async function planFile(server: OneDevServer, extra: string[] = ['--all-projects']): Promise<{path: string; document: any}> {
  const path = file('plan.json')
  const result = await runCli(['fix', ...extra, '--output', path], {env: serverEnv(server)})
  expect(result.code, result.stdout + result.stderr).toBe(1)
  server.reset()
  return {path, document: await readJson(path)}
}

/** The plan document written back, edited: what someone with write access to the file between review and apply does. */
async function edited(document: any, edit: (document: any) => void): Promise<string> {
  const copy = structuredClone(document)
  edit(copy)
  const path = file('edited-plan.json')
  await writeFile(path, JSON.stringify(copy, null, 2))
  return path
}

const change = (document: any, id: number, index = 0) => document.projects.find((p: any) => p.id === id).changes[index]

describe('a plan is an approval list, not a program', () => {
  it('a web hook pointed at another host, added by hand to a reviewed change (its expectation met), is refused by its path; nothing of that project is sent; the others are applied', async () => {
    const server = await start()
    const {document} = await planFile(server)
    const before = structuredClone(server.settings[2])
    const plan = await edited(document, (d) => change(d, 2).edits.push(WRITE_PATH.webHookElsewhere(0, 'http://ci.internal/hook')))
    const undo = file('undo.json')
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('REJECTED        acme/app (#2): not what onedev-audit plans now from the live setting: /webHooks/0/postUrl: an edit onedev-audit does not plan; nothing was sent')
    expect(result.stdout).toContain('applied         legacy/tool (#3): applied and verified: 1 edit')
    expect(posts(server)).toEqual(['/~api/projects/3/setting'])
    expect(server.settings[2]).toEqual(before)
    expect((await readJson(undo)).projects.map((p: any) => p.id)).toEqual([3])
    expectNoCanary(result.stdout + result.stderr)
  }, 60_000)

  it('the same edit as a change of its own (its rule, description and findings copied from another) is refused by its path', async () => {
    const server = await start()
    const {document} = await planFile(server)
    const before = structuredClone(server.settings[2])
    const plan = await edited(document, (d) => {
      const project = d.projects.find((p: any) => p.id === 2)
      project.changes.push({...structuredClone(project.changes[0]), description: 'Keep the CI hook', edits: [WRITE_PATH.webHookElsewhere(0, 'http://ci.internal/hook')]})
    })
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('REJECTED        acme/app (#2): not what onedev-audit plans now from the live setting: /webHooks/0/postUrl: onedev-audit plans no change of branch-protection/deletion-allowed like the plan\'s "Keep the CI hook" now; nothing was sent')
    expect(posts(server)).toEqual(['/~api/projects/3/setting'])
    expect(server.settings[2]).toEqual(before)
  }, 60_000)

  it('a protection switched off inside the force-push change (the new "unprotected" finding is not the cleared one) is refused by its path; nothing of that project is sent', async () => {
    const server = await start()
    const {document} = await planFile(server)
    const before = structuredClone(server.settings[3])
    expect(change(document, 3).edits.map((e: any) => e.path)).toEqual(['/branchProtections/1/preventForcedPush'])
    const plan = await edited(document, (d) => change(d, 3).edits.push(WRITE_PATH.protectionDisabled(0)))
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('REJECTED        legacy/tool (#3): not what onedev-audit plans now from the live setting: /branchProtections/0/enabled: an edit onedev-audit does not plan; nothing was sent')
    expect(result.stdout).toContain('applied         acme/app (#2)')
    expect(posts(server)).toEqual(['/~api/projects/2/setting'])
    expect(server.settings[3]).toEqual(before)
  }, 60_000)

  it('another value than the tool plans (a job secret narrowed to every branch instead of the default one) is refused by its path', async () => {
    const server = await start()
    const {document} = await planFile(server, ['--project', '2', '--rule', 'job-secret/broad-branches'])
    const edits = document.projects[0].changes.map((c: any) => c.edits[0])
    expect(edits.map((e: any) => [e.path, e.value])).toEqual([
      ['/buildSetting/jobSecrets/1/authorization', 'on branch "master"'],
      ['/buildSetting/jobSecrets/2/authorization', 'on branch "master"'],
    ])
    const before = structuredClone(server.settings[2])
    const plan = await edited(document, (d) => (change(d, 2, 1).edits[0].value = WRITE_PATH.everyBranch))
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('REJECTED        acme/app (#2): not what onedev-audit plans now from the live setting: /buildSetting/jobSecrets/2/authorization: another value than onedev-audit plans; nothing was sent')
    expect(posts(server)).toEqual([])
    expect(server.settings[2]).toEqual(before)
  }, 60_000)

  it('a change taken out of a plan leaves the others to apply: what is approved and what the tool plans, nothing else', async () => {
    const server = await start()
    const {document} = await planFile(server, ['--project', '2', '--rule', 'job-secret/broad-branches'])
    const plan = await edited(document, (d) => d.projects[0].changes.splice(0, 1))
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    const secrets = (server.settings[2] as any).buildSetting.jobSecrets.map((s: any) => [s.name, s.authorization])
    expect(secrets).toEqual([
      ['deploy-token', 'on branch "main"'],
      ['npm-token', null],
      ['sonar-login', 'on branch "master"'],
      ['old-registry-password', 'on branch "release/**" or on branch "main"'],
    ])
    expect(settingRequests(server)).toEqual(['GET /~api/projects/2/setting', 'POST /~api/projects/2/setting', 'GET /~api/projects/2/setting'])
  }, 60_000)

  it('a plan whose context hides the project\'s parent: a new protection that would apply ahead of the parent\'s stricter one is judged on the live ancestors and refused', async () => {
    // acme/kid (#5) looks like a project of its own when the plan is made: main has no protection.
    const projects = [{id: 1, path: 'acme', parentId: null}, {id: 5, path: 'kid', parentId: null as number | null}]
    const server = await start({
      projects,
      settings: {1: structuredClone(PARENT_SETTING), 5: {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []}},
      repositories: {1: {defaultBranch: 'main', tags: []}, 5: {defaultBranch: 'main', tags: []}},
    })
    const {path: plan, document} = await planFile(server, ['--project', '5'])
    expect(change(document, 5).edits.map((e: any) => [e.op, e.path])).toEqual([['add', '/branchProtections/-']])
    // It is a child of acme, whose protection of main asks two reviews, signatures and a build: the
    // plan's new protection (none of these) would win for main under first match.
    projects[1]!.parentId = 1
    projects[1]!.path = 'acme/kid'
    const before = structuredClone(server.settings[5])
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toMatch(/REJECTED +kid \(#5\): not what onedev-audit plans now from the live setting: \/branchProtections\/-: onedev-audit plans no change of branch-protection\/unprotected-branch like the plan's .*; nothing was sent/)
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /~api/projects/5/setting',
      'GET /~api/projects/5',
      'GET /~api/projects/1',
      'GET /~api/projects/1/setting',
    ])
    expect(server.settings[5]).toEqual(before)
  }, 60_000)

  it('a new protection in a plan file is judged on the live tree: the project\'s place in it is read once more, then the change is sent', async () => {
    const server = await start({
      projects: [{id: 7, path: 'solo', parentId: null}],
      settings: {7: {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []}},
      repositories: {7: {defaultBranch: 'main', tags: []}},
    })
    const {path: plan} = await planFile(server)
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /~api/projects/7/setting', 'GET /~api/projects/7', 'POST /~api/projects/7/setting', 'GET /~api/projects/7/setting'])
    expect((server.settings[7] as any).branchProtections.map((p: any) => p.branches)).toEqual(['main'])
  }, 60_000)

  it('a plan made and applied in one run is planned again on the context it was just collected with: no ancestor is read again', async () => {
    const server = await start({
      projects: [{id: 1, path: 'acme', parentId: null}, {id: 5, path: 'acme/kid', parentId: 1}],
      settings: {1: {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []}, 5: {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []}},
      repositories: {1: {defaultBranch: 'main', tags: []}, 5: {defaultBranch: 'main', tags: []}},
    })
    const result = await runCli(['fix', '--project', '5', '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    const applying = server.requests.slice(server.requests.findIndex((r) => r.method === 'POST') - 1).map((r) => `${r.method} ${r.path}`)
    expect(applying).toEqual(['GET /~api/projects/5/setting', 'POST /~api/projects/5/setting', 'GET /~api/projects/5/setting'])
    expect((server.settings[5] as any).branchProtections.map((p: any) => p.branches)).toEqual(['main'])
  }, 60_000)

  it('the tool plans again from the live setting: a finding someone cleared by hand since the plan leaves its change unplanned, refused, nothing sent', async () => {
    const server = await start()
    const {path: plan} = await planFile(server)
    // master (acme/app's default branch) is now decided by a protection that prevents deletion: the
    // plan's change of the "**" protection is still possible, and no longer what the tool plans.
    ;(server.settings[2] as any).branchProtections[0].branches = 'main release/** master'
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toMatch(/REJECTED +acme\/app \(#2\): not what onedev-audit plans now from the live setting: \/branchProtections\/3\/preventDeletion: onedev-audit plans no change of branch-protection\/deletion-allowed like the plan's "Check "Prevent Deletion" on the branch protection \/branchProtections\/3 \("\*\*"\)" now; nothing was sent/)
    expect(posts(server)).toEqual(['/~api/projects/3/setting'])
  }, 60_000)
})

describe('an undo record is judged', () => {
  /** Applies the job-secret and deletion fixes of acme/app; its undo record, and the setting after. */
  async function applied(server: OneDevServer): Promise<{undo: string; record: any; after: unknown}> {
    // npm-token's null authorization (every job) is narrowed too, and restoring it is left to a person: not here.
    ;(server.settings[2] as any).buildSetting.jobSecrets[1].authorization = 'on branch "main"'
    const undo = file('undo.json')
    const rules = ['--rule', 'job-secret/broad-branches', '--rule', 'branch-protection/deletion-allowed']
    const result = await runCli(['fix', '--project', '2', ...rules, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    const record = await readJson(undo)
    expect(record.projects[0].applied.map((e: any) => [e.path, e.old, e.new])).toEqual([
      ['/buildSetting/jobSecrets/2/authorization', 'on branch "**"', 'on branch "master"'],
      ['/branchProtections/3/preventDeletion', false, true],
    ])
    server.reset()
    return {undo, record, after: structuredClone(server.settings[2])}
  }

  async function undone(server: OneDevServer, record: any): Promise<{code: number | null; stdout: string; stderr: string}> {
    const path = file('edited-undo.json')
    await writeFile(path, JSON.stringify(record, null, 2))
    return runCli(['fix', '--undo', path, '--apply', '--undo-output', file('undo2.json')], {env: serverEnv(server)})
  }

  /**
   * Each rewrite, judged both ways: as it is (its seal no longer verifies: no restore that brings
   * back a finding or weakens anything is sent) and sealed again with this user's key (what someone
   * holding it could write: judged as a record this tool wrote). `strict`: the outcome of the first
   * when it differs from `refusal`.
   */
  const rewritten: Array<[string, (project: any) => void, string | RegExp, RegExp?]> = [
    [
      'a restore rewritten to open another job secret to every branch is not a field the apply changed',
      (project) => Object.assign(project.restore.find((e: any) => e.path === '/buildSetting/jobSecrets/2/authorization'), WRITE_PATH.secretOpened(0, 'on branch "main"')),
      'REJECTED        acme/app (#2): the undo record is not what its apply did: /buildSetting/jobSecrets/0/authorization: not a field the apply changed (it is not in the record\'s applied list); nothing was sent',
    ],
    [
      'a restore rewritten to another value than the recorded old one',
      (project) => (project.restore.find((e: any) => e.path === '/buildSetting/jobSecrets/2/authorization').value = `${WRITE_PATH.everyBranch} or on branch "main"`),
      'REJECTED        acme/app (#2): the undo record is not what its apply did: /buildSetting/jobSecrets/2/authorization: not the value the record says it had; nothing was sent',
    ],
    [
      'a restore added for a protection the fix never touched (switched off)',
      (project) => project.restore.unshift(WRITE_PATH.protectionDisabled(0)),
      'REJECTED        acme/app (#2): the undo record is not what its apply did: /branchProtections/0/enabled: not a field the apply changed (it is not in the record\'s applied list); nothing was sent',
    ],
    [
      // deploy-token (#0) holds `on branch "main"`, set by a person: the record now says the fix put it there.
      'applied and restore rewritten together (a job secret the fix never touched, "back" to every branch): it weakens what applies, and the tool would not plan the recorded change from there',
      (project) => {
        project.applied.push({op: 'replace', path: '/buildSetting/jobSecrets/0/authorization', old: WRITE_PATH.everyBranch, new: 'on branch "main"'})
        project.restore.unshift(WRITE_PATH.secretOpened(0, 'on branch "main"'))
      },
      /REJECTED +acme\/app \(#2\): \/buildSetting\/jobSecrets\/0\/authorization: from the setting the undo would restore, onedev-audit would not plan the change the record says was made there, and the undo weakens what applies \(.+\); nothing was sent/,
      /BY HAND +acme\/app \(#2\): every restore is left to a person; nothing was sent\n +by hand: \/buildSetting\/jobSecrets\/0\/authorization: not restored: it weakens what applies \(.+\), and the undo record is not sealed by this user's key/,
    ],
  ]

  for (const [what, rewrite, refusal, strict] of rewritten) {
    for (const resealed of [false, true]) {
      it(`${what}${resealed ? ', sealed again with the key' : ''}: refused by its path, nothing sent`, async () => {
        const server = await start()
        const {record, after} = await applied(server)
        rewrite(record.projects[0])
        const result = await undone(server, resealed ? sealed(record, await testUndoKey()) : record)
        expect(result.code).toBe(2)
        expect(result.stderr).toMatch(resealed ? /is sealed by this user's undo key/ : /does not verify with this user's undo key/)
        const expected = resealed ? refusal : (strict ?? refusal)
        if (typeof expected === 'string') expect(result.stdout).toContain(expected)
        else expect(result.stdout).toMatch(expected)
        expect(posts(server)).toEqual([])
        expect(server.settings[2]).toEqual(after)
      }, 60_000)
    }
  }

  it('the record as written is undone: its restores weaken, and the tool plans exactly that change again from what they restore', async () => {
    const server = await start()
    ;(server.settings[2] as any).buildSetting.jobSecrets[1].authorization = 'on branch "main"'
    const before = structuredClone(server.settings[2])
    const {record} = await applied(server)
    const result = await undone(server, record)
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(server.settings[2]).toEqual(before)
  }, 60_000)
})

describe('an undo record of new protections', () => {
  it('is judged as the reverse of what the tool plans from there (the protections added at the end of their lists) and sent', async () => {
    const empty = {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []}
    const server = await start({projects: [{id: 7, path: 'solo', parentId: null}], settings: {7: structuredClone(empty)}, repositories: {7: {defaultBranch: 'main', tags: ['v1.0']}}})
    const undo = file('undo.json')
    const applied = await runCli(['fix', '--all-projects', '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    const record = await readJson(undo)
    expect(record.projects[0].applied.map((e: any) => [e.op, e.path])).toEqual([
      ['add', '/branchProtections/0'],
      ['add', '/tagProtections/0'],
    ])
    const result = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', file('undo2.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(server.settings[7]).toEqual(empty)
  }, 60_000)
})

describe('a rollback is a targeted reverse patch', () => {
  /** acme/app's POST stored, then `after` done to the stored setting before the read-back (the POST answered, or its connection cut). */
  function postThen(server: OneDevServer, after: (setting: any) => void, answer: 'ok' | 'cut'): void {
    let first = true
    server.setHandler('POST /projects/2/setting', (_request, response, recorded) => {
      server.settings[2] = JSON.parse(recorded.body)
      if (first) {
        first = false
        after(server.settings[2])
        if (answer === 'cut') return void response.destroy()
      }
      response.writeHead(200, {'content-length': 0})
      response.end()
    })
  }

  const cases: Array<[string, (setting: any) => void, (setting: any) => void, string]> = [
    [
      'a job secret rotated',
      (setting) => (setting.buildSetting.jobSecrets[0].value = WRITE_PATH.rotatedSecret),
      (expected) => (expected.buildSetting.jobSecrets[0].value = WRITE_PATH.rotatedSecret),
      '/buildSetting/jobSecrets/0/value',
    ],
    ['a colleague\'s edit', (setting) => WRITE_PATH.colleagueEdit(setting), (expected) => WRITE_PATH.colleagueEdit(expected), '/webHooks/0/eventTypes'],
  ]

  for (const [what, change, expectation, where] of cases) {
    it(`${what} between the POST and its read-back: verification fails, the fix's field is put back, the rest kept as the server has it and named`, async () => {
      const server = await start()
      const {path: plan} = await planFile(server)
      const expected = structuredClone(server.settings[2]) as any
      expectation(expected)
      postThen(server, change, 'ok')
      const undo = file('undo.json')
      const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})
      expect(result.code).toBe(2)
      expect(result.stdout).toContain(
        `ROLLED BACK     acme/app (#2): verification failed: the setting read back differs from what was sent at ${where}; rolled back: the fields it edited hold their old values again; found changed since it was sent (by someone else, or by the server) and kept as the server has it: ${where}: check it in Project Settings`,
      )
      expect(server.settings[2]).toEqual(expected)
      expect(settingRequests(server).filter((r) => r.endsWith('/2/setting'))).toEqual(rolledBackRequests(2))
      // Rolled back: the record keeps only the other project.
      expect((await readJson(undo)).projects.map((p: any) => p.id)).toEqual([3])
      expectNoCanary(result.stdout + result.stderr + (await readFile(undo, 'utf8')))
    }, 60_000)
  }

  it('a POST cut midway after the server stored it, a secret rotated meanwhile: the read-back is neither setting, the targeted rollback keeps the rotation', async () => {
    const server = await start()
    const {path: plan} = await planFile(server)
    const expected = structuredClone(server.settings[2]) as any
    expected.buildSetting.jobSecrets[0].value = WRITE_PATH.rotatedSecret
    postThen(server, (setting) => (setting.buildSetting.jobSecrets[0].value = WRITE_PATH.rotatedSecret), 'cut')
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toMatch(
      /ROLLED BACK +acme\/app \(#2\): the POST got no answer \(.+\), and the setting read back is neither the old one nor the new one; rolled back: the fields it edited hold their old values again; found changed since it was sent \(by someone else, or by the server\) and kept as the server has it: \/buildSetting\/jobSecrets\/0\/value: check it in Project Settings/,
    )
    expect(server.settings[2]).toEqual(expected)
    expectNoCanary(result.stdout + result.stderr)
  }, 60_000)

  it('a POST refused while a colleague edited the setting: nothing of the fix is there, nothing is sent back, the colleague\'s edit is kept', async () => {
    const server = await start()
    const {path: plan} = await planFile(server)
    const expected = structuredClone(server.settings[2]) as any
    WRITE_PATH.colleagueEdit(expected)
    server.setHandler('POST /projects/2/setting', (_request, response) => {
      WRITE_PATH.colleagueEdit(server.settings[2] as any)
      response.writeHead(500, {'content-type': 'text/plain'})
      response.end('the database is read-only')
    })
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain(
      'REFUSED         acme/app (#2): refused by the server: POST /~api/projects/2/setting: 500 Internal Server Error: the database is read-only, and the setting read back is neither the old one nor the new one; nothing to roll back: the fields it edited do not hold its values; found changed since it was sent (by someone else, or by the server) and kept as the server has it: /branchProtections/3/preventDeletion and /webHooks/0/eventTypes: check it in Project Settings',
    )
    expect(server.settings[2]).toEqual(expected)
    expect(posts(server)).toEqual(['/~api/projects/3/setting', '/~api/projects/2/setting'])
  }, 60_000)

  it('the fixed protection moved by a colleague before the rollback: its field cannot be put back, nothing is sent back, the project is in an unknown state and the undo record keeps its restores', async () => {
    const server = await start()
    const {path: plan} = await planFile(server)
    // The change is stored; a colleague then inserts a protection at the top: ours is at /branchProtections/4 now.
    postThen(server, (setting) => setting.branchProtections.unshift({...structuredClone(setting.branchProtections[1]), branches: 'hotfix/**'}), 'ok')
    const undo = file('undo.json')
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain(
      'ROLLBACK FAILED acme/app (#2): verification failed: the setting read back differs from what was sent at /branchProtections; ROLLBACK INCOMPLETE: nothing was sent back, as /branchProtections/3/preventDeletion (items of /branchProtections were added, moved or given other branches and userMatch) could not be put back; found changed since it was sent (by someone else, or by the server) and kept as the server has it: /branchProtections: check it in Project Settings; the undo record holds its restore edits',
    )
    expect((server.settings[2] as any).branchProtections[4].preventDeletion).toBe(true)
    expect(posts(server)).toEqual(['/~api/projects/3/setting', '/~api/projects/2/setting'])
    const record = await readJson(undo)
    expect(record.complete).toBe(false)
    expect(record.projects.map((p: any) => [p.id, p.state])).toEqual([[3, 'verified'], [2, 'unknown']])
  }, 60_000)
})

describe('a rollback finds the edited item by its identity, not by its index (issue 33)', () => {
  const protections = (server: OneDevServer) => (server.settings[2] as any).branchProtections.map((p: any) => [p.branches, p.preventDeletion])
  const DELETION = ['--project', '2', '--rule', 'branch-protection/deletion-allowed']

  /** acme/app's POST stored, then `after` done to it before the read-back; a POST after it (the rollback's) refused when `refuseRollback`. */
  function postThen(server: OneDevServer, after: (setting: any) => void, refuseRollback = false): void {
    let count = 0
    server.setHandler('POST /projects/2/setting', (_request, response, recorded) => {
      if (++count > 1 && refuseRollback) {
        response.writeHead(500, {'content-type': 'text/plain'})
        return void response.end('the database is read-only')
      }
      server.settings[2] = JSON.parse(recorded.body)
      if (count === 1) after(server.settings[2])
      response.writeHead(200, {'content-length': 0})
      response.end()
    })
  }

  it('a colleague deletes a protection listed before the edited one between our POST and its read-back: the field is rolled back where the protection is now, the deletion kept', async () => {
    const server = await start()
    postThen(server, (setting) => setting.branchProtections.splice(1, 1))
    const undo = file('undo.json')
    const result = await runCli(['fix', ...DELETION, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain(
      'ROLLED BACK     acme/app (#2): verification failed: the setting read back differs from what was sent at /branchProtections; rolled back: the fields it edited hold their old values again; found changed since it was sent (by someone else, or by the server) and kept as the server has it: /branchProtections: check it in Project Settings',
    )
    // "develop" stays deleted; "**" (now third) has Prevent Deletion off again, as before the fix.
    expect(protections(server)).toEqual([
      ['main release/**', true],
      ['hotfix/*', true],
      ['**', false],
    ])
    expect(posts(server)).toEqual(['/~api/projects/2/setting', '/~api/projects/2/setting'])
    const record = await readJson(undo)
    expect([record.complete, record.projects]).toEqual([true, []])
  }, 60_000)

  it('the edited protection cannot be told from a twin (one with the same branches and users, deleted next to it): ROLLBACK INCOMPLETE in one line, exit 2, nothing sent back, the undo record names the project and its restores', async () => {
    const setting = fixture('current/setting-full.json')
    // A disabled twin right ahead of the "**" protection the fix edits (first match skips it).
    setting.branchProtections.splice(3, 0, {...structuredClone(setting.branchProtections[3]), enabled: false})
    const server = await start({settings: {...fixtureServerOptions().settings, 2: setting}})
    postThen(server, (stored) => stored.branchProtections.splice(3, 1))
    const undo = file('undo.json')
    const result = await runCli(['fix', ...DELETION, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    // One line says it all.
    const line = result.stdout.split('\n').find((l) => l.includes('ROLLBACK FAILED acme/app (#2)'))?.trim()
    expect(line).toBe(
      'ROLLBACK FAILED acme/app (#2): verification failed: the setting read back differs from what was sent at /branchProtections; ROLLBACK INCOMPLETE: nothing was sent back, as /branchProtections/4/preventDeletion (more than one item of /branchProtections could be the one it edited, by their branches and userMatch) could not be put back; found changed since it was sent (by someone else, or by the server) and kept as the server has it: /branchProtections: check it in Project Settings; the undo record holds its restore edits',
    )
    expect(protections(server).at(-1)).toEqual(['**', true])
    expect(posts(server)).toEqual(['/~api/projects/2/setting'])
    const record = await readJson(undo)
    expect(record.complete).toBe(false)
    expect(record.projects.map((p: any) => [p.id, p.state, p.restore.map((e: any) => [e.op, e.path, e.value])])).toEqual([[2, 'unknown', [['replace', '/branchProtections/4/preventDeletion', false]]]])
  }, 60_000)

  it('the edited protection deleted, or one ahead deleted and it renamed, since: it is not found, ROLLBACK INCOMPLETE, the undo record names it', async () => {
    const cases: Array<[(stored: any) => void, string]> = [
      [(stored) => stored.branchProtections.splice(3, 1), 'the item of /branchProtections it edited is no longer there: none has its branches and userMatch'],
      [(stored) => (stored.branchProtections.splice(1, 1), (stored.branchProtections[2].branches = '** -sandbox/**')), 'items of /branchProtections were added, moved or given other branches and userMatch'],
    ]
    for (const [change, why] of cases) {
      const server = await start()
      postThen(server, change)
      const undo = file('undo.json')
      const result = await runCli(['fix', ...DELETION, '--apply', '--undo-output', undo], {env: serverEnv(server)})
      expect(result.code).toBe(2)
      expect(result.stdout).toContain(`ROLLBACK INCOMPLETE: nothing was sent back, as /branchProtections/3/preventDeletion (${why}) could not be put back`)
      expect(posts(server)).toEqual(['/~api/projects/2/setting'])
      expect((await readJson(undo)).projects.map((p: any) => [p.id, p.state])).toEqual([[2, 'unknown']])
    }
  }, 60_000)

  it('a rollback refused after the deletion ahead: the undo record names the change, and fix --undo finds the protection where it is now and restores it', async () => {
    const server = await start()
    postThen(server, (setting) => setting.branchProtections.splice(0, 1), true)
    const undo = file('undo.json')
    const result = await runCli(['fix', ...DELETION, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('ROLLBACK FAILED acme/app (#2): verification failed: the setting read back differs from what was sent at /branchProtections; ROLLBACK FAILED (POST /~api/projects/2/setting: 500 Internal Server Error: the database is read-only)')
    const record = await readJson(undo)
    expect(record.projects.map((p: any) => [p.id, p.state, p.applied])).toEqual([[2, 'unknown', [{op: 'replace', path: '/branchProtections/3/preventDeletion', old: false, new: true}]]])
    expect(protections(server)).toEqual([
      ['develop', true],
      ['hotfix/*', true],
      ['**', true],
    ])
    server.setHandler('POST /projects/2/setting', null)
    const undo2 = file('undo2.json')
    const undone = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', undo2], {env: serverEnv(server)})
    expect(undone.code, undone.stdout + undone.stderr).toBe(0)
    expect(undone.stdout).toContain('applied         acme/app (#2): applied and verified: 1 edit')
    expect(protections(server)).toEqual([
      ['develop', true],
      ['hotfix/*', true],
      ['**', false],
    ])
    // The new record names the protection where it is now.
    expect((await readJson(undo2)).projects.map((p: any) => p.applied)).toEqual([[{op: 'replace', path: '/branchProtections/2/preventDeletion', old: true, new: false}]])
  }, 60_000)
})

describe('a legacy project', () => {
  it('is planned again in its own payload generation: the 8.x plan applies as it was reviewed', async () => {
    const server = await start({projects: [{id: 3, path: 'legacy/tool', parentId: null}], settings: {3: fixture('legacy/setting-full.json')}})
    const {path: plan} = await planFile(server, ['--all-projects', '--suggestions'])
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(settingRequests(server)).toEqual(['GET /~api/projects/3/setting', 'POST /~api/projects/3/setting', 'GET /~api/projects/3/setting'])
  }, 60_000)
})
