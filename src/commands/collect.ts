import * as Flags from '@oclif/core/flags'

import {AuditCommand} from '../cli/base-command.js'
import {checkWritable, prepare} from '../cli/audit.js'
import {errorLines, EXIT, UsageError} from '../cli/errors.js'
import {commonFlags, serverFlags} from '../cli/flags.js'
import {saveSnapshotDir, saveSnapshotFile} from '../snapshot/snapshot.js'
import {escapeControl} from '../util/escape.js'

export default class Collect extends AuditCommand {
  static override summary = 'Fetch what scan would audit and save it as a redacted snapshot.'

  static override description = `Fetches what scan fetches (roles, the selected projects and the ancestors they inherit from, each project's default branch, branches and tags) and writes it as one JSON document (--output) or as a folder of pretty-printed files (--output-dir: projects/<path>.json, roles.json and snapshot.json) for teams that keep their settings under version control.

Every secret value is redacted before it touches disk: job secret values, web hook secrets and header values, passwords and tokens in URLs. Evaluate a snapshot later, with no server, with \`scan --snapshot\`.

Exit codes: 0 everything was collected; 2 something could not be collected (the snapshot is still written, with the errors).`

  static override examples = [
    {description: 'Snapshot a whole server into one file', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --api-prefix /~api --all-projects --output snapshot.json'},
    {description: 'Keep the settings under version control', command: '<%= config.bin %> <%= command.id %> --url https://onedev.example.com --all-projects --output-dir onedev-settings/'},
  ]

  static override flags = {
    ...serverFlags,
    project: Flags.integer({char: 'p', description: 'Id of a project to collect (repeatable).', multiple: true, min: 1, helpValue: 'ID'}),
    'all-projects': Flags.boolean({description: 'Collect every project the credentials can see.'}),
    concurrency: Flags.integer({description: 'Projects fetched in parallel over one keep-alive connection pool.', default: 8, min: 1, max: 64}),
    output: Flags.string({char: 'o', description: 'Write the snapshot as one JSON file.', helpValue: 'FILE', exactlyOne: ['output', 'output-dir']}),
    'output-dir': Flags.string({description: 'Write the snapshot as a folder of pretty-printed files.', helpValue: 'DIR', exactlyOne: ['output', 'output-dir']}),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Collect)
    this.debugEnabled = flags.debug
    this.refuseSecretFlags(flags)
    if (!flags['all-projects'] && !flags.project?.length) throw new UsageError('nothing to collect: give --project ID (repeatable) or --all-projects')
    if (flags['all-projects'] && flags.project?.length) throw new UsageError('--project and --all-projects cannot be combined')
    if (flags.output) await checkWritable(flags.output)
    const prepared = await prepare(flags.config)
    const {model} = await (await import('../cli/collect-source.js')).collectFromServer(flags, prepared, {debug: this.debugLine, say: (line) => this.say(line)}, {allBranches: true})
    const tool = {name: 'onedev-audit' as const, version: this.config.version}
    if (flags.output) await saveSnapshotFile(model, flags.output, tool)
    else {
      const {kept} = await saveSnapshotDir(model, flags['output-dir']!, tool)
      if (kept.length > 0) {
        const named = kept.slice(0, 5).map((file) => escapeControl(file)).join(', ')
        this.say(
          `onedev-audit: notice: kept ${kept.length} file${kept.length === 1 ? '' : 's'} the previous snapshot.json lists that this collect no longer writes (${named}${kept.length > 5 ? ', ...' : ''}): not removed, since ${kept.length === 1 ? 'it is' : 'they are'} not provably as collect wrote ${kept.length === 1 ? 'it' : 'them'} (changed since, or written by an older version); remove by hand what is stale`,
        )
      }
    }
    for (const line of errorLines(model.errors)) this.say(line)
    this.say(`onedev-audit: wrote ${flags.output ?? flags['output-dir']}: ${model.projects.length} projects, ${model.roles.length} roles, ${model.errors.length} errors`)
    if (model.errors.length > 0) this.exit(EXIT.incomplete)
  }
}
