import fc from 'fast-check'
import {describe, expect, test} from 'vitest'

import {escapeControl, escapeMarkdown, oneLine} from '../../src/util/escape.js'

describe('escapeControl', () => {
  test('shows ANSI escape sequences, newlines and other C0/C1 controls as visible escapes', () => {
    expect(escapeControl('\x1b[31mred\x1b[0m')).toBe('\\x1b[31mred\\x1b[0m')
    expect(escapeControl('a\nb\rc\td')).toBe('a\\nb\\rc\\td')
    expect(escapeControl('nul\u0000 bel\u0007 del\u007f csi\u009b nel\u0085')).toBe('nul\\x00 bel\\x07 del\\x7f csi\\x9b nel\\x85')
  })

  test('shows Unicode bidi controls and line separators as \\u escapes', () => {
    expect(escapeControl('admin\u202egnp.exe')).toBe('admin\\u202egnp.exe')
    expect(escapeControl('\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c')).toBe(
      '\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c',
    )
    expect(escapeControl('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c')
  })

  test('shows lone surrogates but keeps pairs, accents and backslashes', () => {
    expect(escapeControl('x\ud800y\udc00')).toBe('x\\ud800y\\udc00')
    expect(escapeControl('café 🔒 C:\\repo ✓')).toBe('café 🔒 C:\\repo ✓')
  })

  test('on any string: nothing unsafe is left, and only unsafe characters change', () => {
    // eslint-disable-next-line no-control-regex
    const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
    fc.assert(
      fc.property(fc.oneof(fc.string({unit: 'binary'}), fc.string({unit: 'grapheme'}), fc.string()), (s) => {
        const out = escapeControl(s)
        expect(unsafe.test(out)).toBe(false)
        if (!unsafe.test(s)) expect(out).toBe(s)
      }),
      {numRuns: 1000},
    )
  })
})

describe('escapeMarkdown', () => {
  test('renders HTML and table syntax as text', () => {
    expect(escapeMarkdown('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;')
    expect(escapeMarkdown('| x |')).toBe('\\| x \\|')
    expect(escapeMarkdown('a & b')).toBe('a &amp; b')
    expect(escapeMarkdown('ping @org/security-team')).toBe('ping @\u200borg/security-team')
  })

  test('escapes emphasis, code, links, strikethrough and a leading heading mark', () => {
    expect(escapeMarkdown('*bold* _it_ `code` [link](https://evil) ~~gone~~')).toBe(
      '\\*bold\\* \\_it\\_ \\`code\\` \\[link\\](https://evil) \\~\\~gone\\~\\~',
    )
    expect(escapeMarkdown('# Title #1')).toBe('\\# Title #1')
  })

  test('escapes control characters first, and their backslashes for markdown', () => {
    expect(escapeMarkdown('\x1b[31mx\ny\u202e')).toBe('\\\\x1b\\[31mx\\\\ny\\\\u202e')
    expect(escapeMarkdown('C:\\dir')).toBe('C:\\\\dir')
  })
})

describe('oneLine', () => {
  test('collapses whitespace runs and newlines to single spaces and trims', () => {
    expect(oneLine('  a\n\n b\t\tc  ')).toBe('a b c')
  })

  test('escapes the controls that are not whitespace', () => {
    expect(oneLine('x\x1b[2Jy\u202ez')).toBe('x\\x1b[2Jy\\u202ez')
  })

  test('cuts at max characters with an ellipsis, without splitting a surrogate pair', () => {
    expect(oneLine('abcdefghij', 5)).toBe('abcd…')
    expect(oneLine('abcde', 5)).toBe('abcde')
    expect(oneLine('abc🔒def', 5)).toBe('abc…')
    expect(oneLine('x'.repeat(300))).toHaveLength(200)
  })
})
