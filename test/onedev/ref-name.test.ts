import {describe, expect, it} from 'vitest'

import {pathMatcher} from '../../src/onedev/matchers.js'
import {gitAcceptsName, gitNameProblem, patternProblem, refNameProblem} from '../../src/onedev/ref-name.js'

/** Each name as `git check-ref-format refs/heads/<name>` (git 2.39) judged it, with the reason given here. */
const TABLE: Array<[string, string | null]> = [
  ['main', null],
  ['release/1.0', null],
  ['fuß', null],
  ['-x', null],
  ['HEAD', null],
  ['@', null],
  ['a@b', null],
  ['{x', null],
  ['a/@', null],
  ['x.lockx', null],
  ['a.b/c', null],
  ['foo./bar', null],
  ['', 'it is empty'],
  ['/src/x/y/x.java', 'it begins with "/"'],
  ['a/', 'it ends with "/"'],
  ['a//b', 'it holds "//"'],
  ['.a', 'its part ".a" begins with "."'],
  ['a/.b', 'its part ".b" begins with "."'],
  ['.lock', 'its part ".lock" begins with "."'],
  ['a.lock', 'its part "a.lock" ends with ".lock"'],
  ['a.lock/b', 'its part "a.lock" ends with ".lock"'],
  ['a..b', 'it holds ".."'],
  ['a@{b', 'it holds "@{"'],
  ['a.', 'it ends with "."'],
  ['main dev', 'it holds a space'],
  ['a~', 'it holds "~"'],
  ['a^', 'it holds "^"'],
  ['a:b', 'it holds ":"'],
  ['a?', 'it holds "?"'],
  ['a*', 'it holds "*"'],
  ['a[b', 'it holds "["'],
  ['a\\b', 'it holds "\\"'],
  ['a\tb', 'it holds a control character (U+0009)'],
  ['a\x7fb', 'it holds a control character (U+007F)'],
]

describe('names git accepts for a branch or tag (git-check-ref-format)', () => {
  for (const [name, problem] of TABLE) {
    it(`${JSON.stringify(name)}: ${problem ?? 'accepted'}`, () => {
      expect(gitNameProblem(name)).toBe(problem)
      expect(gitAcceptsName(name)).toBe(problem === null)
    })
  }

  it('a full ref name may not be "@" alone; refs/heads/@ is fine', () => {
    expect(refNameProblem('@')).toBe('it is "@"')
    expect(refNameProblem('refs/heads/@')).toBeNull()
    expect(refNameProblem('refs/heads//x')).toBe('it holds "//"')
  })
})

describe('patterns no branch or tag can match (issue 33: --branch "hello world" was dropped without a word)', () => {
  const refused: Array<[string, string]> = [
    ['hello world', 'it holds a space, which git refuses in every branch name'],
    ['release/a b/*', 'it holds a space, which git refuses in every branch name'],
    ['a~1', 'it holds "~", which git refuses in every branch name'],
    ['HEAD^', 'it holds "^", which git refuses in every branch name'],
    ['origin:main', 'it holds ":", which git refuses in every branch name'],
    ['v[0-9]', 'it holds "[", which git refuses in every branch name'],
    ['release\\*', 'it holds "\\", which git refuses in every branch name'],
    ['a\tb', 'it holds a control character (U+0009), which git refuses in every branch name'],
    ['main\x7f', 'it holds a control character (U+007F), which git refuses in every branch name'],
    ['', 'it is empty'],
    [' / ', 'it is empty'],
  ]
  for (const [pattern, problem] of refused) {
    it(`${JSON.stringify(pattern)}: ${problem}`, () => {
      expect(patternProblem(pattern, 'branch')).toBe(problem)
    })
  }

  // Wildcards, and what OneDev's matcher trims from each segment's ends (Java's String#trim), are no reason.
  const accepted: Array<[string, string]> = [
    ['release/**', 'release/1.0'],
    ['v?.*', 'v1.0'],
    [' main', 'main'],
    ['release/ 1.x\t', 'release/1.x'],
    ['"quoted"', '"quoted"'],
  ]
  for (const [pattern, name] of accepted) {
    it(`${JSON.stringify(pattern)} is accepted: it matches ${JSON.stringify(name)}, a name git accepts`, () => {
      expect(patternProblem(pattern, 'tag')).toBeNull()
      expect(pathMatcher(pattern, name)).toBe(true)
      expect(gitAcceptsName(name)).toBe(true)
    })
  }
})
