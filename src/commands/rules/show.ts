import * as Args from '@oclif/core/args'

import {AuditCommand} from '../../cli/base-command.js'
import {prepare} from '../../cli/audit.js'
import {UsageError} from '../../cli/errors.js'
import {commonFlags} from '../../cli/flags.js'
import {builtinFrameworks} from '../../cli/frameworks.js'
import {renderRuleDoc} from '../../engine/docs.js'
import {closest} from '../../util/suggest.js'

export default class RulesShow extends AuditCommand {
  static override summary = 'Print the full help of one rule: what it checks, the risk, how to fix it, its options, the compliance controls it evidences.'

  static override examples = ['<%= config.bin %> <%= command.id %> job-secret/broad-branches']

  static override args = {
    id: Args.string({description: 'Rule id, e.g. branch-protection/force-push-allowed.', required: true}),
  }

  static override flags = {...commonFlags}

  async run(): Promise<void> {
    const {args, flags} = await this.parse(RulesShow)
    this.debugEnabled = flags.debug
    const {ruleSet} = await prepare(flags.config)
    const entry = ruleSet.listing.find((r) => r.meta.id === args.id)
    if (!entry) {
      const ids = ruleSet.listing.map((r) => r.meta.id)
      const tail = args.id.split('/').pop() ?? args.id
      const prefixed = ids.filter((id) => id.startsWith(args.id))
      const meant = closest(args.id, ids)
      const close = prefixed.length > 0 ? prefixed : meant !== undefined ? [meant] : ids.filter((id) => id.includes(tail))
      throw new UsageError(`unknown rule ${JSON.stringify(args.id)}${close.length ? `; did you mean ${close.slice(0, 3).join(', ')}?` : ' (see onedev-audit rules)'}`)
    }
    const status = `This run: severity ${entry.severity}, ${entry.enabled ? 'enabled' : 'disabled'}${entry.origin === 'builtin' ? '' : `, from plugin ${entry.origin}`}.`
    const page = renderRuleDoc(entry.meta, await builtinFrameworks(), browseBase(this.config.pjson.homepage))
    process.stdout.write(page.replace(/^<!--.*-->\n/, '') + '\n' + status + '\n')
  }
}

/**
 * Where the repository's files are browsed, from package.json's `homepage` (the repository's page:
 * `https://github.com/OWNER/NAME#readme` gives `https://github.com/OWNER/NAME/blob/main/`). Printed
 * links point there: relative ones would name files an installed package does not have.
 */
export function browseBase(homepage: string | undefined): string | undefined {
  if (homepage === undefined) return undefined
  const url = new URL(homepage)
  url.hash = ''
  return `${url.href.replace(/\/$/, '')}/blob/main/`
}
