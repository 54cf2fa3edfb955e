import {describe, expect, it} from 'vitest'

import {
  admitsArbitraryBranch,
  arbitraryBranchTruth,
  branchPatternsOf,
  describeJobMatch,
  JobMatchSyntaxError,
  MAX_JOB_MATCH_LENGTH,
  parseJobMatch,
  quoteJobMatchValue,
} from '../../src/onedev/job-match.js'

describe('parseJobMatch', () => {
  it('parses on branch with one pattern', () => {
    expect(parseJobMatch('on branch "main"')).toEqual({type: 'on-branch', patterns: ['main']})
  })

  it('parses on branch with several comma-separated patterns, spaces around commas optional', () => {
    expect(parseJobMatch('on branch "main", "release/*"')).toEqual({type: 'on-branch', patterns: ['main', 'release/*']})
    expect(parseJobMatch('on branch "a","b" ,"c"')).toEqual({type: 'on-branch', patterns: ['a', 'b', 'c']})
  })

  it('accepts several spaces between on and branch, and leading/trailing spaces', () => {
    expect(parseJobMatch('  on   branch  "main"  ')).toEqual({type: 'on-branch', patterns: ['main']})
  })

  it('parses Job and Project criteria with is and is not', () => {
    expect(parseJobMatch('"Job" is "deploy"')).toEqual({type: 'field', field: 'Job', operator: 'is', values: ['deploy']})
    expect(parseJobMatch('"Project" is not "a/b", "c"')).toEqual({type: 'field', field: 'Project', operator: 'is not', values: ['a/b', 'c']})
  })

  it('gives and precedence over or, both left-associative', () => {
    expect(parseJobMatch('on branch "a" or on branch "b" and "Job" is "j"')).toEqual({
      type: 'or',
      left: {type: 'on-branch', patterns: ['a']},
      right: {type: 'and', left: {type: 'on-branch', patterns: ['b']}, right: {type: 'field', field: 'Job', operator: 'is', values: ['j']}},
    })
    expect(parseJobMatch('on branch "a" and on branch "b" and on branch "c"')).toEqual({
      type: 'and',
      left: {type: 'and', left: {type: 'on-branch', patterns: ['a']}, right: {type: 'on-branch', patterns: ['b']}},
      right: {type: 'on-branch', patterns: ['c']},
    })
  })

  it('honours parentheses', () => {
    expect(parseJobMatch('(on branch "a" or on branch "b") and "Job" is "j"')).toEqual({
      type: 'and',
      left: {type: 'or', left: {type: 'on-branch', patterns: ['a']}, right: {type: 'on-branch', patterns: ['b']}},
      right: {type: 'field', field: 'Job', operator: 'is', values: ['j']},
    })
  })

  it('parses not(...) with or without a space before the parenthesis', () => {
    const expected = {type: 'not', operand: {type: 'on-branch', patterns: ['main']}}
    expect(parseJobMatch('not(on branch "main")')).toEqual(expected)
    expect(parseJobMatch('not ( on branch "main" )')).toEqual(expected)
  })

  it('unescapes backslash escapes inside quoted values', () => {
    expect(parseJobMatch('on branch "a\\"b\\\\c\\d"')).toEqual({type: 'on-branch', patterns: ['a"b\\cd']})
  })

  it('parses the older submitted-by and non-pull-request forms', () => {
    expect(parseJobMatch('submitted by user "alice"')).toEqual({type: 'submitted-by', kind: 'user', values: ['alice']})
    expect(parseJobMatch('submitted by group "devs"')).toEqual({type: 'submitted-by', kind: 'group', values: ['devs']})
    expect(parseJobMatch('non-pull-request commits')).toEqual({type: 'non-pull-request-commits'})
  })

  const errors: Array<[string, string]> = [
    ['', 'Malformed job match: empty expression at position 0'],
    ['   ', 'Malformed job match: empty expression at position 0'],
    ['on branch', 'Malformed job match: expected a quoted value at position 9'],
    ['on branch ""', 'Malformed job match: empty quoted value at position 10'],
    ['on branch "main', 'Malformed job match: unterminated quoted value at position 10'],
    ['on branch "main\\', 'Malformed job match: unterminated quoted value at position 10'],
    ['on branch main', 'Malformed job match: unexpected word "main" at position 10'],
    ['ON BRANCH "main"', 'Malformed job match: unexpected word "ON" at position 0'],
    ['"Branch" is "main"', 'Malformed job match: invalid field "Branch" at position 0'],
    ['"Job" "x"', 'Malformed job match: expected \'is\' or \'is not\' after "Job" at position 6'],
    ['on branch "a" and', 'Malformed job match: expected a criterion at position 17'],
    ['on branch "a" on branch "b"', 'Malformed job match: unexpected \'on branch\' at position 14'],
    ['(on branch "a"', 'Malformed job match: expected \')\' at position 14'],
    ['not on branch "a"', 'Malformed job match: expected \'(\' but found \'on branch\' at position 4'],
    ['on branch "a", ', 'Malformed job match: expected a quoted value at position 15'],
    ['on\tbranch "a"', 'Malformed job match: unexpected character "\\t" at position 2'],
    [')', 'Malformed job match: expected a criterion but found \')\' at position 0'],
  ]
  for (const [text, message] of errors) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      expect(() => parseJobMatch(text)).toThrow(JobMatchSyntaxError)
      expect(() => parseJobMatch(text)).toThrow(message)
    })
  }

  it('refuses deep nesting and over-long input without recursing without bound', () => {
    const deep = `${'('.repeat(1000)}on branch "a"${')'.repeat(1000)}`
    expect(() => parseJobMatch(deep)).toThrow('nested too deeply')
    expect(() => parseJobMatch(`on branch "${'a'.repeat(MAX_JOB_MATCH_LENGTH)}"`)).toThrow(`longer than ${MAX_JOB_MATCH_LENGTH} characters`)
  })

  it('accepts moderate nesting', () => {
    expect(parseJobMatch(`${'not('.repeat(50)}on branch "a"${')'.repeat(50)}`).type).toBe('not')
  })
})

describe('admitsArbitraryBranch', () => {
  const table: Array<[string, boolean]> = [
    ['on branch "**"', true],
    ['on branch "*"', true],
    // One path pattern each (OnBranchCriteria: matchPath), not a pattern set: the branch literally named "-main".
    ['on branch "-main"', false],
    ['on branch "main dev"', false],
    ['on branch "-main", "**"', true],
    ['on branch "main **"', false],
    ['on branch "main"', false],
    ['on branch "release/*"', false],
    ['on branch "release/**"', false],
    ['on branch "main", "**"', true],
    ['not(on branch "main")', true],
    ['not(on branch "**")', false],
    ['not(not(on branch "main"))', false],
    ['on branch "main" or on branch "**"', true],
    ['on branch "main" and on branch "**"', false],
    ['"Job" is "deploy"', true],
    ['"Job" is not "deploy"', true],
    ['on branch "main" and "Job" is "deploy"', false],
    ['on branch "main" or "Job" is "deploy"', true],
    ['on branch "**" and "Job" is "deploy"', true],
    ['not(on branch "main" and "Job" is "deploy")', true],
    ['not(on branch "main" or "Job" is "deploy")', true],
    ['not(on branch "**" or "Job" is "deploy")', false],
    ['(on branch "main" or on branch "dev") and not(on branch "x")', false],
    ['on branch "main" or not(on branch "release/*")', true],
    ['non-pull-request commits', true],
    ['not(non-pull-request commits)', false],
    ['submitted by user "alice"', true],
    ['on branch "main" and submitted by user "alice"', false],
  ]
  for (const [text, admits] of table) {
    it(`${text} → ${admits}`, () => {
      expect(admitsArbitraryBranch(text)).toBe(admits)
      expect(admitsArbitraryBranch(parseJobMatch(text))).toBe(admits)
    })
  }

  it('distinguishes certainly admitted from possibly admitted', () => {
    expect(arbitraryBranchTruth(parseJobMatch('on branch "**"'))).toBe('true')
    expect(arbitraryBranchTruth(parseJobMatch('on branch "**" and "Job" is "x"'))).toBe('unknown')
    expect(arbitraryBranchTruth(parseJobMatch('on branch "main"'))).toBe('false')
  })

  it('reads a branch value with a quote in it as one literal path pattern', () => {
    expect(admitsArbitraryBranch('on branch "\\"unterminated"')).toBe(false)
  })

  it('throws on a malformed string', () => {
    expect(() => admitsArbitraryBranch('on branch')).toThrow(JobMatchSyntaxError)
  })
})

describe('describeJobMatch', () => {
  const roundTrips = [
    'on branch "main"',
    'on branch "main", "release/*"',
    '"Job" is not "a\\"b"',
    'not(on branch "main")',
    '(on branch "a" or on branch "b") and "Job" is "j"',
    'on branch "a" or on branch "b" and "Job" is "j"',
    'on branch "a" and (on branch "b" and on branch "c")',
    'on branch "a" or (on branch "b" or on branch "c")',
    'submitted by group "devs" or non-pull-request commits',
  ]
  for (const text of roundTrips) {
    it(`writes ${text} back unchanged`, () => {
      expect(describeJobMatch(parseJobMatch(text))).toBe(text)
    })
  }

  it('normalizes spacing and drops redundant parentheses', () => {
    expect(describeJobMatch(parseJobMatch('  ( on  branch "a" )  and   not ( "Job" is "x","y" ) '))).toBe('on branch "a" and not("Job" is "x", "y")')
  })

  it('quotes values the way OneDev does', () => {
    expect(quoteJobMatchValue('a"b\\c')).toBe('"a\\"b\\\\c"')
  })

  it('lists branch patterns in order without duplicates', () => {
    expect(branchPatternsOf(parseJobMatch('on branch "a", "b" or not(on branch "a" and "Job" is "x") or on branch "c"'))).toEqual(['a', 'b', 'c'])
  })
})
