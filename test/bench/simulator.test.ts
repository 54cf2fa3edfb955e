/**
 * The benchmark's simulator (bench/simulator.mjs) and phases (bench/run.mjs --phase): the bench
 * measures what it claims only if the audit really evaluates access data against the simulator, and
 * if the bare client it is compared with makes exactly the audit's requests.
 */
import {spawn} from 'node:child_process'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {type Simulator, startSimulator} from '../../bench/simulator.mjs'
import {ROOT, runCli} from '../helpers/cli.js'

let simulator: Simulator

beforeAll(async () => {
  simulator = await startSimulator({projects: 120, roles: 30, users: 60, groups: 12, latency: 0, record: true})
})
afterAll(async () => {
  await simulator.close()
})

const env = () => ({ONEDEV_URL: simulator.url, ONEDEV_API_PREFIX: simulator.prefix, ONEDEV_USER: 'bench', ONEDEV_TOKEN: 'bench-token-not-a-secret'})

/** Every secret the simulator serves starts so (job secrets, webhook secrets, tokens, passwords, API keys). */
const SIMULATED_SECRET = /sim-(secret|webhook-secret|header|hook-token|slack|access-token|ai-key|registry-password|sso-client-secret)/

/** The requests of one bench phase (a child process, as the bench runs it), as a sorted list of paths with sorted queries. */
async function phaseRequests(phase: string): Promise<string[]> {
  simulator.reset()
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'run.mjs'), '--phase', phase, '--url', simulator.url, '--concurrency', '4'], {stdio: 'ignore'})
    child.on('error', reject)
    child.on('exit', resolve)
  })
  expect(code).toBe(0)
  return simulator.stats.paths
    .map((path) => {
      const url = new URL(path, 'http://sim')
      url.searchParams.sort()
      return `${url.pathname}?${url.searchParams}`
    })
    .sort()
}

describe('bench simulator', () => {
  it('the bare client (a) and the audit client (a2) make exactly the requests of the audit collection (b), access data included', async () => {
    simulator.setAccess(true)
    const audit = await phaseRequests('audit')
    expect(audit.filter((path) => path.includes('-authorizations?'))).toHaveLength(3 * 120)
    expect(audit.filter((path) => path.endsWith('/access-tokens?'))).toHaveLength(60)
    expect(await phaseRequests('baseline')).toEqual(audit)
    expect(await phaseRequests('client')).toEqual(audit)
  }, 60_000)

  it('a scan against it evaluates access: access and server findings, nothing reported not evaluated, no simulated secret in the report', async () => {
    simulator.setAccess(true)
    const result = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none'], {env: env()})
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    const report = JSON.parse(result.stdout)
    expect(report.errors).toEqual([])
    expect(report.notices).toEqual([])
    const rules = new Set<string>(report.findings.map((finding: {ruleId: string}) => finding.ruleId))
    for (const rule of ['access/direct-push', 'access/secret-reachable', 'access/base-role-broad', 'access/disabled-user-grants', 'role/unused']) expect(rules).toContain(rule)
    // The security setting (with a password policy) is read whole: the checks that need it run.
    for (const rule of ['server/default-group-privileged', 'server/two-factor-not-enforced', 'server/too-many-admins', 'server/token-no-expiry']) expect(rules).toContain(rule)
    expect(rules).not.toContain('server/no-password-policy')
    expect(result.stdout).not.toMatch(SIMULATED_SECRET)
  }, 60_000)

  it('with its access endpoints off, each is asked once, reported not evaluated, and no access check reports anything', async () => {
    simulator.setAccess(false)
    try {
      simulator.reset()
      const result = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none'], {env: env()})
      expect(result.code).toBe(0)
      const report = JSON.parse(result.stdout)
      expect(report.errors).toEqual([])
      const endpoints = report.notices.map((notice: {message: string}) => /^GET (.+?): the server does not offer it/.exec(notice.message)?.[1])
      expect(endpoints).toEqual(expect.arrayContaining(['/settings/security', '/groups', '/users', '/projects/{id}/base-authorizations', '/projects/{id}/group-authorizations', '/projects/{id}/user-authorizations', '/settings/job-executors']))
      expect(report.findings.filter((finding: {ruleId: string}) => /^(access|server)\/|^role\/unused$/.test(finding.ruleId))).toEqual([])
      // Found missing once, never asked again for another project.
      expect(simulator.stats.paths.filter((path) => path.endsWith('/base-authorizations')).length).toBeLessThanOrEqual(4)
    } finally {
      simulator.setAccess(true)
    }
  }, 60_000)
})
