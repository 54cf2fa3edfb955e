import {readdirSync, readFileSync} from 'node:fs'
import {readdir, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {PassThrough} from 'node:stream'

import fc from 'fast-check'
import {beforeAll, describe, expect, test} from 'vitest'

import {linesText, textOf, trimmedLinesText} from '../../src/report/chunks.js'
import {findingOf, findingText} from '../../src/report/json.js'
import {jsonDocument, LazyArray, LazyObject, prettyJson} from '../../src/report/json-stream.js'
import type {Finding} from '../../src/types/report-types.js'
import {batched, WRITE_BATCH, writeChunksAtomic, writeChunksTo} from '../../src/util/fs.js'
import {tempDir} from '../helpers/temp-dir.js'

/** The same value with every object and array made lazy (arrays through a mapping, to exercise it). */
function lazy(value: unknown): unknown {
  if (Array.isArray(value)) return new LazyArray(value, lazy)
  if (value !== null && typeof value === 'object') {
    return new LazyObject(Object.fromEntries(Object.entries(value).map(([key, member]) => [key, lazy(member)])))
  }
  return value
}

const json = fc.jsonValue({maxDepth: 4})

describe('prettyJson', () => {
  test('writes exactly what JSON.stringify(value, null, 2) writes, lazy containers or not', () => {
    fc.assert(
      fc.property(json, (value) => {
        const expected = JSON.stringify(value, null, 2)
        expect(textOf(prettyJson(value))).toBe(expected)
        expect(textOf(prettyJson(lazy(value)))).toBe(expected)
        expect(textOf(jsonDocument(lazy(value)))).toBe(`${expected}\n`)
      }),
      {numRuns: 500},
    )
  })

  test('leaves out members JSON.stringify leaves out, and writes null for array items it cannot represent', () => {
    const value = {a: undefined, b: () => 1, c: [undefined, () => 1, 2], d: {}, e: [], f: 'x\n"y"\u2028'}
    const lazyValue = new LazyObject({...value, c: new LazyArray(value.c), d: new LazyObject({}), e: new LazyArray([])})
    expect(textOf(prettyJson(lazyValue))).toBe(JSON.stringify(value, null, 2))
  })

  test('an item is mapped only when the writer reaches it', () => {
    const mapped: number[] = []
    const pieces = prettyJson(new LazyObject({items: new LazyArray([1, 2, 3], (n) => (mapped.push(n), {n}))}))
    pieces.next()
    expect(mapped).toEqual([])
    pieces.next()
    expect(mapped).toEqual([1])
  })
})

describe('lines as text', () => {
  const lines = fc.array(fc.oneof(fc.constant(''), fc.constant('\n'), fc.string({maxLength: 5}), fc.constant('a\n')), {maxLength: 12})

  test('linesText is lines.join("\\n") + "\\n"', () => {
    fc.assert(fc.property(lines, (list) => {
      expect(textOf(linesText(list))).toBe(`${list.join('\n')}\n`)
    }))
  })

  test('trimmedLinesText drops the blank lines at the end, like join + replace(/\\n+$/)', () => {
    fc.assert(fc.property(lines, (list) => {
      expect(textOf(trimmedLinesText(list))).toBe(`${list.join('\n').replace(/\n+$/, '')}\n`)
    }))
  })
})

describe('writing pieces', () => {
  let dir: string
  beforeAll(async () => {
    dir = await tempDir('oda-write')
  })

  test('small pieces are written in batches of about 64 KiB, a large one alone', () => {
    const small = Array.from({length: 10_000}, (_, i) => `piece ${i} `)
    const batches = [...batched(small)]
    expect(batches.join('')).toBe(small.join(''))
    expect(batches.slice(0, -1).every((batch) => batch.length >= WRITE_BATCH && batch.length < WRITE_BATCH + 20)).toBe(true)
    const large = 'x'.repeat(3 * WRITE_BATCH)
    expect([...batched(['a', large, 'b'])]).toEqual([`a${large}`, 'b'])
    expect([...batched([])]).toEqual([])
  })

  test('a file appears whole: the previous one stays until the new one is complete, and no temporary file is left', async () => {
    const path = join(dir, 'report.json')
    await writeFile(path, 'previous report\n')
    const text = Array.from({length: 50_000}, (_, i) => `line ${i} é ✓\n`)
    let midway: {report: string; files: string[]} | undefined
    function* pieces() {
      yield* text.slice(0, 25_000)
      // Half-way through, the reader still sees the whole previous report, beside a hidden temporary file.
      midway = {report: readFileSync(path, 'utf8'), files: readdirSync(dir)}
      yield* text.slice(25_000)
    }
    await writeChunksAtomic(path, pieces())
    expect(midway!.report).toBe('previous report\n')
    expect(midway!.files).toEqual([expect.stringMatching(/^\.report\.json\.[0-9a-f]{12}\.tmp$/), 'report.json'])
    expect(await readFile(path, 'utf8')).toBe(text.join(''))
    expect(await readdir(dir)).toEqual(['report.json'])
  })

  test('a formatter that fails leaves the previous file and no temporary file', async () => {
    const path = join(dir, 'kept.json')
    await writeFile(path, 'previous\n')
    function* failing() {
      yield 'x'.repeat(2 * WRITE_BATCH)
      throw new Error('formatter failed')
    }
    await expect(writeChunksAtomic(path, failing())).rejects.toThrow('formatter failed')
    expect(await readFile(path, 'utf8')).toBe('previous\n')
    expect((await readdir(dir)).filter((name) => name.includes('kept'))).toEqual(['kept.json'])
  })

  test('createOnly writes a new file whole and never replaces one that is there (EEXIST), leaving no temporary file', async () => {
    const path = join(dir, 'record.json')
    await writeChunksAtomic(path, ['first\n'], 0o600, true)
    expect(await readFile(path, 'utf8')).toBe('first\n')
    await expect(writeChunksAtomic(path, ['second\n'], 0o600, true)).rejects.toMatchObject({code: 'EEXIST'})
    expect(await readFile(path, 'utf8')).toBe('first\n')
    expect((await readdir(dir)).filter((name) => name.includes('record'))).toEqual(['record.json'])
  })

  test('a stream that waits for drain gets everything, in order; a reader that goes away ends the writing quietly', async () => {
    const stream = new PassThrough({highWaterMark: 1024})
    const received: string[] = []
    stream.setEncoding('utf8').on('data', (chunk: string) => received.push(chunk))
    const text = Array.from({length: 20_000}, (_, i) => `${i},`)
    expect(await writeChunksTo(stream, text)).toBe(true)
    expect(received.join('')).toBe(text.join(''))

    const closed = new PassThrough({highWaterMark: 1024})
    let produced = 0
    function* endless() {
      for (;;) {
        produced++
        if (produced === 3) closed.emit('error', Object.assign(new Error('write EPIPE'), {code: 'EPIPE'}))
        yield 'y'.repeat(WRITE_BATCH)
      }
    }
    closed.resume()
    expect(await writeChunksTo(closed, endless())).toBe(false)
    expect(produced).toBeLessThan(10)
  })
})

describe('findings written by hand', () => {
  const text = fc.oneof(fc.string(), fc.string({unit: 'grapheme'}), fc.string({unit: 'binary'}), fc.constantFrom('', 'a"b\\c', '\u0000\u001f\u2028', '\ud800x', 'x\udc00', '\ud83d\ude00'))
  const ref = (name: 'path' | 'name') => fc.record({id: fc.oneof(fc.integer(), fc.double()), [name]: text})
  const finding = fc.record(
    {
      ruleId: text,
      severity: fc.constantFrom('critical', 'high', 'medium', 'low', 'info'),
      message: text,
      project: fc.option(ref('path')),
      role: fc.option(ref('name')),
      subject: text,
      pointer: text,
      source: ref('path'),
      file: text,
      document: fc.constant('server'),
      fingerprint: text,
    },
    {requiredKeys: ['ruleId', 'severity', 'message', 'project', 'role', 'subject', 'pointer', 'fingerprint']},
  )

  test('are exactly what serializing findingOf gives, at any depth', () => {
    fc.assert(
      fc.property(finding, fc.integer({min: 0, max: 9}), (value, depth) => {
        const f = value as unknown as Finding
        let nested: unknown = findingOf(f)
        for (let level = 0; level < depth; level++) nested = [nested]
        const expected = JSON.stringify(nested, null, 2)
        const items = new LazyArray([f], findingOf, findingText)
        let lazyNested: unknown = items
        for (let level = 1; level < depth; level++) lazyNested = new LazyArray([lazyNested])
        expect(textOf(prettyJson(depth === 0 ? findingOf(f) : lazyNested))).toBe(expected)
        expect(findingText(f, depth)).toBe(JSON.stringify(findingOf(f), null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`))
      }),
      {numRuns: 500},
    )
  })

  test('fall back to serializing a finding with a field of an unusual type', () => {
    const odd = {ruleId: 'r', severity: 'high', message: 'm', project: {id: 1}, role: null, subject: 's', pointer: undefined, fingerprint: 'f'} as unknown as Finding
    expect(findingText(odd, 2)).toBeUndefined()
    expect(textOf(prettyJson(new LazyArray([odd], findingOf, findingText)))).toBe(JSON.stringify([findingOf(odd)], null, 2))
  })
})
