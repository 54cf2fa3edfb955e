import {describe, expect, test} from 'vitest'

import {createLocator, lineOfPointer, locateFindings, locationSourceFromModel, pathToRelativeUri, pointerTokens} from '../../src/report/locate.js'
import type {PrettyJsonLines} from '../../src/report/pretty-lines.js'
import {projectFilePath} from '../../src/snapshot/layout.js'
import type {AuditModel} from '../../src/model/types.js'
import {CHILD, CODE_WRITER, findings, ISSUE_FILE, locations, PARENT, parentRaw, rolesRaw} from './sample-input.js'

const doc = {
  name: 'x',
  'a/b': {'m~n': [10, {deep: true}]},
  list: [{k: 1}, [2, 3], 'four'],
  empty: {},
  'quo"te': null,
}
const pretty = JSON.stringify(doc, null, 2)
const minified = JSON.stringify(doc)

/** The line of the first occurrence of `needle` in `text`, for expected values. */
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length

describe('lineOfPointer', () => {
  test('finds the line of a member key and of array elements in pretty JSON', () => {
    expect(pretty.split('\n').slice(0, 4)).toEqual(['{', '  "name": "x",', '  "a/b": {', '    "m~n": ['])
    expect(lineOfPointer(pretty, '')).toBe(1)
    expect(lineOfPointer(pretty, '/name')).toBe(2)
    expect(lineOfPointer(pretty, '/a~1b')).toBe(3)
    expect(lineOfPointer(pretty, '/a~1b/m~0n')).toBe(4)
    expect(lineOfPointer(pretty, '/a~1b/m~0n/0')).toBe(5)
    expect(lineOfPointer(pretty, '/a~1b/m~0n/1')).toBe(6)
    expect(lineOfPointer(pretty, '/a~1b/m~0n/1/deep')).toBe(7)
    expect(lineOfPointer(pretty, '/list/1/1')).toBe(lineOf(pretty, '3\n'))
    expect(lineOfPointer(pretty, '/list/2')).toBe(lineOf(pretty, '"four"'))
    expect(lineOfPointer(pretty, '/quo"te')).toBe(lineOf(pretty, '"quo\\"te"'))
  })

  test('answers line 1 for every pointer in minified JSON', () => {
    for (const pointer of ['', '/name', '/a~1b/m~0n/1/deep', '/list/2', '/missing']) expect(lineOfPointer(minified, pointer)).toBe(1)
  })

  test('works on any formatting: Jackson-style spacing, CRLF, keys with escapes', () => {
    const text = '{\r\n  "x" : [ 1,\r\n    2 ],\r\n  "tab\\tkey" :\r\n    "v",\r\n  "\\u0041" : 3\r\n}'
    expect(lineOfPointer(text, '/x/1')).toBe(3)
    expect(lineOfPointer(text, '/tab\tkey')).toBe(4)
    expect(lineOfPointer(text, '/A')).toBe(6)
  })

  test('falls back to the deepest part that exists', () => {
    expect(lineOfPointer(pretty, '/a~1b/m~0n/7')).toBe(4)
    expect(lineOfPointer(pretty, '/a~1b/nope/0')).toBe(3)
    expect(lineOfPointer(pretty, '/name/deeper')).toBe(2)
    expect(lineOfPointer(pretty, '/list/-')).toBe(lineOf(pretty, '"list"'))
    expect(lineOfPointer(pretty, '/list/01')).toBe(lineOf(pretty, '"list"'))
    expect(lineOfPointer(pretty, 'not-a-pointer')).toBe(1)
    expect(lineOfPointer('', '/x')).toBe(1)
    expect(lineOfPointer('{"a":\n  [1, 2', '/a/1')).toBe(2)
    expect(lineOfPointer('{"a":\n  [1, 2', '/a/5')).toBe(1)
  })

  test('takes the last of duplicate keys, as JSON.parse does', () => {
    expect(lineOfPointer('{\n"k": 1,\n"k": 2\n}', '/k')).toBe(3)
  })

  test('matches the line of every leaf of the project fixture pretty-printed as collect writes it', () => {
    const text = JSON.stringify(parentRaw, null, 2)
    const lines = text.split('\n')
    const pointers: string[] = []
    const walk = (value: unknown, pointer: string) => {
      if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) walk(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)
      } else pointers.push(pointer)
    }
    walk(parentRaw, '')
    expect(pointers.length).toBeGreaterThan(100)
    for (const pointer of pointers) {
      const line = lines[lineOfPointer(text, pointer) - 1]!
      const last = pointer.split('/').pop()!
      // A member's line holds its key; an array element's line holds its value.
      if (/^\d+$/.test(last)) expect(line.trim().replace(/,$/, ''), pointer).toBe(JSON.stringify(valueAt(parentRaw, pointer)))
      else expect(line.trimStart().startsWith(`${JSON.stringify(last.replace(/~1/g, '/').replace(/~0/g, '~'))}: `), pointer).toBe(true)
    }
  })

  test('splits pointers into unescaped tokens', () => {
    expect(pointerTokens('/a~1b/m~0n/~01')).toEqual(['a/b', 'm~n', '~1'])
    expect(pointerTokens('')).toEqual([])
    expect(pointerTokens('x')).toBeNull()
  })
})

function valueAt(value: unknown, pointer: string): unknown {
  let current = value
  for (const token of pointerTokens(pointer)!) current = (current as Record<string, unknown>)[token]
  return current
}

describe('createLocator', () => {
  const locate = createLocator(locations)

  test('places a project finding in the ancestor file whose setting decides, at the pointer line', () => {
    const inherited = findings[0]!
    expect(inherited.source).toEqual(PARENT)
    expect(locate(inherited)).toEqual({
      uri: `onedev/${projectFilePath('acme')}`,
      line: lineOfPointer(JSON.stringify(parentRaw, null, 2), '/branchProtections/1/preventForcedPush'),
      column: 7,
      fullyQualifiedName: 'acme#/branchProtections/1/preventForcedPush',
      snapshotFile: projectFilePath('acme'),
    })
    expect(locate(findings[2]!)).toMatchObject({uri: `onedev/${projectFilePath(CHILD.path)}`, line: 8})
  })

  test('places a role finding in roles.json under the role index', () => {
    const index = rolesRaw.findIndex((role) => role.id === CODE_WRITER.id)
    expect(index).toBe(1)
    expect(locate(findings[3]!)).toEqual({
      uri: 'onedev/roles.json',
      line: lineOfPointer(JSON.stringify(rolesRaw, null, 2), '/1/jobPrivileges/0/runJob'),
      column: 9,
      fullyQualifiedName: 'roles#/1/jobPrivileges/0/runJob',
      snapshotFile: 'roles.json',
    })
  })

  test('places an issue-setting finding in the linted file, in its own text', () => {
    expect(locate(findings[4]!)).toEqual({uri: ISSUE_FILE, line: 4, column: 6, fullyQualifiedName: `${ISSUE_FILE}#/stateSpecs/1/name`})
  })

  test('gives the column where the member the finding is about starts, in the text collect --output-dir writes', () => {
    for (const finding of findings) {
      const location = locate(finding)
      if (location.snapshotFile === undefined) continue
      const raw = finding.role ? rolesRaw : finding.source ?? finding.project ? (finding.source ?? finding.project)!.id === PARENT.id ? parentRaw : undefined : undefined
      if (raw === undefined) continue
      const line = JSON.stringify(raw, null, 2).split('\n')[location.line - 1]!
      const token = location.fullyQualifiedName.split('/').pop()!
      expect(line.slice(location.column - 1), location.fullyQualifiedName).toMatch(new RegExp(`^"${token}"`))
      expect(line.slice(0, location.column - 1).trim()).toBe('')
    }
  })

  test('names the encoded snapshot file as a URI: its percent signs are encoded again', () => {
    const odd = {...findings[2]!, project: {id: 5, path: 'my group/repo.v2'}}
    expect(projectFilePath('my group/repo.v2')).toBe('projects/my%20group/repo%2Ev2.json')
    expect(createLocator(undefined)(odd).uri).toBe('onedev/projects/my%2520group/repo%252Ev2.json')
  })

  test('uses the file a loaded snapshot names for the project, when the source knows it', () => {
    const withFiles = {...locations, projectFile: (id: number) => (id === CHILD.id ? 'projects/acme/web~2.json' : undefined)}
    expect(createLocator(withFiles)(findings[2]!).uri).toBe('onedev/projects/acme/web~2.json')
    expect(createLocator(withFiles)(findings[1]!).uri).toBe('onedev/projects/acme.json')
  })

  test('without raw payloads every finding still gets a file and line 1', () => {
    const bare = createLocator(undefined)
    expect(findings.map((finding) => [bare(finding).uri, bare(finding).line])).toEqual([
      [`onedev/${projectFilePath('acme')}`, 1],
      [`onedev/${projectFilePath('acme')}`, 1],
      [`onedev/${projectFilePath('acme/web')}`, 1],
      ['onedev/roles.json', 1],
      [ISSUE_FILE, 1],
    ])
  })

  test('finds the role index in the listing when the source has no index map', () => {
    const {roleIndex: _unused, ...withoutIndex} = locations
    expect(createLocator(withoutIndex)(findings[3]!).fullyQualifiedName).toBe('roles#/1/jobPrivileges/0/runJob')
  })

  test('locations computed while the payloads were held stay right after the payloads are dropped', () => {
    const before = findings.map(createLocator(locations))
    const located = locateFindings(findings, locations)
    const dropped = {...locations, projectRaw: () => undefined, rolesRaw: undefined, file: undefined, located}
    expect(findings.map(createLocator(dropped))).toEqual(before)
    // A finding located earlier gets its line; one that was not falls back to line 1.
    expect(before.some((location) => location.line > 1)).toBe(true)
    const other = {...findings[1]!}
    expect(createLocator(dropped)(other).line).toBe(1)
  })

  test('line tables shared between calls (a live scan, project by project): an ancestor payload is laid out once, with the same locations', () => {
    const lineTables = new WeakMap<object, PrettyJsonLines>()
    const alone = findings.slice(0, 3).map(createLocator(locations))
    // The child's findings point into the parent's payload, as a repository's point into its group's.
    const first = locateFindings(findings.slice(0, 2), {...locations, lineTables})
    const table = lineTables.get(parentRaw as object)
    expect(table).toBeDefined()
    const second = locateFindings(findings.slice(1, 3), {...locations, lineTables})
    expect(lineTables.get(parentRaw as object)).toBe(table)
    expect([first.get(findings[0]!), first.get(findings[1]!), second.get(findings[2]!)]).toEqual(alone)
  })

  test('reads locations from the model', () => {
    const model: AuditModel = {
      server: null,
      projects: [],
      projectsById: new Map([[7, {id: 7, path: 'g/p', name: 'p', parentId: null, setting: null, raw: {a: 1}}]]),
      roles: [],
      rolesRaw: [{id: 4}],
      errors: [],
    }
    const source = locationSourceFromModel(model)
    expect(source.projectRaw(7)).toEqual({a: 1})
    expect(source.projectPath(7)).toBe('g/p')
    expect(source.projectRaw(8)).toBeUndefined()
    expect(source.rolesRaw).toEqual([{id: 4}])
  })
})

describe('pathToRelativeUri', () => {
  test('makes a relative URI reference with encoded segments', () => {
    expect(pathToRelativeUri('./config/issue setting.json')).toBe('config/issue%20setting.json')
    expect(pathToRelativeUri('a/b#c?.json')).toBe('a/b%23c%3F.json')
    expect(pathToRelativeUri(`${process.cwd()}/x/y.json`)).toBe('x/y.json')
  })
})
