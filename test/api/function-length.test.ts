/**
 * src/api/ stays in parts a newcomer can read (issue 34): no function there, of any kind (a
 * declaration, an arrow, a function expression, a method, a constructor or an accessor), spans more
 * than MAX_LINES lines, from its first token to its last, nested functions included. The client and
 * the collection are each a short function that puts small named parts together (docs/development.md,
 * "Where the HTTP client and the collection keep their parts"). Functions are found by TypeScript's
 * own parser.
 */
import ts from 'typescript'
import {describe, expect, it} from 'vitest'

import {sourceFiles} from '../helpers/source-files.js'

const MAX_LINES = 200

/** A function of any kind that has a body (not a signature of an interface or an overload). */
function isFunctionWithBody(node: ts.Node): node is ts.FunctionLikeDeclaration & {body: ts.Node} {
  const kind =
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  return kind && node.body !== undefined
}

/** What a reader would call the function: its own name, or the name it is given (a variable, a property). */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name !== undefined) return node.name.getText()
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.initializer === node) return parent.name.getText()
  return '(anonymous)'
}

/** Every function with a body in one file: where it starts, its name and how many lines it spans. */
function functionLengths(file: string, text: string): Array<{at: string; name: string; lines: number}> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const found: Array<{at: string; name: string; lines: number}> = []
  const visit = (node: ts.Node): void => {
    if (isFunctionWithBody(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({at: `${file}:${first + 1}`, name: nameOf(node), lines: last - first + 1})
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** Each function longer than `max` lines, as `file:line name: N lines`. */
function tooLong(sources: ReadonlyMap<string, string>, max = MAX_LINES): string[] {
  return [...sources].flatMap(([file, text]) => functionLengths(file, text).filter((f) => f.lines > max).map((f) => `${f.at} ${f.name}: ${f.lines} lines`))
}

describe(`no function in src/api/ is longer than ${MAX_LINES} lines`, () => {
  it('holds for every file of src/api/', () => {
    const sources = sourceFiles(['src/api'])
    // The parser found the functions (an empty list would pass anything).
    expect(sources.has('src/api/client.ts')).toBe(true)
    expect(functionLengths('src/api/collect.ts', sources.get('src/api/collect.ts')!).map((f) => f.name)).toContain('collectModel')
    expect(tooLong(sources)).toEqual([])
  })

  it('names each offender of any kind with its file, line and length, nested ones too', () => {
    const body = (lines: number) => Array.from({length: lines}, (_, i) => `  const v${i} = ${i}`).join('\n')
    const sources = new Map([
      // 200 lines: the most a function may span.
      ['src/api/a.ts', `export function declared() {\n${body(198)}\n}\nexport function over() {\n${body(199)}\n}`],
      ['src/api/b.ts', `// a comment\nexport const arrow = async () => {\n${body(200)}\n}`],
      [
        'src/api/c.ts',
        `export class C {\n  constructor() {\n${body(3)}\n  }\n  method(): void {\n    const inner = function () {\n${body(199)}\n    }\n  }\n  get value(): number {\n    return 1\n  }\n}`,
      ],
      ['src/api/d.ts', `export const parts = {\n  read: (x: number) => {\n${body(4)}\n  },\n}\nsetTimeout(() => {\n${body(201)}\n})`],
    ])
    expect(tooLong(sources)).toEqual([
      'src/api/a.ts:201 over: 201 lines',
      'src/api/b.ts:2 arrow: 202 lines',
      'src/api/c.ts:7 method: 203 lines',
      'src/api/c.ts:8 inner: 201 lines',
      'src/api/d.ts:9 (anonymous): 203 lines',
    ])
  })
})
