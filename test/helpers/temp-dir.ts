/**
 * Temporary directories for a test file, removed when its tests are done (nothing is left in the
 * system's temporary directory, run after run). The removal is registered when this module is
 * imported: vitest evaluates it again for each test file, so each file removes its own.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll} from 'vitest'

const made: string[] = []

afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, {recursive: true, force: true})))
})

/** A new directory `<temporary directory>/<prefix>-XXXXXX`, removed after the test file. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`))
  made.push(dir)
  return dir
}
