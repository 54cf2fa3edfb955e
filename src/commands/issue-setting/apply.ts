import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import {checkWritable, emptyModel, evaluateAndReport, prepare} from '../../cli/audit.js'
import {AuditCommand} from '../../cli/base-command.js'
import {EXIT} from '../../cli/errors.js'
import {commonFlags, failOnFlag, reportFlags, serverFlags} from '../../cli/flags.js'
import {connect} from '../../cli/server.js'
import {applyIssueSetting, backupPath, dryRunText} from '../../issue-setting/apply.js'
import {readIssueSettingFile} from '../../issue-setting/file.js'

export default class IssueSettingApply extends AuditCommand {
  static override summary = 'Lint an issue-setting file, then replace the server\'s global issue setting with it.'

  static override description = `Runs the same checks as \`issue-setting lint\` and refuses to send a file with findings at or above --fail-on (default high). Then, where the server offers GET /settings/issue (current servers do), saves the current setting to --backup (default issue-setting-backup-YYYYMMDD-HHMMSS.json in the working directory, mode 0600) and prints what changes; a server without it is told, not fatal. Finally POSTs the file's JSON exactly as written: the server replaces the whole setting (keys left out are reset to its stock defaults) and sets reconciled to false.

Nothing is sent when anything before the send fails (file, lint, credentials, GET, backup). --dry-run prints the body it would send and makes no request at all.

The secret (a password or an access token of an administrator) comes from ONEDEV_TOKEN, or from standard input with --token-stdin.

Exit codes: 0 applied (or dry run); 1 not applied: findings at or above --fail-on; 2 not applied or failed: bad file or flags, unreachable server, 401/403, or a non-200 answer to the POST (its text/plain detail is printed).`

  static override examples = [
    {description: 'Apply from CI to a current OneDev server', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> issue-setting.json --url https://onedev.example.com --api-prefix /~api'},
    {description: 'See what would be sent, without contacting the server', command: '<%= config.bin %> <%= command.id %> issue-setting.json --dry-run'},
    {description: 'Keep the backup in a known place', command: '<%= config.bin %> <%= command.id %> issue-setting.json --url https://onedev.example.com --api-prefix /~api --backup backups/issue-setting.json'},
  ]

  static override args = {
    file: Args.string({description: 'The issue-setting JSON file (the whole body of POST /settings/issue).', required: true}),
  }

  static override flags = {
    ...serverFlags,
    'dry-run': Flags.boolean({description: 'Lint, then print the body that would be sent; send nothing and make no request.'}),
    backup: Flags.string({description: 'Where to save the server\'s current setting before replacing it (default: issue-setting-backup-YYYYMMDD-HHMMSS.json).', helpValue: 'FILE'}),
    ...reportFlags,
    'fail-on': failOnFlag('high'),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(IssueSettingApply)
    this.debugEnabled = flags.debug
    this.refuseSecretFlags(flags)
    const backup = flags.backup ?? backupPath(new Date())
    await checkWritable(flags.output)
    if (!flags['dry-run']) await checkWritable(backup, '--backup')
    const prepared = await prepare(flags.config)
    const file = await readIssueSettingFile(args.file)

    const lintCode = await evaluateAndReport(prepared, {
      format: flags.format,
      output: flags.output,
      failOn: flags['fail-on'],
      category: flags.category,
      version: this.config.version,
      source: {kind: 'file', file: file.file},
      scopes: ['issue-setting'],
      model: emptyModel(),
      issueSetting: file,
      color: flags.output === undefined && process.stdout.isTTY === true && !process.env.NO_COLOR,
      say: (line) => this.say(line),
    })
    if (lintCode !== EXIT.ok) {
      const why = lintCode === EXIT.findings ? `findings at or above --fail-on ${flags['fail-on']}` : 'the lint did not complete'
      this.say(`onedev-audit: not applied: ${file.file} has ${why}; nothing was sent`)
      this.exit(lintCode)
    }

    if (flags['dry-run']) {
      process.stdout.write(dryRunText(file.setting.raw, flags['api-prefix'] ?? '/api'))
      return
    }

    const {client, url} = await connect(flags, this.debugLine, (line) => this.say(line))
    try {
      await applyIssueSetting(client, {text: file.text, body: file.setting.raw}, {
        backup,
        io: {out: (line) => process.stdout.write(`${line}\n`), say: (line) => this.say(line)},
      })
    } finally {
      await client.close()
    }
    this.say(`onedev-audit: applied ${file.file} to ${url}; the server now marks the workflow as not reconciled: if states or fields were removed or renamed, run the reconciliation in Administration → Issue Settings`)
  }
}
