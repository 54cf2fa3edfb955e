import {posix, resolve, sep} from 'node:path'
import fc from 'fast-check'
import {describe, expect, test} from 'vitest'

import {encodeSegment, isSafeProjectFile, projectFilePath} from '../../src/snapshot/layout.js'

const HOSTILE = ['../../etc/passwd', 'a/../../b', '/abs/path', 'C:\\x', 'C:', 'a\\..\\..\\b', '.', '..', '', 'a//b', 'a/', '.git/config', 'CON', 'nul.txt', 'com1', 'x\u0000y', 'tab\there', 'new\nline', '%2e%2e', 'a.json/b', 'über/straße', '~h123', 'a?b*c"d<e>f|g:h']

/** Paths made of the characters that matter to the encoding. */
const pathString = fc.string({unit: fc.constantFrom('a', 'A', '0', '.', '/', '\\', '%', '~', ':', '\u0000', 'é', '-', '_', ' ', '2', 'E'), maxLength: 10})

describe('projectFilePath', () => {
  test('ordinary paths stay readable', () => {
    expect(projectFilePath('group/sub/repo')).toBe('projects/group/sub/repo.json')
    expect(projectFilePath('my-repo_2')).toBe('projects/my-repo_2.json')
    expect(projectFilePath('web.app')).toBe('projects/web%2Eapp.json')
  })

  test.each(HOSTILE)('%j stays inside projects/ and is a safe name', (path) => {
    const file = projectFilePath(path)
    expect(isSafeProjectFile(file)).toBe(true)
    const root = resolve('/snap')
    const full = resolve(root, ...file.split('/'))
    expect(full.startsWith(root + sep + 'projects' + sep)).toBe(true)
    for (const segment of file.split('/')) {
      expect(segment).not.toMatch(/^\.|^$|[\\:*?"<>|\x00-\x1f]/)
      expect(segment.replace(/\.json$/, '')).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/i)
    }
  })

  test('examples of the encoding', () => {
    expect(projectFilePath('../../etc/passwd')).toBe('projects/%2E%2E/%2E%2E/etc/passwd.json')
    expect(projectFilePath('a//b')).toBe('projects/a/%/b.json')
    expect(projectFilePath('C:\\x')).toBe('projects/C%3A%5Cx.json')
    expect(projectFilePath('CON')).toBe('projects/%43ON.json')
    expect(projectFilePath('x\u0000y')).toBe('projects/x%00y.json')
    expect(projectFilePath('über')).toBe('projects/%C3%BCber.json')
    expect(projectFilePath('repo', '12')).toBe('projects/repo~12.json')
  })

  test('long segments are cut and keep a hash, under the file name limit', () => {
    const long = 'x'.repeat(1000)
    const file = projectFilePath(`${long}/${long}y`)
    const segments = file.split('/')
    expect(segments.every((segment) => Buffer.byteLength(segment) <= 200)).toBe(true)
    expect(file).not.toBe(projectFilePath(`${long}/${long}z`))
    expect(encodeSegment('é'.repeat(200))).toMatch(/^(%C3%A9)+~h[0-9a-f]{16}$/)
  })

  test('different paths give different files', () => {
    fc.assert(
      fc.property(pathString, pathString, (a, b) => {
        fc.pre(a !== b)
        expect(projectFilePath(a)).not.toBe(projectFilePath(b))
      }),
      {numRuns: 2000},
    )
    const files = HOSTILE.map((path) => projectFilePath(path))
    expect(new Set(files).size).toBe(HOSTILE.length)
  })

  test('a file name from a hostile index is refused unless it is one projectFilePath could write', () => {
    for (const bad of ['../x.json', 'projects/../x.json', 'projects/a/../../x.json', '/etc/passwd', 'projects/.json', 'projects/a.txt', 'projects\\a.json', 'projects//a.json', 'roles.json']) {
      expect(isSafeProjectFile(bad), bad).toBe(false)
    }
    expect(posix.normalize('projects/%2E%2E/a.json')).toBe('projects/%2E%2E/a.json')
  })
})

describe('error kinds', () => {
  test('the snapshot schema lists exactly the model\'s error kinds', async () => {
    const {readFile} = await import('node:fs/promises')
    const {ERROR_KINDS} = await import('../../src/model/types.js')
    const schema = JSON.parse(await readFile(new URL('../../schemas/snapshot.schema.json', import.meta.url), 'utf8'))
    const enums: string[][] = []
    JSON.stringify(schema, (key, value) => {
      if (key === 'enum' && Array.isArray(value) && value.includes('internal')) enums.push(value)
      return value
    })
    expect(enums).toEqual([[...ERROR_KINDS]])
  })
})
