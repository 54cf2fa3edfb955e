/**
 * The seal of undo records (src/fix/seal.ts): it verifies for the record as written and read back,
 * whatever its values, and for nothing else: every value, member name and list item of a record
 * changed, one at a time, breaks it. The key's bytes are never shown.
 */
import {randomBytes} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {inspect} from 'node:util'

import {describe, expect, it} from 'vitest'

import {readFixFile, undoDocument, writeFixFile} from '../../src/fix/files.js'
import {RecordSealer, sealed, UndoKey, verdictOf} from '../../src/fix/seal.js'
import type {AppliedProject} from '../../src/fix/undo.js'
import type {FixUndo} from '../../src/fix/undo-types.js'
import {WRITE_PATH} from '../helpers/hostile.js'
import {tempDir} from '../helpers/temp-dir.js'

const KEY = new UndoKey(Buffer.from('0123456789abcdef0123456789abcdef-CANARY-7f3a'), '/home/me/.config/onedev-audit/undo-key')
const META = {tool: {name: 'onedev-audit', version: '0.1.0'}, server: {url: 'https://onedev.example.com', apiPrefix: '/~api'}, appliedAt: '2026-11-02T10:00:00.000Z', plan: 'plan.json'}

/** A record of two projects, values of every kind among them (those JSON.stringify writes in more than one way, or not at all, included). */
function record(): FixUndo {
  const path = '/branchProtections/3/preventDeletion'
  const projects: AppliedProject[] = [
    {id: 2, path: 'acme/app', state: 'verified', applied: [{op: 'replace', path, old: false, new: true}], restore: [{op: 'replace', path, value: false, expect: [{path, value: true}, {path: '/branchProtections', identities: [{branches: 'main', userMatch: 'anyone'}]}]}], judged: [2, 4]},
    {
      id: 3,
      path: 'legacy/t\u00f6\u00f6l \ud800',
      state: 'unknown',
      applied: [{op: 'remove', path: '/webHooks/0', old: {postUrl: 'https://hooks.example.com/x?ref=main', ['__proto__']: {n: 12345678901234567891, z: -0, e: 1e21}, gone: undefined}}],
      restore: [{op: 'add', path: '/webHooks/0', value: {postUrl: 'https://hooks.example.com/x?ref=main'}, expect: [{path: '/webHooks/0', absent: true}]}],
    },
  ]
  return sealed(undoDocument(META, projects, true), KEY)
}

/** Every way to change one thing of a JSON value: each scalar replaced, each member renamed or removed, each list item removed; `at` names where. */
function* oneChange(value: unknown, at = ''): Generator<{at: string; change: (root: any) => void}> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      yield {at: `${at}/${i} removed`, change: (root) => dig(root, at).splice(i, 1)}
      for (const inner of oneChange(item, `${at}/${i}`)) yield inner
    }
    return
  }
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      yield {at: `${at}/${key} renamed`, change: (root) => {
        const holder = dig(root, at)
        holder[`${key}x`] = holder[key]
        delete holder[key]
      }}
      yield {at: `${at}/${key} removed`, change: (root) => delete dig(root, at)[key]}
      for (const inner of oneChange((value as Record<string, unknown>)[key], `${at}/${key}`)) yield inner
    }
    return
  }
  const other = typeof value === 'string' ? `${value}x` : typeof value === 'number' ? value * 2 + 1 : typeof value === 'boolean' ? !value : 0
  yield {at, change: (root) => {
    const tokens = at.split('/').slice(1)
    dig(root, `/${tokens.slice(0, -1).join('/')}`.replace(/^\/$/, ''))[tokens.at(-1)!] = other
  }}
}

function dig(root: any, at: string): any {
  return at === '' ? root : at.split('/').slice(1).reduce((holder, token) => holder[token], root)
}

describe('sealed undo records', () => {
  it('verify as written and read back (every value kind, lone surrogates, numbers beyond 2^53, __proto__ members, members left out)', async () => {
    const path = join(await tempDir('oda-seal'), 'undo.json')
    await writeFixFile(path, record())
    const read = await readFixFile(path, 'undo')
    expect(read.seal).toMatchObject({algorithm: 'HMAC-SHA-256', keyId: KEY.id})
    expect(verdictOf(read, KEY)).toEqual({trusted: true, keyId: KEY.id})
    // Its layout is not sealed, its meaning is: written on one line, members in another order, it verifies.
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(await readFile(path, 'utf8'))).reverse())))
    expect(verdictOf(reordered, KEY).trusted).toBe(true)
  })

  it('verify in every version of a record sealed again as it grows, the text of its settled projects kept (as fix --apply writes it)', () => {
    const sealer = new RecordSealer(KEY)
    const projects: AppliedProject[] = []
    const all = record().projects as AppliedProject[]
    for (const [i, project] of all.entries()) {
      projects.push(project)
      const version = sealer.seal(undoDocument(META, projects, i === all.length - 1))
      expect(verdictOf(JSON.parse(JSON.stringify(version)), KEY)).toEqual({trusted: true, keyId: KEY.id})
    }
  })

  it('are written as they grow with the text of their settled projects kept, byte for byte what a fresh write gives, and verify read back', async () => {
    const dir = await tempDir('oda-seal-grow')
    const sealer = new RecordSealer(KEY)
    const texts = new WeakMap<object, string>()
    const settled: AppliedProject[] = []
    const all = record().projects as AppliedProject[]
    for (const [i, project] of all.entries()) {
      // Before the POST the project is pending (state unknown); settled, its record is a new object in its place.
      for (const version of [[...settled, {...project, state: 'unknown' as const}], [...settled, project]]) {
        const document = sealer.seal(undoDocument(META, version, i === all.length - 1 && version.at(-1) === project))
        await writeFixFile(join(dir, 'kept.json'), document, false, texts)
        await writeFixFile(join(dir, 'fresh.json'), document)
        const kept = await readFile(join(dir, 'kept.json'), 'utf8')
        expect(kept).toBe(await readFile(join(dir, 'fresh.json'), 'utf8'))
        expect(JSON.parse(kept).projects.at(-1).state).toBe(version.at(-1)!.state)
        expect(verdictOf(await readFixFile(join(dir, 'kept.json'), 'undo'), KEY)).toEqual({trusted: true, keyId: KEY.id})
      }
      settled.push(project)
    }
  })

  it('do not verify once any one thing of them changed: a value, a member name, a list item', () => {
    const original = JSON.parse(JSON.stringify(record()))
    const {seal, ...rest} = original
    let tried = 0
    for (const {at, change} of oneChange(rest)) {
      const copy = structuredClone(rest)
      change(copy)
      expect(verdictOf({...copy, seal}, KEY), at).toEqual({trusted: false, why: `does not verify with this user's undo key (${KEY.id}): it was changed after onedev-audit sealed it`})
      tried++
    }
    expect(tried).toBeGreaterThan(60)
    // A project moved to another place in the list, too.
    const swapped = {...structuredClone(rest), projects: [...rest.projects].reverse(), seal}
    expect(verdictOf(swapped, KEY).trusted).toBe(false)
  })

  it('say why a record is not trusted: no seal (older, or removed), another key, no key to verify with', () => {
    const {seal: _seal, ...unsealed} = record()
    expect(verdictOf({...unsealed, undoVersion: 1}, KEY)).toEqual({trusted: false, why: 'is not sealed: an onedev-audit older than sealed undo records wrote it'})
    expect(verdictOf(unsealed, KEY)).toEqual({trusted: false, why: 'is not sealed: its seal was removed'})
    const theirs = new UndoKey(WRITE_PATH.otherUndoKey, 'theirs')
    expect(verdictOf(sealed(record(), theirs), KEY)).toEqual({trusted: false, why: `is sealed with another key (${theirs.id}), not this user's undo key (${KEY.id}, ${KEY.path})`})
    expect(verdictOf(record(), null)).toEqual({trusted: false, why: `is sealed with the key ${KEY.id}, and there is no undo key here to verify it with`})
  })
})

describe('the undo key', () => {
  it('is never shown: not by JSON.stringify, util.inspect, String or a template', () => {
    const bytes = randomBytes(32)
    const key = new UndoKey(bytes, '/k')
    const shown = [JSON.stringify(key), JSON.stringify({key}), inspect(key), inspect({key}, {depth: 5, showHidden: true}), String(key), `${key}`, Object.keys(key).join()]
    for (const text of shown) {
      for (const form of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('latin1'), bytes.subarray(0, 8).toString('hex')]) expect(text).not.toContain(form)
    }
    expect(JSON.stringify(key)).toBe(`"undo key ${key.id}"`)
  })

  it('has at least 32 bytes; its id is 16 hexadecimal digits that differ from key to key', () => {
    expect(() => new UndoKey(Buffer.alloc(31), '/k')).toThrow(RangeError)
    const ids = new Set(Array.from({length: 20}, () => new UndoKey(randomBytes(32), '/k').id))
    expect(ids.size).toBe(20)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/)
  })
})
