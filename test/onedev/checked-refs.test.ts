import {describe, expect, it} from 'vitest'

import {checkedBranches, checkedTags} from '../../src/onedev/checked-refs.js'

describe('names judged in place of lists the server does not offer', () => {
  it('judges a configured name without wildcards as a branch only when git accepts it', () => {
    // `release/` means `release/**` to OneDev; "main dev" and "/x" are names git refuses.
    expect(checkedBranches(undefined, ['release/', 'main dev', '/x', 'hotfix'])).toEqual([{name: 'hotfix', reason: 'configured'}])
    expect(checkedBranches(undefined, ['release/', 'main dev'])).toEqual([{name: 'main', reason: 'assumed default branch'}])
    expect(checkedBranches({defaultBranch: 'trunk', branches: null, tags: null}, ['a..b', 'dev'])).toEqual([
      {name: 'trunk', reason: 'default branch'},
      {name: 'dev', reason: 'configured'},
    ])
  })

  it('judges a configured tag name only when git accepts it', () => {
    expect(checkedTags(undefined, ['v1.0', 'v2.0.lock', 'releases/'])).toEqual([{name: 'v1.0', reason: 'configured'}])
    expect(checkedTags(undefined, ['v2.0.lock'])).toEqual([{name: 'v1.0.0', reason: 'sample release tag name'}])
  })
})
