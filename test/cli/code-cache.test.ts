/**
 * The start-up code cache (bin/run.js): a second start compiles the bundle's scripts from it, and a
 * cache that is corrupt, turned off or in a directory others can write to changes nothing a user sees
 * (same report, same exit code), and is rewritten or left alone.
 */
import {chmod, mkdtemp, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'

const SCAN = ['scan', '--snapshot', 'examples/snapshot.json', '--format', 'json', '--fail-on', 'high', '--debug']
let root: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'onedev-audit-code-cache-test-'))
})
afterEach(async () => {
  await chmod(root, 0o700).catch(() => undefined)
  await rm(root, {recursive: true, force: true})
})

/** The scan with the cache in `dir`; its output, exit code and what the debug line says of the cache. */
async function scan(dir: string) {
  const result = await runCli(SCAN, {env: {ONEDEV_AUDIT_CODE_CACHE: dir}})
  const line = result.stderr.split('\n').find((l) => l.startsWith('debug: code cache '))
  const counts = line && /: (\d+) of (\d+) scripts compiled from it(?:, (\d+) written)?$/.exec(line)
  return {
    code: result.code,
    report: result.stdout.replace(/"generatedAt": "[^"]*"/, '"generatedAt": …'),
    line,
    used: counts ? Number(counts[1]) : undefined,
    scripts: counts ? Number(counts[2]) : undefined,
    written: counts ? Number(counts[3] ?? 0) : undefined,
  }
}

/** The cache files, by path, with their inode numbers (a rewritten file is a new one: temporary file and rename). */
async function cacheFiles(dir: string): Promise<Map<string, number>> {
  const files = new Map<string, number>()
  for (const entry of await readdir(dir, {recursive: true, withFileTypes: true})) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name)
      files.set(path, (await stat(path)).ino)
    }
  }
  return files
}

describe('the code cache', () => {
  it('is written by a first start and used by the second, with the same report', async () => {
    const first = await scan(root)
    expect(first.code).toBe(1)
    expect(first.scripts).toBeGreaterThan(2)
    expect(first.used).toBe(0)
    expect(first.written).toBe(first.scripts)
    const files = await cacheFiles(root)
    expect(files.size).toBe(first.scripts)
    expect([...files.keys()].some((path) => path.endsWith('.tmp'))).toBe(false)

    const second = await scan(root)
    expect(second).toMatchObject({code: 1, report: first.report, used: first.scripts, scripts: first.scripts, written: 0})
    expect(await cacheFiles(root)).toEqual(files)
  })

  it('a corrupt cache file is ignored and rewritten: same report, same exit code', async () => {
    const clean = await scan(root)
    const files = [...(await cacheFiles(root)).keys()]
    // One flipped byte inside the compiled code (V8 itself would not notice), one truncated, one garbage, one empty.
    for (const [index, path] of files.entries()) {
      const content = await readFile(path)
      if (index % 4 === 0) content[Math.floor(content.length / 2)]! ^= 0x55
      await writeFile(path, [content, content.subarray(0, content.length >> 1), Buffer.from('not compiled code'), Buffer.alloc(0)][index % 4]!)
    }
    const corrupt = await scan(root)
    expect(corrupt).toMatchObject({code: clean.code, report: clean.report, used: 0, written: clean.scripts})
    expect((await scan(root)).used).toBe(clean.scripts)
  })

  it('is neither read nor written when turned off', async () => {
    const result = await runCli(SCAN, {env: {ONEDEV_AUDIT_CODE_CACHE: 'off'}})
    const reference = await scan(root)
    expect(result.code).toBe(reference.code)
    expect(result.stdout.replace(/"generatedAt": "[^"]*"/, '"generatedAt": …')).toBe(reference.report)
    expect(result.stderr).not.toContain('debug: code cache')
  })

  it.skipIf(process.platform === 'win32')('is ignored in a directory others can write to', async () => {
    await scan(root)
    const files = await cacheFiles(root)
    await chmod(root, 0o777)
    const result = await scan(root)
    expect(result).toMatchObject({code: 1, used: 0, written: 0})
    expect(await cacheFiles(root)).toEqual(files)
  })
})
