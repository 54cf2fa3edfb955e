/**
 * The benchmark's simulator (bench/simulator.mjs) and phases (bench/run.mjs --phase): the bench
 * measures what it claims only if the audit really evaluates access data against the simulator, and
 * if the bare client it is compared with makes exactly the audit's requests.
 */
import {spawn} from 'node:child_process'
import {mkdtemp, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {contractRequestList, requestList, withoutTimestamps} from '../../bench/same.mjs'
import {inFlightOf, runsOfLog, SIMULATED_VERSION, type Simulator, startSimulator} from '../../bench/simulator.mjs'
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
const SIMULATED_SECRET = /sim-(secret|webhook-secret|header|hook-token|slack|access-token|ai-key|registry-password|sso-client-secret|agent-token|smtp-password|imap-password)/

/** Runs one bench phase (a child process, as the bench runs it); what it printed on its last line. */
async function runPhase(phase: string): Promise<Record<string, unknown>> {
  let output = ''
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'run.mjs'), '--phase', phase, '--url', simulator.url, '--concurrency', '4'], {stdio: ['ignore', 'pipe', 'ignore']})
    child.stdout.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('exit', resolve)
  })
  expect(code).toBe(0)
  return JSON.parse(output.trim().split('\n').pop()!) as Record<string, unknown>
}

/** The requests of one bench phase, as a sorted list of paths with sorted queries. */
async function phaseRequests(phase: string): Promise<string[]> {
  simulator.reset()
  await runPhase(phase)
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
    // The version: one request per run, in the bare client too.
    expect(audit.filter((path) => path === '/~api/version/server?')).toHaveLength(1)
    // Issue 34: a handful of requests per server, none per project.
    expect(audit.filter((path) => /^\/~api\/(agents|agent-tokens|settings\/(mail-service|service-desk))\?/.test(path))).toEqual([
      '/~api/agent-tokens?count=100&offset=0',
      '/~api/agents?count=100&offset=0',
      '/~api/settings/mail-service?',
      '/~api/settings/service-desk?',
    ])
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
    expect(report.server.version).toBe(SIMULATED_VERSION)
    const rules = new Set<string>(report.findings.map((finding: {ruleId: string}) => finding.ruleId))
    for (const rule of ['access/direct-push', 'access/secret-reachable', 'access/base-role-broad', 'access/disabled-user-grants', 'role/unused']) expect(rules).toContain(rule)
    // The security setting (with a password policy) is read whole: the checks that need it run.
    for (const rule of ['server/default-group-privileged', 'server/two-factor-not-enforced', 'server/too-many-admins', 'server/token-no-expiry', 'server/agent-token-unused']) expect(rules).toContain(rule)
    // A mail service over TLS and a confidential service desk for one group: judged, nothing found.
    for (const rule of ['server/mail-plaintext', 'server/service-desk-open', 'server/ai-entitled-to-all']) expect(rules).not.toContain(rule)
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

  it('against a server that speaks only the contract, the bare client (a0) asks exactly what the audit (b0) reads there: roles, projects and settings', async () => {
    simulator.setAccess(false)
    simulator.setRepositories(false)
    try {
      const audit = await phaseRequests('contract')
      const read = audit.filter((path) => /^\/~api\/(roles|projects)(\/\d+\/setting)?\?/.test(path))
      expect(read.filter((path) => path.endsWith('/setting?'))).toHaveLength(120)
      // The rest are the endpoints outside the contract, each asked once or twice and found not offered.
      expect(audit.length - read.length).toBeLessThan(60)
      expect(await phaseRequests('baselinecontract')).toEqual(read)
    } finally {
      simulator.setAccess(true)
      simulator.setRepositories(true)
    }
  }, 60_000)

  it('each phase reports its event-loop delay while requests were in flight and the requests it had in flight; the simulator, the mean in flight from its request log', async () => {
    simulator.reset()
    const result = await runPhase('audit')
    for (const key of ['loopDelayP99Ms', 'loopDelayMaxMs', 'clientInFlight', 'cpuMs']) expect(typeof result[key]).toBe('number')
    expect(result.clientInFlight as number).toBeGreaterThan(0)
    expect(result.clientInFlight as number).toBeLessThanOrEqual(4)
    expect(result.loopDelayP99Ms as number).toBeLessThanOrEqual(result.loopDelayMaxMs as number)
    const seen = inFlightOf(simulator.stats.log)
    expect(seen.requests).toBe(simulator.stats.requests)
    expect(seen.meanInFlight).toBeGreaterThan(0)
    expect(seen.meanInFlight).toBeLessThanOrEqual(simulator.stats.maxInFlight)
  }, 60_000)
})

describe('requests in flight, from a request log', () => {
  it('the mean over the span from the first arrival to the last answer', () => {
    // Two requests of 10 ms each, the second starting 5 ms after the first: 20 ms of work over 15 ms.
    expect(inFlightOf([100, 110, 105, 115])).toEqual({requests: 2, spanMs: 15, meanInFlight: 20 / 15})
    expect(inFlightOf([])).toEqual({requests: 0, spanMs: 0, meanInFlight: 0})
  })

  it('a log of several runs, told apart by a pause with nothing in flight', () => {
    const log = ['0.000 10.000 200 /~api/roles', '5.000 15.000 200 /~api/projects', '1000.000 1010.000 200 /~api/roles', '1002.000 1012.000 404 /~api/x', '']
    expect(runsOfLog(log.join('\n'))).toEqual([
      {requests: 2, spanMs: 15, meanInFlight: 20 / 15},
      {requests: 2, spanMs: 12, meanInFlight: 20 / 12},
    ])
    // A client starved of CPU pauses inside its own run: runs told apart by their first request instead.
    const starved = ['0.000 10.000 200 /~api/projects?offset=0&count=100', '100.000 110.000 200 /~api/projects/1/setting', '200.000 210.000 200 /~api/projects?offset=0&count=100', '']
    expect(runsOfLog(starved.join('\n'), Number.POSITIVE_INFINITY, /^\/~api\/projects\?offset=0&/).map((run) => run.requests)).toEqual([2, 1])
  })

  it('the simulator writes the log (--log) as it answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oda-sim-log-'))
    try {
      const file = join(dir, 'requests.log')
      const logged = await startSimulator({projects: 3, roles: 1, users: 2, groups: 2, latency: 0, log: file})
      for (const path of ['/roles?offset=0&count=100', '/projects/1/setting', '/nowhere']) await fetch(`${logged.url}${logged.prefix}${path}`, {headers: {authorization: 'Basic eDp5'}})
      await logged.close()
      const lines = (await readFile(file, 'utf8')).trim().split('\n')
      expect(lines.map((line) => line.split(' ').slice(2))).toEqual([['200', '/~api/roles?offset=0&count=100'], ['200', '/~api/projects/1/setting'], ['404', '/~api/nowhere']])
      expect(runsOfLog(lines.join('\n')).map((run) => run.requests)).toEqual([3])
    } finally {
      await rm(dir, {recursive: true, force: true})
    }
  })
})

describe('bench/same.mjs: the same reports and requests as another build', () => {
  it('compares reports with their timestamps blanked, and nothing else', () => {
    const report = (at: string, findings: number) => JSON.stringify({generatedAt: at, server: {collectedAt: at}, runs: [{invocations: [{startTimeUtc: at, endTimeUtc: at}]}], findings}, null, 2)
    expect(withoutTimestamps(report('2026-11-26T20:00:00.000Z', 3))).toBe(withoutTimestamps(report('2026-11-27T09:30:00.000Z', 3)))
    expect(withoutTimestamps(report('2026-11-26T20:00:00.000Z', 3))).not.toBe(withoutTimestamps(report('2026-11-26T20:00:00.000Z', 4)))
    // A finding's text that happens to hold the word is not touched.
    expect(withoutTimestamps('{"message": "generatedAt 2026"}')).toBe('{"message": "generatedAt 2026"}')
    // The HTML page's time of writing, and the markdown report's, after the tool's version.
    const page = (at: string, findings: number) => `<dt>Report written</dt><dd><time datetime="${at}">${at.slice(0, 10)} ${at.slice(11, 16)} UTC</time> by onedev-audit 0.1.0</dd><p>${findings} findings</p>`
    expect(withoutTimestamps(page('2026-11-26T20:00:00.000Z', 3))).toBe(withoutTimestamps(page('2026-11-27T09:30:00.000Z', 3)))
    expect(withoutTimestamps(page('2026-11-26T20:00:00.000Z', 3))).not.toBe(withoutTimestamps(page('2026-11-26T20:00:00.000Z', 4)))
    const markdown = (at: string, version: string) => `# onedev-audit report\n\nServer: https://onedev.example.com · Snapshot: s.json · collected 2026-01-01T00:00:00.000Z · onedev-audit ${version}, ${at}\n`
    expect(withoutTimestamps(markdown('2026-11-26T20:00:00.000Z', '0.1.0'))).toBe(withoutTimestamps(markdown('2026-11-27T09:30:00.000Z', '0.1.0')))
    expect(withoutTimestamps(markdown('2026-11-26T20:00:00.000Z', '0.1.0'))).not.toBe(withoutTimestamps(markdown('2026-11-26T20:00:00.000Z', '0.2.0')))
    // A time inside a finding's text stays.
    expect(withoutTimestamps('| high | token expires 2026-11-26T20:00:00.000Z |')).toBe('| high | token expires 2026-11-26T20:00:00.000Z |')
  })

  it('compares requests in any order, each counted; against a contract server, the endpoints it lacks by template', () => {
    expect(requestList(['/b', '/a', '/b'])).toEqual(requestList(['/b', '/b', '/a']))
    expect(requestList(['/a', '/b'])).not.toEqual(requestList(['/a', '/b', '/b']))
    const run = (tags: number[]) => ['/~api/roles?offset=0&count=100', '/~api/projects/3/setting', ...tags.map((id) => `/~api/repositories/${id}/tags`)]
    expect(contractRequestList(run([1, 2]))).toEqual(contractRequestList(run([4, 1, 7])))
    expect(contractRequestList(run([1]))).toEqual(['/~api/projects/3/setting', '/~api/roles?offset=0&count=100', 'not offered: /~api/repositories/{id}/tags'])
    expect(contractRequestList(run([]))).not.toEqual(contractRequestList(run([1])))
  })
})
