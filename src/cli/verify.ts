/**
 * `onedev-audit verify ATTESTATION --public-key PUB.pem [FILE…]`: whether a DSSE envelope is signed by
 * the key, and whether each file given is one of the subjects of the in-toto Statement it holds (by
 * SHA-256). Any conforming envelope: with or without keyids (a keyid is a hint, never trusted), ECDSA
 * signatures DER or raw r‖s, base64 standard or URL-safe; Ed25519 and ECDSA P-256 keys.
 *
 * The outcome is a value: verified or not, and when not, the one problem to say (the signature, the
 * payload, or which files are none of the subjects). What cannot be read (the envelope, the key, a file)
 * is a UsageError: one line, exit 2.
 */
import {createPublicKey, type KeyObject} from 'node:crypto'
import {readFile, stat} from 'node:fs/promises'

import {IN_TOTO_PAYLOAD_TYPE} from '../report/attestation.js'
import {fileSha256} from '../util/digest.js'
import {decodeBase64, type KeyAlgorithm, keyAlgorithm, keyId, verifySignature} from '../util/dsse.js'
import {UsageError} from './errors.js'
import {codeOf} from './key-file.js'

/** An envelope larger than this is not one of ours (a few kilobytes) nor any reasonable attestation. */
const MAX_ENVELOPE_BYTES = 16 * 1024 * 1024
const MAX_KEY_BYTES = 64 * 1024
/** The in-toto Statement types a subject list is read from. */
const STATEMENT_TYPES = new Set(['https://in-toto.io/Statement/v1', 'https://in-toto.io/Statement/v0.1'])

export interface VerifiedFile {
  file: string
  sha256: string
  /** The name of the subject with that digest, or null when none has it. */
  subject: string | null
}

export interface VerifyOutcome {
  verified: boolean
  attestation: string
  publicKey: string
  algorithm: KeyAlgorithm
  /** The SHA-256 of the public key (DER SubjectPublicKeyInfo), hex: the keyid `scan --attest` writes. */
  keyid: string
  signature: 'verified' | 'not verified'
  payloadType: string
  /** From the statement, once the signature verifies (undefined, and left out of JSON, before). */
  predicateType: string | undefined
  result: string | undefined
  subjects: Array<{name: string | null; sha256: string}>
  files: VerifiedFile[]
  /** Why it is not verified: one line. */
  problem?: string
}

interface Envelope {
  payloadType: string
  payload: Buffer
  signatures: Buffer[]
}

async function readLimited(path: string, limit: number, what: string): Promise<Buffer> {
  try {
    const found = await stat(path)
    if (!found.isFile()) throw new UsageError(`${what} ${path} is not a file`)
    if (found.size > limit) throw new UsageError(`${what} ${path} has ${found.size} bytes: more than ${limit} is not one`)
    return await readFile(path)
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(`cannot read ${what} ${path} (${codeOf(error)})`)
  }
}

/** The envelope's parts, decoded; a UsageError naming what is wrong when it is not a DSSE envelope. */
function envelopeOf(path: string, bytes: Buffer): Envelope {
  const not = (why: string) => new UsageError(`${path} is not a DSSE envelope: ${why}`)
  let json: unknown
  try {
    json = JSON.parse(bytes.toString('utf8'))
  } catch {
    throw not('not JSON')
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw not('not a JSON object')
  const {payloadType, payload, signatures} = json as Record<string, unknown>
  if (typeof payloadType !== 'string') throw not('no payloadType')
  if (typeof payload !== 'string') throw not('no payload')
  const decoded = decodeBase64(payload)
  if (decoded === undefined) throw not('its payload is not base64')
  if (!Array.isArray(signatures) || signatures.length === 0) throw not('no signatures')
  const sigs = signatures.map((signature, index) => {
    const sig = signature !== null && typeof signature === 'object' ? (signature as Record<string, unknown>).sig : undefined
    const bytes = typeof sig === 'string' ? decodeBase64(sig) : undefined
    if (bytes === undefined) throw not(`signature ${index + 1} has no base64 sig`)
    return bytes
  })
  return {payloadType, payload: decoded, signatures: sigs}
}

/** The public key of the PEM file; a private key is refused (verifying needs only the public one). */
async function readPublicKey(path: string): Promise<KeyObject> {
  const bytes = await readLimited(path, MAX_KEY_BYTES, 'the public key')
  if (bytes.includes('PRIVATE KEY')) throw new UsageError(`the public key ${path} is a private key: give its public key (openssl pkey -in KEY -pubout -out PUB.pem), and keep the private one where only you can read it`)
  let key: KeyObject
  try {
    key = createPublicKey({key: bytes, format: 'pem'})
  } catch {
    throw new UsageError(`the public key ${path} is not a PEM public key ("-----BEGIN PUBLIC KEY-----")`)
  }
  if (keyAlgorithm(key) === undefined) throw new UsageError(`the public key ${path} is neither Ed25519 nor ECDSA P-256`)
  return key
}

/** The SHA-256 of a file's bytes; a UsageError when it cannot be read. */
async function fileDigest(path: string): Promise<string> {
  try {
    return await fileSha256(path)
  } catch (error) {
    throw new UsageError(`cannot read ${path} (${codeOf(error)})`)
  }
}

/** The statement's subjects with a sha256 digest, or undefined when the payload is no in-toto Statement. */
function statementOf(payload: Buffer): {subjects: VerifyOutcome['subjects']; predicateType?: string; result?: string} | undefined {
  let statement: unknown
  try {
    statement = JSON.parse(payload.toString('utf8'))
  } catch {
    return undefined
  }
  if (statement === null || typeof statement !== 'object') return undefined
  const {_type: type, subject, predicateType, predicate} = statement as Record<string, unknown>
  if (typeof type !== 'string' || !STATEMENT_TYPES.has(type) || !Array.isArray(subject)) return undefined
  const subjects: VerifyOutcome['subjects'] = []
  for (const entry of subject) {
    const digest = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>).digest : undefined
    const sha256 = digest !== null && typeof digest === 'object' ? (digest as Record<string, unknown>).sha256 : undefined
    const name = (entry as Record<string, unknown> | null)?.name
    if (typeof sha256 === 'string') subjects.push({name: typeof name === 'string' ? name : null, sha256: sha256.toLowerCase()})
  }
  const result = predicate !== null && typeof predicate === 'object' ? (predicate as Record<string, unknown>).result : undefined
  return {subjects, ...(typeof predicateType === 'string' ? {predicateType} : {}), ...(typeof result === 'string' ? {result} : {})}
}

export async function verifyAttestation(attestation: string, publicKeyFile: string, files: readonly string[]): Promise<VerifyOutcome> {
  const envelope = envelopeOf(attestation, await readLimited(attestation, MAX_ENVELOPE_BYTES, 'the attestation'))
  const key = await readPublicKey(publicKeyFile)
  // Every file is read before judging: one that cannot be read is exit 2 whatever the signature says.
  const digests = []
  for (const file of files) digests.push({file, sha256: await fileDigest(file)})
  const outcome: VerifyOutcome = {
    verified: false,
    attestation,
    publicKey: publicKeyFile,
    algorithm: keyAlgorithm(key)!,
    keyid: keyId(key),
    signature: 'not verified',
    payloadType: envelope.payloadType,
    predicateType: undefined,
    result: undefined,
    subjects: [],
    files: digests.map((d) => ({...d, subject: null})),
  }
  if (!envelope.signatures.some((sig) => verifySignature(envelope.payloadType, envelope.payload, sig, key))) {
    return {...outcome, problem: `its signature does not verify with ${publicKeyFile}: the payload was changed after it was signed, or another key signed it`}
  }
  outcome.signature = 'verified'
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) return {...outcome, problem: `it is signed, but its payload is not an in-toto statement (payloadType ${JSON.stringify(envelope.payloadType)})`}
  const statement = statementOf(envelope.payload)
  if (statement === undefined) return {...outcome, problem: 'it is signed, but its payload is not an in-toto Statement with subjects'}
  Object.assign(outcome, statement)
  outcome.files = digests.map(({file, sha256}) => {
    const match = statement.subjects.find((s) => s.sha256 === sha256)
    return {file, sha256, subject: match ? (match.name ?? '') : null}
  })
  const strangers = outcome.files.filter((f) => f.subject === null)
  if (strangers.length > 0) {
    const listed = strangers.map((f) => `${f.file} (sha256 ${f.sha256.slice(0, 16)}…)`).join(', ')
    return {...outcome, problem: `${listed} ${strangers.length === 1 ? 'is' : 'are'} none of its subjects: not the bytes that were signed (an edited report, or another one)`}
  }
  return {...outcome, verified: true}
}
