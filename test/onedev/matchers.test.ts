import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {pathMatcher, stringMatcher} from '../../src/onedev/matchers.js'

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

describe('the one-segment shortcut and the cache of segments', () => {
  // The path matcher as it was before them: both strings split on every call.
/** Java's String#trim: strips every character up to U+0020 from both ends. */
function javaTrim(s: string): string {
  let start = 0
  let end = s.length
  while (start < end && s.charCodeAt(start) <= 0x20) start++
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--
  return s.slice(start, end)
}

/** Spring's tokenizeToStringArray(str, '/'): split on '/', trim each token, drop empty ones. */
function segments(s: string): string[] {
  const parts = s.split('/')
  for (const part of parts) {
    // Only an empty token, or one with spaces or control characters at either end, needs the slow path.
    if (part.length === 0 || part.charCodeAt(0) <= 0x20 || part.charCodeAt(part.length - 1) <= 0x20) {
      return parts.map(javaTrim).filter((token) => token.length > 0)
    }
  }
  return parts
}

/**
 * Ant-style path matching: `?` one character, `*` zero or more characters within one `/` segment,
 * `**` zero or more whole segments; a pattern ending in `/` gets `**` appended; a leading `/` must
 * agree between pattern and value; case-sensitive. Used for branches, tags and file paths.
 */
const splittingPathMatcher = (rawPattern: string, value: string): boolean => {
  const pattern = rawPattern.endsWith('/') ? `${rawPattern}**` : rawPattern
  if (value.startsWith('/') !== pattern.startsWith('/')) return false

  const patDirs = segments(pattern)
  const pathDirs = segments(value)
  let patStart = 0
  let patEnd = patDirs.length - 1
  let pathStart = 0
  let pathEnd = pathDirs.length - 1

  const onlyDoubleStarsLeft = () => {
    for (let i = patStart; i <= patEnd; i++) if (patDirs[i] !== '**') return false
    return true
  }

  // segments up to the first '**'
  while (patStart <= patEnd && pathStart <= pathEnd) {
    const patDir = patDirs[patStart]!
    if (patDir === '**') break
    if (!stringMatcher(patDir, pathDirs[pathStart]!)) return false
    patStart++
    pathStart++
  }

  if (pathStart > pathEnd) {
    // the value is used up: only '**' may remain in the pattern
    if (patStart > patEnd) return pattern.endsWith('/') ? value.endsWith('/') : !value.endsWith('/')
    if (patStart === patEnd && patDirs[patStart] === '*' && value.endsWith('/')) return true
    return onlyDoubleStarsLeft()
  } else if (patStart > patEnd) {
    return false // the pattern is used up, the value is not
  }

  // segments after the last '**'
  while (patStart <= patEnd && pathStart <= pathEnd) {
    const patDir = patDirs[patEnd]!
    if (patDir === '**') break
    if (!stringMatcher(patDir, pathDirs[pathEnd]!)) return false
    patEnd--
    pathEnd--
  }
  if (pathStart > pathEnd) return onlyDoubleStarsLeft()

  // between '**' segments: find the first place each fixed run of segments fits
  while (patStart !== patEnd && pathStart <= pathEnd) {
    let nextDoubleStar = -1
    for (let i = patStart + 1; i <= patEnd; i++) {
      if (patDirs[i] === '**') {
        nextDoubleStar = i
        break
      }
    }
    if (nextDoubleStar === patStart + 1) {
      patStart++ // '**/**'
      continue
    }
    const partLength = nextDoubleStar - patStart - 1
    const strLength = pathEnd - pathStart + 1
    let found = -1
    for (let i = 0; i <= strLength - partLength && found === -1; i++) {
      let fits = true
      for (let j = 0; j < partLength && fits; j++) fits = stringMatcher(patDirs[patStart + j + 1]!, pathDirs[pathStart + i + j]!)
      if (fits) found = pathStart + i
    }
    if (found === -1) return false
    patStart = nextDoubleStar
    pathStart = found + partLength
  }
  return onlyDoubleStarsLeft()
}

  it('agree with splitting both strings on every call, on any text (slashes, spaces, empty segments), asked twice', () => {
    const text = fc.stringMatching(/^[ab*?/ \t]{0,10}$/)
    fc.assert(
      fc.property(text, text, (p, v) => {
        expect(pathMatcher(p, v)).toBe(splittingPathMatcher(p, v))
        expect(pathMatcher(p, v)).toBe(splittingPathMatcher(p, v))
      }),
      {numRuns: 5000},
    )
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
