import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import {AuditCommand} from '../cli/base-command.js'
import {EXIT} from '../cli/errors.js'
import {type VerifyOutcome, verifyAttestation} from '../cli/verify.js'
import {escapeControl} from '../util/escape.js'

export default class Verify extends AuditCommand {
  static override summary = 'Check a signed attestation of a scan (scan --attest), and that files are the reports it signed.'

  static override description = `Verifies the signature of a DSSE envelope with a public key, and that each FILE given is one of the subjects of the in-toto Statement it holds: its SHA-256 is one of theirs. Any conforming envelope is read: with or without keyids (never trusted: the key given decides), ECDSA signatures DER-encoded or raw r‖s; the key is Ed25519 or ECDSA P-256, a PEM public key (\`openssl pkey -in KEY -pubout\`).

One line says the outcome: on standard output when verified, on standard error when not (naming the signature, the payload, or each file that is none of the subjects); --format json writes the outcome as JSON on standard output instead. docs/evidence.md shows how an auditor checks an attestation with this command, and with openssl alone.

Exit codes: 0 the signature verifies and every FILE is one of the subjects; 1 not (an edited report, an edited payload, another key); 2 input it cannot read (the attestation, the key, a FILE).`

  static override examples = [
    {description: "Check last night's report against its attestation", command: '<%= config.bin %> <%= command.id %> report.intoto.json --public-key onedev-audit-signing.pub.pem report.json'},
    {description: 'The outcome as JSON, for a pipeline', command: '<%= config.bin %> <%= command.id %> report.intoto.json --public-key onedev-audit-signing.pub.pem report.json --format json'},
  ]

  static override strict = false

  static override args = {
    attestation: Args.string({description: 'The attestation: a DSSE envelope, as scan --attest writes it.', required: true}),
    file: Args.string({description: 'A file that must be one of its subjects, e.g. the report (repeatable: give several).'}),
  }

  static override flags = {
    'public-key': Flags.string({description: 'The public key (PEM) of the key that signed it.', required: true, helpValue: 'PUB.pem'}),
    format: Flags.option({char: 'f', options: ['text', 'json'] as const, default: 'text' as const, description: 'text: one line; json: the outcome as a JSON object (verified, signature, subjects, files, problem).'})(),
    debug: Flags.boolean({description: 'Show stack traces on stderr.'}),
  }

  async run(): Promise<void> {
    const {args, argv, flags} = await this.parse(Verify)
    this.debugEnabled = flags.debug
    const files = (argv as string[]).slice(1)
    const outcome = await verifyAttestation(args.attestation, flags['public-key'], files)
    if (flags.format === 'json') process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`)
    else if (outcome.verified) process.stdout.write(`${verdictLine(outcome)}\n`)
    else this.say(verdictLine(outcome))
    if (!outcome.verified) this.exit(EXIT.findings)
  }
}

/** The outcome in one line, text from the envelope and the file names escaped. */
export function verdictLine(outcome: VerifyOutcome): string {
  if (!outcome.verified) return `onedev-audit: NOT verified: ${escapeControl(outcome.attestation)}: ${escapeControl(outcome.problem ?? 'not verified')}`
  const signed = `signed with ${escapeControl(outcome.publicKey)} (${outcome.algorithm} key ${outcome.keyid.slice(0, 16)})`
  const files =
    outcome.files.length === 0
      ? `no file given to check against its ${outcome.subjects.length === 1 ? 'subject' : `${outcome.subjects.length} subjects`}`
      : outcome.files.map((f) => `${escapeControl(f.file)} is its subject ${escapeControl(f.subject || '(unnamed)')}`).join(', ')
  const result = outcome.result === undefined ? '' : `; result ${escapeControl(outcome.result)}`
  return `onedev-audit: verified ${escapeControl(outcome.attestation)}: ${signed}; ${files}${result}`
}
