/**
 * Access auditing against the loopback server: the `access` command, optional endpoints the server
 * does not offer (not evaluated, exit code unchanged), 403 (exit 2), user lists without ids, servers
 * with a project default role instead of base authorizations, and canaries in every new payload.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {expectNoCanary} from '../helpers/canaries.js'
import {runCli} from '../helpers/cli.js'
import {fixture, fixtureServerOptions, serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import {type FixtureAccess, type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {validateAccessJson} from '../helpers/sarif-validate.js'

let server: OneDevServer

beforeAll(async () => {
  server = await startFixtureServer()
})
afterAll(async () => {
  await server.close()
})

function clean(text: string): void {
  expectNoCanary(text)
  expect(text).not.toContain(server.secret)
  expect(text).not.toMatch(/@acme\.example/)
}

describe('onedev-audit access', () => {
  it('prints principals × capabilities with the grants they come from', async () => {
    const result = await runCli(['access', '--project', '2', '--debug'], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(0)
    clean(result.stdout + result.stderr)
    expect(result.stdout).toContain('Project acme/app (#2), branch master')
    expect(result.stdout).toMatch(/anonymous users\s+read-code\s+Code Reader @ acme/)
    expect(result.stdout).toMatch(/group core-devs\s+read-code\s+Code Writer @ acme, Code Reader @ acme/)
    expect(result.stdout).toMatch(/read-secret:old-registry-password\s+Release Bot @ acme\/app/)
    expect(result.stdout).toMatch(/administrator admin\s+read-code\s+administrator/)
    expect(result.stdout).toMatch(/user dave\s+read-code/)
    // Disabled users hold nothing.
    expect(result.stdout).not.toContain('carol')
  })

  it('--format json validates against schemas/access.schema.json; --principal and --branch narrow it', async () => {
    const result = await runCli(['access', '--project', '2', '--branch', 'main', '--principal', 'core-devs', '--format', 'json'], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(0)
    clean(result.stdout)
    const report = JSON.parse(result.stdout)
    expect(validateAccessJson(report)).toEqual([])
    expect(report.project).toEqual({id: 2, path: 'acme/app'})
    expect(report.branch).toBe('main')
    expect(report.principals.map((p: any) => `${p.kind}:${p.name}`)).toEqual(['group:core-devs'])
    // main is protected for them (reviews, no forced push, deletion or creation), but a new branch
    // reaches the secrets any branch (or any job) may use.
    expect(report.principals[0].capabilities.map((c: any) => c.id)).toEqual(['read-code', 'write-code', 'run-jobs', 'read-secret:npm-token', 'read-secret:sonar-login'])
  })

  it('an unknown principal is one clear line and exit 2', async () => {
    const result = await runCli(['access', '--project', '2', '--principal', 'nobody'], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^onedev-audit: error: no principal named "nobody" on project acme\/app \(#2\)/)
  })

  it('a --branch git refuses as a branch name is one clear line and exit 2', async () => {
    const result = await runCli(['access', '--snapshot', 'examples/snapshot.json', '--project', '2', '--branch', '/src/x.java'])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe('onedev-audit: error: --branch "/src/x.java": git refuses this branch name: it begins with "/"\n')
  })

  it('works from a snapshot written by collect', async () => {
    const result = await runCli(['access', '--snapshot', 'examples/snapshot.json', '--project', '3', '--principal', 'everyone'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/every logged-in user\s+read-code\s+Code Writer @ legacy\/tool/)
    expect(result.stdout).toContain('push-without-review')
  })
})

const ENDPOINTS: Array<[keyof FixtureAccess, string]> = [
  ['security', '/settings/security'],
  ['groups', '/groups'],
  ['memberships', '/groups/{id}/memberships'],
  ['groupAuthorizations', '/groups/{id}/authorizations'],
  ['users', '/users'],
  ['baseAuthorizations', '/projects/{id}/base-authorizations'],
  ['groupProjectAuthorizations', '/projects/{id}/group-authorizations'],
  ['userProjectAuthorizations', '/projects/{id}/user-authorizations'],
]

describe('optional endpoints', () => {
  for (const [part, endpoint] of ENDPOINTS) {
    it(`404 on ${endpoint}: not evaluated, listed, exit code unchanged`, async () => {
      const access = {...fixture('access/access.json')}
      delete access[part]
      const partial = await startOneDevServer(fixtureServerOptions({access}))
      try {
        const result = await runCli(['scan', '--all-projects', '--format', 'json'], {env: serverEnv(partial)})
        expect(result.code, result.stderr).toBe(1)
        const report = JSON.parse(result.stdout)
        expect(report.errors).toEqual([])
        expect(report.notices.filter((n: any) => n.kind === 'not-evaluated').map((n: any) => n.message)).toEqual([expect.stringContaining(`GET ${endpoint}: the server does not offer it (404)`)])
      } finally {
        await partial.close()
      }
    })
  }

  it('403 on groups: an error naming the permission, exit 2', async () => {
    server.override('GET /groups', {status: 403, text: 'Access denied'})
    try {
      const result = await runCli(['scan', '--all-projects', '--format', 'json'], {env: serverEnv(server)})
      expect(result.code).toBe(2)
      const report = JSON.parse(result.stdout)
      expect(report.errors.map((e: any) => e.message)).toEqual([expect.stringMatching(/GET \/~api\/groups: 403 Forbidden: Access denied; the audit needs administrator rights/)])
    } finally {
      server.reset()
    }
  })

  it('servers with a project default role (before 11.11): no base-authorizations request, the default role judged', async () => {
    const access = {...fixture('access/access.json')}
    delete access.baseAuthorizations
    const projects = fixtureServerOptions().projects!.map((p) => ({...p, defaultRoleId: p.id === 3 ? 1 : null}))
    const legacy = await startOneDevServer(fixtureServerOptions({access, projects}))
    try {
      const result = await runCli(['scan', '--all-projects', '--format', 'json'], {env: serverEnv(legacy)})
      const report = JSON.parse(result.stdout)
      expect(legacy.requests.filter((r) => r.path.endsWith('/base-authorizations'))).toEqual([])
      expect(report.notices.filter((n: any) => n.kind === 'not-evaluated')).toEqual([])
      const broad = report.findings.filter((f: any) => f.ruleId === 'access/base-role-broad')
      expect(broad.map((f: any) => [f.project.path, f.subject, f.severity])).toEqual([['legacy/tool', 'Project Owner', 'critical']])
      expect(broad[0].message).toContain('Default role "Project Owner" of legacy/tool')
    } finally {
      await legacy.close()
    }
  })

  it('user lists without ids (11.8–14.0): only the users the audit needs are resolved one by one', async () => {
    const access = fixture('access/access.json')
    const byId = Object.fromEntries(access.users.map((u: any) => [u.id, {...u, id: undefined}]))
    const noIds = {...access, users: access.users.map(({id, ...rest}: any) => ({...rest, passwordResetCode: 'CANARY-user-reset-code-list-7f3a'})), usersById: byId}
    const old = await startOneDevServer(fixtureServerOptions({access: noIds}))
    try {
      const result = await runCli(['scan', '--all-projects', '--format', 'json'], {env: serverEnv(old)})
      clean(result.stdout + result.stderr)
      const report = JSON.parse(result.stdout)
      expect(report.errors).toEqual([])
      const resolved = old.requests.map((r) => r.path).filter((p) => /^\/~api\/users\/\d+$/.test(p)).sort()
      // root, the members of groups, the holders of user authorizations: users 1–7 (each once).
      expect(resolved).toEqual(['/~api/users/1', '/~api/users/2', '/~api/users/3', '/~api/users/4', '/~api/users/5', '/~api/users/6', '/~api/users/7'])
      const admins = report.findings.find((f: any) => f.ruleId === 'server/too-many-admins')
      expect(admins.message).toContain('admin and alice; service and AI accounts in administrator groups: ci-bot (service account) and helper (ai account)')
      expect(report.findings.some((f: any) => f.ruleId === 'access/disabled-user-grants' && f.subject === 'carol')).toBe(true)
    } finally {
      await old.close()
    }
  })
})

describe('no secret of the access payloads in any output', () => {
  it('access --format table and json, with --debug', async () => {
    for (const format of ['table', 'json']) {
      const result = await runCli(['access', '--project', '2', '--format', format, '--debug'], {env: serverEnv(server)})
      expect(result.code, result.stderr).toBe(0)
      clean(result.stdout + result.stderr)
    }
  })
})
