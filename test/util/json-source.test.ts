import {describe, expect, it} from 'vitest'

import {sourceOf, stringifyLike} from '../../src/util/json-source.js'
import {NUMBER_LIKE_KEYS_TEXT, NUMBER_TOKENS} from '../helpers/hostile.js'

/** `value` written back like `text`. */
function like(value: unknown, text: string): string {
  return stringifyLike(value, text, sourceOf(text).root)
}

describe('stringifyLike', () => {
  it('writes an unchanged value back as its text, white space and all', () => {
    const text = '{\n  "a": [1.0, 2E1, {"b": "\\u0041"}],\n  "10": true\n}\n'
    expect(like(JSON.parse(text), text)).toBe(text.trim())
  })

  it('keeps every number token of the corpus as written, beside an edited member', () => {
    for (const {token, roundTrip} of NUMBER_TOKENS) {
      const text = `{"maxArtifactBytes": ${token}, "enabled": false}`
      const value = JSON.parse(text)
      value.enabled = true
      expect(JSON.stringify(value)).toContain(roundTrip === 'null' ? 'null' : roundTrip)
      expect(like(value, text)).toBe(`{"maxArtifactBytes":${token},"enabled":true}`)
    }
  })

  it('keeps keys that look like numbers where the text has them; a new member goes last', () => {
    const value = JSON.parse(NUMBER_LIKE_KEYS_TEXT)
    expect(Object.keys(value)).toEqual(['2', '10', 'zeta', 'alpha'])
    value.alpha = 3
    value.omega = 'new'
    expect(like(value, NUMBER_LIKE_KEYS_TEXT)).toBe('{"zeta":1,"10":"ten","alpha":3,"2":"two","omega":"new"}')
    delete value.omega
    delete value['10']
    expect(like(value, NUMBER_LIKE_KEYS_TEXT)).toBe('{"zeta":1,"alpha":3,"2":"two"}')
  })

  it('an item inserted into or removed from a list leaves the other items as written, before and after it', () => {
    const text = '[{"n": 1.0}, {"n": 2.0}, {"n": 3.0}]'
    const inserted = JSON.parse(text)
    inserted.splice(1, 0, {n: 9})
    expect(like(inserted, text)).toBe('[{"n": 1.0},{"n":9},{"n": 2.0},{"n": 3.0}]')
    const removed = JSON.parse(text)
    removed.splice(1, 1)
    expect(like(removed, text)).toBe('[{"n": 1.0},{"n": 3.0}]')
    const edited = JSON.parse(text)
    edited[1].m = true
    expect(like(edited, text)).toBe('[{"n": 1.0},{"n":2.0,"m":true},{"n": 3.0}]')
  })

  it('a value that changed kind is written fresh', () => {
    const text = '{"a": [1.0], "b": {"c": 1.0}, "d": 1.0}'
    expect(like({a: {x: 1}, b: [1], d: 'one'}, text)).toBe('{"a":{"x":1},"b":[1],"d":"one"}')
  })

  it('reads strings of any length (20 million characters), escaped quotes and backslashes included', () => {
    const text = `{"long": "${'x'.repeat(20_000_000)}\\\\\\"", "tail": "a\\\\", "n": 1.0}`
    const value = JSON.parse(text)
    value.added = true
    const written = like(value, text)
    expect(written.endsWith(`"tail": "a\\\\","n":1.0,"added":true}`.replace('"tail": ', '"tail":'))).toBe(true)
    expect(JSON.parse(written)).toEqual(value)
  })

  it('finds a member named twice in one object', () => {
    expect(sourceOf('{"a": {"b": 1, "b": 2}}').duplicate).toBe(15)
    expect(sourceOf('{"a": {"b": 1}, "b": 2}').duplicate).toBeNull()
  })
})
