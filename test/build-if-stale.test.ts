/**
 * `npm run demo` builds only when dist/ is older than what it is built from (scripts/build-if-stale.mjs):
 * run in a small tree of its own whose `build` script writes what a build writes and counts its runs.
 */
import {copyFile, mkdir, readdir, readFile, rm, utimes, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {expect, it} from 'vitest'

import {ROOT, runProcess} from './helpers/cli.js'
import {tempDir} from './helpers/temp-dir.js'

it('builds when dist/ is missing, stale after an edit, an added or a removed file, or half-built; else not', async () => {
  const root = await tempDir('oda-stale')
  await mkdir(join(root, 'scripts'))
  await mkdir(join(root, 'src', 'cli'), {recursive: true})
  await copyFile(join(ROOT, 'scripts', 'build-if-stale.mjs'), join(root, 'scripts', 'build-if-stale.mjs'))
  const build = "const fs=require('fs');fs.mkdirSync('dist/cli',{recursive:true});fs.writeFileSync('dist/cli/main.js','');fs.appendFileSync('builds','x');fs.writeFileSync('dist/.built','')"
  await writeFile(join(root, 'package.json'), JSON.stringify({name: 'stale', private: true, scripts: {build: `node -e "${build}"`}}))
  await writeFile(join(root, 'src', 'cli', 'main.ts'), 'export {}\n')
  await writeFile(join(root, 'src', 'other.ts'), 'export {}\n')

  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')))
  const builds = async () => {
    const result = await runProcess(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], {cwd: root, env})
    expect(result.code, result.stderr).toBe(0)
    return (await readFile(join(root, 'builds'), 'utf8').catch(() => '')).length
  }
  /** Everything of the tree dated `seconds` ago, and dist/.built a second later: a fresh build. */
  const age = async (seconds: number) => {
    const then = Date.now() / 1000 - seconds
    const inputs = ['scripts', 'src', ...(await readdir(join(root, 'src'), {recursive: true})).map((path) => join('src', path)), 'scripts/build-if-stale.mjs', 'package.json']
    for (const path of inputs) await utimes(join(root, path), then, then)
    await utimes(join(root, 'dist', '.built'), then + 1, then + 1)
  }

  expect(await builds()).toBe(1)
  await age(100)
  expect(await builds()).toBe(1)

  await writeFile(join(root, 'src', 'cli', 'main.ts'), 'export const edited = 1\n')
  expect(await builds()).toBe(2)
  await age(100)
  expect(await builds()).toBe(2)

  await rm(join(root, 'src', 'other.ts'))
  expect(await builds()).toBe(3)
  await age(100)

  await writeFile(join(root, 'src', 'new.ts'), 'export {}\n')
  expect(await builds()).toBe(4)
  await age(100)
  await rm(join(root, 'src', 'new.ts'))
  await age(100)
  expect(await builds()).toBe(4)

  // A build that stopped half-way leaves no dist/.built; dist/ removed by hand leaves no main.js.
  await rm(join(root, 'dist', '.built'))
  expect(await builds()).toBe(5)
  await age(100)
  await rm(join(root, 'dist', 'cli'), {recursive: true})
  expect(await builds()).toBe(6)
})

it('npm run demo builds only when it must', async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {scripts: Record<string, string>}
  expect(pkg.scripts.demo).toMatch(/^node scripts\/build-if-stale\.mjs && node bin\/run\.js scan /)
})
