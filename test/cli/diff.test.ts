/**
 * `onedev-audit diff` as a user runs it: snapshots collected from the fixture server, a NEW side
 * edited by hand (holding every canary secret of the fixtures: the loader redacts them again), the
 * live server as NEW, and broken snapshots.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoCanary} from '../helpers/canaries.js'
import {runCli} from '../helpers/cli.js'
import {fixture, serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import {closedPort, type OneDevServer} from '../helpers/onedev-server.js'
import {multitoolErrors, validateDiffJson, validateSarif} from '../helpers/sarif-validate.js'
import {tempDir} from '../helpers/temp-dir.js'

let server: OneDevServer
let dir: string
let oldFile: string
let oldDir: string
/** OLD with the raw fixture payloads (every canary in place) instead of the collected ones. */
let withSecrets: string
/** Weakened: force push, a secret's reach, a web hook's secret, a role's privileges; a project renamed. */
let weakened: string

/** Each test spawns the CLI several times; on 2 shared cores with other suites running that takes a while. */
const SLOW = 120_000

type Snapshot = {projects: Array<{id: number; path: string; setting: any}>; roles: any[]}

async function write(name: string, snapshot: unknown): Promise<string> {
  const file = join(dir, name)
  await writeFile(file, JSON.stringify(snapshot))
  return file
}

beforeAll(async () => {
  server = await startFixtureServer()
  dir = await tempDir('oda-diff')
  oldFile = join(dir, 'old.json')
  oldDir = join(dir, 'old-dir')
  for (const args of [['--output', oldFile], ['--output-dir', oldDir]]) {
    const result = await runCli(['collect', '--all-projects', ...args], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(0)
  }
  const raw = (): Snapshot => JSON.parse(JSON.stringify(base))
  const base: Snapshot = JSON.parse(await readFile(oldFile, 'utf8'))
  const secrets = raw()
  secrets.projects.find((p) => p.id === 2)!.setting = fixture('current/setting-full.json')
  secrets.projects.find((p) => p.id === 3)!.setting = fixture('legacy/setting-full.json')
  secrets.roles = fixture('roles.json')
  withSecrets = await write('with-secrets.json', secrets)

  const changed: Snapshot = JSON.parse(JSON.stringify(secrets))
  const app = changed.projects.find((p) => p.id === 2)!
  app.path = 'acme/application'
  // The protection of every branch ("**") decides for the default branch, master.
  app.setting.branchProtections[3].preventForcedPush = false
  app.setting.buildSetting.jobSecrets.find((s: any) => s.name === 'deploy-token').authorization = 'on branch "**"'
  app.setting.webHooks[0].secret = null
  changed.roles.find((r: any) => r.name === 'Issue Reporter').manageProject = true
  weakened = await write('weakened.json', changed)
}, SLOW)
afterAll(async () => {
  await server.close()
})

describe('diff', () => {
  it('the same server as a file and as a folder: no change, exit 0', async () => {
    const result = await runCli(['diff', oldFile, oldDir])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/✔ No change \(\d+ unchanged findings\)\n$/)
  }, SLOW)

  it('secret values are never compared: NEW holding every secret in clear gives no change, and none of them in any output', async () => {
    for (const format of ['stylish', 'json', 'markdown', 'sarif', 'html']) {
      const result = await runCli(['diff', oldFile, withSecrets, '--format', format])
      expect(result.code, result.stderr).toBe(0)
      expectNoCanary(result.stdout)
      expectNoCanary(result.stderr)
    }
    const json = JSON.parse((await runCli(['diff', oldFile, withSecrets, '--format', 'json'])).stdout)
    expect(json.changes).toEqual([])
    expect(json.summary).toMatchObject({weakened: 0, strengthened: 0, neutral: 0, findings: {new: 0, fixed: 0}})
  }, SLOW)

  it('weakenings: the exact changes in JSON (valid against the schema), exit 1, and a rename rather than a removal and an addition', async () => {
    const result = await runCli(['diff', withSecrets, weakened, '--format', 'json'])
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toBe('')
    const report = JSON.parse(result.stdout)
    expect(validateDiffJson(report)).toEqual([])
    expect(report.complete).toBe(true)
    const brief = report.changes.map((c: any) => [c.classification, c.severity ?? null, c.kind, c.change, c.subject, c.aspect, c.before, c.after])
    expect(brief).toEqual([
      ['weakened', 'high', 'branch-protection', 'changed', 'master', 'force push', 'prevented', 'allowed'],
      ['weakened', 'high', 'job-secret', 'changed', 'deploy-token', 'authorization', 'on branch "main"', 'on branch "**"'],
      ['weakened', 'high', 'role', 'changed', 'Issue Reporter', 'Project Management', 'not granted', 'granted'],
      ['weakened', 'medium', 'web-hook', 'changed', 'ci.internal', 'secret', 'set', 'none'],
      ['neutral', null, 'project', 'renamed', 'acme/application', 'path', 'acme/app', 'acme/application'],
    ])
    expect(report.changes.find((c: any) => c.aspect === 'force push').principals).toEqual(['everyone else', 'group(release-bots)'])
    expect(report.findings.new.map((f: any) => f.ruleId).sort()).toEqual([
      // The widened secret is now reachable by whoever can push master without review.
      'access/secret-reachable',
      'branch-protection/force-push-allowed',
      'job-secret/broad-branches',
      'role/over-privileged',
      'webhook/missing-secret',
    ])
    // The renamed project's other findings are unchanged, not fixed and new again. The one fixed:
    // user(admin) was the only one who could force-push master; now everyone can.
    expect(report.findings.fixed.map((f: any) => [f.ruleId, f.subject])).toEqual([['branch-protection/user-bypass', 'master']])
    expect(report.summary).toMatchObject({weakened: 9, strengthened: 1, neutral: 1})
    expectNoCanary(result.stdout)
  }, SLOW)

  it('--fail-on applies to weakenings', async () => {
    expect((await runCli(['diff', withSecrets, weakened, '--fail-on', 'high'])).code).toBe(1)
    expect((await runCli(['diff', withSecrets, weakened, '--fail-on', 'critical'])).code).toBe(0)
    expect((await runCli(['diff', withSecrets, weakened, '--fail-on', 'none'])).code).toBe(0)
  }, SLOW)

  it('stylish and markdown say what weakened, in words', async () => {
    const stylish = await runCli(['diff', withSecrets, weakened])
    expect(stylish.stdout).toContain('weakened      high      Branch "master" (everyone else, group(release-bots)): force push prevented -> allowed.  branch-protection/force-push-allowed')
    expect(stylish.stdout).toContain('Job secret "deploy-token": authorization widened: on branch "main" -> on branch "**".')
    expect(stylish.stdout).toMatch(/✖ 9 weakened \(7 high, 2 medium\), 1 strengthened, 1 neutral; findings: 5 new, 1 fixed, \d+ unchanged\n$/)
    const markdown = await runCli(['diff', withSecrets, weakened, '--format', 'markdown'])
    expect(markdown.stdout).toContain('## Weakened')
    expect(markdown.stdout).toContain('## New findings')
    expectNoCanary(stylish.stdout + markdown.stdout)
  }, SLOW)

  it('SARIF: valid, GitHub-ready, every result with a baselineState, its own category', async () => {
    const output = join(dir, 'diff.sarif')
    const result = await runCli(['diff', withSecrets, weakened, '--format', 'sarif', '--output', output])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^onedev-audit: wrote sarif diff to .*diff\.sarif: 5 changes, 9 weakened\n$/)
    const log = JSON.parse(await readFile(output, 'utf8'))
    expect(validateSarif(log)).toEqual([])
    expect(await multitoolErrors(output)).toEqual([])
    const run = log.runs[0]
    expect(run.automationDetails.id).toBe('onedev-audit-diff/127.0.0.1/'.replace('127.0.0.1', new URL(server.url).host))
    const states = run.results.map((r: any) => r.baselineState)
    expect(states.every((s: string) => ['new', 'unchanged', 'updated', 'absent'].includes(s))).toBe(true)
    expect(run.results.filter((r: any) => r.ruleId.startsWith('drift/')).map((r: any) => [r.ruleId, r.baselineState, r.kind, r.level])).toEqual([
      ['drift/branch-protection', 'updated', 'fail', 'error'],
      ['drift/job-secret', 'updated', 'fail', 'error'],
      ['drift/role', 'updated', 'fail', 'error'],
      ['drift/web-hook', 'updated', 'fail', 'warning'],
      ['drift/project', 'updated', 'informational', 'none'],
    ])
    expect(run.results.filter((r: any) => r.baselineState === 'new' && !r.ruleId.startsWith('drift/'))).toHaveLength(5)
    expectNoCanary(await readFile(output, 'utf8'))
    // Fixed findings are there as absent, and do not fail.
    const back = JSON.parse((await runCli(['diff', weakened, withSecrets, '--format', 'sarif'])).stdout)
    const absent = back.runs[0].results.filter((r: any) => r.baselineState === 'absent' && !r.ruleId.startsWith('drift/'))
    expect(absent).toHaveLength(5)
    expect(absent.every((r: any) => r.kind === 'pass' && r.level === 'none')).toBe(true)
    expect(validateSarif(back)).toEqual([])
  }, SLOW)

  it('across a server upgrade (8.x to 16.x): the same notifications are no change, whichever side knows their channel', async () => {
    const events = (...on: string[]) =>
      Object.fromEntries(
        [['issues', 'issueQuery'], ['pullRequests', 'pullRequestQuery'], ['builds', 'buildQuery'], ['codePush', 'commitQuery'], ['codeComments', 'codeCommentQuery']].flatMap(([flag, query]) => [
          [flag, on.includes(flag!)],
          [query, null],
        ]),
      )
    const snapshot = (setting: unknown) => ({
      snapshotVersion: 1,
      tool: {name: 'onedev-audit', version: 'test'},
      server: {url: 'https://onedev.example.com', apiPrefix: '/~api'},
      collectedAt: '2026-11-01T00:00:00.000Z',
      projects: [{id: 1, path: 'acme/app', name: 'app', parentId: null, audited: true, repository: {defaultBranch: 'main', branches: null, tags: []}, setting}],
      roles: [],
      errors: [],
    })
    const protection = {enabled: true, branches: '**', userMatch: 'anyone', preventForcedPush: true, preventDeletion: true, preventCreation: true, reviewRequirement: 'group(core):1', jobNames: ['ci'], fileProtections: []}
    // 8.x: the contract's top-level list (no channel), and the legacy map keyed by class name.
    const old = await write('upgrade-old.json', snapshot({
      branchProtections: [{...protection, signatureRequired: true}],
      tagProtections: [],
      notifications: [
        {channelNotification: {webhookUrl: 'https://hooks.slack.com/services/T0/B0/XXXX', ...events('issues', 'pullRequests')}},
        {channelNotification: {webhookUrl: 'http://ntfy.example.com/builds', ...events('builds')}},
        {channelNotification: {webhookUrl: 'https://chat.example.com/relay', ...events('codePush')}},
      ],
      contributedSettings: {
        'io.onedev.server.plugin.notification.discord.DiscordNotificationSetting': {
          '@type': 'DiscordNotificationSetting',
          notifications: [
            {channelNotification: {webhookUrl: 'https://discord.com/api/webhooks/1/abc', ...events('builds')}},
            {channelNotification: {webhookUrl: 'https://hooks.example.com/team', ...events('issues')}},
          ],
        },
      },
    }))
    // 16.x: every notification a typed contributed setting. Two really changed: the events of the
    // Discord one, and the channel of hooks.example.com (known on both sides: Discord, now Slack).
    const now = await write('upgrade-new.json', snapshot({
      branchProtections: [{...protection, commitSignatureRequired: true}],
      tagProtections: [],
      contributedSettings: [
        {'@type': 'SlackNotificationSetting', notifications: [{webhookUrl: 'https://hooks.slack.com/services/T0/B0/XXXX', ...events('issues', 'pullRequests')}, {webhookUrl: 'https://hooks.example.com/team', ...events('issues')}]},
        {'@type': 'NtfyNotificationSetting', notifications: [{webhookUrl: 'http://ntfy.example.com/builds', ...events('builds')}]},
        {'@type': 'DiscordNotificationSetting', notifications: [{webhookUrl: 'https://discord.com/api/webhooks/1/abc', ...events('builds', 'codeComments')}, {webhookUrl: 'https://chat.example.com/relay', ...events('codePush')}]},
      ],
    }))
    const [stylish, json] = await Promise.all([runCli(['diff', old, now]), runCli(['diff', old, now, '--format', 'json'])])
    expect(stylish.stderr).toBe('')
    expect(stylish.code).toBe(0)
    expect(stylish.stdout).toBe(
      [
        `from snapshot ${old} (collected 2026-11-01T00:00:00.000Z)`,
        `to   snapshot ${now} (collected 2026-11-01T00:00:00.000Z)`,
        '',
        'acme/app',
        '  neutral                 Discord notification to discord.com: events builds -> builds, code comments.',
        '  neutral                 Notification to hooks.example.com: channel Discord -> Slack.',
        '',
        '✔ 0 weakened, 0 strengthened, 2 neutral; findings: 0 new, 0 fixed, 2 unchanged',
        '',
      ].join('\n'),
    )
    const report = JSON.parse(json.stdout)
    expect(validateDiffJson(report)).toEqual([])
    expect(report.changes.map((c: any) => [c.classification, c.kind, c.change, c.subject, c.aspect, c.before, c.after])).toEqual([
      ['neutral', 'notification', 'changed', 'discord.com', 'events', 'builds', 'builds, code comments'],
      ['neutral', 'notification', 'changed', 'hooks.example.com', 'channel', 'Discord', 'Slack'],
    ])
    // The http:// ntfy notification's finding is the same finding on both sides (8.x could not say it is Ntfy).
    expect(report.findings.new).toEqual([])
    expect(report.findings.fixed).toEqual([])
    // So is the protection's: it requires builds of "ci" but not strict ones on both sides.
    expect(report.findings.unchanged.map((f: any) => [f.ruleId, f.subject])).toEqual([
      ['notification/insecure-webhook', 'ntfy.example.com'],
      ['branch-protection/strict-builds-not-required', 'main'],
    ])
    expect(report.findings.unchanged[0].message.split(' is ')[0]).toBe('Ntfy notification to ntfy.example.com')
  }, SLOW)

  it('a broken or missing snapshot: exit 2 and exactly one line naming the side and the file', async () => {
    const broken = join(dir, 'broken.json')
    await writeFile(broken, '{"snapshotVersion": 1, "projects": [}')
    const result = await runCli(['diff', oldFile, broken])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^onedev-audit: error: NEW snapshot .*broken\.json:1:\d+: invalid JSON[^\n]*\n$/)
    const missing = await runCli(['diff', join(dir, 'nowhere.json'), oldFile])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe(`onedev-audit: error: OLD snapshot ${join(dir, 'nowhere.json')}: cannot read (ENOENT)\n`)
    const newer = join(dir, 'newer.json')
    await writeFile(newer, JSON.stringify({...JSON.parse(await readFile(oldFile, 'utf8')), snapshotVersion: 99}))
    const future = await runCli(['diff', newer, oldFile])
    expect(future.code).toBe(2)
    expect(future.stderr).toMatch(/^onedev-audit: error: OLD snapshot .*newer\.json: snapshot format 99 \(written by onedev-audit [^)]*\) is newer than this onedev-audit reads \(1\): upgrade onedev-audit\n$/)
  }, SLOW)

  it('without NEW: compares OLD with the live server', async () => {
    const result = await runCli(['diff', oldFile, '--all-projects'], {env: serverEnv(server)})
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('No change')
    const missing = await runCli(['diff', oldFile], {env: serverEnv(server)})
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe('onedev-audit: error: NEW is omitted, so the live server is compared: give --all-projects or --project ID (as OLD was collected)\n')
  }, SLOW)

  it('with a live server that cannot be reached: exit 2, incomplete first, nothing "removed" or "fixed", and what was not compared', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const result = await runCli(['diff', oldFile, '--all-projects', '--retries', '0', '--format', 'json'], {env: {ONEDEV_URL: url, ONEDEV_TOKEN: 'x'}})
    expect(result.code).toBe(2)
    const report = JSON.parse(result.stdout)
    expect(validateDiffJson(report)).toEqual([])
    expect(report.complete).toBe(false)
    expect(report.changes).toEqual([])
    expect(report.findings.fixed).toEqual([])
    expect(report.findings.new).toEqual([])
    expect(report.notices.map((n: {message: string}) => n.message)).toContainEqual(expect.stringMatching(/^not compared: \d+ projects that one side could not read \(.*\) are neither added nor removed, and their findings neither new nor fixed; the findings of \d+ rules that one side could not judge/))
    const text = await runCli(['diff', oldFile, '--all-projects', '--retries', '0'], {env: {ONEDEV_URL: url, ONEDEV_TOKEN: 'x'}})
    expect(text.code).toBe(2)
    expect(text.stdout).not.toMatch(/Project .* removed\.|^fixed findings$/m)
    expect(text.stdout).toMatch(/\n✖ Comparison incomplete: \d+ errors \(listed above\)\. Nothing could be compared\n$/)
  }, SLOW)
})
