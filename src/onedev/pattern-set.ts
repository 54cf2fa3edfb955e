/**
 * OneDev pattern sets (`PatternSet.g4`, `PatternSet.java`, onedev-reference.md §3.4).
 *
 * Grammar: `patterns: WS* pattern (WS+ pattern)* WS* EOF; pattern: '-'? (Quoted | NQuoted)` where
 * WS is a single ASCII space only (tabs and newlines belong to a pattern), Quoted is `"…"` with at
 * least one character, NQuoted cannot start with `-`, and `\` escapes the next character in both.
 * A value that the server's parser would reject throws PatternSetSyntaxError.
 */
import type {Matcher} from './matchers.js'
import {unescape} from './syntax.js'

export class PatternSetSyntaxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PatternSetSyntaxError'
  }
}

export interface PatternSet {
  includes: string[]
  excludes: string[]
  matches(value: string, matcher: Matcher): boolean
}

type Token = {kind: 'ws'} | {kind: 'excluded'} | {kind: 'pattern'; value: string}

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === ' ') {
      tokens.push({kind: 'ws'})
      i++
    } else if (c === '-') {
      tokens.push({kind: 'excluded'})
      i++
    } else if (c === '"') {
      let j = i + 1
      let raw = ''
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') {
          if (j + 1 >= text.length) throw new PatternSetSyntaxError(`malformed pattern set: dangling escape at position ${j + 1}`)
          raw += text.slice(j, j + 2)
          j += 2
        } else {
          raw += text[j]
          j++
        }
      }
      if (j >= text.length) throw new PatternSetSyntaxError(`malformed pattern set: unterminated quote at position ${i + 1}`)
      if (raw.length === 0) throw new PatternSetSyntaxError(`malformed pattern set: empty quoted pattern at position ${i + 1}`)
      tokens.push({kind: 'pattern', value: unescape(raw)})
      i = j + 1
    } else {
      let j = i
      let raw = ''
      while (j < text.length && text[j] !== ' ' && text[j] !== '"') {
        if (text[j] === '\\') {
          if (j + 1 >= text.length) throw new PatternSetSyntaxError(`malformed pattern set: dangling escape at position ${j + 1}`)
          raw += text.slice(j, j + 2)
          j += 2
        } else {
          raw += text[j]
          j++
        }
      }
      tokens.push({kind: 'pattern', value: unescape(raw)})
      i = j
    }
  }
  return tokens
}

class ParsedPatternSet implements PatternSet {
  constructor(
    readonly includes: string[],
    readonly excludes: string[],
  ) {}

  matches(value: string, matcher: Matcher): boolean {
    if (this.excludes.some((exclude) => matcher(exclude, value))) return false
    if (this.includes.some((include) => matcher(include, value))) return true
    return this.excludes.length > 0 && this.includes.length === 0
  }
}

/**
 * Parses a pattern set. null, '' and whitespace-only text give the empty set, which matches
 * nothing (the server turns an empty input into null, and null matches nothing).
 */
export function parsePatternSet(text: string | null | undefined): PatternSet {
  const includes: string[] = []
  const excludes: string[] = []
  if (text === null || text === undefined || text.trim() === '') return new ParsedPatternSet(includes, excludes)

  const tokens = tokenize(text)
  // WS* pattern (WS+ pattern)* WS* EOF
  let previous: 'start' | 'ws' | 'excluded' | 'pattern' = 'start'
  let excluded = false
  for (const token of tokens) {
    if (token.kind === 'ws') {
      if (previous === 'excluded') throw new PatternSetSyntaxError('malformed pattern set: "-" must be followed by a pattern')
      previous = 'ws'
    } else if (token.kind === 'excluded') {
      if (previous === 'excluded') throw new PatternSetSyntaxError('malformed pattern set: "-" must be followed by a pattern')
      if (previous === 'pattern') throw new PatternSetSyntaxError('malformed pattern set: patterns must be separated by a space')
      excluded = true
      previous = 'excluded'
    } else {
      if (previous === 'pattern') throw new PatternSetSyntaxError('malformed pattern set: patterns must be separated by a space')
      if (excluded) excludes.push(token.value)
      else includes.push(token.value)
      excluded = false
      previous = 'pattern'
    }
  }
  if (previous === 'excluded') throw new PatternSetSyntaxError('malformed pattern set: "-" must be followed by a pattern')
  return new ParsedPatternSet(includes, excludes)
}

/** Parses, or returns null when the server would have rejected the text. */
export function tryParsePatternSet(text: string | null | undefined): PatternSet | null {
  try {
    return parsePatternSet(text)
  } catch (error) {
    if (error instanceof PatternSetSyntaxError) return null
    throw error
  }
}

/**
 * A name that appears in none of the set's patterns, so only wildcards (or an exclusion-only set)
 * can match it.
 */
function freshName(set: PatternSet, seed: string): string {
  const texts = [...set.includes, ...set.excludes]
  let name = seed
  for (let n = 0; texts.some((t) => t.includes(name)) && n < 1000; n++) name = `${seed}${n}x`
  return name
}

/**
 * Whether the set matches names a writer can freely choose (e.g. `**`, `*`, `-main`): probes
 * fresh names at depth 1 and 2 with the matcher.
 */
export function matchesArbitraryNames(set: PatternSet, matcher: Matcher): boolean {
  const first = freshName(set, 'zqonedevauditprobe')
  const second = freshName(set, 'zqonedevauditnested')
  return set.matches(first, matcher) || set.matches(`${first}/${second}`, matcher)
}

/**
 * A name (or a path pattern) written as one element of a pattern set, so that parsing gives exactly
 * it back: as it is when it can be, else quoted with `"` and `\` escaped. null when no spelling
 * round-trips (a line break, which the server's unescape keeps escaped).
 */
export function quotePattern(pattern: string): string | null {
  if (pattern === '') return null
  const plain = !pattern.startsWith('-') && !/[ "\\]/.test(pattern)
  const text = plain ? pattern : `"${pattern.replace(/[\\"]/g, (c) => `\\${c}`)}"`
  const parsed = tryParsePatternSet(text)
  return parsed !== null && parsed.excludes.length === 0 && parsed.includes.length === 1 && parsed.includes[0] === pattern ? text : null
}
