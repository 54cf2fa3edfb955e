/**
 * `onedev-audit fix` against a loopback server that stores what is posted: plan → apply → verify →
 * undo, in both payload generations, with every failure the issue names (conflict, refusal, a server
 * that drops a field, 405, Ctrl-C), and no secret in any plan, undo record or output.
 */
import {Buffer} from 'node:buffer'
import {spawn} from 'node:child_process'
import {readFile, stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {expectNoCanary} from '../helpers/canaries.js'
import {BIN, ROOT, runCli, testConfigHome} from '../helpers/cli.js'
import {fixture, serverEnv} from '../helpers/fixture-server.js'
import {FIXTURE_APPLY_REQUESTS, fixCliSetup, readJson, rolledBackRequests, settingRequests, testUndoKey} from '../helpers/fix-cli.js'
import type {OneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'
import {defaultUndoPath} from '../../src/cli/fix.js'
import {readFixFile} from '../../src/fix/files.js'
import {verdictOf} from '../../src/fix/seal.js'
import {MAY_QUOTE_A_SECRET, withheldNote} from '../../src/model/server-text.js'

const {start, file} = fixCliSetup('oda-fix')

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
    expect(settingRequests(server)).toEqual(FIXTURE_APPLY_REQUESTS)
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
    // The projects are read live first, to judge what the undo restores (GET only); then GET, POST, GET each.
    const undoWrites = server.requests.findIndex((r) => r.method === 'POST')
    expect(server.requests.slice(0, undoWrites - 1).every((r) => r.method === 'GET')).toBe(true)
    expect(settingRequests(server).slice(-6)).toEqual(FIXTURE_APPLY_REQUESTS)
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2)
    clean(undone.stdout, undone.stderr)
  }, 60_000)
})

/** Plans for every project into a file, from the live server; the server's request log is cleared after. */
async function planFile(server: OneDevServer, extra: string[] = []): Promise<string> {
  const plan = file('plan.json')
  const result = await runCli(['fix', '--all-projects', '--output', plan, ...extra], {env: serverEnv(server)})
  expect(result.code, result.stdout + result.stderr).toBe(1)
  server.reset()
  return plan
}

/**
 * Applies the plan while the server refuses acme/app (#2) with a 500 and `text`: asserts exit 2 and
 * that the refusal is shown withheld whole; gives every output (stdout, stderr, plan, undo record).
 */
async function appliedWithSecretQuoted(server: OneDevServer, plan: string, text: string): Promise<string[]> {
  server.override('POST /projects/2/setting', {status: 500, text})
  const undo = file('undo.json')
  const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})
  expect(result.code).toBe(2)
  const note = withheldNote(Buffer.byteLength(text), true, MAY_QUOTE_A_SECRET)
  expect(result.stdout).toContain(`REFUSED         acme/app (#2): refused by the server: POST /~api/projects/2/setting: 500 Internal Server Error: ${note}; the setting is unchanged`)
  const outputs = [result.stdout, result.stderr, await readFile(plan, 'utf8'), await readFile(undo, 'utf8')]
  clean(...outputs)
  return outputs
}

describe('where changes go', () => {
  it('a fix of a protection inherited from the parent is posted to the parent, and verified on the child', async () => {
    const parent = {...fixture('current/setting-full.json'), branchProtections: [{enabled: true, branches: 'main', userMatch: 'anyone', preventForcedPush: false, preventDeletion: true, preventCreation: true, commitSignatureRequired: true, reviewRequirement: 'group(core-devs):2', jobNames: ['ci'], fileProtections: [{paths: '.onedev-buildspec.yml', reviewRequirement: 'group(devops)', jobNames: []}]}], tagProtections: []}
    const server = await start({
      projects: [{id: 1, path: 'acme', parentId: null}, {id: 5, path: 'acme/kid', parentId: 1}],
      settings: {1: parent, 5: {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []}},
      repositories: {1: {defaultBranch: 'main', tags: []}, 5: {defaultBranch: 'main', tags: []}},
    })
    const result = await runCli(['fix', '--project', '5', '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain('acme (#1), current payload (not audited itself: its other child projects were not judged)')
    expect(result.stdout).toContain('/branchProtections/0/preventForcedPush: false -> true')
    expect(result.stdout).toContain('clears low branch-protection/force-push-allowed "main" in acme/kid')
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/~api/projects/1/setting'])
    expect((server.settings[1] as any).branchProtections[0].preventForcedPush).toBe(true)
    clean(result.stdout, result.stderr)
  }, 30_000)

  it('a new protection goes where it really applies under first match: before the broader protection of the same project', async () => {
    const own = {branchProtections: [{enabled: true, branches: '**', userMatch: 'group(devs)', preventForcedPush: false, preventDeletion: false, preventCreation: false, commitSignatureRequired: false, reviewRequirement: null, jobNames: [], fileProtections: []}], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []}
    const server = await start({projects: [{id: 7, path: 'solo', parentId: null}], settings: {7: own}, repositories: {7: {defaultBranch: 'main', tags: []}}})
    const result = await runCli(['fix', '--all-projects', '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    const stored = (server.settings[7] as any).branchProtections
    expect(stored.map((p: any) => [p.branches, p.userMatch, p.preventForcedPush, p.preventDeletion])).toEqual([
      ['main', 'anyone', true, true],
      ['**', 'group(devs)', false, false],
    ])
  }, 30_000)
})

describe('when the server disagrees', () => {
  it('a protection reordered since the plan (the same old value at the pointer) is a conflict: that project is skipped, nothing sent; the others are applied; exit 2', async () => {
    const server = await start()
    const plan = await planFile(server)
    const setting = server.settings[2] as any
    // Someone moved the "**" protection (the plan's /branchProtections/3) to the top; /branchProtections/3 is now
    // the disabled hotfix/* one. Its preventDeletion is true, so the old value alone would not tell; make it false.
    setting.branchProtections.unshift(setting.branchProtections.pop())
    setting.branchProtections[3].preventDeletion = false
    const undo = file('undo.json')
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('CONFLICT        acme/app (#2): changed since the plan was made: /branchProtections/3 no longer holds what the plan saw (for the edit of /branchProtections/3/preventDeletion); nothing was sent')
    expect(result.stdout).toContain('applied         legacy/tool (#3): applied and verified: 1 edit')
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/~api/projects/3/setting'])
    expect((await readJson(undo)).projects.map((p: any) => p.id)).toEqual([3])
  }, 30_000)

  it('a 500 refusal quoting no secret is shown on one line, control characters escaped and what looks like a credential masked; the project is reported refused, the others applied; exit 2', async () => {
    const server = await start()
    const plan = await planFile(server)
    const before = structuredClone(server.settings[2])
    server.override('POST /projects/2/setting', {status: 500, text: 'buildSetting.jobSecrets[0].value: "main" is not valid\n\u001b[31mand https://hooks.slack.com/services/T9Z8Y7X6W/B1A2B3C4D/not-a-fixture-hook too'})
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json'), '--debug'], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('REFUSED         acme/app (#2): refused by the server: POST /~api/projects/2/setting: 500 Internal Server Error: buildSetting.jobSecrets[0].value: "main" is not valid \\x1b[31mand https://hooks.slack.com/services/REDACTED too; the setting is unchanged')
    expect(result.stdout).toContain('applied         legacy/tool (#3)')
    expect(server.settings[2]).toEqual(before)
    expect(settingRequests(server).filter((r) => r.endsWith('/2/setting'))).toEqual(['GET /~api/projects/2/setting', 'POST /~api/projects/2/setting', 'GET /~api/projects/2/setting'])
    clean(result.stdout, result.stderr)
  }, 30_000)

  it('a refusal quoting a secret of the setting is not shown at all, judged whole before it is cut to one short line: the secret where the cut falls and a bearer token appear nowhere', async () => {
    const server = await start()
    const plan = await planFile(server)
    const secret = 'CANARY-jobsecret-deploy-token-7f3a'
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaS1ib3QifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg'
    const head = `Authorization: Bearer ${token} was refused;\n`
    // The detail is cut at 300 characters: judged after the cut, the secret (from 285) would lose its end and not be found.
    const text = `${head}${'x'.repeat(285 - head.length - 12)} value was "${secret}" ${'y'.repeat(100)}`
    expect(text.indexOf(secret)).toBe(285)
    for (const output of await appliedWithSecretQuoted(server, plan, text)) {
      expect(output).not.toContain('CANARY-jobsecret-de')
      expect(output).not.toContain(token.slice(0, 12))
      expect(output).not.toContain('xxxxxxxx')
    }
  }, 30_000)

  describe('a refusal echoing a job secret in a form a server may give it: the whole text is withheld, no form of the secret appears anywhere', () => {
    const secret = 'Tr0ub4dor&3=horse<batt>\n  staple!'
    const base64 = Buffer.from(secret).toString('base64')
    const base64url = Buffer.from(secret).toString('base64url')
    const forms: Array<[string, string]> = [
      ['HTML-escaped', 'Tr0ub4dor&amp;3=horse&lt;batt&gt;\n  staple!'],
      ['JSON \\u-escaped as Gson writes', 'Tr0ub4dor\\u00263\\u003dhorse\\u003cbatt\\u003e\\n  staple!'],
      ['form-encoded', 'Tr0ub4dor%263%3Dhorse%3Cbatt%3E%0A++staple%21'],
      ['with its whitespace collapsed', 'Tr0ub4dor&3=horse<batt> staple!'],
      ['in base64', base64],
      ['in base64url without padding', base64url],
    ]
    it.each(forms)('%s', async (_, echoed) => {
      const server = await start()
      ;(server.settings[2] as any).buildSetting.jobSecrets[0].value = secret
      const plan = await planFile(server)
      for (const output of await appliedWithSecretQuoted(server, plan, `buildSetting.jobSecrets[0].value: "${echoed}" is not valid`)) {
        for (const piece of ['Tr0ub4dor', 'staple', base64.slice(0, 12), base64url.slice(0, 12), ...forms.map(([, form]) => form.slice(0, 12))]) {
          expect(output).not.toContain(piece)
        }
      }
    }, 30_000)
  })

  it('a server that silently drops a field: verification catches it, the targeted rollback puts back the edited field and says what it found changed, exit 2', async () => {
    let posts = 0
    const server = await start({
      storeSetting: (id, posted: any) => {
        // The first setting posted to acme/app loses its web hook secrets; what is posted later is kept.
        if (id === 2 && posts++ === 0) for (const hook of posted.webHooks) hook.secret = null
        return posted
      },
    })
    const plan = await planFile(server)
    const before = structuredClone(server.settings[2]) as any
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain(
      'ROLLED BACK     acme/app (#2): verification failed: the setting read back differs from what was sent at /webHooks/0/secret and /webHooks/2/secret; rolled back: the fields it edited hold their old values again; found changed since it was sent (by someone else, or by the server) and kept as the server has it: /webHooks/0/secret and /webHooks/2/secret: check it in Project Settings',
    )
    expect(result.stderr).toContain('onedev-audit: acme/app (#2): verification failed: the setting read back differs from what was sent at /webHooks/0/secret and /webHooks/2/secret; rolling back')
    // The edited field is back; what the server holds now is kept, and the report says where it differs.
    const expected = structuredClone(before)
    for (const hook of expected.webHooks) hook.secret = null
    expect(server.settings[2]).toEqual(expected)
    expect(settingRequests(server).filter((r) => r.endsWith('/2/setting'))).toEqual(rolledBackRequests(2))
    clean(result.stdout, result.stderr)
  }, 30_000)

  it('--deadline never cuts a project in flight (a POST the server stores and answers late is waited for, read back and verified); it is checked between projects', async () => {
    const server = await start()
    const plan = await planFile(server)
    server.setHandler('POST /projects/3/setting', async (_request, response, recorded) => {
      server.settings[3] = JSON.parse(recorded.body)
      await new Promise((resolve) => setTimeout(resolve, 3000))
      response.writeHead(200)
      response.end()
    })
    const undo = file('undo.json')
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo, '--deadline', '2'], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('applied         legacy/tool (#3): applied and verified: 1 edit')
    expect(result.stdout).toContain('not sent        acme/app (#2): the deadline (--deadline 2 s) has passed: not sent')
    expect(settingRequests(server)).toEqual(['GET /~api/projects/3/setting', 'POST /~api/projects/3/setting', 'GET /~api/projects/3/setting'])
    expect(await readJson(undo)).toMatchObject({complete: false, projects: [{id: 3, state: 'verified', applied: [{path: '/branchProtections/1/preventForcedPush', old: false, new: true}]}]})
  }, 30_000)

  it('a failed rollback leaves the change recorded (state unknown, the record incomplete) with restore edits that undo it where it holds', async () => {
    const server = await start()
    const plan = await planFile(server)
    const before = structuredClone(server.settings[2]) as any
    let posts = 0
    server.setHandler('POST /projects/2/setting', (_request, response, recorded) => {
      // The change is stored without the web hook secrets (verification fails); the rollback is refused.
      if (posts++ === 0) {
        const posted = JSON.parse(recorded.body)
        for (const hook of posted.webHooks) hook.secret = null
        server.settings[2] = posted
        response.writeHead(200)
        return void response.end()
      }
      response.writeHead(500, {'content-type': 'text/plain'})
      response.end('the database is read-only')
    })
    const undo = file('undo.json')
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('ROLLBACK FAILED acme/app (#2): verification failed: the setting read back differs from what was sent at /webHooks/0/secret and /webHooks/2/secret; ROLLBACK FAILED (POST /~api/projects/2/setting: 500 Internal Server Error: the database is read-only): check the setting in Project Settings; the undo record holds its restore edits')
    expect(result.stderr).toContain(`onedev-audit: undo record ${undo}: 1 project applied, 1 in an unknown state (rollback failed); undo with: onedev-audit fix --undo ${undo} --apply`)
    const record = await readJson(undo)
    expect(record.complete).toBe(false)
    expect(record.projects.map((p: any) => [p.id, p.state, p.restore.map((e: any) => [e.op, e.path, e.value])])).toEqual([
      [3, 'verified', [['replace', '/branchProtections/1/preventForcedPush', false]]],
      [2, 'unknown', [['replace', '/branchProtections/3/preventDeletion', false]]],
    ])
    clean(result.stdout, result.stderr, JSON.stringify(record))

    server.setHandler('POST /projects/2/setting', null)
    const undone = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', file('undo2.json')], {env: serverEnv(server)})
    expect(undone.code, undone.stdout + undone.stderr).toBe(0)
    expect((server.settings[2] as any).branchProtections[3]).toEqual(before.branchProtections[3])
  }, 60_000)

  it('405 on the first POST stops the run before any other request and prints the remaining changes as manual steps', async () => {
    const server = await start()
    const plan = await planFile(server)
    server.override('POST /projects/*/setting', {status: 405, text: 'HTTP 405 Method Not Allowed'})
    const undo = file('undo.json')
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /~api/projects/3/setting', 'POST /~api/projects/3/setting'])
    expect(result.stdout).toContain('NOT OFFERED     legacy/tool (#3): the server does not offer POST /~api/projects/3/setting (status 405)')
    expect(result.stdout).toContain('not sent        acme/app (#2): not sent: the server does not offer POST /~api/projects/{id}/setting')
    expect(result.stdout).toContain(
      [
        'The server does not offer POST /projects/{id}/setting: make these changes by hand:',
        '  legacy/tool: Project Settings > Branch Protection: Check "Prevent Forced Push" on the branch protection /branchProtections/1 ("develop")',
        '      /branchProtections/1/preventForcedPush: false -> true',
        '  acme/app: Project Settings > Branch Protection: Check "Prevent Deletion" on the branch protection /branchProtections/3 ("**")',
        '      /branchProtections/3/preventDeletion: false -> true',
      ].join('\n'),
    )
    expect(await readJson(undo)).toMatchObject({complete: false, projects: []})
  }, 30_000)

  it('a project deleted between its GET and its POST (a 404 naming it) is that project\'s failure, not a server that does not offer the POST: the others are applied', async () => {
    const server = await start()
    const plan = await planFile(server)
    // legacy/tool (#3, applied first) is read, then deleted before the POST: OneDev answers 404 naming the project.
    server.setHandler('GET /projects/3/setting', (_request, response) => {
      const setting = server.settings[3]
      delete server.settings[3]
      if (setting === undefined) {
        response.writeHead(404, {'content-type': 'text/plain'})
        return void response.end('No row with the given identifier exists: [io.onedev.server.model.Project#3]')
      }
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(JSON.stringify(setting))
    })
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain(
      'REFUSED         legacy/tool (#3): refused by the server: POST /~api/projects/3/setting: 404 Not Found: No row with the given identifier exists: [io.onedev.server.model.Project#3]; the project is no longer found',
    )
    expect(result.stdout).not.toContain('NOT OFFERED')
    expect(result.stdout).toContain('applied         acme/app (#2)')
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/~api/projects/3/setting', '/~api/projects/2/setting'])
  }, 30_000)

  it('a setting naming a member twice in one object is not rewritten', async () => {
    const server = await start()
    const plan = await planFile(server)
    // Served as text: JSON.parse keeps the last of the two, Java readers may keep either.
    const text = JSON.stringify(server.settings[3], null, 2).replace('"count": 20', '"count": 20, "count": 21')
    server.setHandler('GET /projects/3/setting', (_request, response) => {
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(text)
    })
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toMatch(/NOT READ +legacy\/tool \(#3\): GET \/~api\/projects\/3\/setting: the setting names a member twice in one object \(line \d+, column \d+\): it is not rewritten, since readers differ on which one counts; nothing was sent/)
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/~api/projects/2/setting'])
  }, 30_000)
})

describe('undo', () => {
  it('restores only where the field still holds the new value; a field changed since is a conflict', async () => {
    const server = await start()
    const undo = file('undo.json')
    const applied = await runCli(['fix', '--all-projects', '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    ;(server.settings[3] as any).branchProtections[1].preventForcedPush = false
    server.reset()
    const result = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', file('undo2.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('CONFLICT        legacy/tool (#3): changed since the plan was made: /branchProtections/1/preventForcedPush no longer holds what the plan saw')
    expect(result.stdout).toContain('applied         acme/app (#2)')
    expect((server.settings[2] as any).branchProtections[3].preventDeletion).toBe(false)
  }, 60_000)
})

describe('undo after someone else edited the same protection', () => {
  it('another member edited since is kept and the field restored; the item renamed (another protection now at that pointer) is a conflict', async () => {
    const server = await start()
    const undo = file('undo.json')
    const applied = await runCli(['fix', '--all-projects', '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    const record = await readJson(undo)
    expect(record.projects.map((p: any) => p.restore.map((e: any) => [e.path, e.expect.map((x: any) => x.path)]))).toEqual([
      [['/branchProtections/1/preventForcedPush', ['/branchProtections/1/preventForcedPush', '/branchProtections/1/branches', '/branchProtections/1/userMatch', '/branchProtections']]],
      [['/branchProtections/3/preventDeletion', ['/branchProtections/3/preventDeletion', '/branchProtections/3/branches', '/branchProtections/3/userMatch', '/branchProtections']]],
    ])
    // The list's identities, in order: which protections there are and in what order, not what they hold.
    const identities = (server.settings[2] as any).branchProtections.map((p: any) => ({branches: p.branches, userMatch: p.userMatch}))
    expect(record.projects[1].restore[0].expect[3]).toEqual({path: '/branchProtections', identities})
    const protection2 = (server.settings[2] as any).branchProtections[3]
    protection2.preventCreation = !protection2.preventCreation
    protection2.jobNames = ['someone-elses-build']
    ;(server.settings[3] as any).branchProtections[1].branches = 'develop-renamed'
    const edited2 = structuredClone(protection2)
    const before3 = structuredClone(server.settings[3])
    server.reset()
    const result = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', file('undo2.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain(
      'CONFLICT        legacy/tool (#3): changed since the apply: /branchProtections/1/preventForcedPush: items of /branchProtections were added, moved or given other branches and userMatch; nothing was sent',
    )
    expect(result.stdout).toContain('applied         acme/app (#2): applied and verified: 1 edit')
    expect((server.settings[2] as any).branchProtections[3]).toEqual({...edited2, preventDeletion: false})
    expect(server.settings[3]).toEqual(before3)
  }, 60_000)
})

/** acme/app's fixes applied (Prevent Deletion on its fourth protection): its undo record and its protections as the server holds them. */
async function appliedToAcmeApp(server: OneDevServer): Promise<{undo: string; protections: any[]}> {
  const undo = file('undo.json')
  const applied = await runCli(['fix', '--project', '2', '--apply', '--undo-output', undo], {env: serverEnv(server)})
  expect(applied.code, applied.stdout + applied.stderr).toBe(0)
  const protections = (server.settings[2] as any).branchProtections
  expect(protections[3].preventDeletion).toBe(true)
  return {undo, protections}
}

describe('undo after someone inserted a protection ahead of the fixed one', () => {
  it('one with the same patterns and users (the old pointer is now theirs) is a conflict: nothing is sent, their protection is kept', async () => {
    const server = await start()
    const {undo, protections} = await appliedToAcmeApp(server)
    // An administrator adds, ahead of it, a stricter protection for the same branches and users.
    protections.splice(3, 0, {...structuredClone(protections[3]), preventForcedPush: true, reviewRequirement: 'group(leads)'})
    const before = structuredClone(server.settings[2])
    server.reset()
    const result = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', file('undo2.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stdout).toContain(
      'CONFLICT        acme/app (#2): changed since the apply: /branchProtections/3/preventDeletion: items of /branchProtections were added, moved or given other branches and userMatch; nothing was sent',
    )
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([])
    expect(server.settings[2]).toEqual(before)
  }, 60_000)
})

describe('undo after someone deleted a protection ahead of the fixed one (issue 33)', () => {
  it('the fixed protection is found by its branches and users where it is now and restored there; the deletion is kept', async () => {
    const server = await start()
    const {undo, protections} = await appliedToAcmeApp(server)
    protections.splice(0, 2)
    server.reset()
    const result = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', file('undo2.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain('applied         acme/app (#2): applied and verified: 1 edit')
    expect((server.settings[2] as any).branchProtections.map((p: any) => [p.branches, p.preventDeletion])).toEqual([
      ['hotfix/*', true],
      ['**', false],
    ])
  }, 60_000)
})

describe('undo of a job secret narrowed from null', () => {
  it('the restore to null (it would open the secret to every job) is left to a person; the project\'s other restores are applied; exit 2', async () => {
    const server = await start()
    const before = structuredClone(server.settings[2]) as any
    const undo = file('undo.json')
    const rules = ['--rule', 'job-secret/broad-branches', '--rule', 'branch-protection/deletion-allowed']
    const applied = await runCli(['fix', '--project', '2', ...rules, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    const secrets = () => (server.settings[2] as any).buildSetting.jobSecrets.map((s: any) => [s.name, s.authorization])
    expect(secrets()).toEqual([
      ['deploy-token', 'on branch "main"'],
      ['npm-token', 'on branch "master"'],
      ['sonar-login', 'on branch "master"'],
      ['old-registry-password', 'on branch "release/**" or on branch "main"'],
    ])
    server.reset()
    const undo2 = file('undo2.json')
    const result = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', undo2], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stdout).toContain(
      [
        '  applied         acme/app (#2): applied and verified: 2 edits',
        '                  by hand: /buildSetting/jobSecrets/1/authorization: a job secret\'s authorization must stay a non-empty text (null or empty opens the secret to every job): not restored; set it by hand in Project Settings if that is really wanted',
        'Applied 1 of 1 project.',
      ].join('\n'),
    )
    expect(secrets()).toEqual([
      ['deploy-token', 'on branch "main"'],
      ['npm-token', 'on branch "master"'],
      ['sonar-login', 'on branch "**"'],
      ['old-registry-password', 'on branch "release/**" or on branch "main"'],
    ])
    expect((server.settings[2] as any).branchProtections).toEqual(before.branchProtections)
    expect((await readJson(undo2)).projects.map((p: any) => p.applied.map((e: any) => e.path))).toEqual([['/branchProtections/3/preventDeletion', '/buildSetting/jobSecrets/2/authorization']])
    clean(result.stdout, result.stderr, await readFile(undo2, 'utf8'))
  }, 60_000)
})

describe('undo with every restore left to a person', () => {
  it('nothing is sent for the project (GET only), it is listed BY HAND, exit 2', async () => {
    const server = await start()
    const secrets = () => (server.settings[2] as any).buildSetting.jobSecrets
    ;(server.settings[2] as any).buildSetting.jobSecrets = secrets().filter((s: any) => s.name === 'npm-token')
    const undo = file('undo.json')
    const applied = await runCli(['fix', '--project', '2', '--rule', 'job-secret/broad-branches', '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(applied.code, applied.stdout + applied.stderr).toBe(0)
    expect(secrets()[0].authorization).toBe('on branch "master"')
    server.reset()
    const result = await runCli(['fix', '--undo', undo, '--apply', '--undo-output', file('undo2.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain(
      [
        '  BY HAND         acme/app (#2): every restore is left to a person; nothing was sent',
        '                  by hand: /buildSetting/jobSecrets/0/authorization: a job secret\'s authorization must stay a non-empty text (null or empty opens the secret to every job): not restored; set it by hand in Project Settings if that is really wanted',
        'Applied 0 of 1 project.',
      ].join('\n'),
    )
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([])
    expect(secrets()[0].authorization).toBe('on branch "master"')
  }, 60_000)
})

describe('the undo record is never overwritten', () => {
  it('an --undo-output that exists (an earlier record, or the record being undone) is refused with one line, exit 2, before any request; the file is kept', async () => {
    const server = await start()
    const plan = await planFile(server)
    const undo = file('undo.json')
    const first = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(first.code, first.stderr).toBe(0)
    const record = await readFile(undo, 'utf8')
    expect(JSON.parse(record).projects).toHaveLength(2)
    server.reset()
    for (const args of [['--plan', plan], ['--undo', undo]]) {
      const again = await runCli(['fix', ...args, '--apply', '--undo-output', undo], {env: serverEnv(server)})
      expect(again.code).toBe(2)
      expect(again.stderr).toBe(`onedev-audit: error: --undo-output ${undo}: the file exists, and an undo record is never overwritten: choose another name\n`)
    }
    expect(server.requests).toEqual([])
    expect(await readFile(undo, 'utf8')).toBe(record)
  }, 60_000)

  it('the default name (UTC time to the second) takes a suffix when a record of the same second is there', async () => {
    const server = await start()
    const plan = await planFile(server)
    const cwd = await tempDir('oda-fix-undo')
    // A record for each of the next 60 seconds: whenever the run starts, its name is taken.
    const taken = new Map<string, string>()
    const now = Date.now()
    for (let s = 0; s < 60; s++) {
      const name = defaultUndoPath(new Date(now + s * 1000))
      taken.set(name, `{"kept": ${s}}`)
      await writeFile(join(cwd, name), taken.get(name)!)
    }
    const result = await runCli(['fix', '--plan', plan, '--apply'], {env: serverEnv(server), cwd})
    expect(result.code, result.stderr).toBe(0)
    const written = /writing the undo record to (\S+)\n/.exec(result.stderr)![1]!
    expect(written).toMatch(/^onedev-audit-undo-\d{8}-\d{6}-2\.json$/)
    expect(taken.has(written.replace('-2.json', '.json'))).toBe(true)
    expect((await readJson(join(cwd, written))).projects).toHaveLength(2)
    for (const [name, text] of taken) expect(await readFile(join(cwd, name), 'utf8')).toBe(text)
  }, 60_000)
})

describe('plan files', () => {
  it('a plan made from a snapshot, with no server, is applied live', async () => {
    const server = await start()
    const snapshot = file('snapshot.json')
    expect((await runCli(['collect', '--all-projects', '--output', snapshot], {env: serverEnv(server)})).code).toBe(0)
    server.reset()
    const plan = file('plan.json')
    const planned = await runCli(['fix', '--snapshot', snapshot, '--output', plan])
    expect(planned.code, planned.stderr).toBe(1)
    expect(server.requests).toEqual([])
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2)
  }, 60_000)

  it('a plan for another server or prefix, of an unknown version, or edited into nonsense is refused with one line, and nothing is sent', async () => {
    const server = await start()
    const plan = await planFile(server)
    const other = await start()
    const cases: Array<[Record<string, string>, string, string]> = [
      [serverEnv(other), plan, `onedev-audit: error: ${plan} is for ${server.url}, not ${other.url}: nothing was sent`],
      [{...serverEnv(server), ONEDEV_API_PREFIX: '/api'}, plan, `onedev-audit: error: ${plan} is for the API prefix /~api of that server, not /api: nothing was sent`],
    ]
    const document = await readJson(plan)
    const newer = file('newer.json')
    await writeFile(newer, JSON.stringify({...document, planVersion: 2}))
    cases.push([serverEnv(server), newer, `onedev-audit: error: ${newer}: plan format 2 is newer than this onedev-audit reads (1): upgrade onedev-audit`])
    const nonsense = file('nonsense.json')
    document.projects[0].changes[0].edits[0].op = 'move'
    await writeFile(nonsense, JSON.stringify(document))
    cases.push([serverEnv(server), nonsense, `onedev-audit: error: ${nonsense}: not a valid plan file: /projects/0/changes/0/edits/0: Invalid input`])
    for (const [env, path, error] of cases) {
      const result = await runCli(['fix', '--plan', path, '--apply', '--undo-output', file('undo.json')], {env})
      expect(result.code).toBe(2)
      expect(result.stderr.trim().split('\n').at(-1)).toBe(error)
    }
    expect(server.requests).toEqual([])
    expect(other.requests).toEqual([])
  }, 60_000)
})

describe('expectations in plan and undo files', () => {
  it('an edit with no expectation, or none naming its path or what holds it, is refused with one line, and nothing is sent', async () => {
    const server = await start()
    const plan = await planFile(server)
    const document = await readJson(plan)
    const edit = document.projects[0].changes[0].edits[0]
    expect(edit.path).toBe('/branchProtections/1/preventForcedPush')
    const cases: Array<[unknown[], string]> = [
      [[], 'Invalid input'],
      [[{path: '/branchProtections/0/preventForcedPush', value: true}], 'no expectation names its path /branchProtections/1/preventForcedPush or what holds it'],
    ]
    for (const [expectations, error] of cases) {
      const edited = file('edited-plan.json')
      await writeFile(edited, JSON.stringify({...document, projects: [{...document.projects[0], changes: [{...document.projects[0].changes[0], edits: [{...edit, expect: expectations}]}]}, ...document.projects.slice(1)]}))
      const result = await runCli(['fix', '--plan', edited, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
      expect(result.code).toBe(2)
      expect(result.stderr.trim()).toBe(`onedev-audit: error: ${edited}: not a valid plan file: /projects/0/changes/0/edits/0: ${error}`)
    }
    expect(server.requests).toEqual([])

    const undo = file('undo.json')
    expect((await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})).code).toBe(0)
    const record = await readJson(undo)
    record.projects[0].restore[0].expect = [{path: '/tagProtections', value: []}]
    const editedUndo = file('edited-undo.json')
    await writeFile(editedUndo, JSON.stringify(record))
    server.reset()
    const undone = await runCli(['fix', '--undo', editedUndo, '--apply', '--undo-output', file('undo2.json')], {env: serverEnv(server)})
    expect(undone.code).toBe(2)
    expect(undone.stderr.trim()).toBe(`onedev-audit: error: ${editedUndo}: not a valid undo file: /projects/0/restore/0: no expectation names its path /branchProtections/1/preventForcedPush or what holds it`)
    expect(server.requests).toEqual([])
  }, 60_000)
})

describe('what is left to a person', () => {
  const example = join(ROOT, 'examples', 'snapshot.json')

  it('is a digest by default: a change that did not prove out one by one, suggestions and manual steps counted by rule; --verbose and the plan file list each', async () => {
    const plan = file('plan.json')
    const digest = await runCli(['fix', '--snapshot', example, '--output', plan])
    expect(digest.code, digest.stderr).toBe(1)
    const document = await readJson(plan)
    const count = (why: string[]) => document.manual.filter((m: any) => why.includes(m.why)).length
    expect(count(['not-proven'])).toBe(1)
    expect(count(['suggestion'])).toBe(14)
    expect(count(['no-change', 'global'])).toBe(60)
    expect(document.manual).toHaveLength(75)
    const lines = digest.stdout.split('\n')
    const section = (header: string) => lines.slice(lines.indexOf(header) + 1, lines.indexOf('', lines.indexOf(header)))
    expect(section('Not planned: 1 change did not prove out (nothing is sent for these):')).toEqual([
      expect.stringMatching(/^  high     tag-protection\/unprotected-tags "tags": acme\/app: Project Settings > Tag Protection; not planned: tag-protection\/unprotected-tags on "tags" is still reported \(No enabled tag protection applies to tag "nightly-2026-11-01"/),
    ])
    expect(section('Suggestions not asked for: 14 findings (plan them with --suggestions, or one rule with --rule ID):')).toEqual([
      '      4 job-secret/broad-branches in 2 projects (Project Settings > Build > Job Secrets)',
      '      3 notification/insecure-webhook in 2 projects (Project Settings > Web Hooks, or Notification (Slack, Discord, Ntfy))',
      '      2 branch-protection/disabled-rule in 2 projects (Project Settings > Branch Protection)',
      '      2 branch-protection/signature-not-required in 2 projects (Project Settings > Branch Protection)',
      '      1 branch-protection/strict-builds-not-required (Project Settings > Branch Protection)',
      '      1 branch-protection/user-bypass (Project Settings > Branch Protection)',
      '      1 tag-protection/signature-not-required (Project Settings > Tag Protection)',
    ])
    const byHand = section('Left to change by hand: 60 findings no change is offered for (roles, server settings, access, ...; never sent):')
    expect(byHand).toHaveLength(38)
    expect(byHand).toContain('      5 role/unused (Administration > Roles)')
    expect(byHand).toContain('      1 server/docker-socket (Administration)')
    // Issue 34's rules on the example's agents, mail service, service desk, AI user and SSO provider.
    for (const rule of ['server/agent-token-unused', 'server/mail-plaintext', 'server/service-desk-open', 'server/ai-entitled-to-all', 'server/idp-default-group-privileged']) expect(byHand).toContain(`      1 ${rule} (Administration)`)
    expect(digest.stdout).toContain('Each of them with its project, where to change it and why: --verbose, or the plan file (--output).')
    expect(lines.at(-2)).toBe('2 changes (2 fixes, 0 suggestions) in 2 projects, clearing 2 findings; 75 findings left (1 not proven, 14 with a suggestion not asked for, 60 by hand).')

    const verbose = await runCli(['fix', '--snapshot', example, '--verbose'])
    expect(verbose.code, verbose.stderr).toBe(1)
    const each = verbose.stdout.split('\n')
    const start = each.indexOf('Left to change by hand (never sent):')
    expect(each.slice(start + 1, each.indexOf('', start))).toHaveLength(75)
    expect(verbose.stdout).not.toContain('Suggestions not asked for')
  }, 60_000)
})

describe('a legacy server under the contract prefix', () => {
  it('plans and applies in one run in the 8.x shape, after the prefix probe', async () => {
    const server = await start({prefix: '/api', projects: [{id: 3, path: 'legacy/tool', parentId: null}], settings: {3: fixture('legacy/setting-full.json')}})
    const before = structuredClone(server.settings[3]) as any
    const {ONEDEV_API_PREFIX: _prefix, ...env} = serverEnv(server)
    const result = await runCli(['fix', '--all-projects', '--apply', '--suggestions', '--undo-output', file('undo.json')], {env})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    const stored = server.settings[3] as any
    expect(stored.branchProtections[1]).toMatchObject({preventForcedPush: true, signatureRequired: true})
    expect(stored.branchProtections[1]).not.toHaveProperty('commitSignatureRequired')
    expect(stored.buildSetting.jobSecrets.map((s: any) => [s.name, s.value, s.authorizedBranches])).toEqual(
      before.buildSetting.jobSecrets.map((s: any) => [s.name, s.value, s.name === 'deploy-token' ? 'main' : 'develop']),
    )
    clean(result.stdout, result.stderr)
  }, 60_000)
})

/** `fix --plan PLAN --apply` in a child process, once the server has received the POST of project `id`: what it printed and how it ended. */
async function applyUntilPost(server: OneDevServer, plan: string, undo: string, id: number) {
  const child = spawn(process.execPath, [BIN, 'fix', '--plan', plan, '--apply', '--undo-output', undo], {cwd: ROOT, env: {...process.env, ...serverEnv(server), NO_COLOR: '1', XDG_CONFIG_HOME: await testConfigHome()}, stdio: ['ignore', 'pipe', 'pipe']})
  const output = {stdout: '', stderr: ''}
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk))
  const exited = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) => child.on('close', (code, signal) => resolve({code, signal})))
  for (let waited = 0; !server.requests.some((r) => r.method === 'POST' && r.path === `/~api/projects/${id}/setting`); waited += 25) {
    if (waited > 15_000) throw new Error(`the POST never started; stderr: ${output.stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return {child, output, exited}
}

describe('Ctrl-C while applying', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal}: finishes the project in flight, sends nothing after it, writes the undo record of what was applied, and exits 2`, async () => {
      const server = await start()
      const plan = await planFile(server)
      server.override('POST /projects/3/setting', {delayMs: 2000})
      const undo = file('undo.json')
      const {child, output, exited} = await applyUntilPost(server, plan, undo, 3)
      child.kill(signal)
      expect(await exited).toEqual({code: 2, signal: null})
      const {stdout, stderr} = output
      expect(stderr).toContain(`onedev-audit: interrupted${signal === 'SIGINT' ? '' : ' (SIGTERM)'}: finishing the project in flight (or rolling it back), then stopping; the undo record keeps what was applied`)
      expect(stdout).toContain('applied         legacy/tool (#3)')
      expect(stdout).toContain('not sent        acme/app (#2): interrupted: not sent')
      expect(settingRequests(server)).toEqual(['GET /~api/projects/3/setting', 'POST /~api/projects/3/setting', 'GET /~api/projects/3/setting'])
      expect(await readJson(undo)).toMatchObject({complete: false, projects: [{id: 3, path: 'legacy/tool'}]})
      clean(stdout, stderr, await readFile(undo, 'utf8'))
    }, 40_000)
  }

  it('during the last project: it is finished, and the run still exits 2 (a stop was asked for)', async () => {
    const server = await start()
    const plan = await planFile(server)
    server.override('POST /projects/2/setting', {delayMs: 2000})
    const undo = file('undo.json')
    const {child, output, exited} = await applyUntilPost(server, plan, undo, 2)
    child.kill('SIGINT')
    expect(await exited).toEqual({code: 2, signal: null})
    expect(output.stdout).toContain('Applied 2 of 2 projects.')
    expect((await readJson(undo)).projects.map((p: any) => p.id)).toEqual([3, 2])
  }, 40_000)

  it('a run killed outright (SIGKILL) during a POST leaves a whole undo record: every project settled before, and the one in flight in state unknown', async () => {
    const server = await start()
    const plan = await planFile(server)
    // The POST of acme/app is never answered: the change may or may not be stored.
    server.setHandler('POST /projects/2/setting', () => {})
    const undo = file('undo.json')
    const {child, exited} = await applyUntilPost(server, plan, undo, 2)
    const inFlight = {
      id: 2,
      path: 'acme/app',
      state: 'unknown',
      applied: [{op: 'replace', path: '/branchProtections/3/preventDeletion', old: false, new: true}],
      restore: [{op: 'replace', path: '/branchProtections/3/preventDeletion', value: false}],
    }
    const expected = {complete: false, projects: [{id: 3, path: 'legacy/tool', state: 'verified'}, inFlight]}
    // Written before the POST was sent, while it is pending, and sealed so:
    const key = await testUndoKey()
    expect(await readJson(undo)).toMatchObject(expected)
    expect(verdictOf(await readFixFile(undo, 'undo'), key)).toEqual({trusted: true, keyId: key.id})
    child.kill('SIGKILL')
    expect(await exited).toEqual({code: null, signal: 'SIGKILL'})
    const record = await readFixFile(undo, 'undo')
    expect(record).toMatchObject(expected)
    expect(verdictOf(record, key)).toEqual({trusted: true, keyId: key.id})
    // Its restores expect the new value: where the old one is back, undoing it sends nothing.
    expect(record.projects[1]!.restore[0]!.expect[0]).toEqual({path: '/branchProtections/3/preventDeletion', value: true})
    clean(await readFile(undo, 'utf8'))
  }, 40_000)
})

describe('flags', () => {
  it('what cannot be combined, an unknown rule, and nothing to plan are one-line errors, exit 2, before any request', async () => {
    const cases: Array<[string[], string]> = [
      [[], 'nothing to plan: give --project ID (repeatable), --all-projects or --snapshot PATH; or --plan PLAN or --undo UNDO'],
      [['--snapshot', 'examples/snapshot.json', '--apply'], '--apply sends to a server: write the plan from the snapshot with --output, review it, then apply it with --plan PLAN --apply'],
      [['--plan', 'p.json', '--rule', 'branch-protection/force-push-allowed'], '--plan uses the file as it is: it cannot be combined with --project, --all-projects, --snapshot, --rule, --suggestions or --output'],
      [['--snapshot', 'examples/snapshot.json', '--undo-output', 'u.json'], '--undo-output names the undo record --apply writes: give --apply'],
      [['--snapshot', 'examples/snapshot.json', '--rule', 'nope/nope'], '--rule nope/nope: no such rule (see onedev-audit rules)'],
    ]
    for (const [args, message] of cases) {
      const result = await runCli(['fix', ...args])
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toBe(`onedev-audit: error: ${message}\n`)
    }
  }, 60_000)

  it('--rule plans only that rule\'s findings, its suggestions included', async () => {
    const result = await runCli(['fix', '--snapshot', 'examples/snapshot.json', '--rule', 'job-secret/broad-branches'])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('suggestion job-secret/broad-branches: Authorize job secret "npm-token" for the default branch "master" only (authorization: on branch "master")')
    expect(result.stdout).not.toMatch(/branch-protection\//)
  }, 30_000)
})
