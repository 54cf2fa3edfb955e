/**
 * examples/snapshot.json (what `npm run demo` audits) is what `collect` writes for the fixture server,
 * with the loopback address and the time replaced by stable values. UPDATE_EXAMPLES=1 rewrites it.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {expect, it} from 'vitest'

import {expectNoCanary} from './helpers/canaries.js'
import {ROOT, runCli} from './helpers/cli.js'
import {serverEnv, startFixtureServer} from './helpers/fixture-server.js'
import {tempDir} from './helpers/temp-dir.js'

const EXAMPLE = join(ROOT, 'examples', 'snapshot.json')

function stable(text: string, serverUrl: string): string {
  const snapshot = JSON.parse(text.split(serverUrl).join('https://onedev.example.com'))
  snapshot.collectedAt = '2026-11-01T03:00:00.000Z'
  snapshot.tool.version = 'example'
  return JSON.stringify(snapshot, null, 2) + '\n'
}

it('examples/snapshot.json is what collect writes for the fixture server', async () => {
  const server = await startFixtureServer()
  try {
    const out = join(await tempDir('oda-example'), 'snapshot.json')
    const result = await runCli(['collect', '--all-projects', '--output', out], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(0)
    const expected = stable(await readFile(out, 'utf8'), server.url)
    expectNoCanary(expected)
    if (process.env.UPDATE_EXAMPLES) await writeFile(EXAMPLE, expected)
    expect(await readFile(EXAMPLE, 'utf8')).toBe(expected)
  } finally {
    await server.close()
  }
})

it('npm run demo: the example snapshot gives findings, a clean exit with --fail-on none', async () => {
  const result = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--fail-on', 'none'])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  expect(result.stdout).toMatch(/acme\/app/)
  expect(result.stdout).toMatch(/✖ \d+ findings \(\d+ critical, \d+ high, \d+ medium, \d+ low, \d+ info\)/)
  expect(result.stdout).toMatch(/access\/direct-push/)
  expect(result.stdout).toMatch(/server\/open-sign-up/)
})

it('npm run demo: then the access table of one project', async () => {
  const result = await runCli(['access', '--snapshot', 'examples/snapshot.json', '--project', '2', '--principal', 'core-devs'])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  expect(result.stdout).toMatch(/group core-devs\s+read-code\s+Code Writer @ acme, Code Reader @ acme/)
})
