/**
 * Imports point down (docs/development.md): a folder of src/ or rules/ imports only the layers its
 * row of LAYERS names, and no file imports itself through others (no cycle). Imports are listed by
 * TypeScript's own scanner (ts.preProcessFile), which sees `import type`, `export ... from`,
 * `import('...')` calls and `import('...')` types alike: a type-only import is a dependency too.
 */
import {posix} from 'node:path'

import ts from 'typescript'
import {describe, expect, it} from 'vitest'

import {sourceFiles} from './helpers/source-files.js'

const BOTTOM = ['src/util', 'src/types']
/**
 * The model and what stands directly on it without I/O of its own: the server's semantics, snapshot
 * files. HTTP (src/api) is imported only by the layers that talk to a server (writing settings back).
 */
const CORE = [...BOTTOM, 'src/model', 'src/onedev', 'src/snapshot']
const EVERYTHING = [...CORE, 'src/api', 'src/engine', 'src/issue-setting', 'rules', 'src/diff', 'src/report', 'src/fix', 'src/cli', 'src/commands']

/** Each layer (a folder) and the layers it may import besides itself, bottom first. */
const LAYERS: Record<string, readonly string[]> = {
  'src/util': [],
  'src/types': [],
  'src/model': BOTTOM,
  'src/api': [...BOTTOM, 'src/model'],
  'src/onedev': [...BOTTOM, 'src/model'],
  'src/snapshot': [...BOTTOM, 'src/model'],
  'src/engine': CORE,
  'src/issue-setting': [...CORE, 'src/api'],
  rules: [...CORE, 'src/engine', 'src/issue-setting'],
  'src/diff': [...CORE, 'src/engine'],
  'src/report': [...CORE, 'src/engine', 'src/diff'],
  'src/fix': [...CORE, 'src/api', 'src/engine', 'src/diff', 'src/report'],
  'src/cli': EVERYTHING,
  'src/commands': EVERYTHING,
  // The library entry (package.json main): the plugin interface, re-exported.
  'src/index.ts': EVERYTHING,
}

function layerOf(file: string): string | undefined {
  return Object.keys(LAYERS).find((layer) => file === layer || file.startsWith(`${layer}/`))
}

/** The files (paths relative to the repository, `/`-separated) each file imports, from its text. */
function importGraph(sources: ReadonlyMap<string, string>): {graph: Map<string, string[]>; problems: string[]} {
  const graph = new Map<string, string[]>()
  const problems: string[] = []
  for (const [file, text] of sources) {
    const targets: string[] = []
    for (const {fileName} of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue // a package or a node: built-in
      const target = posix.join(posix.dirname(file), fileName).replace(/\.js$/, '.ts')
      if (sources.has(target)) targets.push(target)
      else problems.push(`${file} imports ${fileName}: not a .ts file under src/ or rules/`)
    }
    graph.set(file, targets)
  }
  return {graph, problems}
}

/** Every import that goes up or sideways, and every cycle (each once, as `a -> b -> a`). */
function importProblems(sources: ReadonlyMap<string, string>): string[] {
  const {graph, problems} = importGraph(sources)
  for (const [file, targets] of graph) {
    const from = layerOf(file)
    if (from === undefined) {
      problems.push(`${file}: in no layer (add its folder to LAYERS and to docs/development.md)`)
      continue
    }
    for (const target of targets) {
      const to = layerOf(target)
      if (to !== from && !LAYERS[from]!.includes(to!)) problems.push(`${file} imports ${target}: ${from} may not import ${to}`)
    }
  }
  // Depth first; a file still on the path when it is reached again closes a cycle.
  const done = new Set<string>()
  const path: string[] = []
  const visit = (file: string): void => {
    const onPath = path.indexOf(file)
    if (onPath >= 0) {
      problems.push(`import cycle: ${[...path.slice(onPath), file].join(' -> ')}`)
      return
    }
    if (done.has(file)) return
    path.push(file)
    for (const target of graph.get(file)!) visit(target)
    path.pop()
    done.add(file)
  }
  for (const file of [...graph.keys()].sort()) visit(file)
  return problems
}

describe('imports point down', () => {
  it('every import of src/ and rules/ goes to a layer below or the same folder, and no cycle exists', () => {
    const sources = sourceFiles(['src', 'rules'])
    expect(sources.size).toBeGreaterThan(150)
    // The scanner found the imports (an empty graph would pass anything).
    expect(importGraph(sources).graph.get('rules/index.ts')).toContain('src/engine/rule.ts')
    expect(importProblems(sources)).toEqual([])
  })

  it('names an upward import in each form TypeScript has, a file outside every layer, and a cycle', () => {
    const sources = new Map([
      ['src/engine/rule.ts', `export interface Rule {}`],
      ['src/report/summary.ts', `export const x = 1`],
      ['src/cli/errors.ts', `export type E = string`],
      ['src/diff/diff-types.ts', `export type Change = {}`],
      ['src/onedev/type-only.ts', `import type {Rule} from '../engine/rule.js'`],
      ['src/onedev/dynamic.ts', `export const load = () => import('../report/summary.js')`],
      ['src/onedev/type-query.ts', `export type E = import('../cli/errors.js').E`],
      ['src/model/re-export.ts', `export type {Change} from '../diff/diff-types.js'`],
      ['src/util/to-rules.ts', `import '../../rules/index.js'`],
      ['rules/index.ts', `import {x} from '../src/report/summary.js'`],
      ['src/onedev/fine.ts', `import {z} from 'zod'\nimport type {Model} from '../model/types.js'\nimport {f} from './type-only.js'`],
      ['src/model/types.ts', `export interface Model {}`],
      ['src/snapshot/a.ts', `import {b} from './b.js'`],
      ['src/snapshot/b.ts', `import type {a} from './a.js'`],
      ['src/stray.ts', `export {}`],
      ['src/api/missing.ts', `import {y} from '../model/nothing.js'`],
    ])
    expect(importProblems(sources)).toEqual([
      'src/api/missing.ts imports ../model/nothing.js: not a .ts file under src/ or rules/',
      'src/onedev/type-only.ts imports src/engine/rule.ts: src/onedev may not import src/engine',
      'src/onedev/dynamic.ts imports src/report/summary.ts: src/onedev may not import src/report',
      'src/onedev/type-query.ts imports src/cli/errors.ts: src/onedev may not import src/cli',
      'src/model/re-export.ts imports src/diff/diff-types.ts: src/model may not import src/diff',
      'src/util/to-rules.ts imports rules/index.ts: src/util may not import rules',
      'rules/index.ts imports src/report/summary.ts: rules may not import src/report',
      'src/stray.ts: in no layer (add its folder to LAYERS and to docs/development.md)',
      'import cycle: src/snapshot/a.ts -> src/snapshot/b.ts -> src/snapshot/a.ts',
    ])
  })
})
