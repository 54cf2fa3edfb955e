/**
 * The package as a user gets it: the tarball `npm pack` makes, installed into an empty prefix with the
 * network off (it has no dependency to fetch), and run from a folder that has nothing to do with the
 * repository. It holds only what runs (the bundled CLI, the library entry and its types, the schemas,
 * the licences), has no install script, stays within its size, and its links and stack traces name
 * only what exists where it is installed.
 */
import {copyFile, mkdir, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises'
import {join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'

import {beforeAll, describe, expect, it} from 'vitest'

import {type CliResult, ROOT, runProcess} from './helpers/cli.js'
import {tempDir} from './helpers/temp-dir.js'

/** Runs a program of the machine (npm, node), with no colour and none of the caller's ONEDEV_* variables. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ONEDEV_')))
  return runProcess(command, args, {cwd, env: {...inherited, NO_COLOR: '1', ...env}})
}

/** Every file under `dir`, relative to it, with its size. */
async function filesUnder(dir: string): Promise<Array<{path: string; size: number}>> {
  const entries = await readdir(dir, {recursive: true, withFileTypes: true})
  const files = entries.filter((entry) => entry.isFile())
  return Promise.all(files.map(async (entry) => {
    const full = join(entry.parentPath, entry.name)
    return {path: relative(dir, full).split('\\').join('/'), size: (await stat(full)).size}
  }))
}

/** What the package may hold: what runs, what a plugin's editor reads, the schemas users point at, and the licences. */
const RUNTIME_FILE = new RegExp(
  '^(' +
    [
      'package\\.json',
      'README\\.md',
      'LICENSE',
      'bin/run\\.js',
      'oclif\\.manifest\\.json',
      'dist/cli/(main|commands|not-found)\\.js',
      'dist/cli/chunks/[\\w-]+\\.js',
      'dist/cli/THIRD-PARTY-LICENSES\\.txt',
      'dist/lib/index\\.js',
      'dist/lib/([\\w-]+/)*[\\w-]+\\.d\\.ts',
      'schemas/[\\w-]+\\.schema\\.json',
    ].join('|') +
    ')$',
)

const SNAPSHOT = join(ROOT, 'examples', 'snapshot.json')
let dir: string
let prefix: string
let installed: string
let elsewhere: string
let pack: {filename: string; integrity: string; files: Array<{path: string}>}
let install: CliResult

/** Runs the installed command, as a user would from a folder of their own. */
const cli = (args: string[], cwd = elsewhere) => run(process.execPath, [join(prefix, 'node_modules', '.bin', 'onedev-audit'), ...args], cwd)

beforeAll(async () => {
  dir = await tempDir('oda-package')
  prefix = join(dir, 'prefix')
  elsewhere = await tempDir('oda-elsewhere')
  installed = join(prefix, 'node_modules', 'onedev-audit')
  // The build is fresh (npm test builds first): --ignore-scripts skips prepack's build.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)
  expect(packed.code, packed.stderr).toBe(0)
  pack = (JSON.parse(packed.stdout) as Array<typeof pack>)[0]!
  await writeFile(join(dir, 'package.json'), '{}\n')
  install = await run('npm', ['install', '--prefix', prefix, '--offline', '--cache', join(dir, 'npm-cache'), '--no-audit', '--no-fund', join(dir, pack.filename)], dir)
  expect(install.code, install.stderr).toBe(0)
})

describe('the packed tarball, installed into an empty prefix with the network off', () => {
  it('holds only what runs, has no install script and no dependency, and npm warns about nothing', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'))
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([])
    expect([manifest.dependencies, manifest.optionalDependencies, manifest.peerDependencies]).toEqual([undefined, undefined, undefined])
    expect(install.stderr).not.toMatch(/warn/i)
    expect(pack.integrity).toMatch(/^sha512-/)

    const files = await filesUnder(installed)
    expect(files.map((f) => f.path).filter((path) => !RUNTIME_FILE.test(path))).toEqual([])
    for (const required of ['LICENSE', 'bin/run.js', 'dist/cli/main.js', 'dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/cli/THIRD-PARTY-LICENSES.txt', 'schemas/config.schema.json']) {
      expect(files.map((f) => f.path)).toContain(required)
    }
    // Nothing but the package itself was installed.
    expect((await readdir(join(prefix, 'node_modules'))).sort()).toEqual(['.bin', '.package-lock.json', 'onedev-audit'])
  })

  // 90 files until issue 35's oscal format and verify command, and issue 34's fetchers, added their own chunks (93).
  it('takes at most 12 MB in at most 100 files, dependencies included', async () => {
    const all = await filesUnder(join(prefix, 'node_modules'))
    const bytes = all.reduce((sum, file) => sum + file.size, 0)
    expect(bytes).toBeLessThanOrEqual(12_000_000)
    expect(all.length).toBeLessThanOrEqual(100)
  })

  it('names its licence, repository, homepage and issue tracker', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'))
    expect(manifest.license).toBe('MIT')
    expect(await readFile(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/)
    const repository = 'https://github.com/onedev-audit/onedev-audit'
    expect([manifest.repository?.url, manifest.homepage, manifest.bugs?.url]).toEqual([`git+${repository}.git`, `${repository}#readme`, `${repository}/issues`])
    // Each bundled package's licence ships with the bundle.
    const notices = await readFile(join(installed, 'dist', 'cli', 'THIRD-PARTY-LICENSES.txt'), 'utf8')
    for (const name of ['@oclif/core', 'undici', 'zod']) expect(notices).toMatch(new RegExp(`^${name} \\d+\\.\\d+\\.\\d+ \\(MIT\\)$`, 'm'))
  })
})

describe('the installed command, run from an unrelated folder', () => {
  it('--version, and a scan of the example snapshot', async () => {
    const version = await cli(['--version'])
    expect(version.code, version.stderr).toBe(0)
    expect(version.stdout).toMatch(/^onedev-audit\/0\.1\.0 /)
    const typo = await cli(['scna'])
    expect([typo.code, typo.stderr]).toEqual([2, 'onedev-audit: error: unknown command "scna"; did you mean scan? (see onedev-audit --help)\n'])
    // Help as people ask for it works from the installed bundle too.
    expect(await cli(['scna', '--help'])).toMatchObject({code: 2, stderr: typo.stderr})
    const help = await cli(['help', 'scan'])
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([0, 'Audit a OneDev server (or a snapshot of one) and report what is weak.'])

    const scan = await cli(['scan', '--snapshot', SNAPSHOT, '--format', 'json'])
    expect(scan.code, scan.stderr).toBe(1)
    expect(scan.stderr).toBe('')
    const report = JSON.parse(scan.stdout) as {complete: boolean; findings: unknown[]}
    expect(report.complete).toBe(true)
    expect(report.findings.length).toBeGreaterThan(40)
  })

  it('a live scan reaches the HTTP client (undici is bundled): a refused connection is a one-line error, exit 2', async () => {
    const refused = await run(process.execPath, [join(prefix, 'node_modules', '.bin', 'onedev-audit'), 'scan', '--project', '1', '--api-prefix', '/~api'], elsewhere, {
      ONEDEV_URL: 'http://127.0.0.1:9',
      ONEDEV_TOKEN: 'not-a-real-token',
    })
    expect(refused.code).toBe(2)
    expect(refused.stdout).toMatch(/connection failed \(ECONNREFUSED\)/)
    expect(refused.stderr + refused.stdout).not.toContain('not-a-real-token')
  })

  it('rules show prints links to the repository, none to a file the package does not have', async () => {
    const shown = await cli(['rules', 'show', 'branch-protection/force-push-allowed'])
    expect(shown.code, shown.stderr).toBe(0)
    const targets = [...shown.stdout.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!)
    expect(targets.length).toBeGreaterThanOrEqual(3)
    for (const target of targets) {
      expect(target).toMatch(/^https:\/\/github\.com\/onedev-audit\/onedev-audit\/blob\/main\//)
      // ...and each names a file of the repository.
      const path = decodeURIComponent(new URL(target).pathname.replace('/onedev-audit/onedev-audit/blob/main/', ''))
      await expect(stat(join(ROOT, path)), target).resolves.toBeTruthy()
    }
  })

  it('--debug stack traces name files the package ships', async () => {
    // A plugin that throws while its rules are read: an error no check expects.
    await writeFile(join(elsewhere, 'plugin.mjs'), "export default {get rules() { throw new Error('the plugin broke') }}\n")
    await writeFile(join(elsewhere, 'onedev-audit.config.json'), JSON.stringify({plugins: ['./plugin.mjs']}))
    const result = await cli(['scan', '--snapshot', SNAPSHOT, '--debug'])
    expect(result.code).toBe(2)
    const frames = [...result.stderr.matchAll(/^ {4}at .*?\(?(file:\/\/\/[^:]+|\/[^:]+):\d+:\d+\)?$/gm)].map((m) => (m[1]!.startsWith('file:') ? fileURLToPath(m[1]!) : m[1]!))
    const ours = frames.filter((file) => file.startsWith(installed))
    expect(ours.length).toBeGreaterThanOrEqual(3)
    for (const file of frames) {
      expect(file.startsWith(installed) || file === join(elsewhere, 'plugin.mjs'), file).toBe(true)
      await expect(stat(file), file).resolves.toBeTruthy()
    }
  })

  it('a plugin written in TypeScript against the installed library entry type-checks, and runs', async () => {
    // A folder of the user's, below the prefix: 'onedev-audit' resolves from the prefix's node_modules.
    const project = join(prefix, 'plugin')
    await mkdir(project)
    await writeFile(join(project, 'package.json'), JSON.stringify({type: 'module'}))
    const source =
      "import {defineRule, type ProjectContext} from 'onedev-audit'\n" +
      'const deletable = (context: ProjectContext<Record<string, unknown>>) => (context.project.setting?.branchProtections ?? []).filter((p) => !p.preventDeletion)\n' +
      'export const rules = [defineRule({\n' +
      "  meta: {id: 'acme/deletable', shortDescription: 'd', fullDescription: 'd', help: 'h', defaultSeverity: 'high', tags: [], scope: 'project'},\n" +
      "  check: (context) => deletable(context as ProjectContext<Record<string, unknown>>).map((p) => ({subject: p.branches ?? '', pointer: p.pointer, message: 'deletable'})),\n" +
      '})]\n'
    await writeFile(join(project, 'rules.ts'), source)
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--strict', '--noEmit', '--module', 'nodenext', '--target', 'es2022', 'rules.ts'], project)
    expect(tsc.stdout + tsc.stderr).toBe('')
    expect(tsc.code).toBe(0)

    // The same rule as JavaScript, which the CLI loads.
    const javascript = source.replace(', type ProjectContext', '').replaceAll(': ProjectContext<Record<string, unknown>>', '').replaceAll(' as ProjectContext<Record<string, unknown>>', '')
    await writeFile(join(project, 'rules.mjs'), javascript)
    await writeFile(join(project, 'onedev-audit.config.json'), JSON.stringify({plugins: ['./rules.mjs']}))
    const scan = await cli(['scan', '--snapshot', SNAPSHOT, '--config', join(project, 'onedev-audit.config.json'), '--format', 'json', '--fail-on', 'none'])
    expect(scan.code, scan.stderr).toBe(0)
    const findings = (JSON.parse(scan.stdout) as {findings: Array<{ruleId: string; subject: string}>}).findings
    expect(findings.filter((f) => f.ruleId === 'acme/deletable').map((f) => f.subject)).toEqual(['**'])
  })
})

describe('the audit project of docs/ci.md, which pins the tarball', () => {
  it('npm ci installs exactly the tarball its lockfile names, offline, and refuses it altered', async () => {
    const project = await tempDir('oda-audit-project')
    await mkdir(join(project, 'vendor'))
    await copyFile(join(dir, pack.filename), join(project, 'vendor', pack.filename))
    await writeFile(join(project, 'package.json'), '{"private": true}\n')
    const npm = (args: string[], cache = join(project, 'npm-cache')) => run('npm', [...args, '--offline', '--cache', cache, '--no-audit', '--no-fund'], project)
    const added = await npm(['install', '--save-exact', `./vendor/${pack.filename}`])
    expect(added.code, added.stderr).toBe(0)
    expect(JSON.parse(await readFile(join(project, 'package.json'), 'utf8')).dependencies).toEqual({'onedev-audit': `file:vendor/${pack.filename}`})
    const locked = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')).packages['node_modules/onedev-audit']
    expect(locked.integrity).toBe(pack.integrity)

    await rm(join(project, 'node_modules'), {recursive: true})
    const ci = await npm(['ci', '--ignore-scripts'])
    expect(ci.code, ci.stderr).toBe(0)
    const version = await run(process.execPath, [join(project, 'node_modules', '.bin', 'onedev-audit'), '--version'], project)
    expect(version.stdout).toMatch(/^onedev-audit\/0\.1\.0 /)

    // The same name and size, one byte of its content changed: npm ci refuses it (with a cache that does
    // not hold the pinned tarball already: npm takes it from there by its sha512 when it does).
    const tarball = join(project, 'vendor', pack.filename)
    const bytes = await readFile(tarball)
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff
    await writeFile(tarball, bytes)
    await rm(join(project, 'node_modules'), {recursive: true})
    const refused = await npm(['ci', '--ignore-scripts'], join(project, 'empty-cache'))
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/corrupted|EINTEGRITY/)
    await expect(stat(join(project, 'node_modules', 'onedev-audit', 'bin', 'run.js'))).rejects.toThrow()
  })
})
