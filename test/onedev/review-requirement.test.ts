import {describe, expect, it} from 'vitest'

import {
  formatReviewRequirement,
  hasReviewers,
  mergeReviewRequirements,
  missingReviews,
  parseReviewRequirement,
  ReviewRequirementSyntaxError,
  tryParseReviewRequirement,
} from '../../src/onedev/review-requirement.js'

describe('parseReviewRequirement', () => {
  it.each([
    ['user(alice) group(core-devs):2', {users: ['alice'], groups: [{name: 'core-devs', count: 2}]}],
    ['user(alice) and group(core-devs):2', {users: ['alice'], groups: [{name: 'core-devs', count: 2}]}],
    ['group(core):all and user(bob)', {users: ['bob'], groups: [{name: 'core', count: 'all'}]}],
    ['group(core)', {users: [], groups: [{name: 'core', count: 1}]}],
    ['  user(a)   user(b)  ', {users: ['a', 'b'], groups: []}],
    ['user(a\\)b)', {users: ['a)b'], groups: []}],
    ['user(Alice) user(alice) group(g):3 group(g)', {users: ['Alice'], groups: [{name: 'g', count: 3}]}],
    ['group(g):12', {users: [], groups: [{name: 'g', count: 12}]}],
  ])('%j', (text, expected) => {
    expect(parseReviewRequirement(text)).toEqual(expected)
  })

  it.each([null, undefined, '', '   '])('%j means no reviewers', (text) => {
    const parsed = parseReviewRequirement(text)
    expect(parsed).toEqual({users: [], groups: []})
    expect(hasReviewers(parsed)).toBe(false)
  })

  it.each([
    ['group(g):0', /count of at least 1/],
    ['group(g):', /count of at least 1/],
    ['user(a)user(b)', /expected a space/],
    ['anyone', /expected user\(...\) or group\(...\)/],
    ['user(a) or user(b)', /expected user/],
    ['user(a', /unterminated/],
    ['user()', /empty name/],
  ])('%j is rejected', (text, message) => {
    expect(() => parseReviewRequirement(text)).toThrow(ReviewRequirementSyntaxError)
    expect(() => parseReviewRequirement(text)).toThrow(message)
    expect(tryParseReviewRequirement(text)).toBeNull()
  })
})

describe('merging and comparing', () => {
  const parse = parseReviewRequirement
  it('merges like the server: union of users, the larger count per group', () => {
    expect(mergeReviewRequirements([parse('user(a) group(g)'), parse('user(A) user(b) group(g):2 group(h):all')])).toEqual({
      users: ['a', 'b'],
      groups: [
        {name: 'g', count: 2},
        {name: 'h', count: 'all'},
      ],
    })
  })
  it('missingReviews lists what the weaker one lacks', () => {
    expect(missingReviews(parse('group(g)'), parse('user(a) group(g):2'))).toEqual(['a review by user(a)', '2 reviews of group(g)'])
    expect(missingReviews(parse('group(g):all'), parse('group(g):5'))).toEqual([])
    expect(missingReviews(parse('group(g):5'), parse('group(g):all'))).toEqual(['reviews by all members of group(g)'])
    expect(missingReviews(parse('user(A)'), parse('user(a)'))).toEqual([])
  })
  it('formats in the current syntax', () => {
    expect(formatReviewRequirement(parse('user(a) and group(g):all and group(h)'))).toBe('user(a) group(g):all group(h)')
  })
})
