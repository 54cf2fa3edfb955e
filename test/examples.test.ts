/**
 * examples/snapshot.json (what `npm run demo` audits) is what `collect` writes for the fixture server,
 * with the loopback address and the time replaced by stable values. UPDATE_EXAMPLES=1 rewrites it.
 * The CI examples install onedev-audit only as their project's lockfile pins it (`npm ci`): never by a
 * bare name, which runs whatever the registry serves under it, with an administrator token at hand.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

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

/** npm's words for installing by name (`npm install` and its aliases), and the other tools' ones. */
const BY_NAME = /^(npm (install|i|in|ins|inst|insta|instal|isnt|isnta|isntal|isntall|add|update|up|upgrade)|yarn (add|global|dlx)|pnpm (add|install|i|dlx)|bunx|bun (add|install|x))\b/

/**
 * The commands of a CI file that install or fetch a package without its lockfile pinning it: an
 * install by name, or npx / npm exec without --no (which, with no TTY, installs a missing package from
 * the registry without asking).
 */
function unpinnedInstalls(text: string): string[] {
  const commands = text
    .split('\n')
    .map((line) => line.replace(/^\s*(-\s+)?(run:\s*)?/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .flatMap((line) => line.split(/&&|\|\||[;|]/).map((command) => command.trim()))
  return commands.filter((command) => BY_NAME.test(command) || (/^(npx|npm exec)\b/.test(command) && !/\s--no\b/.test(command)))
}

describe('the CI examples install a pinned, integrity-checked onedev-audit', () => {
  for (const file of ['examples/github-workflow.yml', 'examples/onedev-buildspec.yml']) {
    it(`${file}: npm ci of its project's lockfile, nothing by name`, async () => {
      const text = await readFile(join(ROOT, file), 'utf8')
      expect(unpinnedInstalls(text)).toEqual([])
      expect(text).toMatch(/^\s*(- run: )?npm ci --ignore-scripts\b/m)
    })
  }

  it('an install by name or an npx that may install is found', () => {
    expect(unpinnedInstalls('      - run: npm install -g onedev-audit\n')).toEqual(['npm install -g onedev-audit'])
    expect(unpinnedInstalls('cd x && npm i onedev-audit@latest; npx onedev-audit scan\n# npm install in a comment\n')).toEqual(['npm i onedev-audit@latest', 'npx onedev-audit scan'])
    expect(unpinnedInstalls('yarn add onedev-audit\npnpm dlx onedev-audit\nnpm exec -- onedev-audit\n')).toHaveLength(3)
    expect(unpinnedInstalls('npm ci --ignore-scripts\nnpx --no -- onedev-audit scan\nonedev-audit collect --all-projects\n')).toEqual([])
  })
})
