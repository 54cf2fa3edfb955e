import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoCanary} from '../helpers/canaries.js'
import {runCli} from '../helpers/cli.js'
import {fixture, HARDENED_ADMIN, PARENT_SETTING, serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {multitoolErrors, validateReportJson, validateSarif} from '../helpers/sarif-validate.js'
import {tempDir} from '../helpers/temp-dir.js'

let server: OneDevServer
let dir: string

beforeAll(async () => {
  server = await startFixtureServer()
  dir = await tempDir('oda-scan')
})
afterAll(async () => {
  await server.close()
})

const scan = (args: string[], env: Record<string, string | undefined> = {}, input?: string) =>
  runCli(['scan', ...args], {env: {...serverEnv(server), ...env}, ...(input === undefined ? {} : {input})})

describe('scan against a live server', () => {
  it('audits every project and the roles, with Basic credentials on every request, and exits 1 on findings', async () => {
    server.reset()
    const result = await scan(['--all-projects', '--format', 'json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(1)
    const report = JSON.parse(result.stdout)
    expect(validateReportJson(report)).toEqual([])
    expect(report.complete).toBe(true)
    expect(report.server).toEqual({url: server.url, apiPrefix: '/~api', version: '16.5.6'})
    expect(report.collectedAt).toEqual(expect.any(String))
    expect(report.snapshot).toBeUndefined()
    expect(report.summary).toMatchObject({projects: 4, roles: expect.any(Number), errors: 0})
    // Every request carried the credentials; roles were paged with count=100.
    expect(server.requests.length).toBeGreaterThanOrEqual(6)
    for (const request of server.requests) expect(request.basic).toEqual({user: server.user, secret: server.secret})
    expect(server.requests.filter((r) => r.path === '/~api/roles').map((r) => r.query)).toEqual([{offset: '0', count: '100'}])
    // A null authorization lets any job (fork pull requests included) read npm-token.
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'job-secret/broad-branches',
        severity: 'critical',
        project: {id: 2, path: 'acme/app'},
        subject: 'npm-token',
        pointer: '/buildSetting/jobSecrets/1/authorization',
      }),
    )
    // acme/empty has no protection of its own but inherits acme's: main is protected there.
    expect(report.findings.filter((f: any) => f.project?.path === 'acme/empty' && f.ruleId === 'branch-protection/unprotected-branch')).toEqual([])
    expectNoCanary(result.stdout)
  })

  it('--fail-on decides exit 0 or 1', async () => {
    expect((await scan(['--all-projects', '--format', 'json', '--fail-on', 'none'])).code).toBe(0)
    expect((await scan(['--project', '2', '--format', 'json', '--fail-on', 'critical'])).code).toBe(1)
    // The fixture server's own administration settings have critical findings (server/shell-executor): a hardened one has none.
    const hardened = await startFixtureServer({admin: HARDENED_ADMIN})
    try {
      expect((await runCli(['scan', '--project', '1', '--format', 'json', '--fail-on', 'critical'], {env: serverEnv(hardened)})).code).toBe(0)
    } finally {
      await hardened.close()
    }
  }, 60_000)

  it('--project audits only that project, inheriting from its parent fetched once', async () => {
    server.reset()
    const result = await scan(['--project', '2', '--branch', 'develop', '--format', 'json'])
    const report = JSON.parse(result.stdout)
    expect(report.summary.projects).toBe(1)
    expect(new Set(report.findings.flatMap((f: any) => (f.project ? [f.project.path] : [])))).toEqual(new Set(['acme/app']))
    expect(server.requests.filter((r) => r.path === '/~api/projects/1/setting')).toHaveLength(1)
    // The parent's repository is never read: its branches are not judged.
    expect(server.requests.filter((r) => r.path.startsWith('/~api/repositories/1/'))).toEqual([])
  })

  it('writes SARIF that validates against the official schema and GitHub\'s ingestion rules', async () => {
    const output = join(dir, 'report.sarif')
    const result = await scan(['--all-projects', '--format', 'sarif', '--output', output, '--fail-on', 'none'])
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('')
    // The file holds the report; the console says where, and how the compliance controls stand.
    expect(result.stderr).toMatch(/^onedev-audit: wrote sarif report to .*report\.sarif: \d+ findings, 0 errors\nonedev-audit: CIS SSCS v1\.0: \d+ pass, \d+ fail, \d+ exception, \d+ not evaluated, \d+ manual\nonedev-audit: OSPS Baseline v2026\.02\.19: \d+ pass, \d+ fail, \d+ exception, \d+ not evaluated, \d+ manual\n$/)
    const text = await readFile(output, 'utf8')
    expectNoCanary(text)
    const sarif = JSON.parse(text)
    expect(validateSarif(sarif)).toEqual([])
    expect(await multitoolErrors(output)).toEqual([])
    const results = sarif.runs[0].results
    expect(results.length).toBeGreaterThan(5)
    for (const r of results) {
      expect(r.locations[0].physicalLocation.artifactLocation.uri).toMatch(/^onedev\/(projects\/.+\.json|roles\.json|server\.json)$/)
      expect(r.locations[0].physicalLocation.region.startLine).toBeGreaterThanOrEqual(1)
      expect(Object.keys(r.partialFingerprints)).toContain('primaryLocationLineHash')
    }
  })

  it('fingerprints are stable across runs', async () => {
    const a = JSON.parse((await scan(['--all-projects', '--format', 'json'])).stdout)
    const b = JSON.parse((await scan(['--all-projects', '--format', 'json'])).stdout)
    expect(b.findings.map((f: any) => f.fingerprint)).toEqual(a.findings.map((f: any) => f.fingerprint))
    expect(new Set(a.findings.map((f: any) => f.fingerprint)).size).toBe(a.findings.length)
  })

  it('with more than 10 requests in flight, stderr stays clean (no listener-leak warning from Node)', async () => {
    const projects = Array.from({length: 40}, (_, i) => ({id: i + 1, path: `p${i + 1}`, name: `p${i + 1}`, parentId: null}))
    const settings = Object.fromEntries(projects.map((p) => [p.id, PARENT_SETTING]))
    const repositories = Object.fromEntries(projects.map((p) => [p.id, {defaultBranch: 'main'}]))
    const access = {security: {}, groups: [], users: [], memberships: {}, baseAuthorizations: {}, groupProjectAuthorizations: {}, userProjectAuthorizations: {}}
    const busy = await startOneDevServer({projects, settings, roles: [], repositories, access, admin: fixture('server/admin-current.json')})
    try {
      for (const route of ['GET /projects/*/setting', 'GET /repositories/*/default-branch', 'GET /repositories/*/tags']) busy.override(route, {delayMs: 50})
      const result = await runCli(['scan', '--all-projects', '--concurrency', '16', '--format', 'json', '--fail-on', 'none'], {env: serverEnv(busy)})
      expect(busy.maxInFlight).toBeGreaterThan(10)
      expect(result.stderr).toBe('')
      expect(result.code).toBe(0)
      expect(JSON.parse(result.stdout).summary.projects).toBe(40)
    } finally {
      await busy.close()
    }
  })

  it('reads the secret from standard input with --token-stdin', async () => {
    const result = await scan(['--project', '1', '--format', 'json', '--token-stdin', '--fail-on', 'none'], {ONEDEV_TOKEN: undefined}, `${server.secret}\n`)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
  })
})

describe('scan when things go wrong', () => {
  it('refuses the secret as a flag value without echoing it', async () => {
    const result = await scan(['--all-projects', '--token=hunter2-flag-secret'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--token is not accepted')
    expect(result.stderr + result.stdout).not.toContain('hunter2-flag-secret')
  })

  it('without credentials: a one-line error, exit 2, no request', async () => {
    server.reset()
    const result = await scan(['--all-projects'], {ONEDEV_TOKEN: undefined})
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      'onedev-audit: error: no credentials: set ONEDEV_TOKEN to a password or access token (or pipe it with --token-stdin); the audit needs an administrator\n',
    )
    expect(server.requests).toEqual([])
  })

  it('wrong credentials: 401 is reported without the secret, exit 2', async () => {
    const result = await scan(['--all-projects', '--format', 'json'], {ONEDEV_TOKEN: 'wrong-secret-value-123'})
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/401/)
    expect(result.stderr + result.stdout).not.toContain('wrong-secret-value-123')
    const report = JSON.parse(result.stdout)
    expect(report.complete).toBe(false)
    expect(report.errors[0]).toMatchObject({kind: 'auth', status: 401})
  })

  it('an HTML answer (wrong --api-prefix) says so and suggests /~api', async () => {
    server.override('GET /roles', {html: '<!doctype html><html><body>OneDev</body></html>', status: 200})
    server.override('GET /projects', {html: '<!doctype html><html><body>OneDev</body></html>', status: 200})
    try {
      const result = await scan(['--all-projects', '--format', 'json'], {ONEDEV_API_PREFIX: '/api'})
      expect(result.code).toBe(2)
      expect(result.stderr).toContain('--api-prefix /~api')
    } finally {
      server.reset()
    }
  })

  it('one project that fails does not stop the others; the report is still written with the error', async () => {
    server.override('GET /projects/3/setting', {status: 500, text: 'Internal Server Error\nat com.example.Thing'})
    try {
      const output = join(dir, 'partial.json')
      const result = await scan(['--all-projects', '--format', 'json', '--output', output])
      expect(result.code).toBe(2)
      const report = JSON.parse(await readFile(output, 'utf8'))
      expect(report.complete).toBe(false)
      expect(report.errors).toEqual([
        expect.objectContaining({kind: 'http', status: 500, project: {id: 3, path: 'legacy/tool'}, path: '/~api/projects/3/setting'}),
      ])
      expect(report.findings.some((f: any) => f.project?.path === 'acme/app')).toBe(true)
      expect(report.findings.some((f: any) => f.project?.path === 'legacy/tool')).toBe(false)
      expect(result.stderr).toContain('onedev-audit: error: project legacy/tool (#3): ')
    } finally {
      server.reset()
    }
  })

  it('a project whose payload fails validation names the project and the JSON path', async () => {
    server.override('GET /projects/4/setting', {json: {branchProtections: [{enabled: 'yes', branches: 'main'}]}})
    try {
      const result = await scan(['--project', '4', '--format', 'json'])
      expect(result.code).toBe(2)
      const report = JSON.parse(result.stdout)
      expect(report.errors).toEqual([expect.objectContaining({kind: 'invalid-payload', project: {id: 4, path: 'acme/empty'}})])
      expect(report.errors[0].message).toContain('/branchProtections/0/enabled')
      expect(result.stderr).not.toMatch(/\n\s+at /)
    } finally {
      server.reset()
    }
  })

  it('nothing to audit, unknown format, bad URL: one line, exit 2, no stack', async () => {
    for (const args of [[], ['--all-projects', '--format', 'xml'], ['--all-projects', '--url', 'ftp://x']]) {
      const result = await scan(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
      expect(result.stderr).toMatch(/^onedev-audit: error: /)
    }
  })

  it('flag problems say what is wrong, in one line', async () => {
    const concurrency = await scan(['--all-projects', '--concurrency', '0'])
    expect(concurrency.code).toBe(2)
    expect(concurrency.stderr).toBe('onedev-audit: error: Parsing --concurrency; Expected an integer greater than or equal to 1 but received: 0 (see --help)\n')
    const both = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--project', '3'])
    expect(both.code).toBe(2)
    expect(both.stderr).toBe(
      "onedev-audit: error: --snapshot evaluates every audited project of the snapshot: it cannot be combined with --project or --all-projects (use the configuration's projects.include/exclude to narrow it)\n",
    )
  })

  it('an output path that is a directory, or a broken snapshot, is a one-line error before any work', async () => {
    const toDir = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--output', dir])
    expect(toDir.code).toBe(2)
    expect(toDir.stderr).toBe(`onedev-audit: error: --output ${dir}: is a directory; give a file name\n`)
    const broken = join(dir, 'broken-snapshot.json')
    await writeFile(broken, '{\n  "snapshotVersion": 1,\n  "projects": [}\n')
    const bad = await runCli(['scan', '--snapshot', broken])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe(`onedev-audit: error: ${broken}:3:16: invalid JSON: unexpected character\n`)
  })

  it('--snapshot works with ONEDEV_URL exported in the environment, and makes no request', async () => {
    server.reset()
    const result = await scan(['--snapshot', 'examples/snapshot.json', '--format', 'json', '--fail-on', 'none'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout).snapshot).toBe('examples/snapshot.json')
    expect(server.requests).toEqual([])
  })

  it('a bad configuration fails before any request', async () => {
    server.reset()
    const config = join(dir, 'bad.config.json')
    await writeFile(config, JSON.stringify({rules: {'no/such-rule': 'off'}}))
    const result = await scan(['--all-projects', '--config', config])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^onedev-audit: error: .*bad\.config\.json: \/rules\/no\/such-rule: unknown rule id/)
    expect(server.requests).toEqual([])
  })

  it('--debug logs method, path, status and time, never credentials or secrets', async () => {
    const result = await scan(['--all-projects', '--format', 'json', '--debug'])
    const lines = result.stderr.trim().split('\n')
    expect(lines.some((l) => /^debug: GET \/~api\/roles(\?\S*)? 200 \d+ms$/.test(l))).toBe(true)
    expect(result.stderr).not.toContain(server.secret)
    expect(result.stderr).not.toContain(Buffer.from(`${server.user}:${server.secret}`).toString('base64'))
    expectNoCanary(result.stderr)
  })
})

describe('a finding about a setting inherited from a parent project that is not audited', () => {
  it('says where it is inherited from once, in the console and in SARIF', async () => {
    // acme, not audited, holds a web hook without a secret whose URL carries a password: its children inherit it.
    const snapshot = JSON.parse(await readFile('examples/snapshot.json', 'utf8')) as {projects: {path: string; audited: boolean; setting: {webHooks: unknown[]}}[]}
    const acme = snapshot.projects.find((project) => project.path === 'acme')!
    const app = snapshot.projects.find((project) => project.path === 'acme/app')!
    acme.audited = false
    acme.setting.webHooks = [app.setting.webHooks[1]]
    app.setting.webHooks = []
    const file = join(dir, 'inherited-hook.json')
    await writeFile(file, JSON.stringify(snapshot))

    const stylish = await runCli(['scan', '--snapshot', file, '--fail-on', 'none'])
    expect(stylish.code, stylish.stderr).toBe(0)
    const lines = stylish.stdout.split('\n')
    const empty = lines.indexOf('acme/empty')
    expect(lines.slice(empty, lines.indexOf('', empty) + 1)).toEqual([
      'acme/empty',
      // acme's base role lets every logged-in user upload caches to its children too (access/base-role-cache-upload).
      '  high      Code Reader         Base role "Code Reader" of acme (inherited from acme) lets every logged-in user upload build caches to it and its child projects (Upload Cache): anyone with an account can plant a cache that the project\'s builds, default branch and releases included, restore and run. Choose a base role without Upload Cache, Manage Builds or Manage Project in Settings > Authorization > Base Authorization of acme and grant cache upload to groups instead.  access/base-role-cache-upload',
      '  high      deploy.example.com  Web hook URL to deploy.example.com (inherited from acme) carries user info (user:password@): credentials in a URL are logged by proxies and shown in the settings. Remove the credential from the URL, rotate it, and authenticate with a secret header instead.  notification/credentials-in-url',
      '  medium    deploy.example.com  Web hook to deploy.example.com (inherited from acme) has no secret: the receiver cannot verify that a delivery came from OneDev, so anyone who can reach it can forge events. Set a random secret and have the receiver check it.  webhook/missing-secret',
      '',
    ])
    // The web hook's two findings in acme/app and acme/empty each, and acme's base role in both.
    expect(lines.filter((line) => line.includes('inherited from'))).toHaveLength(6)
    for (const line of lines) expect(line.split('inherited from').length, line).toBeLessThanOrEqual(2)

    const sarif = await runCli(['scan', '--snapshot', file, '--fail-on', 'none', '--format', 'sarif'])
    const texts = (JSON.parse(sarif.stdout) as {runs: {results: {ruleId: string; message: {text: string}}[]}[]}).runs[0]!.results
      .filter((result) => result.ruleId === 'webhook/missing-secret')
      .map((result) => result.message.text)
    expect(texts).toEqual([
      'Web hook to deploy.example.com (inherited from acme) has no secret: the receiver cannot verify that a delivery came from OneDev, so anyone who can reach it can forge events. Set a random secret and have the receiver check it. (project acme/app)',
      'Web hook to deploy.example.com (inherited from acme) has no secret: the receiver cannot verify that a delivery came from OneDev, so anyone who can reach it can forge events. Set a random secret and have the receiver check it. (project acme/empty)',
    ])
  })
})
