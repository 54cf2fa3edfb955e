/**
 * `scan --attest FILE --signing-key KEY` and `verify`, through the CLI:
 *
 * - the envelope is checked here without the product's code: the test computes DSSE's PAE itself and
 *   verifies the signature with node:crypto, for an Ed25519 and an ECDSA P-256 key; the statement names
 *   the report by the SHA-256 of its bytes, the result follows the exit code and --fail-on, the failed
 *   controls are spelled as in the OSCAL output, the configuration and the baseline are named by digest;
 * - an incomplete run (exit 2) is attested FAILED with `audit/complete` failed;
 * - `verify` exits 0, 1 (an edited report, an edited payload, another key) or 2 (what it cannot read),
 *   one line each, and reads envelopes other signers write (no keyid, raw r‖s ECDSA signatures);
 * - a signing key others can read, or that is not a regular file, is refused in one line, exit 2, before
 *   any request; the key is in no output.
 */
import {createHash, createPrivateKey, generateKeyPairSync, type KeyObject, sign, verify} from 'node:crypto'
import {execFileSync, spawnSync} from 'node:child_process'
import {chmod, copyFile, mkdir, readFile, symlink, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {prefixedControlId} from '../../src/engine/compliance.js'
import {ROOT, runCli} from '../helpers/cli.js'
import {cleanServerOptions, serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

const EXAMPLE = 'examples/snapshot.json'
const PAYLOAD_TYPE = 'application/vnd.in-toto+json'

let dir: string
let server: OneDevServer

interface Pair {
  name: 'ed25519' | 'ecdsa-p256'
  privatePem: string
  publicPem: string
  keyFile: string
  publicFile: string
  publicKey: KeyObject
}
const pairs: Pair[] = []

beforeAll(async () => {
  dir = await tempDir('oda-attest')
  server = await startFixtureServer()
  for (const [name, pair] of [
    ['ed25519', generateKeyPairSync('ed25519')],
    ['ecdsa-p256', generateKeyPairSync('ec', {namedCurve: 'prime256v1'})],
  ] as const) {
    const privatePem = pair.privateKey.export({type: 'pkcs8', format: 'pem'}).toString()
    const publicPem = pair.publicKey.export({type: 'spki', format: 'pem'}).toString()
    const keyFile = join(dir, `${name}.pem`)
    const publicFile = join(dir, `${name}.pub.pem`)
    await writeFile(keyFile, privatePem, {mode: 0o600})
    await writeFile(publicFile, publicPem)
    pairs.push({name, privatePem, publicPem, keyFile, publicFile, publicKey: pair.publicKey})
  }
})

afterAll(async () => {
  await server?.close()
})

/** DSSE v1's pre-authentication encoding, written here from the protocol's text, not taken from the product. */
function paeOf(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type, 'utf8')} ${type} ${body.length} `, 'utf8'), body])
}

/** The envelope checked with node:crypto alone: its statement when the signature verifies with `key`, else null. */
function checkedIndependently(envelope: any, key: KeyObject): any {
  const body = Buffer.from(envelope.payload, 'base64')
  const data = paeOf(envelope.payloadType, body)
  const ok = envelope.signatures.some((s: {sig: string}) => {
    const sig = Buffer.from(s.sig, 'base64')
    return key.asymmetricKeyType === 'ed25519' ? verify(null, data, key, sig) : verify('sha256', data, {key, dsaEncoding: 'der'}, sig)
  })
  return ok ? JSON.parse(body.toString('utf8')) : null
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex')

/** Every line of the PEM body: none of it may appear in any output. */
function expectNoKey(text: string, pair: Pair): void {
  for (const line of pair.privatePem.split('\n').filter((l) => l && !l.startsWith('-----'))) expect(text).not.toContain(line)
}

/** A scan of the example snapshot that writes a report and an attestation; the envelope and statement read back. */
async function attested(pair: Pair, extra: string[], name: string) {
  const report = join(dir, `${name}.json`)
  const attestation = join(dir, `${name}.intoto.json`)
  const result = await runCli(['scan', '--snapshot', EXAMPLE, '--format', 'json', '--output', report, '--attest', attestation, '--signing-key', pair.keyFile, ...extra])
  const envelope = JSON.parse(await readFile(attestation, 'utf8'))
  return {result, report, attestation, envelope, statement: checkedIndependently(envelope, pair.publicKey), json: JSON.parse(await readFile(report, 'utf8'))}
}

describe('scan --attest', () => {
  for (const index of [0, 1]) {
    it(`${index === 0 ? 'Ed25519' : 'ECDSA P-256 (DER signature)'}: a signed in-toto statement over the report's bytes, checked without the product's code`, async () => {
      const pair = pairs[index]!
      const config = join(dir, `config-${pair.name}.json`)
      await writeFile(config, JSON.stringify({rules: {'branch-protection/disabled-rule': 'off'}}))
      const baseline = join(dir, `baseline-${pair.name}.json`)
      expect((await runCli(['scan', '--snapshot', EXAMPLE, '--config', config, '--update-baseline', baseline, '--format', 'json', '--output', join(dir, 'ignored.json')])).code).toBe(0)
      // A baseline without its last finding: one finding stays new (exit 1).
      const known = JSON.parse(await readFile(baseline, 'utf8'))
      known.findings.pop()
      await writeFile(baseline, JSON.stringify(known))
      const {result, report, envelope, statement, json} = await attested(pair, ['--config', config, '--baseline', baseline, '--debug'], `signed-${pair.name}`)
      expect(result.code, result.stderr).toBe(1)
      expect(envelope.payloadType).toBe(PAYLOAD_TYPE)
      expect(envelope.signatures).toHaveLength(1)
      expect(envelope.signatures[0].keyid).toBe(sha256(pair.publicKey.export({type: 'spki', format: 'der'})))
      if (pair.name === 'ecdsa-p256') expect(Buffer.from(envelope.signatures[0].sig, 'base64')[0]).toBe(0x30)
      expect(statement, 'the signature verifies').not.toBeNull()
      expect(statement._type).toBe('https://in-toto.io/Statement/v1')
      expect(statement.subject).toEqual([{name: report, digest: {sha256: sha256(await readFile(report))}}])
      expect(statement.predicateType).toBe('https://in-toto.io/attestation/test-result/v0.1')
      const predicate = statement.predicate
      expect(predicate.result).toBe('FAILED')
      expect(predicate.configuration).toEqual([
        {name: config, digest: {sha256: sha256(await readFile(config))}, mediaType: 'application/json'},
        {name: baseline, digest: {sha256: sha256(await readFile(baseline))}, mediaType: 'application/json'},
        {name: 'onedev-audit', uri: `pkg:npm/onedev-audit@${json.tool.version}`, annotations: {failOn: 'low', failOnControl: false, frameworks: ['cis', 'osps']}},
      ])
      // The controls as the JSON report judged them, spelled as in the OSCAL output, in the frameworks' order.
      const controls = (...statuses: string[]) => json.compliance.flatMap((f: any) => f.controls.filter((c: any) => statuses.includes(c.status)).map((c: any) => prefixedControlId(f.framework, c.id)))
      const isControl = (test: string) => !test.includes('/')
      expect(predicate.failedTests.filter(isControl)).toEqual(controls('fail'))
      expect(predicate.passedTests.filter(isControl)).toEqual(controls('pass'))
      expect(predicate.warnedTests.filter(isControl)).toEqual(controls('exception', 'not-evaluated'))
      expect(predicate.failedTests).toContain('cis-sscs-1.1.16')
      // Rules: those with a finding at or above --fail-on (low), active or in the baseline, fail.
      const failing = [...json.findings, ...json.suppressed.filter((s: any) => s.reason.kind === 'baseline').map((s: any) => s.finding)]
      const failedRules = new Set(failing.filter((f: any) => f.severity !== 'info').map((f: any) => f.ruleId))
      expect(json.suppressed.length).toBeGreaterThan(0)
      expect(new Set(predicate.failedTests.filter((t: string) => !isControl(t) && t !== 'audit/complete'))).toEqual(failedRules)
      for (const list of [predicate.failedTests, predicate.warnedTests, predicate.passedTests]) expect(list).not.toContain('branch-protection/disabled-rule')
      expect(predicate.passedTests).toContain('audit/complete')
      expect(result.stderr).toMatch(new RegExp(`onedev-audit: wrote attestation .*${pair.name}\\.intoto\\.json: FAILED \\(\\d+ failed\\), over .*signed-${pair.name}\\.json, signed with ${pair.name} key ${envelope.signatures[0].keyid.slice(0, 16)}\\n`))
      expectNoKey(result.stdout + result.stderr + (await readFile(report, 'utf8')) + JSON.stringify(envelope), pair)

      // verify agrees.
      const checked = await runCli(['verify', join(dir, `signed-${pair.name}.intoto.json`), '--public-key', pair.publicFile, report])
      expect(checked.code, checked.stderr).toBe(0)
      expect(checked.stdout).toBe(`onedev-audit: verified ${join(dir, `signed-${pair.name}.intoto.json`)}: signed with ${pair.publicFile} (${pair.name} key ${envelope.signatures[0].keyid.slice(0, 16)}); ${report} is its subject ${report}; result FAILED\n`)
      expect(checked.stderr).toBe('')
    }, 90_000)
  }

  it('the result follows the exit code and --fail-on: WARNED when only findings below it remain, PASSED when nothing does', async () => {
    const pair = pairs[0]!
    const warned = await attested(pair, ['--fail-on', 'none'], 'warned')
    expect(warned.result.code).toBe(0)
    expect(warned.statement.predicate.result).toBe('WARNED')
    expect(warned.statement.predicate.configuration.at(-1).annotations.failOn).toBe('none')
    // Every rule with findings is warned, none failed: the threshold decides.
    expect(warned.statement.predicate.failedTests.filter((t: string) => t.includes('/'))).toEqual([])
    // Only the critical ones fail at --fail-on critical.
    const critical = await attested(pair, ['--fail-on', 'critical'], 'critical')
    const criticalRules = new Set(critical.json.findings.filter((f: any) => f.severity === 'critical').map((f: any) => f.ruleId))
    expect(critical.result.code).toBe(1)
    expect(new Set(critical.statement.predicate.failedTests.filter((t: string) => t.includes('/')))).toEqual(criticalRules)

    // Every rule turned off: nothing found, but nothing judged either.
    const quiet = join(dir, 'quiet.json')
    const rulesOff = JSON.parse((await runCli(['rules', '--json'])).stdout).map((r: any) => r.id)
    await writeFile(quiet, JSON.stringify({rules: Object.fromEntries(rulesOff.map((id: string) => [id, 'off']))}))
    const passed = await runCli(['scan', '--snapshot', EXAMPLE, '--config', quiet, '--framework', 'cis', '--format', 'json', '--output', join(dir, 'quiet-report.json'), '--attest', join(dir, 'quiet.intoto.json'), '--signing-key', pair.keyFile])
    expect(passed.code).toBe(0)
    const statement = checkedIndependently(JSON.parse(await readFile(join(dir, 'quiet.intoto.json'), 'utf8')), pair.publicKey)
    // Every rule off: no finding, but every control not evaluated: never PASSED.
    expect(statement.predicate.result).toBe('WARNED')
    expect(statement.predicate.failedTests).toEqual([])
    expect(statement.predicate.warnedTests.every((t: string) => t.startsWith('cis-sscs-'))).toBe(true)

    // PASSED: a server where every rule is judged and finds nothing (its one unheld role's rule turned off).
    const clean = await startOneDevServer(cleanServerOptions())
    try {
      const config = join(dir, 'clean-config.json')
      await writeFile(config, JSON.stringify({rules: {'role/unused': 'off'}}))
      const run = await runCli(['scan', '--all-projects', '--config', config, '--format', 'json', '--output', join(dir, 'clean.json'), '--attest', join(dir, 'clean.intoto.json'), '--signing-key', pair.keyFile], {env: serverEnv(clean)})
      expect(run.code, run.stderr).toBe(0)
      const predicate = checkedIndependently(JSON.parse(await readFile(join(dir, 'clean.intoto.json'), 'utf8')), pair.publicKey).predicate
      expect([predicate.result, predicate.failedTests, predicate.warnedTests]).toEqual(['PASSED', [], []])
      expect(predicate.passedTests).toContain('audit/complete')
      expect(predicate.passedTests).toContain('osps-ac-03.01')
    } finally {
      await clean.close()
    }
  }, 180_000)

  it('an incomplete run (exit 2) is attested FAILED, audit/complete failed, the report still signed', async () => {
    server.override('GET /projects/3/setting', {status: 500, text: 'Internal Server Error'})
    try {
      const pair = pairs[1]!
      const report = join(dir, 'incomplete.json')
      const attestation = join(dir, 'incomplete.intoto.json')
      const result = await runCli(['scan', '--all-projects', '--format', 'json', '--output', report, '--attest', attestation, '--signing-key', pair.keyFile, '--fail-on', 'none'], {env: serverEnv(server)})
      expect(result.code).toBe(2)
      const statement = checkedIndependently(JSON.parse(await readFile(attestation, 'utf8')), pair.publicKey)
      expect(statement.predicate.result).toBe('FAILED')
      expect(statement.predicate.failedTests).toContain('audit/complete')
      expect(statement.predicate.passedTests).not.toContain('audit/complete')
      expect(statement.subject[0].digest.sha256).toBe(sha256(await readFile(report)))
      expectNoKey(result.stdout + result.stderr, pair)
    } finally {
      server.reset()
    }
  }, 60_000)
})

describe('verify', () => {
  let envelope: any
  let attestation: string
  let report: string
  const pair = () => pairs[1]!

  beforeAll(async () => {
    const made = await attested(pairs[1]!, ['--fail-on', 'none'], 'to-verify')
    envelope = made.envelope
    attestation = made.attestation
    report = made.report
  }, 60_000)

  it('an edited report: exit 1, naming the file', async () => {
    const edited = join(dir, 'edited.json')
    await writeFile(edited, (await readFile(report, 'utf8')).replace('"findings"', '"findings" '))
    const result = await runCli(['verify', attestation, '--public-key', pair().publicFile, report, edited])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`onedev-audit: NOT verified: ${attestation}: ${edited} (sha256 ${sha256(await readFile(edited)).slice(0, 16)}…) is none of its subjects: not the bytes that were signed (an edited report, or another one)\n`)
  })

  it('an edited payload, or another key: exit 1, saying the signature does not verify', async () => {
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'))
    statement.predicate.result = 'PASSED'
    const forged = join(dir, 'forged.intoto.json')
    await writeFile(forged, JSON.stringify({...envelope, payload: Buffer.from(JSON.stringify(statement)).toString('base64')}))
    expect(checkedIndependently(JSON.parse(await readFile(forged, 'utf8')), pair().publicKey)).toBeNull()
    const edited = await runCli(['verify', forged, '--public-key', pair().publicFile, report])
    expect(edited.code).toBe(1)
    expect(edited.stderr).toBe(`onedev-audit: NOT verified: ${forged}: its signature does not verify with ${pair().publicFile}: the payload was changed after it was signed, or another key signed it\n`)
    const other = await runCli(['verify', attestation, '--public-key', pairs[0]!.publicFile, report])
    expect(other.code).toBe(1)
    expect(other.stderr).toMatch(/its signature does not verify with .*ed25519\.pub\.pem/)
    // --format json: the same outcome, for machines.
    const json = await runCli(['verify', forged, '--public-key', pair().publicFile, report, '--format', 'json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({verified: false, signature: 'not verified', algorithm: 'ecdsa-p256', files: [{file: report, subject: null}], problem: expect.stringContaining('does not verify')})
  })

  it('any conforming envelope: without keyid, an ECDSA signature as raw r‖s, URL-safe base64', async () => {
    // Signed here, as another tool would: PAE computed by the test, P1363 (r‖s) encoding, no keyid.
    const body = Buffer.from(envelope.payload, 'base64')
    const raw = sign('sha256', paeOf(PAYLOAD_TYPE, body), {key: createPrivateKey(pair().privatePem), dsaEncoding: 'ieee-p1363'})
    expect(raw).toHaveLength(64)
    const other = join(dir, 'other-signer.intoto.json')
    await writeFile(other, JSON.stringify({payloadType: PAYLOAD_TYPE, payload: body.toString('base64url'), signatures: [{sig: raw.toString('base64url')}]}))
    const result = await runCli(['verify', other, '--public-key', pair().publicFile, report, '--format', 'json'])
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({verified: true, signature: 'verified', result: 'WARNED', files: [{file: report, subject: report}]})
    // Signed, but not over an in-toto statement's type: not what an attestation of a report is.
    const other2 = join(dir, 'other-type.intoto.json')
    const typed = sign('sha256', paeOf('text/plain', body), {key: createPrivateKey(pair().privatePem), dsaEncoding: 'der'})
    await writeFile(other2, JSON.stringify({payloadType: 'text/plain', payload: body.toString('base64'), signatures: [{sig: typed.toString('base64')}]}))
    const wrongType = await runCli(['verify', other2, '--public-key', pair().publicFile, report])
    expect(wrongType.code).toBe(1)
    expect(wrongType.stderr).toBe(`onedev-audit: NOT verified: ${other2}: it is signed, but its payload is not an in-toto statement (payloadType "text/plain")\n`)
    // No file given: the signature alone.
    const alone = await runCli(['verify', other, '--public-key', pair().publicFile])
    expect(alone.code).toBe(0)
    expect(alone.stdout).toMatch(/; no file given to check against its subject; result WARNED\n$/)
  })

  it('what it cannot read: exit 2, one line', async () => {
    const notJson = join(dir, 'not.json')
    await writeFile(notJson, 'not json')
    const noSignatures = join(dir, 'nosig.json')
    await writeFile(noSignatures, JSON.stringify({payloadType: PAYLOAD_TYPE, payload: envelope.payload, signatures: []}))
    const cases: Array<[string[], string]> = [
      [['verify', join(dir, 'nope.intoto.json'), '--public-key', pair().publicFile], `onedev-audit: error: cannot read the attestation ${join(dir, 'nope.intoto.json')} (ENOENT)`],
      [['verify', notJson, '--public-key', pair().publicFile], `onedev-audit: error: ${notJson} is not a DSSE envelope: not JSON`],
      [['verify', noSignatures, '--public-key', pair().publicFile], `onedev-audit: error: ${noSignatures} is not a DSSE envelope: no signatures`],
      [['verify', attestation, '--public-key', notJson], `onedev-audit: error: the public key ${notJson} is not a PEM public key ("-----BEGIN PUBLIC KEY-----")`],
      [['verify', attestation, '--public-key', pair().keyFile], `onedev-audit: error: the public key ${pair().keyFile} is a private key: give its public key (openssl pkey -in KEY -pubout -out PUB.pem), and keep the private one where only you can read it`],
      [['verify', attestation, '--public-key', pair().publicFile, join(dir, 'missing-report.json')], `onedev-audit: error: cannot read ${join(dir, 'missing-report.json')} (ENOENT)`],
    ]
    for (const [args, line] of cases) {
      const result = await runCli(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toBe(`${line}\n`)
      expect(result.stdout).toBe('')
      expectNoKey(result.stderr, pair())
    }
  }, 60_000)
})

describe('the signing key', () => {
  it('is refused in one line, exit 2, before any request, when others can read it or it is not a regular file; it is never shown', async () => {
    const keys = join(dir, 'keys')
    await mkdir(keys, {mode: 0o700})
    const pair = pairs[0]!
    const readable = join(keys, 'readable.pem')
    await writeFile(readable, pair.privatePem, {mode: 0o644})
    await chmod(readable, 0o644)
    const fifo = join(keys, 'fifo.pem')
    execFileSync('mkfifo', ['-m', '600', fifo])
    const link = join(keys, 'link.pem')
    await symlink(readable, link)
    const notPem = join(keys, 'not.pem')
    await writeFile(notPem, 'this is not a key, only long enough to be read as one', {mode: 0o600})
    const rsa = join(keys, 'rsa.pem')
    await writeFile(rsa, generateKeyPairSync('rsa', {modulusLength: 2048}).privateKey.export({type: 'pkcs8', format: 'pem'}), {mode: 0o600})
    const encrypted = join(keys, 'encrypted.pem')
    await writeFile(encrypted, createPrivateKey(pair.privatePem).export({type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'x'.repeat(12)}), {mode: 0o600})
    const publicOnly = join(keys, 'public.pem')
    await writeFile(publicOnly, pair.publicPem, {mode: 0o600})
    const p384 = join(keys, 'p384.pem')
    await writeFile(p384, generateKeyPairSync('ec', {namedCurve: 'secp384r1'}).privateKey.export({type: 'pkcs8', format: 'pem'}), {mode: 0o600})
    const shared = join(dir, 'shared')
    await mkdir(shared)
    await chmod(shared, 0o777)
    const inShared = join(shared, 'key.pem')
    await writeFile(inShared, pair.privatePem, {mode: 0o600})
    const cases: Array<[string, string]> = [
      [readable, `the signing key ${readable} can be read or written by others (mode 0644): make it yours alone (chmod 600), or make a new key if others may have read it`],
      [fifo, `the signing key ${fifo} is not a file but a named pipe (FIFO): a signing key is a regular file`],
      [link, `the signing key ${readable} can be read or written by others (mode 0644): make it yours alone (chmod 600), or make a new key if others may have read it`],
      [keys, `the signing key ${keys} is not a file but a folder: a signing key is a regular file`],
      [join(keys, 'nope.pem'), `the signing key ${join(keys, 'nope.pem')}: no such file (make one with \`openssl genpkey -algorithm ed25519 -out onedev-audit-signing.pem\` (docs/evidence.md))`],
      [notPem, `the signing key ${notPem} is not a PEM private key ("-----BEGIN PRIVATE KEY-----", PKCS#8): make one with \`openssl genpkey -algorithm ed25519 -out onedev-audit-signing.pem\` (docs/evidence.md)`],
      [rsa, `the signing key ${rsa} is an RSA key: give an Ed25519 or ECDSA P-256 key`],
      [p384, `the signing key ${p384} is an ECDSA key on secp384r1: give an Ed25519 or ECDSA P-256 key`],
      [encrypted, `the signing key ${encrypted} is encrypted: onedev-audit reads an unencrypted PEM key, kept in a file only you can read (docs/evidence.md)`],
      [publicOnly, `the signing key ${publicOnly} is not a PEM private key ("-----BEGIN PRIVATE KEY-----", PKCS#8): make one with \`openssl genpkey -algorithm ed25519 -out onedev-audit-signing.pem\` (docs/evidence.md)`],
      [inShared, `${shared}, a folder of the signing key, can be written by others (mode 0777): keep the key in a folder only you can write, never in a shared temporary folder`],
    ]
    for (const [key, line] of cases) {
      server.reset()
      const report = join(dir, 'refused.json')
      const result = await runCli(['scan', '--all-projects', '--format', 'json', '--output', report, '--attest', join(dir, 'refused.intoto.json'), '--signing-key', key], {env: serverEnv(server)})
      expect(result.code, key).toBe(2)
      expect(result.stderr).toBe(`onedev-audit: error: ${line}\n`)
      expect(result.stdout).toBe('')
      expect(server.requests, `${key}: no request before the key is accepted`).toEqual([])
      expectNoKey(result.stderr, pair)
    }
  }, 120_000)

  it('--attest and --signing-key go together, with a report file that is not the attestation', async () => {
    const key = pairs[0]!.keyFile
    const cases: Array<[string[], string]> = [
      [['--output', join(dir, 'r.json'), '--attest', join(dir, 'a.json')], `--attest ${join(dir, 'a.json')} is signed: give --signing-key KEY (a PEM private key, Ed25519 or ECDSA P-256; make one with \`openssl genpkey -algorithm ed25519 -out onedev-audit-signing.pem\` (docs/evidence.md))`],
      [['--output', join(dir, 'r.json'), '--signing-key', key], '--signing-key signs an attestation: give --attest FILE too'],
      [['--attest', join(dir, 'a.json'), '--signing-key', key], '--attest signs the report file: give --output FILE (a report on standard output has no file to name)'],
      [['--output', join(dir, 'same.json'), '--attest', join(dir, 'same.json'), '--signing-key', key], `--attest ${join(dir, 'same.json')} is the report itself (--output): give the attestation a file of its own`],
      [['--output', '/dev/null', '--attest', join(dir, 'a.json'), '--signing-key', key], "--attest signs the report's bytes, and --output /dev/null is not a regular file (a device or a pipe): write the report to a file"],
      [['--output', join(dir, 'r.json'), '--attest', join(dir, 'no-such-folder', 'a.json'), '--signing-key', key], `--attest ${join(dir, 'no-such-folder', 'a.json')}: cannot write there (ENOENT)`],
    ]
    for (const [args, line] of cases) {
      const result = await runCli(['scan', '--snapshot', EXAMPLE, '--format', 'json', ...args])
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toBe(`onedev-audit: error: ${line}\n`)
    }
  }, 60_000)
})

/** The commands docs/evidence.md gives an auditor who checks an attestation with openssl alone. */
async function opensslSnippet(): Promise<string> {
  const page = await readFile(join(ROOT, 'docs', 'evidence.md'), 'utf8')
  const section = page.slice(page.indexOf('### With openssl alone'))
  return /```sh\n([\s\S]*?)```/.exec(section)![1]!
}

const tools = ['openssl', 'jq', 'sha256sum', 'base64'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
const openssl3 = tools.length === 0 && /^OpenSSL 3/.test(execFileSync('openssl', ['version'], {encoding: 'utf8'}))
const NO_OPENSSL = openssl3 ? undefined : `skipped: ${tools.length > 0 ? `${tools.join(', ')} not installed` : 'openssl is not OpenSSL 3'}`

describe(`docs/evidence.md: checking an attestation with openssl alone${NO_OPENSSL ? ` (${NO_OPENSSL})` : ''}`, () => {
  it.skipIf(NO_OPENSSL !== undefined)('verifies both key types, shows the report among the subjects, and fails on an edited payload', async () => {
    const snippet = await opensslSnippet()
    for (const pair of pairs) {
      const made = await attested(pair, ['--fail-on', 'none'], `openssl-${pair.name}`)
      const work = await tempDir(`oda-openssl-${pair.name}`)
      await copyFile(made.report, join(work, 'report.json'))
      await copyFile(made.attestation, join(work, 'report.intoto.json'))
      await copyFile(pair.publicFile, join(work, 'onedev-audit-signing.pub.pem'))
      const good = spawnSync('sh', ['-e', '-c', snippet], {cwd: work, encoding: 'utf8'})
      expect(good.status, good.stderr).toBe(0)
      expect(good.stdout).toContain(pair.name === 'ed25519' ? 'Signature Verified Successfully' : 'Verified OK')
      const digest = sha256(await readFile(made.report))
      expect(good.stdout).toContain(`${digest}  report.json\n${digest}  ${made.report}\n`)
      expect(good.stdout).toContain('{"result":"WARNED","failedTests":[')
      // An edited payload: openssl refuses, and the commands stop there.
      const statement = JSON.parse(Buffer.from(made.envelope.payload, 'base64').toString('utf8'))
      statement.predicate.result = 'PASSED'
      await writeFile(join(work, 'report.intoto.json'), JSON.stringify({...made.envelope, payload: Buffer.from(JSON.stringify(statement)).toString('base64')}))
      const bad = spawnSync('sh', ['-e', '-c', snippet], {cwd: work, encoding: 'utf8'})
      expect(bad.status).not.toBe(0)
      expect(bad.stdout).not.toContain(digest)
    }
  }, 60_000)
})
