import {spawn} from 'node:child_process'

import {expect, it} from 'vitest'

import {BIN, ROOT} from '../helpers/cli.js'
import {serverEnv, startFixtureServer} from '../helpers/fixture-server.js'

it('Ctrl-C during collection writes the report from what was collected, says what was not, and exits 2', async () => {
  const server = await startFixtureServer()
  // Projects 3 and 4 answer slowly: they are in flight when the user presses Ctrl-C.
  server.override('GET /projects/3/setting', {delayMs: 20_000})
  server.override('GET /projects/4/setting', {delayMs: 20_000})
  try {
    const child = spawn(process.execPath, [BIN, 'scan', '--all-projects', '--format', 'json', '--concurrency', '4'], {
      cwd: ROOT,
      env: {...process.env, ...serverEnv(server), NO_COLOR: '1'},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))

    const inFlight = () => ['/~api/projects/3/setting', '/~api/projects/4/setting'].every((path) => server.requests.some((r) => r.path === path))
    for (let waited = 0; !inFlight(); waited += 50) {
      if (waited > 15_000) throw new Error(`the slow requests never started; stderr: ${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const interruptedAt = Date.now()
    child.kill('SIGINT')
    const code = await exited
    expect(Date.now() - interruptedAt).toBeLessThan(10_000)

    expect(code).toBe(2)
    expect(stderr).toContain('onedev-audit: interrupted: finishing with what was collected (press Ctrl-C again to quit at once)')
    const report = JSON.parse(stdout)
    expect(report.complete).toBe(false)
    expect(report.errors).toEqual([{kind: 'interrupted', message: 'interrupted: 2 of 4 projects were not collected; the report holds what was', project: null}])
    expect(report.summary.projects).toBe(2)
    // Findings only of the two projects collected: acme/app's, and acme's base role (access/base-role-cache-upload)
    // when its base authorizations were read before the interruption (a race the test does not fix).
    const withFindings = new Set<string>(report.findings.filter((f: any) => f.project).map((f: any) => f.project.path))
    expect(withFindings).toContain('acme/app')
    expect([...withFindings].filter((path) => path !== 'acme' && path !== 'acme/app')).toEqual([])
    expect(report.summary.roles).toBeGreaterThan(0)
  } finally {
    await server.close()
  }
}, 40_000)
