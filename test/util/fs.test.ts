import {execFileSync} from 'node:child_process'
import {readdir, readFile, symlink, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {NotRegularFileError, readRegularFile, readTextFile, writeChunksAtomic} from '../../src/util/fs.js'
import {tempDir} from '../helpers/temp-dir.js'

describe('writeChunksAtomic', () => {
  it('writes dozens of files at once (collect --output-dir) with one exit listener, no leak warning, and nothing left behind', async () => {
    const dir = await tempDir('oda-fs')
    const warnings: Error[] = []
    const onWarning = (warning: Error) => warnings.push(warning)
    process.on('warning', onWarning)
    const exitListeners = process.listenerCount('exit')
    let most = 0
    try {
      const chunks = function* (i: number) {
        most = Math.max(most, process.listenerCount('exit') - exitListeners)
        yield `{"file": ${i}}\n`
      }
      await Promise.all(Array.from({length: 40}, (_, i) => writeChunksAtomic(join(dir, `${i}.json`), chunks(i))))
      // Node emits its MaxListenersExceededWarning asynchronously.
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings.map((w) => w.name)).toEqual([])
    expect(most).toBe(1)
    expect(process.listenerCount('exit')).toBe(exitListeners)
    const names = await readdir(dir)
    expect(names.sort((a, b) => Number.parseInt(a) - Number.parseInt(b))).toEqual(Array.from({length: 40}, (_, i) => `${i}.json`))
    expect(await readFile(join(dir, '39.json'), 'utf8')).toBe('{"file": 39}\n')
  })
})

describe('readRegularFile', () => {
  it('reads a regular file, and refuses a named pipe, a device and a folder before opening them (a named pipe would block the open for ever)', async () => {
    const dir = await tempDir('oda-fs-read')
    const path = join(dir, 'file.json')
    await writeFile(path, '{"a": 1}')
    expect(await readTextFile(path)).toBe('{"a": 1}')
    const fifo = join(dir, 'pipe')
    execFileSync('mkfifo', [fifo])
    for (const [target, kind] of [[fifo, 'a named pipe (FIFO)'], ['/dev/null', 'a character device'], [dir, 'a folder']] as const) {
      const error = await readRegularFile(target).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(NotRegularFileError)
      expect((error as NotRegularFileError).code).toBe(`not a regular file: ${kind}`)
    }
  })

  it('follows a symbolic link unless told not to (then ELOOP, as O_NOFOLLOW gives); `check` sees the opened file before it is read', async () => {
    const dir = await tempDir('oda-fs-read')
    const path = join(dir, 'file.json')
    await writeFile(path, 'text')
    await symlink(path, join(dir, 'link'))
    expect(await readTextFile(join(dir, 'link'))).toBe('text')
    await expect(readTextFile(join(dir, 'link'), {noFollow: true})).rejects.toMatchObject({code: 'ELOOP'})
    await expect(readRegularFile(path, {check: (found) => {
      if (found.size === 4) throw new Error('checked')
    }})).rejects.toThrow('checked')
  })
})
