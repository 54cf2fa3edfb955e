/**
 * DSSE, the Dead Simple Signing Envelope (github.com/secure-systems-lab/dsse, protocol v1), with
 * node:crypto: a payload and its type, signed over the pre-authentication encoding
 * `PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body` (LEN: the byte length in ASCII
 * decimal), so that neither the type nor the body can be changed without breaking the signature.
 *
 * Keys: Ed25519, and ECDSA on P-256 with SHA-256, whose signatures are written DER-encoded (as cosign
 * writes them) and read DER or raw `r‖s` (64 bytes), as other signers write them. A signature's `keyid`
 * is a hint only (DSSE: it is not signed): it is written as the SHA-256 of the public key's DER
 * SubjectPublicKeyInfo, and never trusted when verifying.
 */
import {createPublicKey, type KeyObject, sign, verify} from 'node:crypto'

import {sha256Hex} from './digest.js'

export interface DsseSignature {
  keyid?: string
  /** Base64. */
  sig: string
}

export interface DsseEnvelope {
  payloadType: string
  /** Base64. */
  payload: string
  signatures: DsseSignature[]
}

/** The algorithms a key may have here: `ed25519`, or `ecdsa-p256` (ECDSA, curve P-256, SHA-256). */
export type KeyAlgorithm = 'ed25519' | 'ecdsa-p256'

/** DSSE's pre-authentication encoding of a payload and its type: the bytes that are signed. */
export function pae(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8')
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `, 'ascii'), type, Buffer.from(` ${payload.length} `, 'ascii'), payload])
}

/** The key's algorithm here, or undefined for any other key (RSA, another curve). */
export function keyAlgorithm(key: KeyObject): KeyAlgorithm | undefined {
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519'
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ecdsa-p256'
  return undefined
}

/** The SHA-256 of the (public) key's DER SubjectPublicKeyInfo, hex: the `keyid` written. */
export function keyId(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key
  return sha256Hex(publicKey.export({type: 'spki', format: 'der'}))
}

/** The envelope of `payload`, signed with `key` (Ed25519 or P-256): one signature, with its keyid. */
export function signEnvelope(payloadType: string, payload: Uint8Array, key: KeyObject): DsseEnvelope {
  const algorithm = keyAlgorithm(key)
  if (algorithm === undefined || key.type !== 'private') throw new Error('DSSE signing needs an Ed25519 or ECDSA P-256 private key')
  const data = pae(payloadType, payload)
  const sig = algorithm === 'ed25519' ? sign(null, data, key) : sign('sha256', data, {key, dsaEncoding: 'der'})
  return {payloadType, payload: Buffer.from(payload).toString('base64'), signatures: [{keyid: keyId(key), sig: sig.toString('base64')}]}
}

/** Whether `sig` signs `payload` of `payloadType` with the public `key`; an ECDSA signature may be DER or raw r‖s. */
export function verifySignature(payloadType: string, payload: Uint8Array, sig: Uint8Array, key: KeyObject): boolean {
  const algorithm = keyAlgorithm(key)
  if (algorithm === undefined) return false
  const data = pae(payloadType, payload)
  const attempt = (check: () => boolean) => {
    try {
      return check()
    } catch {
      // A signature that is not even well-formed (bad DER) does not verify.
      return false
    }
  }
  if (algorithm === 'ed25519') return attempt(() => verify(null, data, key, sig))
  return attempt(() => verify('sha256', data, {key, dsaEncoding: 'der'}, sig)) || (sig.length === 64 && attempt(() => verify('sha256', data, {key, dsaEncoding: 'ieee-p1363'}, sig)))
}

/** Base64, standard or URL-safe, padded or not: the bytes, or undefined when the text is not base64 at all. */
export function decodeBase64(text: string): Buffer | undefined {
  const trimmed = text.replace(/=+$/, '')
  if (!/^[A-Za-z0-9+/]*$/.test(trimmed) && !/^[A-Za-z0-9_-]*$/.test(trimmed)) return undefined
  if (trimmed.length % 4 === 1) return undefined
  return Buffer.from(trimmed, /[-_]/.test(trimmed) ? 'base64url' : 'base64')
}
