/**
 * The hostile corpus (test/helpers/hostile.ts) through every command that writes what it read: a
 * server whose projects hold every corpus value (receivers' URLs with their tokens, credential-named
 * keys, header maps, scp-style remotes), answers that quote a job secret in forms that once passed,
 * and administration answers holding credentials at each version (mail passwords, OAuth secrets,
 * agent tokens, AI API keys, SSO client secrets). No value of the corpus, and no piece of one, may
 * appear in any output, report, snapshot or plan.
 */
import type {ServerResponse} from 'node:http'
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoCanary} from '../helpers/canaries.js'
import {collectToFileAndFolder, runCli} from '../helpers/cli.js'
import {EMPTY_ACCESS, fixture, fixtureServerOptions, serverEnv} from '../helpers/fixture-server.js'
import {brokenAnswers, CORPUS_SECRETS, hostileExecutors, hostileSetting, SPLIT_SECRET, INSECURE_SECRET_URLS, multiLineAnswer, SERVER_SETTING_SECRETS, SERVER_SETTING_SECRET_VALUES, shortAnswers, umlautAnswers, type HostileAnswer} from '../helpers/hostile.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

let server: OneDevServer
let dir: string

beforeAll(async () => {
  const options = fixtureServerOptions({
    settings: {
      1: fixture('current/setting-full.json'),
      2: hostileSetting(fixture('current/setting-full.json')),
      3: hostileSetting(fixture('legacy/setting-full.json')),
      4: {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []},
    },
  })
  // The Docker executors' free-text options hold credentials too.
  options.admin!['/settings/job-executors'] = hostileExecutors(options.admin!['/settings/job-executors'] as Array<Record<string, unknown>>)
  server = await startOneDevServer(options)
  dir = await tempDir('oda-hostile')
})
afterAll(async () => {
  await server.close()
})

/** Fails naming any corpus secret, canary piece or the audit's token the text holds. */
function expectClean(text: string): void {
  expectNoCanary(text)
  expect(CORPUS_SECRETS.filter((secret) => text.includes(secret))).toEqual([])
  expect(text).not.toContain(server.secret)
}

describe('a server holding the hostile corpus', () => {
  it('scan: no corpus value in any report format; the credentials in URLs are still reported, by parameter name only', async () => {
    for (const format of ['json', 'sarif', 'html', 'stylish', 'markdown', 'oscal']) {
      const output = join(dir, `report.${format}`)
      const result = await runCli(['scan', '--all-projects', '--format', format, '--output', output, '--debug'], {env: serverEnv(server)})
      expect(result.code, result.stderr).toBe(1)
      expectClean(result.stdout + result.stderr)
      expectClean(await readFile(output, 'utf8'))
      if (format === 'json') {
        const report = JSON.parse(await readFile(output, 'utf8'))
        const messages = report.findings.filter((f: {ruleId: string}) => f.ruleId === 'notification/credentials-in-url').map((f: {message: string}) => f.message)
        expect(messages.some((m: string) => m.includes('"next"'))).toBe(true)
        expect(messages.some((m: string) => m.includes('"hmac", "pat"'))).toBe(true)
        expect(messages.some((m: string) => m.includes('the path parameter "token"'))).toBe(true)
      }
    }
  }, 120_000)

  it('collect --output and --output-dir: no corpus value in any file written', async () => {
    const file = join(dir, 'snapshot.json')
    const folder = join(dir, 'snapshot-dir')
    const {printed, written} = await collectToFileAndFolder(serverEnv(server), file, folder)
    expectClean(printed)
    for (const text of written) expectClean(text)
    // The snapshot still says where each URL goes, and what the executors' options ask for.
    expect(await readFile(file, 'utf8')).toContain('http://ci.example.com/onedev?hmac=REDACTED&pat=REDACTED&ref=main')
    expect(await readFile(file, 'utf8')).toContain('"runOptions":"--privileged --cap-add SYS_ADMIN -e NPM_TOKEN=<redacted> -e TZ=UTC')
  }, 60_000)

  it("fix: the printed plan and the plan file (its projects' context) hold no corpus value; the http:// URLs are planned to move to https://", async () => {
    const plan = join(dir, 'plan.json')
    const result = await runCli(['fix', '--all-projects', '--suggestions', '--verbose', '--output', plan], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(1)
    expectClean(result.stdout + result.stderr)
    const text = await readFile(plan, 'utf8')
    expectClean(text)
    const edits = JSON.parse(text).projects.flatMap((p: {changes: {edits: {op: string; path: string}[]}[]}) => p.changes.flatMap((c) => c.edits))
    expect(edits.filter((e: {op: string}) => e.op === 'set-scheme').length).toBeGreaterThanOrEqual(INSECURE_SECRET_URLS.length)
  }, 60_000)
})

describe("fix --apply: a refusal quoting a job secret of the posted setting in a form that once passed", () => {
  const cases: HostileAnswer[] = [...umlautAnswers(), multiLineAnswer(), shortAnswers()[0]!, ...brokenAnswers(SPLIT_SECRET)]
  it.each(cases.map((answer) => [answer.name, answer] as const))('%s: the refusal is withheld, no piece of the secret anywhere', async (_, answer) => {
    const setting = fixture('current/setting-full.json')
    setting.buildSetting.jobSecrets[0].value = answer.secret
    const refusing = await startOneDevServer(fixtureServerOptions({access: EMPTY_ACCESS, admin: {}, settings: {...fixtureServerOptions().settings, 2: setting}}))
    try {
      const plan = join(dir, `plan-${answer.name.replace(/\W+/g, '-')}.json`)
      const planned = await runCli(['fix', '--all-projects', '--output', plan], {env: serverEnv(refusing)})
      expect(planned.code, planned.stderr).toBe(1)
      refusing.setHandler('POST /projects/2/setting', (_request: unknown, response: ServerResponse) => {
        response.writeHead(500, {'content-type': answer.contentType, 'content-length': answer.body.length})
        response.end(answer.body)
      })
      const undo = join(dir, `undo-${answer.name.replace(/\W+/g, '-')}.json`)
      const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo, '--debug'], {env: serverEnv(refusing)})
      expect(result.code).toBe(2)
      expect(result.stdout).toContain(
        `REFUSED         acme/app (#2): refused by the server: POST /~api/projects/2/setting: 500 Internal Server Error: (the server's answer: ${answer.body.length.toLocaleString('en-US')} bytes, not shown: it may quote a secret; --debug-unsafe-server-text prints it); the setting is unchanged`,
      )
      for (const output of [result.stdout, result.stderr, await readFile(plan, 'utf8'), await readFile(undo, 'utf8')]) {
        expectNoCanary(output)
        expect(output).not.toMatch(/is not valid|line 2 of the key/)
        // No piece of a broken secret either (its first two thirds were shown).
        if (answer.secret === SPLIT_SECRET) expect(output).not.toContain(SPLIT_SECRET.slice(0, 12))
        if (answer.secret.length >= 4) expect(output).not.toContain(answer.secret)
      }
      // Asked for, the text is printed on stderr: the person at the terminal sees why.
      const unsafe = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', `${undo}-2`, '--debug-unsafe-server-text'], {env: serverEnv(refusing)})
      expect(unsafe.code).toBe(2)
      expect(unsafe.stderr).toMatch(/onedev-audit: unsafe server text: POST \/~api\/projects\/2\/setting 500: (value|line 2 of the key)/)
      expect(unsafe.stdout).not.toMatch(/is not valid|line 2 of the key/)
    } finally {
      await refusing.close()
    }
  }, 60_000)
})

describe('servers whose administration answers hold credentials, at each version (SERVER SETTINGS)', () => {
  // Each batch serves every endpoint at most once: the shapes of one data (16.x, 10.x, Gmail, ...) go to
  // different servers; the older names are asked only when the newer is not offered.
  const slot = (path: string) => ({'/settings/mail': '/settings/mail-service', '/settings/sso-connectors': '/sso-providers'})[path] ?? path
  const batches: Array<typeof SERVER_SETTING_SECRETS[number][]> = []
  for (const entry of SERVER_SETTING_SECRETS) {
    const batch = batches.find((candidate) => !candidate.some((other) => slot(other.path) === slot(entry.path)))
    if (batch) batch.push(entry)
    else batches.push([entry])
  }

  it.each(batches.map((batch, index) => [index + 1, batch] as const))('batch %i: scan (JSON and stylish) and collect to a file and a folder, with --debug: no credential anywhere', async (_, batch) => {
    const admin = Object.fromEntries(batch.map((entry) => [entry.path, entry.payload]))
    const holding = await startOneDevServer(fixtureServerOptions({admin}))
    try {
      const clean = (text: string) => {
        expectNoCanary(text)
        expect(SERVER_SETTING_SECRET_VALUES.filter((secret) => text.includes(secret))).toEqual([])
        expect(text).not.toContain(holding.secret)
      }
      for (const format of ['json', 'stylish']) {
        const result = await runCli(['scan', '--all-projects', '--format', format, '--debug'], {env: serverEnv(holding)})
        expect(result.code, result.stderr).toBe(1)
        clean(result.stdout + result.stderr)
      }
      const {printed, written} = await collectToFileAndFolder(serverEnv(holding), join(dir, `settings-${batch[0]!.name.replace(/\W+/g, '-')}.json`), join(dir, `settings-${batch[0]!.name.replace(/\W+/g, '-')}`))
      clean(printed)
      for (const text of written) clean(text)
      // The snapshot holds each answer, redacted.
      for (const entry of batch) expect(written.some((text) => text.includes(`"${entry.path.slice(1)}":`)), entry.path).toBe(true)
      expect(written.join('')).toContain('<redacted>')
    } finally {
      await holding.close()
    }
  }, 120_000)
})
