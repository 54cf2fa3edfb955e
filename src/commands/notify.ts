import * as Flags from '@oclif/core/flags'

import {AuditCommand} from '../cli/base-command.js'
import {EXIT} from '../cli/errors.js'
import {commonFlags, refFlags, serverFlags} from '../cli/flags.js'

const SEVERITY_OPTIONS = ['critical', 'high', 'medium', 'low', 'info'] as const

export default class Notify extends AuditCommand {
  static override summary = 'Keep one confidential issue in each project with findings: opened, updated when they change, closed when none is left.'

  static override description = `Judges the selected projects like scan (or a snapshot, --snapshot), keeps each project's active findings at or above --min-severity (suppressed and baselined ones left out), and keeps one confidential OneDev issue per project about them, in the project itself: its description lists the findings by rule, each rule with what to do and, where fix can make the change, the fix command that plans it. Server-wide findings (roles, administration and security settings) go to one issue in the project the configuration names (notify.serverProject), or nowhere.

Without --apply it only prints what it would do, per project: open, update, close, reopen, unchanged, refused. With --apply it does it: at most one write per project (the new issue, or its description), plus the state transition when it closes or reopens an issue.

No ping when nothing changed: the description carries a marker with a digest of the findings it lists, and is rewritten only when the findings (what they are about, and their severities) change; the wording never counts. The issue is found again by its marker (or its title) in the project (one GET /issues query per project), never opened twice. It is closed through a manual transition of the issue workflow from its state to notify.closedState (default Closed), its description first saying that none is left, and reopened (to the workflow's first state) when findings come back. An issue someone closed while the same findings remain is left closed: suppress them in the configuration to accept them. A field the workflow requires that has no default is filled from notify.fields, or the project is refused with a line naming the field.

The secret (an administrator's access token: notify reads the issue workflow and reads and writes confidential issues in every project) comes from ONEDEV_TOKEN, or from standard input with --token-stdin. Server strings in the issue are escaped for OneDev's Markdown: no HTML, no mention, no issue or commit reference; no secret is ever written.

Exit codes: 0 nothing to do (or, with --apply, everything done); 1 something to do (dry run); 2 an error: bad flags or configuration, a server without the issue endpoints, a project refused or failed, an incomplete audit (the projects it judged completely are still handled).`

  static override examples = [
    {description: 'What would be done for every project, from last night\'s snapshot', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --snapshot onedev'},
    {description: 'Do it, for high and critical findings (the default threshold)', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --snapshot onedev --apply'},
    {description: 'Collect two projects now, open issues for medium findings too, and show the descriptions', command: '<%= config.bin %> <%= command.id %> --project 12 --project 40 --min-severity medium --verbose'},
  ]

  static override flags = {
    ...serverFlags,
    project: Flags.integer({char: 'p', description: 'Id of a project to audit and notify (repeatable).', multiple: true, min: 1, helpValue: 'ID'}),
    'all-projects': Flags.boolean({description: 'Audit and notify every project the credentials can see.'}),
    snapshot: Flags.string({
      description: 'Take the findings from a snapshot written by `collect` (every audited project of it) instead of collecting now; the issues are still read and written on the server (--url), which must be the one the snapshot was collected from.',
      helpValue: 'FILE|DIR',
    }),
    ...refFlags,
    'min-severity': Flags.option({options: [...SEVERITY_OPTIONS], default: 'high' as const, description: 'Findings at or above this severity get an issue.'})(),
    baseline: Flags.string({description: 'Leave out the findings whose fingerprints are in this baseline file (written by scan --update-baseline).', helpValue: 'FILE'}),
    apply: Flags.boolean({description: 'Open, update, close and reopen the issues (default: only print what would be done).'}),
    concurrency: Flags.integer({description: 'Requests in flight at once (collection and issues).', default: 8, min: 1, max: 64}),
    verbose: Flags.boolean({description: 'Print each request that would change an issue (with --apply: that did), descriptions included, under its project.'}),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Notify)
    this.debugEnabled = flags.debug
    this.refuseSecretFlags(flags)
    this.checkProjectSelection(flags, 'notifies', 'nothing to notify: give --project ID (repeatable) or --all-projects, or --snapshot PATH')
    // The HTTP client, the rules and the issue logic load only now: --help never loads them.
    const {runNotify} = await import('../cli/notify.js')
    const code = await runNotify(flags, {out: (line) => process.stdout.write(`${line}\n`), say: (line) => this.say(line), debug: this.debugLine})
    if (code !== EXIT.ok) this.exit(code)
  }
}
