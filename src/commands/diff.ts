import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import {AuditCommand} from '../cli/base-command.js'
import {checkWritable, type Prepared, prepare, stopwatch} from '../cli/audit.js'
import type {CollectFlags} from '../cli/collect-source.js'
import {diffAndReport, type DiffSide, readSide, sideOf} from '../cli/diff.js'
import {UsageError} from '../cli/errors.js'
import {commonFlags, diffFormatFlag, FAIL_ON, refFlags, reportFlags, serverFlags} from '../cli/flags.js'

export default class Diff extends AuditCommand {
  static override summary = 'Show what changed, and what weakened, between two snapshots (or a snapshot and the server).'

  static override description = `Compares two states of a OneDev server by what the settings mean, not by their text: for each project and checked branch the protection each class of users gets (force push, deletion, creation, reviews, required builds, signatures, reviews of a build spec change, and which protection decides), the same for tags, the reach of each job secret's authorization, each role's privileges and job privileges, web hooks and notifications (added, removed, pointed elsewhere, secret removed), projects and roles added, removed or renamed; and the findings of both, new, fixed and unchanged. Each change is weakened, strengthened or neutral; a weakening has the severity of the rule it touches, or of the new finding it causes.

Branches and tags compared: those scan judges (each project's default branch and the existing branches and tags matching --branch/--tag or the configuration), on either side.

OLD and NEW are snapshots written by \`collect\` (a file or an --output-dir folder), of either payload generation. Without NEW, the live server is collected as scan collects it (give --all-projects or --project). Secret values are never compared: snapshots never hold them.

--format junit writes a failed test case per weakening, for OneDev's JUnit Report step (docs/inside-onedev.md).

Exit codes: 0 nothing weakened at or above --fail-on; 1 something did; 2 a snapshot cannot be read, or either side is incomplete.`

  static override examples = [
    {description: 'What changed since last night', command: '<%= config.bin %> <%= command.id %> last-night.json tonight.json'},
    {description: 'Last night\'s snapshot against the live server, failing on high weakenings', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> last-night.json --url https://onedev.example.com --api-prefix /~api --all-projects --fail-on high'},
    {description: 'A summary for CI', command: '<%= config.bin %> <%= command.id %> old/ new/ --format markdown --output drift.md'},
    {description: "Each weakening as a failed test case, for OneDev's JUnit Report step", command: '<%= config.bin %> <%= command.id %> onedev tonight --format junit --output drift-junit.xml --fail-on none'},
  ]

  static override args = {
    old: Args.string({description: 'The earlier snapshot (file or folder written by collect).', required: true}),
    new: Args.string({description: 'The later snapshot; omit it to collect the live server (with the server flags).'}),
  }

  static override flags = {
    ...serverFlags,
    project: Flags.integer({char: 'p', description: 'Without NEW: id of a project to collect (repeatable).', multiple: true, min: 1, helpValue: 'ID'}),
    'all-projects': Flags.boolean({description: 'Without NEW: collect every project the credentials can see.'}),
    ...refFlags,
    concurrency: Flags.integer({description: 'Without NEW: projects fetched in parallel.', default: 8, min: 1, max: 64}),
    ...reportFlags,
    format: diffFormatFlag,
    category: Flags.string({description: 'SARIF runAutomationDetails.id (GitHub\'s upload category). Default: onedev-audit-diff/<server host>/, apart from scan\'s.', helpValue: 'ID'}),
    'fail-on': Flags.option({
      options: [...FAIL_ON],
      default: 'low' as const,
      description: 'Exit 1 when a weakening (a weakened setting or a new finding) is at or above this severity (none: never). Exit 2 means a snapshot cannot be read or a side is incomplete.',
    })(),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Diff)
    this.debugEnabled = flags.debug
    this.refuseSecretFlags(flags)
    const live = args.new === undefined
    if (!live && (flags['all-projects'] || flags.project?.length)) {
      throw new UsageError('--project and --all-projects select what to collect when NEW is omitted: they cannot be combined with NEW (use the configuration\'s projects.include/exclude to narrow a snapshot)')
    }
    if (live && !flags['all-projects'] && !flags.project?.length) {
      throw new UsageError('NEW is omitted, so the live server is compared: give --all-projects or --project ID (as OLD was collected)')
    }
    if (flags['all-projects'] && flags.project?.length) throw new UsageError('--project and --all-projects cannot be combined')
    await checkWritable(flags.output)
    const timer = stopwatch(this.debugLine)
    const prepared = await prepare(flags.config, {branches: flags.branch, tags: flags.tag})
    // OLD first: a broken snapshot never costs a collection.
    const before = await readSide('OLD', args.old, prepared)
    const after = live ? await this.collectNew(flags, prepared) : await readSide('NEW', args.new!, prepared)
    timer(`read both sides: ${before.model.projects.length} and ${after.model.projects.length} projects`)
    const code = await diffAndReport(prepared, before, after, {
      format: flags.format,
      output: flags.output,
      failOn: flags['fail-on'],
      category: flags.category,
      version: this.config.version,
      color: flags.output === undefined && process.stdout.isTTY === true && !process.env.NO_COLOR,
      say: (line) => this.say(line),
      debug: this.debugLine,
    })
    if (code !== 0) this.exit(code)
  }

  private async collectNew(flags: CollectFlags & {debug: boolean}, prepared: Prepared): Promise<DiffSide> {
    const {collectFromServer} = await import('../cli/collect-source.js')
    const {model} = await collectFromServer(flags, prepared, {debug: this.debugLine, say: (line) => this.say(line)})
    return {model, side: sideOf(model)}
  }
}
