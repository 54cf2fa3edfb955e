/**
 * `scan --attest FILE --signing-key KEY`: a DSSE envelope (src/util/dsse.ts) over the in-toto Statement
 * of the run (src/report/attestation.ts), signed with the user's Ed25519 or ECDSA P-256 private key,
 * written beside the report. The key is read and checked before any request (src/cli/key-file.ts: a
 * regular file of the user's own that nobody else may read); its bytes never reach any output. The
 * subjects' digests are those of the bytes read back from the report files once they are written.
 */
import {createPrivateKey, type KeyObject} from 'node:crypto'
import {stat} from 'node:fs/promises'
import {resolve} from 'node:path'

import {type InTotoStatement, IN_TOTO_PAYLOAD_TYPE, type ResourceDescriptor, type RunOutcome, statementOf, testResults} from '../report/attestation.js'
import type {ReportInput} from '../report/input.js'
import {fileSha256} from '../util/digest.js'
import {type KeyAlgorithm, keyAlgorithm, keyId, signEnvelope} from '../util/dsse.js'
import {escapeControl} from '../util/escape.js'
import {writeFileAtomic} from '../util/fs.js'
import {UsageError, writeOrSay} from './errors.js'
import {codeOf, type KeyKind, readNamedKeyFile} from './key-file.js'

/** A signing key: a PEM file of a few hundred bytes (Ed25519's PKCS#8 is 119, P-256's 241). */
const SIGNING_KEY: KeyKind = {name: 'signing key', minBytes: 32, maxBytes: 16 * 1024}

const MAKE_ONE = 'make one with `openssl genpkey -algorithm ed25519 -out onedev-audit-signing.pem` (docs/evidence.md)'

export interface SigningKey {
  /** As the user named it. */
  file: string
  key: KeyObject
  algorithm: KeyAlgorithm
  /** The SHA-256 of its public key (DER SubjectPublicKeyInfo), hex: the envelope's keyid. */
  keyid: string
}

/** --attest and --signing-key, checked before anything is read or asked: together, with a report file to sign (the command checks that it can write there). */
export async function checkAttestFlags(flags: {attest?: string; 'signing-key'?: string; output?: string}): Promise<void> {
  const {attest, output} = flags
  if (attest === undefined && flags['signing-key'] === undefined) return
  if (attest === undefined) throw new UsageError('--signing-key signs an attestation: give --attest FILE too')
  if (flags['signing-key'] === undefined) throw new UsageError(`--attest ${attest} is signed: give --signing-key KEY (a PEM private key, Ed25519 or ECDSA P-256; ${MAKE_ONE})`)
  if (output === undefined) throw new UsageError('--attest signs the report file: give --output FILE (a report on standard output has no file to name)')
  if (resolve(attest) === resolve(output)) throw new UsageError(`--attest ${attest} is the report itself (--output): give the attestation a file of its own`)
  const there = await stat(output).catch(() => null)
  if (there !== null && !there.isFile() && !there.isDirectory()) throw new UsageError(`--attest signs the report's bytes, and --output ${output} is not a regular file (a device or a pipe): write the report to a file`)
}

/** Reads and checks the signing key (one line, exit 2, on any problem). Its bytes are wiped once parsed. */
export async function readSigningKey(file: string): Promise<SigningKey> {
  const {bytes} = await readNamedKeyFile(SIGNING_KEY, file, MAKE_ONE)
  let key: KeyObject
  try {
    key = createPrivateKey({key: bytes, format: 'pem'})
  } catch {
    // Never node's message: nothing of the key's text may reach the output.
    const encrypted = bytes.includes('ENCRYPTED')
    throw new UsageError(
      encrypted
        ? `the signing key ${file} is encrypted: onedev-audit reads an unencrypted PEM key, kept in a file only you can read (docs/evidence.md)`
        : `the signing key ${file} is not a PEM private key ("-----BEGIN PRIVATE KEY-----", PKCS#8): ${MAKE_ONE}`,
    )
  } finally {
    bytes.fill(0)
  }
  const algorithm = keyAlgorithm(key)
  if (algorithm === undefined) {
    const what = key.asymmetricKeyType === 'ec' ? `an ECDSA key on ${key.asymmetricKeyDetails?.namedCurve ?? 'another curve'}` : `an ${key.asymmetricKeyType?.toUpperCase() ?? 'unknown'} key`
    throw new UsageError(`the signing key ${file} is ${what}: give an Ed25519 or ECDSA P-256 key`)
  }
  return {file, key, algorithm, keyid: keyId(key)}
}

export interface AttestRequest {
  /** --attest: where the envelope goes. */
  file: string
  key: SigningKey
  /** The report files the run wrote, as given (--output). */
  reports: string[]
  input: ReportInput
  run: RunOutcome
  configuration: ResourceDescriptor[]
  say: (line: string) => void
}

/** The statement of the run: each report's bytes read back from where they were written. */
async function statementFor(request: AttestRequest): Promise<InTotoStatement> {
  const subject = []
  for (const report of request.reports) {
    try {
      subject.push({name: report, digest: {sha256: await fileSha256(report)}})
    } catch (error) {
      throw new UsageError(`--attest ${request.file} not written: cannot read back the report ${report} (${codeOf(error)})`)
    }
  }
  const {result, ...tests} = testResults(request.input, request.run)
  return statementOf(subject, {result, configuration: request.configuration, ...tests})
}

/**
 * Signs the run's statement and writes the envelope atomically; says what it wrote. False (said in
 * one line) when the reports could not be read back or the envelope not written: the run exits 2.
 */
export async function writeAttestation(request: AttestRequest): Promise<boolean> {
  let statement: InTotoStatement
  try {
    statement = await statementFor(request)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    request.say(`onedev-audit: error: ${escapeControl(error.message)}`)
    return false
  }
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement), 'utf8'), request.key.key)
  const written = await writeOrSay('--attest', () => writeFileAtomic(request.file, `${JSON.stringify(envelope, null, 2)}\n`), request.say)
  if (written) {
    const {result, failedTests} = statement.predicate
    const names = statement.subject.map((s) => s.name).join(', ')
    request.say(`onedev-audit: wrote attestation ${escapeControl(request.file)}: ${result}${failedTests.length > 0 ? ` (${failedTests.length} failed)` : ''}, over ${escapeControl(names)}, signed with ${request.key.algorithm} key ${request.key.keyid.slice(0, 16)}`)
  }
  return written
}

/**
 * What configured the run, by digest: the configuration file and the baseline when there were, and
 * always the tool itself with the flags that decide the result.
 */
export function configurationOf(run: {
  tool: {name: string; version: string}
  config?: {label: string; sha256?: string}
  baseline?: {path: string; sha256: string}
  failOn: string
  failOnControl: boolean
  frameworks: readonly string[]
}): ResourceDescriptor[] {
  return [
    ...(run.config?.sha256 ? [{name: run.config.label, digest: {sha256: run.config.sha256}, mediaType: 'application/json'}] : []),
    ...(run.baseline ? [{name: run.baseline.path, digest: {sha256: run.baseline.sha256}, mediaType: 'application/json'}] : []),
    {name: run.tool.name, uri: `pkg:npm/${run.tool.name}@${run.tool.version}`, annotations: {failOn: run.failOn, failOnControl: run.failOnControl, frameworks: [...run.frameworks]}},
  ]
}
