import {describe, expect, it} from 'vitest'

import {RecentMemo} from '../../src/util/recent.js'

describe('RecentMemo', () => {
  it('computes once per key while the key is among the most recent ones', () => {
    const memo = new RecentMemo<object, number>(2)
    const a = {}
    const b = {}
    let computed = 0
    const next = () => ++computed
    expect(memo.get(a, next)).toBe(1)
    expect(memo.get(b, next)).toBe(2)
    expect(memo.get(a, next)).toBe(1)
    expect(memo.get(b, next)).toBe(2)
    expect(computed).toBe(2)
  })

  it('compares keys by identity and forgets the oldest key when full', () => {
    const memo = new RecentMemo<object, string>(2)
    const [a, b, c] = [{id: 1}, {id: 2}, {id: 3}]
    memo.get(a, () => 'a')
    memo.get(b, () => 'b')
    memo.get(c, () => 'c') // replaces a, the oldest
    expect(memo.get(b, () => 'recomputed')).toBe('b')
    expect(memo.get(c, () => 'recomputed')).toBe('c')
    expect(memo.get(a, () => 'a again')).toBe('a again')
    const fresh = new RecentMemo<object, string>(2)
    fresh.get(b, () => 'b')
    expect(fresh.get({id: 2}, () => 'equal but not the same')).toBe('equal but not the same')
  })
})
