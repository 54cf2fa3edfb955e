import {readdir, readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {writeChunksAtomic} from '../../src/util/fs.js'
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
