import {describe, expect, it} from 'vitest'

import {pathMatcher, stringMatcher} from '../../src/onedev/matchers.js'
import {PatternSetSyntaxError, matchesArbitraryNames, parsePatternSet, tryParsePatternSet} from '../../src/onedev/pattern-set.js'

const parts = (text: string | null) => {
  const set = parsePatternSet(text)
  return {includes: set.includes, excludes: set.excludes}
}

describe('parsePatternSet', () => {
  it.each([
    ['main', ['main'], []],
    ['main release/**', ['main', 'release/**'], []],
    ['  main   dev  ', ['main', 'dev'], []],
    ['-main', [], ['main']],
    ['** -main', ['**'], ['main']],
    ['"x y"', ['x y'], []],
    ['-"x y"', [], ['x y']],
    ['"-file"', ['-file'], []],
    ['a\\ b', ['a b'], []],
    ['\\-main', ['-main'], []],
    ['"say \\"hi\\""', ['say "hi"'], []],
    ['a\\\\b', ['a\\b'], []],
    ['feature-x', ['feature-x'], []],
    ['main-', ['main-'], []],
    ['main\tdev', ['main\tdev'], []],
  ])('%j', (text, includes, excludes) => {
    expect(parts(text)).toEqual({includes, excludes})
  })

  it.each([null, '', '   '])('%j is the empty set and matches nothing', (text) => {
    const set = parsePatternSet(text)
    expect(parts(text)).toEqual({includes: [], excludes: []})
    expect(set.matches('main', pathMatcher)).toBe(false)
  })
  it('undefined is the empty set', () => {
    expect(parsePatternSet(undefined).matches('main', pathMatcher)).toBe(false)
  })

  it.each([
    ['"x y', /unterminated quote/],
    ['""', /empty quoted pattern/],
    ['-', /must be followed by a pattern/],
    ['- main', /must be followed by a pattern/],
    ['--main', /must be followed by a pattern/],
    ['main"x"', /separated by a space/],
    ['"x""y"', /separated by a space/],
    ['main\\', /dangling escape/],
    ['"main\\', /dangling escape/],
  ])('%j is rejected', (text, message) => {
    expect(() => parsePatternSet(text)).toThrow(PatternSetSyntaxError)
    expect(() => parsePatternSet(text)).toThrow(message)
    expect(tryParsePatternSet(text)).toBeNull()
  })
})

describe('PatternSet.matches', () => {
  const matches = (text: string, value: string) => parsePatternSet(text).matches(value, pathMatcher)

  it('exclusion only: everything except the excluded', () => {
    expect(matches('-main', 'develop')).toBe(true)
    expect(matches('-main', 'feature/x')).toBe(true)
    expect(matches('-main', 'main')).toBe(false)
  })
  it('an exclude wins over an include', () => {
    expect(matches('** -main', 'main')).toBe(false)
    expect(matches('** -main', 'dev')).toBe(true)
  })
  it('with includes, a value no include matches is not matched', () => {
    expect(matches('release/** -release/old', 'main')).toBe(false)
  })
  it('* vs **', () => {
    expect(matches('release/*', 'release/1/x')).toBe(false)
    expect(matches('release/**', 'release/1/x')).toBe(true)
    expect(matches('*', 'feature/x')).toBe(false)
    expect(matches('**', 'feature/x')).toBe(true)
  })
  it('is case-sensitive', () => {
    expect(matches('Main', 'main')).toBe(false)
    expect(matches('main', 'main')).toBe(true)
  })
  it('quoted patterns with spaces and a quoted leading dash', () => {
    expect(matches('"my branch"', 'my branch')).toBe(true)
    expect(matches('-"my branch"', 'my branch')).toBe(false)
    expect(matches('-"my branch"', 'other')).toBe(true)
    expect(matches('"-file"', '-file')).toBe(true)
    expect(matches('"-file"', 'file')).toBe(false)
  })
  it('uses the given matcher', () => {
    expect(parsePatternSet('build-*').matches('build-a/b', stringMatcher)).toBe(true)
    expect(parsePatternSet('build-*').matches('build-a/b', pathMatcher)).toBe(false)
  })
})

describe('matchesArbitraryNames', () => {
  it.each([
    ['**', true],
    ['*', true],
    ['-main', true],
    ['main', false],
    ['release/**', false],
    ['main release/*', false],
    ['** -zqonedevauditprobe', true],
    ['zqonedevauditprobe', false],
  ])('%j → %s', (text, expected) => {
    expect(matchesArbitraryNames(parsePatternSet(text), pathMatcher)).toBe(expected)
  })
  it('a depth-2 wildcard counts', () => {
    expect(matchesArbitraryNames(parsePatternSet('*/*'), pathMatcher)).toBe(true)
  })
  it('the empty set matches nothing', () => {
    expect(matchesArbitraryNames(parsePatternSet(null), pathMatcher)).toBe(false)
  })
})
