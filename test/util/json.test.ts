import {describe, expect, it} from 'vitest'

import {canonicalJson, canonicalPieces, findJsonSyntaxError, lineAndColumn, MAX_FILE_DEPTH, nestedDeeper, parseJson, tooDeep} from '../../src/util/json.js'
import {deeplyNested} from '../helpers/hostile.js'

function messageOf(text: string): string {
  try {
    parseJson(text, 'f.json')
  } catch (error) {
    return (error as Error).message
  }
  return 'parsed'
}

describe('parseJson', () => {
  it('names line and column of the first error', () => {
    expect(messageOf('{\n  "branches": ["main",]\n}')).toBe("f.json:2:23: invalid JSON: trailing comma before ']'")
    expect(messageOf('{\n  branches: 1\n}')).toBe('f.json:2:3: invalid JSON: expected a property name in double quotes')
    expect(messageOf('{"a": 1')).toBe('f.json:1:8: invalid JSON: unexpected end of input')
    expect(messageOf('{"a": "x\ny"}')).toBe('f.json:1:9: invalid JSON: control character in a string (escape it)')
    expect(messageOf('[1] 2')).toBe('f.json:1:5: invalid JSON: unexpected content after the JSON value')
    expect(messageOf('')).toBe('f.json:1:1: invalid JSON: unexpected end of input')
  })

  it('agrees with JSON.parse on what is valid', () => {
    for (const text of ['{}', '[]', '"\\u00e9"', '-0.5e+3', '{"a":[true,false,null,{"b":"\\n"}]}', '\ufeff{}', ' 1 ']) {
      expect(findJsonSyntaxError(text), text).toBeNull()
    }
    for (const text of ['{', '01', '-', '1.', '"\\x"', 'tru', '{"a" 1}', '[1,]', 'NaN']) {
      expect(findJsonSyntaxError(text), text).not.toBeNull()
      expect(() => JSON.parse(text), text).toThrow()
    }
  })

  it('does not overflow the stack on deep nesting', () => {
    expect(messageOf('['.repeat(100_000))).toMatch(/^f\.json:1:\d+: invalid JSON: nested too deeply$/)
  })
})

describe('nesting depth', () => {
  it('finds the opener of the first level past the limit, brackets inside strings aside', () => {
    expect(tooDeep('[[1]]', 2)).toBeNull()
    expect(tooDeep('[[[1]]]', 2)).toBe(2)
    expect(tooDeep('{"a": "[[[[\\"[[[", "b": [{"c": []}]}', 4)).toBeNull()
    expect(tooDeep('{"a": "[[[[\\"[[[", "b": [{"c": []}]}', 3)).toBe(31)
    // Siblings do not add up: only nesting counts.
    expect(tooDeep('[' + '[],'.repeat(1000) + '[]]', 2)).toBeNull()
  })

  it('judges a parsed value the same way, without recursion', () => {
    expect(nestedDeeper(JSON.parse(deeplyNested(100_000)), 64)).toBe(true)
    expect(nestedDeeper(JSON.parse('{"a": "[[[[\\"[[[", "b": [{"c": []}]}'), 4)).toBe(false)
    expect(nestedDeeper(JSON.parse('{"a": "[[[[\\"[[[", "b": [{"c": []}]}'), 3)).toBe(true)
    expect(nestedDeeper(JSON.parse('[' + '[],'.repeat(1000) + '[]]'), 2)).toBe(false)
    expect(nestedDeeper('[[[[', 0)).toBe(false)
  })

  it('parseJson refuses a document nested deeper than its limit, saying where, and reads one at the limit', () => {
    expect(() => parseJson(deeplyNested(3000), 'plan.json')).toThrow('plan.json:1:385: nested deeper than 128 levels, which nothing this tool reads is: refused')
    expect(() => parseJson('[[[1]]]', 'x.json', 2)).toThrow('x.json:1:3: nested deeper than 2 levels')
    expect(parseJson('['.repeat(MAX_FILE_DEPTH) + ']'.repeat(MAX_FILE_DEPTH), 'x.json')).toBeDefined()
  })
})

describe('findJsonSyntaxError', () => {
  it('agrees with JSON.parse on what is valid', () => {
    const samples = ['{}', '[]', '{"a":[1,-2.5e3,true,false,null,"\\u00e9\\n"]}', ' 0 ', '{"a":01}', '[1,]', '{"a":"\u0001"}', '"\\x"', '[1 2]', '-', '1.', '{"a" 1}']
    for (const sample of samples) {
      let valid = true
      try {
        JSON.parse(sample)
      } catch {
        valid = false
      }
      expect(findJsonSyntaxError(sample) === null, sample).toBe(valid)
    }
  })

  it('counts lines and columns from 1', () => {
    expect(lineAndColumn('ab\ncd', 4)).toEqual({line: 2, column: 2})
    expect(lineAndColumn('ab', 0)).toEqual({line: 1, column: 1})
  })
})

describe('canonicalJson', () => {
  it('sorts keys at every level', () => {
    expect(canonicalJson({b: [{d: 1, c: 2}], a: null})).toBe('{"a":null,"b":[{"c":2,"d":1}]}')
  })

  it('is RFC 8785 (JCS): its examples of numbers, strings and member order (sections 3.2.2 and 3.2.3)', () => {
    const input = '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}'
    expect(canonicalJson(JSON.parse(input))).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}')
    const keys = JSON.parse('{"\\u20ac": 1, "\\r": 2, "\\ufb33": 3, "1": 4, "\\ud83d\\ude00": 5, "\\u0080": 6, "\\u00f6": 7}')
    expect(canonicalJson(keys)).toBe('{"\\r":2,"1":4,"\u0080":6,"ö":7,"€":1,"😀":5,"דּ":3}')
  })

  it('in pieces (canonicalPieces), at any depth, is the same text', () => {
    const values = [{b: [{d: 1, c: [2, undefined, {z: null, y: 'é\ud800'}]}], a: null, u: undefined}, [], {}, 'x', 12345678901234567891, [[[]], {}], JSON.parse('{"__proto__": {"y": [1, {"k": true}]}}')]
    for (const value of values) {
      for (const depth of [0, 1, 2, 3, 9]) expect([...canonicalPieces(value, depth)].join('')).toBe(canonicalJson(value))
    }
  })

  it('gives the same text for a value as for that value written by JSON.stringify and read back', () => {
    const values = [{a: undefined, b: [undefined, 1, -0, Number.NaN, 1e21], c: '\ud800 lone', ['__proto__']: {x: 1}}, JSON.parse('{"__proto__": {"y": 2}, "z": 12345678901234567891}')]
    for (const value of values) expect(canonicalJson(value)).toBe(canonicalJson(JSON.parse(JSON.stringify(value))))
  })
})
