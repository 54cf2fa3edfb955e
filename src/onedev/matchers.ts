/**
 * OneDev's wildcard matchers (theonedev/commons `PathMatcher.java` and `StringMatcher.java`,
 * onedev-reference.md §3.4), ported step by step so that edge cases agree with the server.
 *
 * Both algorithms are iterative: between two stars (or two `**` segments) they search for the
 * first place the fixed part fits, which is correct for this kind of wildcard and takes at most
 * O(pattern × value) steps. No regular expression is ever built from server text.
 */

export type Matcher = (pattern: string, value: string) => boolean

/** Whether one character of a pattern (`?` or a literal) matches one character of the value. */
function charMatches(patternChar: string, valueChar: string | undefined): boolean {
  return patternChar === '?' || patternChar === valueChar
}

/**
 * `*` matches any run of characters including `/`, `?` matches one character, case-sensitive.
 * Used for job names and report names; PathMatcher uses it for single path segments.
 */
export const stringMatcher: Matcher = (pattern, value) => {
  let patStart = 0
  let patEnd = pattern.length - 1
  let strStart = 0
  let strEnd = value.length - 1

  if (!pattern.includes('*')) {
    if (patEnd !== strEnd) return false
    for (let i = 0; i <= patEnd; i++) if (!charMatches(pattern[i]!, value[i])) return false
    return true
  }
  if (patEnd === 0) return true // the pattern is a single '*'

  const onlyStarsLeft = () => {
    for (let i = patStart; i <= patEnd; i++) if (pattern[i] !== '*') return false
    return true
  }

  // characters before the first star
  while (pattern[patStart] !== '*' && strStart <= strEnd) {
    if (!charMatches(pattern[patStart]!, value[strStart])) return false
    patStart++
    strStart++
  }
  if (strStart > strEnd) return onlyStarsLeft()

  // characters after the last star
  while (pattern[patEnd] !== '*' && strStart <= strEnd) {
    if (!charMatches(pattern[patEnd]!, value[strEnd])) return false
    patEnd--
    strEnd--
  }
  if (strStart > strEnd) return onlyStarsLeft()

  // between stars: patStart and patEnd both point at a '*'
  while (patStart !== patEnd && strStart <= strEnd) {
    let nextStar = -1
    for (let i = patStart + 1; i <= patEnd; i++) {
      if (pattern[i] === '*') {
        nextStar = i
        break
      }
    }
    if (nextStar === patStart + 1) {
      patStart++ // two stars in a row
      continue
    }
    const partLength = nextStar - patStart - 1
    const strLength = strEnd - strStart + 1
    let found = -1
    for (let i = 0; i <= strLength - partLength && found === -1; i++) {
      let fits = true
      for (let j = 0; j < partLength && fits; j++) fits = charMatches(pattern[patStart + j + 1]!, value[strStart + i + j])
      if (fits) found = strStart + i
    }
    if (found === -1) return false
    patStart = nextStar
    strStart = found + partLength
  }
  return onlyStarsLeft()
}

/** Java's String#trim: strips every character up to U+0020 from both ends. */
function javaTrim(s: string): string {
  let start = 0
  let end = s.length
  while (start < end && s.charCodeAt(start) <= 0x20) start++
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--
  return s.slice(start, end)
}

/** Not empty, and nothing Java's trim would strip at either end. */
function untrimmed(s: string): boolean {
  return s.length > 0 && s.charCodeAt(0) > 0x20 && s.charCodeAt(s.length - 1) > 0x20
}

/** Spring's tokenizeToStringArray(str, '/'): split on '/', trim each token, drop empty ones (what pathMatcher compares). */
export function segments(s: string): string[] {
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
 * Whether pathMatcher matches `pattern` against the name it spells and no other git ref name: no `?`
 * or `*`, no trailing `/` (it means `/**`), and nothing the segment split would drop or trim (a
 * leading `/`, an empty segment, spaces or control characters at a segment's ends), so that the
 * pattern is one valid ref name, which is then the only ref name it matches.
 */
export function isLiteralPath(pattern: string): boolean {
  return !/[*?]/.test(pattern) && !pattern.startsWith('/') && !pattern.endsWith('/') && pattern.split('/').every(untrimmed)
}

/**
 * Ant-style path matching: `?` one character, `*` zero or more characters within one `/` segment,
 * `**` zero or more whole segments; a pattern ending in `/` gets `**` appended; a leading `/` must
 * agree between pattern and value; case-sensitive. Used for branches, tags and file paths.
 */
export const pathMatcher: Matcher = (rawPattern, value) => {
  // One segment each (`main` against `main`, `**` against `develop`), nothing to trim: the segment
  // rules below reduce to this, without splitting either string.
  if (rawPattern.indexOf('/') === -1 && value.indexOf('/') === -1 && untrimmed(rawPattern) && untrimmed(value)) {
    return rawPattern === '**' || stringMatcher(rawPattern, value)
  }
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
