import {Buffer} from 'node:buffer'

import {describe, expect, it} from 'vitest'

import {charsetOf, decodeBody} from '../../src/util/charset.js'

describe('decodeBody: the one decoder of every answer', () => {
  it('reads the charset a Content-Type names, quoted or not, in any case', () => {
    expect(charsetOf('application/json; charset=UTF-8')).toBe('utf-8')
    expect(charsetOf('text/plain;charset="ISO-8859-1"')).toBe('iso-8859-1')
    expect(charsetOf('application/json')).toBeUndefined()
  })

  it('decodes ISO-8859-1 byte for byte, as Java encodes it (not as windows-1252)', () => {
    const bytes = Buffer.from([0x70, 0xc4, 0x80, 0x9f])
    expect(decodeBody(bytes, 'application/json; charset=ISO-8859-1')).toEqual({text: 'p\u00c4\u0080\u009f', encoding: 'iso-8859-1'})
  })

  it("reads Java's UTF-16 without a byte-order mark as big-endian", () => {
    expect(decodeBody(Buffer.from([0x00, 0x61, 0x00, 0xe4]), 'text/plain; charset=UTF-16')).toEqual({text: 'a\u00e4', encoding: 'utf-16be'})
  })

  it('lets a byte-order mark win over the declared charset, and takes the mark away', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":1}', 'utf16le')])
    expect(decodeBody(le, 'application/json; charset=utf-8')).toEqual({text: '{"a":1}', encoding: 'utf-16le'})
    expect(decodeBody(Buffer.from('\ufeff{}', 'utf8'), '')).toEqual({text: '{}', encoding: 'utf-8'})
  })

  it('refuses what it cannot decode exactly, never replacing a byte with U+FFFD, and never repeats the label', () => {
    expect(decodeBody(Buffer.from([0x61, 0xff]), 'application/json')).toEqual({problem: 'the body is not valid UTF-8'})
    expect(decodeBody(Buffer.from([0xd8, 0x00]), 'text/plain; charset=utf-16be')).toEqual({problem: 'the body is not valid UTF-16BE'})
    expect(decodeBody(Buffer.from('{}'), 'application/json; charset=x-CANARY-label-7f3a')).toEqual({problem: "the answer's charset is not one this tool decodes"})
  })
})
