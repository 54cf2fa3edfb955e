import {describe, expect, it} from 'vitest'

import {gitAcceptsName, gitNameProblem, refNameProblem} from '../../src/onedev/ref-name.js'

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
