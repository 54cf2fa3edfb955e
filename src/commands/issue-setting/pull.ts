import * as Flags from '@oclif/core/flags'

import {checkWritable} from '../../cli/audit.js'
import {AuditCommand} from '../../cli/base-command.js'
import {commonFlags, serverFlags} from '../../cli/flags.js'
import {connect} from '../../cli/server.js'
import {fetchIssueSetting, IssueSettingError, ISSUE_SETTING_PATH, issueSettingFileText} from '../../issue-setting/apply.js'
import {REDACTED, REDACTED_URL, URL_MASK, URL_VALUE_MASK} from '../../model/redact.js'
import {writeFailure, writeFileAtomic} from '../../util/fs.js'

/** A URL that redaction changed: a masked part, or the whole URL replaced. */
const URL_MASKED = new RegExp(`\\b(?:${URL_MASK}|${URL_VALUE_MASK})\\b|${REDACTED_URL}`)

export default class IssueSettingPull extends AuditCommand {
  static override summary = 'Write the server\'s global issue setting to a file, for a first commit.'

  static override description = `GETs /settings/issue (administrator needed) and writes it, pretty-printed, to --output (atomically: readers never see half a file). Default values of secret fields and anything password-like are written as <redacted>, and the credentials and query values of URLs as REDACTED and HIDDEN.

The secret (a password or an access token of an administrator) comes from ONEDEV_TOKEN, or from standard input with --token-stdin.

Exit codes: 0 written; 2 failed (bad flags, unreachable server, 401/403, a server without GET /settings/issue, the file could not be written).`

  static override examples = [
    {description: 'Start keeping the workflow as code', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --api-prefix /~api --output issue-setting.json'},
  ]

  static override flags = {
    ...serverFlags,
    output: Flags.string({char: 'o', description: 'The file to write.', required: true, helpValue: 'FILE'}),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(IssueSettingPull)
    this.debugEnabled = flags.debug
    this.refuseSecretFlags(flags)
    await checkWritable(flags.output)
    const {client} = await connect(flags, this.debugLine, (line) => this.say(line))
    let setting: unknown
    try {
      setting = await fetchIssueSetting(client)
    } finally {
      await client.close()
    }
    if (setting === null) {
      throw new IssueSettingError({kind: 'not-found', message: `this server has no GET ${client.apiPrefix}${ISSUE_SETTING_PATH} (older servers only accept the POST): write the file by hand`})
    }
    const text = issueSettingFileText(setting)
    try {
      await writeFileAtomic(flags.output, text)
    } catch (error) {
      throw new IssueSettingError({kind: 'io', message: `--output ${writeFailure(flags.output, error).message}`})
    }
    this.say(`onedev-audit: wrote the issue setting to ${flags.output}`)
    if (text.includes(`"${REDACTED}"`)) {
      this.say(`onedev-audit: notice: some values were written as ${REDACTED} (secret field defaults, password-like keys): put the real values back before applying this file`)
    }
    if (URL_MASKED.test(text)) {
      this.say(`onedev-audit: notice: some URLs were written with parts masked as ${URL_MASK} or ${URL_VALUE_MASK} (credentials, query values): put the real values back before applying this file`)
    }
  }
}
