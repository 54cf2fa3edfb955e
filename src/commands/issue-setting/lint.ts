import * as Args from '@oclif/core/args'

import {checkWritable, emptyModel, evaluateAndReport, prepare} from '../../cli/audit.js'
import {AuditCommand} from '../../cli/base-command.js'
import {commonFlags, failOnFlag, reportFlags} from '../../cli/flags.js'
import {readIssueSettingFile} from '../../issue-setting/file.js'

export default class IssueSettingLint extends AuditCommand {
  static override summary = 'Check an issue-setting file (the global issue workflow) before it is applied.'

  static override description = `Validates FILE against the shape of POST /settings/issue (the contract's transitions {fromStates, toState, removeFields} and current servers' typed @type transitions), then runs the issue-setting/* rules over it: at least one state; unique state, field and board names; every state and field a transition, board or list column names exists (State and Iteration are built in); boards with at least two columns; manual transitions open to any user; keys the file leaves out (the server resets them); reconciled: false (info).

OneDev itself checks almost none of these references when the setting is posted.

Exit codes: 0 no finding at or above --fail-on; 1 at least one; 2 the file could not be read or is not a valid issue setting (the message names the file, line and column, or the JSON pointer).`

  static override examples = [
    {description: 'Lint the workflow kept in the repository', command: '<%= config.bin %> <%= command.id %> issue-setting.json'},
    {description: 'SARIF for code scanning, failing on high and above', command: '<%= config.bin %> <%= command.id %> issue-setting.json --format sarif --output issue-setting.sarif --fail-on high'},
  ]

  static override args = {
    file: Args.string({description: 'The issue-setting JSON file (the body of POST /settings/issue).', required: true}),
  }

  static override flags = {
    ...reportFlags,
    'fail-on': failOnFlag('low'),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(IssueSettingLint)
    this.debugEnabled = flags.debug
    await checkWritable(flags.output)
    const prepared = await prepare(flags.config)
    const file = await readIssueSettingFile(args.file)
    const code = await evaluateAndReport(prepared, {
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
    if (code !== 0) this.exit(code)
  }
}
