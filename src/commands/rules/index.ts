import * as Flags from '@oclif/core/flags'

import {AuditCommand} from '../../cli/base-command.js'
import {prepare} from '../../cli/audit.js'
import {commonFlags} from '../../cli/flags.js'
import {escapeControl} from '../../util/escape.js'

export default class Rules extends AuditCommand {
  static override summary = 'List every rule: id, severity, whether it is enabled, and what it checks.'

  static override description = 'Lists built-in rules and those of the plugins named in the configuration, with the severities and switches the configuration gives them. `onedev-audit rules show ID` prints a rule\'s full help.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json', '<%= config.bin %> <%= command.id %> show branch-protection/force-push-allowed']

  static override flags = {
    json: Flags.boolean({description: 'Print the list as JSON.'}),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Rules)
    this.debugEnabled = flags.debug
    const {ruleSet} = await prepare(flags.config)
    const rows = ruleSet.listing.map(({meta, severity, enabled, origin}) => ({
      id: meta.id,
      severity,
      defaultSeverity: meta.defaultSeverity,
      enabled,
      scope: meta.scope,
      origin,
      description: meta.shortDescription,
      tags: meta.tags,
    }))
    rows.sort((a, b) => a.id.localeCompare(b.id))
    if (flags.json) {
      process.stdout.write(JSON.stringify(rows, null, 2) + '\n')
      return
    }
    const idWidth = Math.max(...rows.map((r) => r.id.length), 4)
    const lines = [`${'RULE'.padEnd(idWidth)}  SEVERITY  ENABLED  DESCRIPTION`]
    for (const row of rows) {
      lines.push(`${row.id.padEnd(idWidth)}  ${row.severity.padEnd(8)}  ${(row.enabled ? 'yes' : 'no').padEnd(7)}  ${escapeControl(row.description)}`)
    }
    // Reports list the rules of the server's settings; the issue-setting rules judge a file (issue-setting lint).
    const issueSetting = rows.filter((r) => r.scope === 'issue-setting').length
    lines.push(
      '',
      `${rows.length} rules, ${rows.filter((r) => r.enabled).length} enabled: ${rows.length - issueSetting} judge the server's settings (scan, diff and fix report them), ` +
        `${issueSetting} the issue-setting file (issue-setting lint). Details: onedev-audit rules show ID`,
    )
    process.stdout.write(lines.join('\n') + '\n')
  }
}
