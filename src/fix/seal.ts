/**
 * Sealed undo records: an HMAC-SHA-256 over the record's canonical form (RFC 8785, every member but
 * `seal`), keyed by the undo key of the user who applied (a file of their own configuration, read by
 * src/cli/undo-key.ts). Whoever can edit a record but not read that key cannot make one that verifies:
 * `fix --undo` trusts a record's account of what the apply changed only when its seal verifies, and
 * judges any other record strictly. Pure (the key is handed in).
 *
 * The key's bytes live only inside an UndoKey (a private field): they never reach a message, a log,
 * JSON.stringify or util.inspect. What identifies a key in messages and in the record is its id, a
 * short hash that says nothing of the key.
 */
import {createHash, createHmac, timingSafeEqual} from 'node:crypto'

import {canonicalJson, canonicalPieces, type ReadonlyWeakMap} from '../util/json.js'
import type {FixUndo, Seal} from './undo-types.js'

export const SEAL_ALGORITHM = 'HMAC-SHA-256'
/** What the HMAC is computed over, before the record's canonical text: a key used for anything else never seals a record by chance. */
const SEAL_CONTEXT = 'onedev-audit fix undo record\n'
const KEY_ID_CONTEXT = 'onedev-audit undo key id\n'
/** Fewer bytes than this is not a key (the key made on first use has 32 random bytes). */
export const MIN_KEY_BYTES = 32

/** The undo key: its file, its id, and its bytes (never shown: only `mac` uses them). */
export class UndoKey {
  readonly #bytes: Buffer
  /** The first 16 hexadecimal digits of a SHA-256 of the key. */
  readonly id: string

  constructor(
    bytes: Buffer,
    /** The file it was read from (a path is no secret). */
    readonly path: string,
  ) {
    if (bytes.length < MIN_KEY_BYTES) throw new RangeError(`an undo key has at least ${MIN_KEY_BYTES} bytes`)
    this.#bytes = Buffer.from(bytes)
    this.id = createHash('sha256').update(KEY_ID_CONTEXT).update(this.#bytes).digest('hex').slice(0, 16)
  }

  /** The HMAC-SHA-256 of the text of `pieces` (UTF-8) with this key, in hexadecimal. */
  mac(pieces: Iterable<string>): string {
    const hmac = createHmac('sha256', this.#bytes)
    for (const piece of pieces) hmac.update(piece, 'utf8')
    return hmac.digest('hex')
  }

  toJSON(): string {
    return `undo key ${this.id}`
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `UndoKey(${this.id}, ${this.path})`
  }
}

/**
 * The text a seal covers, in pieces: the context, then the record's canonical form without its seal
 * (`known`: canonicalJson's), split down to its projects (a large record is never one string).
 */
function* sealedText(record: FixUndo, known?: ReadonlyWeakMap<object, string>): Generator<string, void, undefined> {
  const {seal: _seal, ...rest} = record
  yield SEAL_CONTEXT
  yield* canonicalPieces(rest, 2, known)
}

/** The record with its seal (a seal it had is replaced). */
export function sealed(record: FixUndo, key: UndoKey, known?: ReadonlyWeakMap<object, string>): FixUndo {
  const {seal: _seal, ...rest} = record
  const seal: Seal = {algorithm: SEAL_ALGORITHM, keyId: key.id, mac: key.mac(sealedText(rest, known))}
  return {...rest, seal}
}

/**
 * Seals each version of a record that grows (`fix --apply` rewrites it before each POST and as each
 * project is settled) at the cost of what is new: the canonical text of each project's record is made
 * once, as it is first sealed. A project's record must not change once sealed (if one did, the seal
 * would not verify, and the record would be judged as an unsealed one: never the other way round).
 */
export class RecordSealer {
  readonly #texts = new WeakMap<object, string>()

  constructor(private readonly key: UndoKey) {}

  seal(record: FixUndo): FixUndo {
    for (const project of record.projects) if (!this.#texts.has(project)) this.#texts.set(project, canonicalJson(project))
    return sealed(record, this.key, this.#texts)
  }
}

/** What a record's seal says, judged with the key of this run (null: none to verify with). */
export type SealVerdict =
  /** Sealed with this key, and not changed since. */
  | {trusted: true; keyId: string}
  /** Not trusted: why, in words that follow the record's name ("… is not sealed: …"). */
  | {trusted: false; why: string}

export function verdictOf(record: FixUndo, key: UndoKey | null): SealVerdict {
  const {seal} = record
  if (seal === undefined) {
    return {trusted: false, why: record.undoVersion === 1 ? 'is not sealed: an onedev-audit older than sealed undo records wrote it' : 'is not sealed: its seal was removed'}
  }
  if (key === null) return {trusted: false, why: `is sealed with the key ${seal.keyId}, and there is no undo key here to verify it with`}
  if (seal.keyId !== key.id) return {trusted: false, why: `is sealed with another key (${seal.keyId}), not this user's undo key (${key.id}, ${key.path})`}
  const expected = Buffer.from(key.mac(sealedText(record)), 'hex')
  const given = Buffer.from(seal.mac, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return {trusted: false, why: `does not verify with this user's undo key (${key.id}): it was changed after onedev-audit sealed it`}
  return {trusted: true, keyId: key.id}
}
