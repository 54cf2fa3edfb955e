/**
 * No hidden state in code that reads as pure (issue 21): the server's semantics (src/onedev), the
 * model (src/model) and the rules (rules/, rules/support included) keep nothing between calls. What
 * several checks derive is computed once in src/engine/facts.ts, per run or per project, where a
 * reader sees what is kept, keyed by what, and for how long.
 *
 * What this checks, over the top-level statements of every file there (TypeScript's parser): no
 * `let` or `var`; no `new` (a Map, a WeakMap, a memo class...) unless the constant is declared
 * read-only (`ReadonlySet`, `ReadonlyMap`: a lookup table) and is given its entries there (`new
 * Set(['a', 'b'])`): one made empty is filled later (a cast or another name reaches it), whatever
 * its declared type says; no empty `{}` or `[]` (a cache starts empty, a table does not); no `static`
 * class property that is not a read-only constant. A memo hidden in a closure or in a non-empty
 * literal would pass: the review has to catch those.
 */
import ts from 'typescript'
import {describe, expect, it} from 'vitest'

import {sourceFiles} from './helpers/source-files.js'

const GUARDED = ['src/onedev', 'src/model', 'rules']

/** The expression itself, without parentheses, `as`, `satisfies` or `!`. */
function bare(expression: ts.Expression): ts.Expression {
  let e = expression
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression
  return e
}

function readOnlyType(type: ts.TypeNode | undefined): boolean {
  return type !== undefined && ts.isTypeReferenceNode(type) && /^Readonly/.test(type.typeName.getText())
}

/** `{}` or `[]`, bare. */
function emptyLiteral(expression: ts.Expression): boolean {
  const e = bare(expression)
  return (ts.isObjectLiteralExpression(e) && e.properties.length === 0) || (ts.isArrayLiteralExpression(e) && e.elements.length === 0)
}

/** What a value kept at module level may hold that can change: `new ...`, or an empty object or array. */
function changeable(value: ts.Expression | undefined, type: ts.TypeNode | undefined): string | null {
  if (value === undefined) return null
  const e = bare(value)
  if (ts.isNewExpression(e)) {
    // Made without entries (`new Map()`, `new Set([])`): filled later, whatever its declared type.
    if ((e.arguments ?? []).every(emptyLiteral)) return `an empty new ${e.expression.getText()}`
    if (!readOnlyType(type)) return `new ${e.expression.getText()}`
    return null
  }
  if (ts.isObjectLiteralExpression(e) && e.properties.length === 0) return 'an empty object'
  if (ts.isArrayLiteralExpression(e) && e.elements.length === 0) return 'an empty array'
  return null
}

/** Every piece of module-level state in one file, as `file:line: what`. */
function moduleState(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const problems: string[] = []
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0
      for (const declaration of statement.declarationList.declarations) {
        const name = declaration.name.getText()
        if (!constant) problems.push(`${at(declaration)}: ${name} is a module-level variable`)
        const what = changeable(declaration.initializer, declaration.type)
        if (what) problems.push(`${at(declaration)}: ${name} keeps ${what} at module level`)
      }
    } else if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        if (!ts.isPropertyDeclaration(member) || !member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) continue
        const readonly = member.modifiers.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword)
        const what = readonly ? changeable(member.initializer, member.type) : 'a static property that can be assigned'
        if (what) problems.push(`${at(member)}: ${statement.name?.getText()}.${member.name.getText()} keeps ${what}`)
      }
    }
  }
  return problems
}

describe('no module-level state in src/onedev, src/model and rules', () => {
  it('keeps no variable, collection, memo or empty literal at module level', () => {
    const sources = sourceFiles(GUARDED)
    expect([...sources.keys()].filter((file) => file.startsWith('rules/support/')).length).toBeGreaterThan(0)
    expect(sources.size).toBeGreaterThan(80)
    expect([...sources].flatMap(([file, text]) => moduleState(file, text))).toEqual([])
  })

  it('names each kind of state, and lets constants, tables and what functions and instances keep pass', () => {
    const text = [
      `import {RecentMemo} from '../util/recent.js'`,
      `const memo = new WeakMap<object, string>()`,
      `export const byText = new Map<string, number>()`,
      `const recent = new RecentMemo<object, string>(4)`,
      `let hits = 0`,
      `var legacy`,
      `const seen: string[] = []`,
      `const known = {} as Record<string, number>`,
      `const names = new Set(['a', 'b'])`,
      `class Parser {`,
      `  static cache = new Map()`,
      `  static readonly shared = new Map()`,
      `  static readonly LIMIT = 10`,
      `  private readonly known = new Map<string, number>()`,
      `  static readonly table: ReadonlyMap<string, number> = new Map()`,
      `}`,
      `const KEYWORDS: ReadonlySet<string> = new Set(['and', 'or'])`,
      `const LIMITS: ReadonlyMap<string, number> = new Map([['a', 1]])`,
      `const FILLED_LATER: ReadonlyMap<string, number> = new Map()`,
      `const ALSO_EMPTY: ReadonlySet<string> = new Set<string>([])`,
      `const BY_NAME: ReadonlyMap<string, number> = new Map(Object.entries(LIMITS_BY_NAME))`,
      `const PATTERN = /x/`,
      `const PHRASES = [{words: ['on', 'branch']}]`,
      `const EMPTY_SET = {users: [], groups: []}`,
      `export function f(): number {`,
      `  const local = new Map<string, number>()`,
      `  let count = 0`,
      `  return local.size + count`,
      `}`,
    ].join('\n')
    expect(moduleState('src/onedev/x.ts', text)).toEqual([
      'src/onedev/x.ts:2: memo keeps an empty new WeakMap at module level',
      'src/onedev/x.ts:3: byText keeps an empty new Map at module level',
      'src/onedev/x.ts:4: recent keeps new RecentMemo at module level',
      'src/onedev/x.ts:5: hits is a module-level variable',
      'src/onedev/x.ts:6: legacy is a module-level variable',
      'src/onedev/x.ts:7: seen keeps an empty array at module level',
      'src/onedev/x.ts:8: known keeps an empty object at module level',
      'src/onedev/x.ts:9: names keeps new Set at module level',
      'src/onedev/x.ts:11: Parser.cache keeps a static property that can be assigned',
      'src/onedev/x.ts:12: Parser.shared keeps an empty new Map',
      'src/onedev/x.ts:15: Parser.table keeps an empty new Map',
      'src/onedev/x.ts:19: FILLED_LATER keeps an empty new Map at module level',
      'src/onedev/x.ts:20: ALSO_EMPTY keeps an empty new Set at module level',
    ])
  })
})
