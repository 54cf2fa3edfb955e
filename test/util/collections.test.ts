import {describe, expect, it} from 'vitest'

import {mapped, pushTo} from '../../src/util/collections.js'

describe('mapped', () => {
  it('is items.map(f): each item with its index, in order', () => {
    const items = ['a', 'b', 'c']
    expect(mapped(items, (item, index) => `${index}:${item}`)).toEqual(items.map((item, index) => `${index}:${item}`))
    expect(mapped([], () => 1)).toEqual([])
  })

  it('makes a new list and leaves the items alone', () => {
    const items = [{n: 1}, {n: 2}]
    const out = mapped(items, (item) => item)
    expect(out).not.toBe(items)
    expect(out).toEqual(items)
    expect(out[0]).toBe(items[0])
  })
})

describe('pushTo', () => {
  it('appends to the list under a key, making it on first use', () => {
    const map = new Map<string, number[]>()
    pushTo(map, 'a', 1)
    pushTo(map, 'a', 2)
    pushTo(map, 'b', 3)
    expect([...map]).toEqual([['a', [1, 2]], ['b', [3]]])
  })
})
