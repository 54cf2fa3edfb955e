/**
 * DSSE with node:crypto, held against test vectors (secure-systems-lab/dsse testvectors/vectors.json,
 * commit 82043ad: signatures of key A, which is RFC 8032's Ed25519 test 1 key, over the PAE given in
 * hex), and round trips with both key types.
 */
import {createPrivateKey, createPublicKey, generateKeyPairSync, sign} from 'node:crypto'

import {describe, expect, it} from 'vitest'

import {decodeBase64, keyAlgorithm, keyId, pae, signEnvelope, verifySignature} from '../../src/util/dsse.js'

// RFC 8032 §7.1, TEST 1: the secret key (seed) and its public key.
const SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'
const PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'
const keyA = createPublicKey(createPrivateKey({key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(SEED, 'hex')]), format: 'der', type: 'pkcs8'}))
const STATEMENT = 'eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEifQ=='

const VECTORS = [
  {
    id: 'single-signature',
    payloadType: 'application/vnd.in-toto+json',
    payload: STATEMENT,
    sig: '2WAfaHm5jluo0w+0rk8uVkluELJYWjSmU9x7EUzx+AyteDGJ4/nqyJXfmAUVFIAoQafWm7AxBZNw5M9ixNHiCA==',
    pae: '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d',
  },
  {
    id: 'url-safe-base64',
    payloadType: 'application/vnd.in-toto+json',
    payload: '-_-_Pj8=',
    sig: 'P-_KHICeR7tI6S_YyejJTRtrXhcQyQ2LYPaL8h90KjC9qN8HU_svOQ6TuDOT1HIrsGW886DbWNWcCmX5twLrAw==',
    pae: '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203520fbffbf3e3f',
  },
  {
    id: 'non-ascii-payload-type (LEN is the byte length)',
    payloadType: 'application/vnd.exämple+json',
    payload: STATEMENT,
    sig: 'xmSk/ug66ysT7ayhkCIjhAq42zgZXSsEWuzUaNL7w2eGAdF/NU6/fRXPtmfN+5DNSAs5/i2lUnHjbbjPsu0tAw==',
    pae: '445353457631203239206170706c69636174696f6e2f766e642e6578c3a46d706c652b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d',
  },
  {
    id: 'empty-payload',
    payloadType: 'application/vnd.in-toto+json',
    payload: '',
    sig: 'gSggCAaTLTYyRH6FIDBem6meyIynsYy8RTHVzwx9tnTb7Bg/1jMWnuVgI/gffqmbsC2VX5/jHfkkDqsj7CDbDg==',
    pae: '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203020',
  },
]

describe('DSSE', () => {
  it("key A is RFC 8032's test key", () => {
    expect(keyA.export({type: 'spki', format: 'der'}).subarray(-32).toString('hex')).toBe(PUBLIC)
  })

  for (const vector of VECTORS) {
    it(`${vector.id}: the PAE bytes, and the signature verifies`, () => {
      const payload = decodeBase64(vector.payload)!
      expect(pae(vector.payloadType, payload).toString('hex')).toBe(vector.pae)
      expect(verifySignature(vector.payloadType, payload, decodeBase64(vector.sig)!, keyA)).toBe(true)
    })
  }

  it('a signature over another payload type, or another payload, does not verify', () => {
    const [single] = VECTORS
    const payload = decodeBase64(single!.payload)!
    const sig = decodeBase64(single!.sig)!
    expect(verifySignature('application/vnd.example.other+json', payload, sig, keyA)).toBe(false)
    expect(verifySignature(single!.payloadType, Buffer.concat([payload, Buffer.from(' ')]), sig, keyA)).toBe(false)
    expect(verifySignature(single!.payloadType, payload, Buffer.alloc(64), keyA)).toBe(false)
  })

  it('signs with Ed25519 and P-256 (DER); verifies DER and raw r‖s; the keyid is the SHA-256 of the public key', () => {
    for (const pair of [generateKeyPairSync('ed25519'), generateKeyPairSync('ec', {namedCurve: 'prime256v1'})]) {
      const payload = Buffer.from('{"_type":"https://in-toto.io/Statement/v1"}')
      const envelope = signEnvelope('application/vnd.in-toto+json', payload, pair.privateKey)
      expect(envelope.payload).toBe(payload.toString('base64'))
      expect(envelope.signatures[0]!.keyid).toBe(keyId(pair.publicKey))
      expect(verifySignature(envelope.payloadType, payload, decodeBase64(envelope.signatures[0]!.sig)!, pair.publicKey)).toBe(true)
      if (keyAlgorithm(pair.publicKey) === 'ecdsa-p256') {
        expect(decodeBase64(envelope.signatures[0]!.sig)![0]).toBe(0x30)
        const raw = sign('sha256', pae(envelope.payloadType, payload), {key: pair.privateKey, dsaEncoding: 'ieee-p1363'})
        expect(verifySignature(envelope.payloadType, payload, raw, pair.publicKey)).toBe(true)
      }
    }
    expect(() => signEnvelope('t', Buffer.from('x'), generateKeyPairSync('ec', {namedCurve: 'secp384r1'}).privateKey)).toThrow(/Ed25519 or ECDSA P-256/)
  })

  it('base64: standard or URL-safe, padded or not; anything else is not base64', () => {
    expect(decodeBase64('-_-_Pj8=')).toEqual(Buffer.from('fbffbf3e3f', 'hex'))
    expect(decodeBase64('+/+/Pj8')).toEqual(Buffer.from('fbffbf3e3f', 'hex'))
    expect(decodeBase64('')).toEqual(Buffer.alloc(0))
    for (const bad of ['a b', 'abc!', '+_', 'a']) expect(decodeBase64(bad), bad).toBeUndefined()
  })
})
