import {describe, expect, it} from 'vitest'

import {DNS_NAMESPACE, URL_NAMESPACE, uuidV5} from '../../src/util/uuid.js'

describe('uuidV5', () => {
  it('gives the published examples', () => {
    // RFC 9562, Appendix A.4 (UUIDv5 example): namespace DNS, name "www.example.com".
    expect(uuidV5(DNS_NAMESPACE, 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2')
    // Python's uuid module documentation: uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org').
    expect(uuidV5(DNS_NAMESPACE, 'python.org')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d')
  })

  it('is version 5 of the RFC variant, the same for the same name, another for another name or namespace', () => {
    const a = uuidV5(URL_NAMESPACE, 'https://onedev.example.com')
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(uuidV5(URL_NAMESPACE, 'https://onedev.example.com')).toBe(a)
    expect(uuidV5(URL_NAMESPACE, 'https://onedev.example.org')).not.toBe(a)
    expect(uuidV5(DNS_NAMESPACE, 'https://onedev.example.com')).not.toBe(a)
    // The name's UTF-8 bytes, not its UTF-16 code units.
    expect(uuidV5(DNS_NAMESPACE, 'é')).not.toBe(uuidV5(DNS_NAMESPACE, '\u00e9'.normalize('NFD')))
  })

  it('refuses a namespace that is not a UUID', () => {
    expect(() => uuidV5('not-a-uuid', 'x')).toThrow(/not a UUID/)
  })
})
