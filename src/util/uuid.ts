/**
 * Name-based UUIDs, version 5 (RFC 9562 §5.5, as RFC 4122 §4.3 defined them): the SHA-1 of a
 * namespace UUID's 16 bytes followed by the name's UTF-8 bytes, its first 16 bytes with the version
 * (5) and the variant (10) set. The same namespace and name always give the same UUID, which is what
 * makes a report's UUIDs the same on every run over the same data.
 */
import {createHash} from 'node:crypto'

/** RFC 9562 §6.6: the namespace of names that are URLs. */
export const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8'
/** RFC 9562 §6.6: the namespace of names that are domain names (the RFC's own example uses it). */
export const DNS_NAMESPACE = '6ba7b810-9dad-11d1-80b4-00c04fd430c8'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The version 5 UUID of `name` in `namespace` (a UUID), lower case. */
export function uuidV5(namespace: string, name: string): string {
  if (!UUID.test(namespace)) throw new Error(`not a UUID: ${namespace}`)
  const hash = createHash('sha1').update(Buffer.from(namespace.replaceAll('-', ''), 'hex')).update(name, 'utf8').digest()
  hash[6] = (hash[6]! & 0x0f) | 0x50
  hash[8] = (hash[8]! & 0x3f) | 0x80
  const hex = hash.toString('hex', 0, 16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
