import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {lineOfPointer} from '../../src/report/pointer-line.js'
import {PrettyJsonLines} from '../../src/report/pretty-lines.js'

/** Every pointer in a JSON value, plus some that do not resolve. */
function pointers(value: unknown, base = ''): string[] {
  const out = [base]
  if (value !== null && typeof value === 'object') {
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value)
    for (const key of keys) out.push(...pointers((value as any)[key], `${base}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`))
    out.push(`${base}/missing`, `${base}/9999`)
  }
  return out
}

describe('PrettyJsonLines', () => {
  it('gives the same line as scanning JSON.stringify(value, null, 2), for every pointer', () => {
    fc.assert(
      fc.property(fc.jsonValue({maxDepth: 4}), (value) => {
        const parsed = JSON.parse(JSON.stringify(value))
        const text = JSON.stringify(parsed, null, 2)
        const lines = new PrettyJsonLines(parsed)
        for (const pointer of pointers(parsed)) expect(lines.lineOf(pointer), pointer).toBe(lineOfPointer(text, pointer))
      }),
      {numRuns: 400},
    )
  })

  it('gives the same lines in large containers (tables of where members start), asked in any order', () => {
    const member = fc.oneof(fc.jsonValue({maxDepth: 2}), fc.constant(undefined))
    const large = fc.oneof(
      fc.array(fc.jsonValue({maxDepth: 2}), {minLength: 32, maxLength: 80}),
      fc.dictionary(fc.string(), member, {minKeys: 32, maxKeys: 80}),
    )
    fc.assert(
      fc.property(fc.record({big: large, other: fc.array(large, {maxLength: 2})}), fc.integer(), (value, seed) => {
        const text = JSON.stringify(value, null, 2)
        const lines = new PrettyJsonLines(value)
        const all = pointers(value)
        const shuffled = all.map((p, i) => ({p, k: (i * 7919 + seed) % 101})).sort((a, b) => a.k - b.k).map(({p}) => p)
        for (const pointer of [...shuffled, '/big/__proto__', '/big/constructor']) expect(lines.lineOf(pointer), pointer).toBe(lineOfPointer(text, pointer))
      }),
      {numRuns: 60},
    )
  })

  it('counts lines of a concrete payload', () => {
    const value = {a: 1, b: [], c: {d: [1, {e: null}], '': 'x', 'f/g~': true}, h: {}}
    const lines = new PrettyJsonLines(value)
    expect(JSON.stringify(value, null, 2).split('\n')[lines.lineOf('/c/d/1/e') - 1]).toBe('        "e": null')
    expect(lines.lineOf('/c/f~1g~0')).toBe(12)
    expect(lines.lineOf('/h')).toBe(14)
    expect(lines.lineOf('/c/d/7')).toBe(lines.lineOf('/c/d'))
  })
})
