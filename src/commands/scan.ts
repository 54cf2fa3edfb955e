import * as Flags from '@oclif/core/flags'
import {stat} from 'node:fs/promises'
import {relative, resolve, sep} from 'node:path'

import {AuditCommand} from '../cli/base-command.js'
import {checkAttestFlags, configurationOf, readSigningKey} from '../cli/attest.js'
import {checkWritable, evaluateAndReport, judgeOnArrival, prepare, stopwatch} from '../cli/audit.js'
import {FRAMEWORK_KEYS, statusesSentence} from '../engine/compliance.js'
import type {RuleScope} from '../engine/rule.js'
import {UsageError} from '../cli/errors.js'
import {commonFlags, complianceFlags, failOnFlag, refFlags, reportFlags, scanFormatFlag, serverFlags} from '../cli/flags.js'
import {readBaselineFile} from '../engine/suppress.js'
import {readSnapshot} from '../cli/sources.js'

export default class Scan extends AuditCommand {
  static override summary = 'Audit a OneDev server (or a snapshot of one) and report what is weak.'

  static override description = `Fetches every selected project's settings and the roles, runs the rules over them, and writes a report.

Branches judged: each project's default branch (read from the server), plus the existing branches matching --branch or the configuration's \`branches\`. Tags judged: the existing tags matching --tag or \`tags\`, else every existing tag. A project whose repository is not initialized gets no branch or tag findings. What the server offers is learnt per endpoint: without GET /repositories/{id}/default-branch (older servers), "main" is judged; without the tag list, "v1.0.0"; a project whose repository could not be read (deleted during the audit) gets no branch or tag findings, and an error. Checks not evaluated are notices, grouped by family unless --verbose.

The secret (a password or an access token of an administrator) comes from ONEDEV_TOKEN, or from standard input with --token-stdin; it is never a flag value, and never printed.

Compliance: the report gives each control of the CIS Software Supply Chain Security Guide v1.0 and of the OpenSSF OSPS Baseline 2026.02.19 (--framework chooses) a status: ${statusesSentence()}. docs/compliance/README.md says the same.

Inside OneDev (docs/inside-onedev.md): --format checkstyle writes the findings as code problems on the lines of a snapshot folder's files, named from the working directory, for OneDev's Checkstyle Report step (critical and high are errors, medium warnings, the rest info); --format junit writes a test suite per compliance framework (a case per control) and one of the rules (a case per enabled rule), for OneDev's JUnit Report step.

Evidence for auditors (docs/evidence.md): --format oscal writes the controls as NIST OSCAL Assessment Results; --attest FILE --signing-key KEY also writes a signed in-toto attestation of the run's result over the report file, which \`onedev-audit verify\` checks.

Exit codes: 0 no finding at or above --fail-on (and, with --fail-on-control, no failing control); 1 at least one; 2 the audit could not run or is incomplete (bad flags or configuration, unreachable server, 401/403, a project that could not be fetched or parsed). An incomplete audit still writes its report with everything collected, plus the errors.`

  static override examples = [
    {description: 'Audit every project of a current OneDev server', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --api-prefix /~api --all-projects'},
    {description: "Judge release branches besides each project's default branch", command: "<%= config.bin %> <%= command.id %> --all-projects --branch 'release/**'"},
    {description: 'Two projects, SARIF for code scanning, failing only on high and critical', command: '<%= config.bin %> <%= command.id %> --url https://onedev.example.com --project 12 --project 40 --format sarif --output onedev.sarif --fail-on high'},
    {description: 'Evaluate a snapshot written by collect, no server needed', command: '<%= config.bin %> <%= command.id %> --snapshot snapshot.json'},
    {description: 'Report only findings that are not in the baseline', command: '<%= config.bin %> <%= command.id %> --snapshot settings/ --baseline onedev-audit.baseline.json'},
    {description: 'Show the OSPS Baseline controls only, and fail the run when one of them fails', command: '<%= config.bin %> <%= command.id %> --snapshot snapshot.json --framework osps --fail-on-control --fail-on none'},
    {description: "The findings as code problems on the lines of a committed snapshot folder, for OneDev's Checkstyle Report step", command: '<%= config.bin %> <%= command.id %> --snapshot onedev --format checkstyle --output onedev-audit-checkstyle.xml --fail-on none'},
    {description: "Controls and rules as test results, for OneDev's JUnit Report step", command: '<%= config.bin %> <%= command.id %> --snapshot onedev --format junit --output onedev-audit-junit.xml --fail-on none'},
    {description: 'The controls as OSCAL Assessment Results, for compliance tools', command: '<%= config.bin %> <%= command.id %> --snapshot snapshot.json --format oscal --output onedev-audit-oscal.json --fail-on none'},
    {
      description: 'A report and a signed attestation of its result, to check with `onedev-audit verify`',
      command: '<%= config.bin %> <%= command.id %> --snapshot snapshot.json --format json --output report.json --attest report.intoto.json --signing-key ~/.config/onedev-audit/signing.pem',
    },
  ]

  static override flags = {
    ...serverFlags,
    project: Flags.integer({char: 'p', description: 'Id of a project to audit (repeatable).', multiple: true, min: 1, helpValue: 'ID'}),
    'all-projects': Flags.boolean({description: 'Audit every project the credentials can see (pages through GET /projects).'}),
    snapshot: Flags.string({
      description: 'Evaluate a snapshot written by `collect --output FILE` or `collect --output-dir DIR` instead of calling a server.',
      helpValue: 'FILE|DIR',
    }),
    ...refFlags,
    concurrency: Flags.integer({description: 'Projects fetched in parallel over one keep-alive connection pool.', default: 8, min: 1, max: 64}),
    ...reportFlags,
    format: scanFormatFlag,
    verbose: Flags.boolean({
      description:
        'List every notice in the stylish and markdown reports and on stderr. Without it, the checks not evaluated (endpoints an older server does not offer, answers of another shape) are grouped by family: access model, server hardening, branches and tags. The JSON and SARIF reports always list every notice.',
    }),
    'fail-on': failOnFlag('low'),
    ...complianceFlags,
    baseline: Flags.string({description: 'Report only findings whose fingerprints are not in this baseline file (others are kept in JSON as baselined).', helpValue: 'FILE'}),
    attest: Flags.string({
      description:
        'Also write a signed attestation of the run to this file: a DSSE envelope over an in-toto Statement (test-result predicate) naming the report file (--output, needed) by its SHA-256, the result (FAILED, WARNED or PASSED, as the exit code and --fail-on give it), the controls and rules that failed, and the configuration and baseline by digest. Needs --signing-key. Check it with `onedev-audit verify` (docs/evidence.md).',
      helpValue: 'FILE',
    }),
    'signing-key': Flags.string({
      description:
        'The private key that signs --attest: a PEM file (PKCS#8), Ed25519 or ECDSA P-256, a regular file only you can read (mode 0600) in a folder only you can write; anything else is refused before any request. The key never appears in any output.',
      helpValue: 'KEY',
    }),
    'update-baseline': Flags.string({
      description:
        'Write the fingerprints of this run\'s findings to this baseline file. The findings are then known: the exit code is that of a scan with this baseline (0, unless the audit is incomplete or --fail-on-control fails).',
      helpValue: 'FILE',
    }),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const startedAt = new Date().toISOString()
    const {flags} = await this.parse(Scan)
    this.debugEnabled = flags.debug
    this.refuseSecretFlags(flags)
    this.checkProjectSelection(flags, 'evaluates', 'nothing to audit: give --project ID (repeatable) or --all-projects, or --snapshot FILE')
    const snapshotRoot = flags.format === 'checkstyle' ? await checkstyleRoot(flags.snapshot) : undefined
    await checkWritable(flags.output)
    await checkWritable(flags['update-baseline'], '--update-baseline')
    await checkAttestFlags(flags)
    await checkWritable(flags.attest, '--attest')
    // The signing key before anything else is read or asked: a key that cannot be used costs nothing.
    const signingKey = flags['signing-key'] === undefined ? undefined : await readSigningKey(flags['signing-key'])
    // Configuration and rules first: a bad configuration fails before any request.
    const timer = stopwatch(this.debugLine)
    const prepared = await prepare(flags.config, {branches: flags.branch, tags: flags.tag})
    // Read before collecting, so a broken baseline never costs a collection.
    const baseline = flags.baseline ? await readBaselineFile(flags.baseline) : undefined
    timer(`loaded the configuration and ${prepared.ruleSet.listing.length} rules`)

    const scopes: RuleScope[] = ['project', 'role', 'server']
    // Live: projects are judged as they arrive, and their payloads dropped.
    const arrival = flags.snapshot ? undefined : judgeOnArrival(prepared, scopes)
    const {model, source} = flags.snapshot
      ? await readSnapshot(flags.snapshot, prepared)
      : await (await import('../cli/collect-source.js')).collectFromServer(flags, prepared, {debug: this.debugLine, say: (line) => this.say(line)}, arrival ? {arrival: arrival.evaluator} : {})
    timer(`${flags.snapshot ? 'read the snapshot' : 'collected'}: ${model.projects.length} projects, ${model.roles.length} roles`)

    const code = await evaluateAndReport(prepared, {
      format: flags.format,
      output: flags.output,
      failOn: flags['fail-on'],
      category: flags.category,
      baseline: baseline?.fingerprints,
      updateBaseline: flags['update-baseline'],
      version: this.config.version,
      source,
      scopes,
      model,
      ...(arrival ? {arrival} : {}),
      ...(snapshotRoot === undefined ? {} : {snapshotRoot}),
      startedAt,
      ...(flags.attest && signingKey
        ? {
            attest: {
              file: flags.attest,
              key: signingKey,
              configuration: configurationOf({
                tool: {name: 'onedev-audit', version: this.config.version},
                ...(prepared.loaded.path ? {config: {label: flags.config ?? prepared.loaded.label, ...(prepared.loaded.sha256 ? {sha256: prepared.loaded.sha256} : {})}} : {}),
                ...(flags.baseline && baseline ? {baseline: {path: flags.baseline, sha256: baseline.sha256}} : {}),
                failOn: flags['fail-on'],
                failOnControl: flags['fail-on-control'] === true,
                frameworks: flags.framework?.length ? flags.framework : FRAMEWORK_KEYS,
              }),
            },
          }
        : {}),
      compliance: {frameworks: flags.framework ?? [], failOnControl: flags['fail-on-control']},
      color: flags.output === undefined && process.stdout.isTTY === true && !process.env.NO_COLOR,
      verbose: flags.verbose,
      say: (line) => this.say(line),
      debug: this.debugLine,
    })
    if (code !== 0) this.exit(code)
  }
}

/**
 * The snapshot folder as the names of a Checkstyle report start: relative to the working directory,
 * from which OneDev resolves them. Only a folder has files for OneDev to show problems on.
 */
async function checkstyleRoot(snapshot: string | undefined): Promise<string> {
  const how = 'write one with `onedev-audit collect --output-dir onedev`, commit it, and run `onedev-audit scan --snapshot onedev --format checkstyle`'
  if (snapshot === undefined) throw new UsageError(`--format checkstyle shows findings on the lines of a snapshot folder's files, and a live scan has none: ${how}`)
  if ((await stat(snapshot).catch(() => null))?.isFile()) throw new UsageError(`--format checkstyle shows findings on the lines of a snapshot folder's files, and --snapshot ${snapshot} is a single file: ${how}`)
  return relative(process.cwd(), resolve(snapshot)).split(sep).join('/')
}
