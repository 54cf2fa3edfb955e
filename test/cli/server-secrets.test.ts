/**
 * The server hardening data never leaks: a canary in every secret field of the administration
 * endpoints (test/fixtures/server/; the current shapes are served by the fixture server, so
 * test/cli/secrets.test.ts covers them in every format), here in the 8.0.4 and 11.6 shapes and in
 * broken answers, through collect (file and folder), scan --snapshot and error messages, with --debug.
 * Also: a server that offers none of the endpoints is not evaluated, with the exit code unchanged.
 */
import {readdir, readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterEach, beforeAll, describe, expect, it} from 'vitest'

import {expectNoCanary} from '../helpers/canaries.js'
import {runCli} from '../helpers/cli.js'
import {fixture, HARDENED_ADMIN, serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import type {OneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

let dir: string
const started: OneDevServer[] = []

beforeAll(async () => {
  dir = await tempDir('oda-server-secrets')
})
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()))
})

async function start(admin: Record<string, unknown>, access?: Record<string, never>): Promise<OneDevServer> {
  const server = await startFixtureServer({admin, ...(access ? {access} : {})})
  started.push(server)
  return server
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, {withFileTypes: true, recursive: true})
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? (e as any).path, e.name))
}

function expectClean(text: string, server: OneDevServer): void {
  expectNoCanary(text)
  expect(text).not.toContain(server.secret)
}

describe('server hardening data: no secret in any output', () => {
  for (const version of ['v8.0.4', 'v11.6.16']) {
    it(`${version} shapes: collect --output-dir and --output, then scan --snapshot, with --debug`, async () => {
      const server = await start(fixture('server/admin-legacy.json')[version])
      const folder = join(dir, `${version}-dir`)
      const file = join(dir, `${version}.json`)
      for (const target of [['--output-dir', folder], ['--output', file]]) {
        const result = await runCli(['collect', '--all-projects', '--debug', ...target], {env: serverEnv(server)})
        expect(result.code, result.stderr).toBe(0)
        expectClean(result.stdout + result.stderr, server)
      }
      const written = [file, ...(await filesUnder(folder))]
      expect(written.map((path) => path.slice(dir.length))).toContain(`/${version}-dir/server.json`)
      for (const path of written) expectClean(await readFile(path, 'utf8'), server)
      for (const snapshot of [folder, file]) {
        const result = await runCli(['scan', '--snapshot', snapshot, '--format', 'json', '--debug'])
        expect(result.code).toBe(1)
        expectClean(result.stdout + result.stderr, server)
        const findings = JSON.parse(result.stdout).findings.filter((f: any) => f.ruleId.startsWith('server/'))
        expect(findings.map((f: any) => f.ruleId)).toContain('server/shell-executor')
      }
    }, 120_000)
  }

  it('broken answers: truncated JSON and unexpected shapes around secrets stay out of error messages', async () => {
    const server = await start(fixture('server/admin-current.json'))
    server.setHandler('GET /settings/authenticator', (_request, response) => {
      response.writeHead(200, {'content-type': 'application/json'})
      response.end('{"@class": "io.onedev.server.plugin.authenticator.ldap.LdapAuthenticator", "managerPassword": "CANARY-truncated-manager-password-7f3a", "ldapUrl": ')
    })
    server.override('GET /settings/job-executors', {json: {'@type': 'ServerDockerExecutor', registryLogins: [{password: 'CANARY-object-registry-password-7f3a'}]}})
    server.override('GET /sso-providers', {json: [{name: 'okta', connector: 'CANARY-sso-connector-string-7f3a', clientSecret: 'CANARY-sso-misplaced-secret-7f3a'}]})
    for (const format of ['json', 'stylish']) {
      const result = await runCli(['scan', '--all-projects', '--format', format, '--debug'], {env: serverEnv(server)})
      expect(result.code).toBe(2)
      expect(result.stdout + result.stderr).toContain('/settings/authenticator: the answer is not valid JSON')
      expectClean(result.stdout + result.stderr, server)
    }
  }, 60_000)

  it('an error answer that echoes a setting the audit never read: a chosen password (no token shape) is withheld with the whole text', async () => {
    const server = await start(fixture('server/admin-current.json'))
    const password = 'Tr0ub4dor&3 horse CANARY 7f3a'
    server.override('GET /settings/mail-service', {status: 500, text: JSON.stringify({smtpHost: 'mail.acme.example', smtpPassword: password})})
    // An agent token is a UUID (AgentToken.java:25): token-shaped, masked wherever it is quoted.
    const token = 'c4a7e1f0-7f3a-4c1d-9e2b-4f1a2b3c4d5e'
    server.override('GET /agent-tokens', {status: 500, text: `no agent for {"id": 2, "value": "${token}"}, value=${token}`})
    const result = await runCli(['scan', '--all-projects', '--format', 'json', '--debug'], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("GET /~api/settings/mail-service: 500 Internal Server Error: (the server's answer: 79 bytes, not shown: it may quote a secret; --debug-unsafe-server-text prints it)")
    expect(result.stderr).toContain('GET /~api/agent-tokens: 500 Internal Server Error: no agent for {"id": 2, "value": "<redacted>"}, value=<redacted>')
    expect(result.stdout + result.stderr).not.toContain('Tr0ub4dor')
    expect(result.stdout + result.stderr).not.toContain(token)
    expectClean(result.stdout + result.stderr, server)
  }, 60_000)

  it('a server that offers none of the endpoints: each is not evaluated, once, and the exit code is unchanged', async () => {
    const hardened = await start(HARDENED_ADMIN)
    // Neither the administration nor the access endpoints.
    const none = await start({}, {})
    const args = ['scan', '--project', '1', '--format', 'json', '--fail-on', 'critical']
    const baseline = await runCli(args, {env: serverEnv(hardened)})
    expect(baseline.stderr).toBe('')
    const result = await runCli(args, {env: serverEnv(none)})
    expect(result.code).toBe(baseline.code)
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout)
    const notices: string[] = report.notices.map((n: any) => `${n.kind}: ${n.message}`)
    expect(notices.map((line) => /GET (\S+(?: or \S+)?):/.exec(line)?.[1])).toEqual([
      '/agent-tokens', '/agents', '/groups', '/projects/{id}/base-authorizations', '/projects/{id}/group-authorizations', '/projects/{id}/user-authorizations', '/settings/authenticator', '/settings/groovy-scripts', '/settings/job-executors',
      '/settings/mail-service or /settings/mail', '/settings/security', '/settings/service-desk', '/settings/system', '/sso-providers or /settings/sso-connectors', '/users', '/users/{id}/access-tokens',
    ])
    for (const line of notices) expect(line).toMatch(/^not-evaluated: GET .*: the server does not offer it \(404\), so .* were not evaluated$/)
    // On stderr, grouped by family of checks (test/cli/notices.test.ts has the exact text).
    expect(result.stderr).toMatch(/^onedev-audit: not-evaluated: some checks were not evaluated, .*: access model: 6 endpoints the server does not offer; server hardening: 13 endpoints the server does not offer\n$/)
    expect(report.findings.filter((f: any) => f.ruleId.startsWith('server/'))).toEqual([])
  }, 60_000)
})
