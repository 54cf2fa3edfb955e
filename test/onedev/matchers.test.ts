import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {isLiteralPath, pathMatcher, stringMatcher} from '../../src/onedev/matchers.js'

describe('pathMatcher', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'Main', false],
    ['Main', 'main', false],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/1/x', false],
    ['release/**', 'release/1.0', true],
    ['release/**', 'release/1/x', true],
    ['release/**', 'release', true],
    ['release/', 'release/1/x', true],
    ['release/', 'release', true],
    ['*', 'main', true],
    ['*', 'feature/x', false],
    ['**', 'feature/x', true],
    ['**', 'main', true],
    ['**/x', 'feature/a/x', true],
    ['**/x', 'x', true],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/1/2/b', true],
    ['a/**/b', 'a/1/2/c', false],
    ['a/**/b/**/c', 'a/1/b/2/c', true],
    ['a/**/b/**/c', 'a/1/c/2/b', false],
    ['feat?re/*', 'feature/x', true],
    ['feat?re/*', 'feaure/x', false],
    ['v*', 'v1.0.0', true],
    ['v*', 'release-v1', false],
    ['/main', 'main', false],
    ['main', '/main', false],
    ['/main', '/main', true],
    ['main', 'main/', false],
    ['rel*/**', 'release/1/x', true],
    ['', '', true],
    ['x', '', false],
  ])('%j vs %j → %s', (pattern, value, expected) => {
    expect(pathMatcher(pattern, value)).toBe(expected)
  })

  it('treats repeated separators and padded segments as the server does (segments are trimmed, empty ones dropped)', () => {
    expect(pathMatcher('release/x', 'release//x')).toBe(true)
    expect(pathMatcher('release/ x', 'release/x')).toBe(true)
  })

  it('finishes quickly on a pathological pattern', () => {
    const pattern = '**/*a*a*a*a*a*a*a*b/**/*a*a*a*a*a*a*a*b/**/c'
    const value = Array.from({length: 40}, () => 'a'.repeat(200)).join('/')
    const started = performance.now()
    expect(pathMatcher(pattern, value)).toBe(false)
    expect(performance.now() - started).toBeLessThan(500)
  })
})

describe('isLiteralPath (the pattern matches the ref name it spells and no other)', () => {
  it.each([
    ['main', true],
    ['release/9', true],
    ['release/', false], // the server appends "**"
    ['release/*', false],
    ['v1.?', false],
    ['/main', false], // also matches "//main"
    ['release//9', false], // empty segments are dropped
    ['release/ 9', false], // segments are trimmed
    ['', false],
  ])('%j → %s', (pattern, expected) => {
    expect(isLiteralPath(pattern)).toBe(expected)
  })

  it('a literal pattern matches none of the other names tried', () => {
    for (const name of ['release/9/x', 'release/9/', 'release/90', 'release', 'release/*']) expect(pathMatcher('release/9', name)).toBe(false)
    expect(pathMatcher('release/', 'release/9')).toBe(true)
  })
})

describe('stringMatcher', () => {
  it.each([
    ['*', 'feature/x', true],
    ['ci', 'ci', true],
    ['ci', 'CI', false],
    ['build-*', 'build-linux/arm', true],
    ['b?ild', 'build', true],
    ['b?ild', 'bild', false],
    ['*-test', 'unit-test', true],
    ['*-test', 'unit-test2', false],
    ['a*b*c', 'aXXbYYc', true],
    ['a*b*c', 'aXXcYYb', false],
    ['a**b', 'a/x/b', true],
    ['', '', true],
    ['', 'x', false],
  ])('%j vs %j → %s', (pattern, value, expected) => {
    expect(stringMatcher(pattern, value)).toBe(expected)
  })

  it('finishes quickly on a pathological pattern', () => {
    const value = 'a'.repeat(100_000)
    const started = performance.now()
    expect(stringMatcher('*a*a*a*a*a*a*a*b', value)).toBe(false)
    expect(stringMatcher('*a*a*a*a*a*a*a*a', value)).toBe(true)
    expect(performance.now() - started).toBeLessThan(500)
  })
})

describe('segments kept between calls', () => {
  it('give the same answers once more names were matched than are kept', () => {
    const cases: Array<[string, string, boolean]> = [['release/**', 'release/1.0', true], [' a / b ', 'a/b', true], ['a//b', 'a/b', true], ['/a/*', 'a/b', false], ['main', 'main', true], ['**', 'x', true], ['m?in', 'main', true]]
    for (const [pattern, value, expected] of cases) expect(pathMatcher(pattern, value), `${pattern} ${value}`).toBe(expected)
    for (let i = 0; i < 5000; i++) pathMatcher(`feature/${i}/**`, `feature/${i}/x`)
    for (const [pattern, value, expected] of cases) expect(pathMatcher(pattern, value), `${pattern} ${value}`).toBe(expected)
  })
})

describe('agreement with a plain recursive definition (fast-check)', () => {
  // Reference: `**` is zero or more whole segments, `*` any run within a segment, `?` one character.
  const segmentMatches = (p: string, s: string): boolean => {
    if (p === '') return s === ''
    if (p[0] === '*') return segmentMatches(p.slice(1), s) || (s !== '' && segmentMatches(p, s.slice(1)))
    return s !== '' && (p[0] === '?' || p[0] === s[0]) && segmentMatches(p.slice(1), s.slice(1))
  }
  const pathMatches = (p: string[], s: string[]): boolean => {
    if (p.length === 0) return s.length === 0
    if (p[0] === '**') return pathMatches(p.slice(1), s) || (s.length > 0 && pathMatches(p, s.slice(1)))
    return s.length > 0 && segmentMatches(p[0]!, s[0]!) && pathMatches(p.slice(1), s.slice(1))
  }
  const segment = (chars: string[]) => fc.array(fc.constantFrom(...chars), {minLength: 1, maxLength: 4}).map((c) => c.join(''))
  const patternSegment = fc.oneof(segment(['a', 'b', '*', '?']), fc.constant('**'))

  it('pathMatcher', () => {
    fc.assert(
      fc.property(fc.array(patternSegment, {minLength: 1, maxLength: 5}), fc.array(segment(['a', 'b']), {minLength: 1, maxLength: 5}), (p, s) => {
        expect(pathMatcher(p.join('/'), s.join('/'))).toBe(pathMatches(p, s))
      }),
      {numRuns: 3000},
    )
  })

  it('stringMatcher', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab*?/]{0,8}$/), fc.stringMatching(/^[ab/]{0,8}$/), (p, s) => {
        expect(stringMatcher(p, s)).toBe(segmentMatches(p, s))
      }),
      {numRuns: 3000},
    )
  })
})
