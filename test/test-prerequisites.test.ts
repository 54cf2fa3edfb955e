/**
 * `npm test` on a fresh machine: its pretest (scripts/test-prerequisites.mjs) installs Debian's Chromium
 * and a JDK when they are missing, or says in one line how to. Run here with a PATH of stand-ins: an
 * apt-get that logs its arguments and "installs" by creating the binaries, and a javac.
 */
import {chmod, mkdir, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {expect, it} from 'vitest'

import {ROOT, runProcess} from './helpers/cli.js'
import {tempDir} from './helpers/temp-dir.js'

const SCRIPT = join(ROOT, 'scripts', 'test-prerequisites.mjs')
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0

async function machine(options: {chromium: boolean; javac: boolean}) {
  const dir = await tempDir('oda-prereq')
  const bin = join(dir, 'bin')
  await mkdir(bin)
  const chromium = join(dir, 'chromium')
  const script = async (path: string, text: string) => {
    await writeFile(path, `#!/bin/sh\n${text}\n`)
    await chmod(path, 0o755)
  }
  if (options.chromium) await script(chromium, 'exit 0')
  if (options.javac) await script(join(bin, 'javac'), 'exit 0')
  const log = join(dir, 'apt.log')
  // Installs what it is asked for: chromium at the path the tests use, javac on the PATH.
  await script(
    join(bin, 'apt-get'),
    `echo "$DEBIAN_FRONTEND $*" >> "${log}"\n` +
      `case "$*" in *install*chromium*) printf '#!/bin/sh\\nexit 0\\n' > "${chromium}"; /bin/chmod 755 "${chromium}";; esac\n` +
      `case "$*" in *install*openjdk*) printf '#!/bin/sh\\nexit 0\\n' > "${bin}/javac"; /bin/chmod 755 "${bin}/javac";; esac`,
  )
  const run = (extra: Record<string, string> = {}) =>
    runProcess(process.execPath, [SCRIPT], {cwd: dir, env: {PATH: bin, ONEDEV_AUDIT_CHROMIUM: chromium, ...extra}})
  const calls = async () => (await readFile(log, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean)
  return {run, calls}
}

it('nothing to do when Chromium and javac are there', async () => {
  const {run, calls} = await machine({chromium: true, javac: true})
  const result = await run()
  expect(result).toMatchObject({code: 0, stdout: '', stderr: ''})
  expect(await calls()).toEqual([])
})

it('without installing, one line says what is missing and the command that installs it; exit 1', async () => {
  const {run, calls} = await machine({chromium: false, javac: true})
  const result = await run({ONEDEV_AUDIT_NO_INSTALL: '1'})
  expect(result.code).toBe(1)
  expect(result.stderr).toBe('The tests need Chromium (the HTML report tests): install it as root with `apt-get update && apt-get install -y chromium`.\n')
  expect(await calls()).toEqual([])
})

it.runIf(isRoot)('as root, what is missing is installed from Debian\'s packages, then the tests run', async () => {
  const {run, calls} = await machine({chromium: false, javac: false})
  const result = await run()
  expect(result.code, result.stderr).toBe(0)
  expect(result.stderr).toBe('Installing what the tests need, Chromium (the HTML report tests) and a JDK (the Checkstyle and JUnit report tests): apt-get update && apt-get install -y chromium openjdk-17-jdk-headless\n')
  expect(await calls()).toEqual(['noninteractive update -qq', 'noninteractive install -y -qq chromium openjdk-17-jdk-headless'])
  // Installed: a second run does nothing.
  expect(await run()).toMatchObject({code: 0, stderr: ''})
  expect(await calls()).toHaveLength(2)
})

it('package.json runs it before the tests, and .ci/run through it', async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {scripts: Record<string, string>}
  expect(pkg.scripts.pretest).toMatch(/^node scripts\/test-prerequisites\.mjs && /)
  expect(await readFile(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^node scripts\/test-prerequisites\.mjs/m)
})
