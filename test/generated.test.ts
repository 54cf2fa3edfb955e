import {execFile} from 'node:child_process'
import {cp, mkdtemp, readFile, rm, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {promisify} from 'node:util'

import {expect, it} from 'vitest'

const root = process.cwd()

async function check(cwd: string, preload: string[] = []): Promise<{code: number; stderr: string}> {
  return promisify(execFile)(process.execPath, [...preload, join(cwd, 'scripts/generate.mjs'), '--check'], {cwd}).then(
    () => ({code: 0, stderr: ''}),
    (error: {code: number; stderr: string}) => ({code: error.code, stderr: error.stderr}),
  )
}

// `npm test` builds dist/ first; the check compares every generated file with what the sources give now.
it('generated files (types, rules/index.ts, config schema, oclif manifest, docs) are up to date', async () => {
  const result = await check(root)
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
}, 60_000)

// oclif discovers commands by reading the command directories concurrently; under load the answers
// come in another order. The preload forces that order: the manifest must not change with it.
it('the oclif manifest does not depend on the order the command directories are read in', async () => {
  const result = await check(root, ['--import', join(root, 'test/helpers/readdir-race.mjs')])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
}, 60_000)

it('the check still fails when a command\'s flags change and nothing was regenerated', async () => {
  const copy = await mkdtemp(join(tmpdir(), 'onedev-audit-generated-'))
  try {
    const parts = ['package.json', 'oclif.manifest.json', 'scripts', 'schemas', 'rules', 'docs', 'dist', 'src/report/report-types.ts', 'src/snapshot/snapshot-types.ts']
    for (const part of parts) await cp(join(root, part), join(copy, part), {recursive: true})
    await symlink(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir')
    expect(await check(copy)).toEqual({code: 0, stderr: ''})

    const scan = join(copy, 'dist/src/commands/scan.js')
    const before = await readFile(scan, 'utf8')
    const description = 'Audit every project the credentials can see (pages through GET /projects).'
    expect(before).toContain(description)
    await writeFile(scan, before.replace(description, 'Audit every project.'))
    const result = await check(copy)
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('stale generated files: oclif.manifest.json, docs/commands.md (run npm run generate)\n')
  } finally {
    await rm(copy, {recursive: true, force: true})
  }
}, 60_000)
