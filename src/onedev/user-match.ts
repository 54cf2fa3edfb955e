/**
 * OneDev userMatch expressions (`UserMatch.g4`, `UserMatch.java`, onedev-reference.md §3.5):
 *
 *   criteria ( or criteria )* [ except criteria ( and criteria )* ]
 *   criteria: anyone | user(<login>) | group(<name>)
 *
 * Tokens are separated by one or more single spaces; inside the parentheses `\` escapes the next
 * character. The server rejects anything else, and so does this parser (UserMatchSyntaxError).
 *
 * The audit cannot know who is in which group, so it reasons about principal classes: `others`
 * (a user named nowhere and in no named group), a named user (in no named group), and a member of
 * one named group (directly, and of no other named group; not itself a named user).
 */
import {mapped} from '../util/collections.js'
import {readParenValue} from './syntax.js'

export class UserMatchSyntaxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UserMatchSyntaxError'
  }
}

export type UserCriterion = {kind: 'anyone'} | {kind: 'user'; name: string} | {kind: 'group'; name: string}

export interface UserMatch {
  criteria: UserCriterion[]
  exceptions: UserCriterion[]
}

export type Principal = {kind: 'others'} | {kind: 'user'; name: string} | {kind: 'group'; name: string}

type Keyword = 'anyone' | 'and' | 'or' | 'user' | 'group' | 'role' | 'except'
type Token = {kind: 'ws'} | {kind: 'keyword'; word: Keyword} | {kind: 'value'; value: string}

// Longest first, as the ANTLR lexer prefers the longest literal ('anyone' over 'and').
const KEYWORDS: Keyword[] = ['anyone', 'except', 'group', 'user', 'role', 'and', 'or']

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    if (text[i] === ' ') {
      if (tokens.at(-1)?.kind !== 'ws') tokens.push({kind: 'ws'})
      i++
    } else if (text[i] === '(') {
      const {value, end} = readParenValue(text, i, (message) => {
        throw new UserMatchSyntaxError(`malformed user match: ${message}`)
      })
      tokens.push({kind: 'value', value})
      i = end
    } else {
      const word = KEYWORDS.find((k) => text.startsWith(k, i))
      if (!word) throw new UserMatchSyntaxError(`malformed user match: unexpected character at position ${i + 1}`)
      tokens.push({kind: 'keyword', word})
      i += word.length
    }
  }
  return tokens
}

/** Parses a userMatch expression; throws UserMatchSyntaxError where the server would reject it. */
export function parseUserMatch(text: string): UserMatch {
  const tokens = tokenize(text)
  while (tokens[0]?.kind === 'ws') tokens.shift()
  while (tokens.at(-1)?.kind === 'ws') tokens.pop()
  let position = 0
  const fail = (expected: string): never => {
    throw new UserMatchSyntaxError(`malformed user match: expected ${expected}`)
  }
  const criterion = (): UserCriterion => {
    const token = tokens[position++]
    if (token?.kind !== 'keyword') return fail('anyone, user(...) or group(...)')
    if (token.word === 'anyone') return {kind: 'anyone'}
    if (token.word === 'user' || token.word === 'group') {
      const value = tokens[position++]
      if (value?.kind !== 'value') return fail(`a name in parentheses right after "${token.word}"`)
      return {kind: token.word, name: value.value}
    }
    return fail('anyone, user(...) or group(...)')
  }
  // ws keyword ws: a joiner between criteria
  const joiner = (word: Keyword): boolean => {
    const [a, b, c] = [tokens[position], tokens[position + 1], tokens[position + 2]]
    if (a?.kind === 'ws' && b?.kind === 'keyword' && b.word === word && c?.kind === 'ws') {
      position += 3
      return true
    }
    return false
  }

  const criteria = [criterion()]
  while (joiner('or')) criteria.push(criterion())
  const exceptions: UserCriterion[] = []
  if (joiner('except')) {
    exceptions.push(criterion())
    while (joiner('and')) exceptions.push(criterion())
  }
  if (position !== tokens.length) fail('"or", "except" or the end')
  return {criteria, exceptions}
}

/** Parses, or returns null when the server would have rejected the text. */
export function tryParseUserMatch(text: string | null | undefined): UserMatch | null {
  try {
    return parseUserMatch(text ?? 'anyone')
  } catch (error) {
    if (error instanceof UserMatchSyntaxError) return null
    throw error
  }
}

function criterionMatches(criterion: UserCriterion, principal: Principal): boolean {
  switch (criterion.kind) {
    case 'anyone':
      return true // anonymous users too
    case 'user':
      // the server looks users up lower-cased (UserCache)
      return principal.kind === 'user' && principal.name.toLowerCase() === criterion.name.toLowerCase()
    case 'group':
      // direct membership, exact-case group names (GroupCache)
      return principal.kind === 'group' && principal.name === criterion.name
  }
}

/** Whether a rule with this userMatch applies to the principal: except clauses first, then any criterion. */
export function appliesTo(userMatch: UserMatch, principal: Principal): boolean {
  if (userMatch.exceptions.some((c) => criterionMatches(c, principal))) return false
  return userMatch.criteria.some((c) => criterionMatches(c, principal))
}

export function describePrincipal(principal: Principal): string {
  switch (principal.kind) {
    case 'others':
      return 'everyone else'
    case 'user':
      return `user(${principal.name})`
    case 'group':
      return `group(${principal.name})`
  }
}

/** Every user and group a userMatch names, in its criteria or its except clause. */
export function namedPrincipals(userMatch: UserMatch): Principal[] {
  return [...userMatch.criteria, ...userMatch.exceptions].flatMap((c): Principal[] => (c.kind === 'anyone' ? [] : [{kind: c.kind, name: c.name}]))
}

/** Same principal class: users compare case-insensitively (as the server looks them up), groups exactly. */
export function samePrincipal(a: Principal, b: Principal): boolean {
  if (a.kind === 'others' || b.kind === 'others') return a.kind === b.kind
  if (a.kind !== b.kind) return false
  return a.kind === 'user' ? a.name.toLowerCase() === b.name.toLowerCase() : a.name === b.name
}

function formatCriterion(criterion: UserCriterion): string {
  return criterion.kind === 'anyone' ? 'anyone' : `${criterion.kind}(${criterion.name.replace(/[\\()]/g, (c) => `\\${c}`)})`
}

/** The expression in the server's own form: criteria joined by ` or `, exceptions by ` and ` after ` except `. */
export function formatUserMatch(userMatch: UserMatch): string {
  const criteria = mapped(userMatch.criteria, formatCriterion).join(' or ')
  return userMatch.exceptions.length === 0 ? criteria : `${criteria} except ${mapped(userMatch.exceptions, formatCriterion).join(' and ')}`
}

/**
 * The userMatch without the exceptions that leave `principal` out (`anyone except group(bots)` →
 * `anyone` for group(bots)); null when none does, or when the result would not parse back the same.
 */
export function withoutExceptionFor(userMatch: UserMatch, principal: Principal): string | null {
  const exceptions = userMatch.exceptions.filter((c) => !criterionMatches(c, principal))
  if (exceptions.length === userMatch.exceptions.length) return null
  const text = formatUserMatch({criteria: userMatch.criteria, exceptions})
  const parsed = tryParseUserMatch(text)
  return parsed !== null && formatUserMatch(parsed) === text ? text : null
}
