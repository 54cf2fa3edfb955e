import {randomBytes} from 'node:crypto'
import {rename, rm, writeFile} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'

/** Writes a file through a temporary sibling and a rename, so readers never see half a file. */
export async function writeFileAtomic(path: string, content: string, mode = 0o644): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await writeFile(temp, content, {mode})
    await rename(temp, path)
  } catch (error) {
    await rm(temp, {force: true})
    throw error
  }
}
