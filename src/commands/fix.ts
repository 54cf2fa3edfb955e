import * as Flags from '@oclif/core/flags'

import {AuditCommand} from '../cli/base-command.js'
import {EXIT, UsageError} from '../cli/errors.js'
import {commonFlags, serverFlags} from '../cli/flags.js'

export default class Fix extends AuditCommand {
  static override summary = 'Plan the changes of project settings that clear findings, prove them with the rules, apply them safely, and undo them.'

  static override description = `Plans (the default): judges the selected projects like scan, takes the changes the rules offer (edits of a project's own setting, in its payload generation; for an inherited protection, of the parent that holds it), and keeps each change only when judging again with every active rule shows the finding gone, no new finding, and nothing weakened for any branch, tag or user class. Prints per project each change as before -> after per field, with the findings it clears, and what is left: changes that did not prove out one by one, suggestions not asked for and what is changed by hand (roles, server settings, users, groups, authorizations, the issue setting) counted by rule with where to change it (each one with --verbose, and in the plan file). Only GET requests, or none with --snapshot. --output writes the plan (schemas/fix-plan.schema.json); it holds no secret.

Fixes (Prevent Forced Push, Prevent Deletion, Prevent Update, a new protection where a branch or the tags have none) are planned by default. Suggestions (signatures, reviews or builds as the configuration's fix key names them, removing a user-match exception, enabling a disabled protection, removing one that never applies, narrowing a job secret to the default branch, https:// for a web hook or notification) only with --suggestions or when their rule is named with --rule.

--apply sends a plan (--plan PLAN, or the one just made): for each project, GET its setting, check that every field the plan changes still holds what the plan saw (else a conflict: the project is skipped, nothing sent), plan the project again from that live setting with this configuration and the plan's selection (a plan is an approval list: a change that is not what the tool plans itself, exactly, is refused by its path and nothing of that project is sent; a change that makes a protection apply where it did not is judged on the project's live ancestors, read then), edit only those fields in the JSON as received (everything else, secrets included, kept exactly), POST it whole, GET it again and verify (the edited fields hold their new values, every other field is as before, the findings it clears are gone and nothing new is reported). A failed verification rolls the project back at once, as a targeted reverse patch: the fields the change edited are put back where they still hold its values, everything else is kept as the server has it now and named; when that fails too, the undo record keeps the project's restore edits (state unknown). --deadline is checked between projects only, never cutting a project's requests. A server that does not offer the POST (405, or 404 as OneDev answers a path it does not know, on the first one) stops the run and prints the remaining changes as manual steps; a 404 naming the project is that project's failure. Every --apply writes an undo record (--undo-output, default onedev-audit-undo-<UTC time>.json), sealed with your undo key (an HMAC keyed by a file of your own configuration, $XDG_CONFIG_HOME/onedev-audit/undo-key or ~/.config/onedev-audit/undo-key, made on first use; --undo-key names another, to undo on another machine); --undo UNDO --apply restores the old values where the fields still hold the new ones, only as the exact reverse of the record's applied edits, judged first on the projects read live: a restore that brings back a finding or weakens anything is sent only when the record's seal verifies with the key and the tool would plan exactly the recorded change from what it restores (from a record not sealed by the key, written before records were sealed, or changed since: never; each is listed by hand, exit 2, the others applied); a restore that would open a job secret to every job (authorization back to null) is left to a person (listed by hand, exit 2), the project's other restores applied. Ctrl-C (or SIGTERM, SIGHUP) finishes or rolls back the project in flight, sends nothing after it and exits 2; the undo record is written before each project's POST (that project in state unknown) and again as it is settled.

The secret (a password or an access token of an administrator) comes from ONEDEV_TOKEN, or from standard input with --token-stdin.

Exit codes: planning: 0 nothing to change, 1 the plan has changes, 2 error (or an incomplete collection). Applying: 0 every planned project applied and verified (or nothing to change); 2 any project conflicted, was rejected (not what the tool plans, or a restore it does not accept), was refused by the server, failed verification, was not sent, a stop (Ctrl-C) was asked for, or an error.`

  static override examples = [
    {description: 'Plan for every project, write the plan for review', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --all-projects --output plan.json'},
    {description: 'Apply the reviewed plan, keeping the undo record in a known place', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --plan plan.json --apply --undo-output undo.json'},
    {description: 'Undo it', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --undo undo.json --apply'},
    {description: 'Plan from last night\'s snapshot, suggestions of one rule included', command: '<%= config.bin %> <%= command.id %> --snapshot snapshot.json --rule job-secret/broad-branches --output plan.json'},
    {description: 'Plan and apply in one run, suggestions included', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --project 12 --suggestions --apply'},
  ]

  static override flags = {
    ...serverFlags,
    project: Flags.integer({char: 'p', description: 'Id of a project to plan for (repeatable).', multiple: true, min: 1, helpValue: 'ID'}),
    'all-projects': Flags.boolean({description: 'Plan for every project the credentials can see.'}),
    snapshot: Flags.string({description: 'Plan from a snapshot written by collect, with no server.', helpValue: 'PATH'}),
    rule: Flags.string({description: 'Plan only this rule\'s findings, its suggestions included (repeatable).', multiple: true, helpValue: 'ID'}),
    suggestions: Flags.boolean({description: 'Plan suggestions too, not only fixes.'}),
    output: Flags.string({char: 'o', description: 'Write the plan to this file (JSON, schemas/fix-plan.schema.json, mode 0600).', helpValue: 'PLAN'}),
    plan: Flags.string({description: 'A plan written by --output, to review or (with --apply) apply.', helpValue: 'PLAN'}),
    undo: Flags.string({description: 'An undo record written by --apply, to review or (with --apply) undo.', helpValue: 'UNDO'}),
    apply: Flags.boolean({description: 'Send the plan (or the undo record) to the server.'}),
    verbose: Flags.boolean({description: 'List every finding left to change by hand with its project, where to change it and why (the default counts them by rule).'}),
    'undo-key': Flags.string({
      description:
        'The key file that seals the undo record --apply writes and verifies the one --undo reads: a file of at least 32 bytes that only you can read or write, in a folder only you can write. Default: your own, $XDG_CONFIG_HOME/onedev-audit/undo-key (else ~/.config/onedev-audit/undo-key), made on first use. To undo on another machine, name a copy of the key of the user who applied.',
      env: 'ONEDEV_UNDO_KEY_FILE',
      helpValue: 'FILE',
    }),
    'undo-output': Flags.string({description: 'Where --apply writes its undo record, a file that does not exist yet (default: onedev-audit-undo-<UTC time>.json in the working directory).', helpValue: 'UNDO'}),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Fix)
    this.debugEnabled = flags.debug
    this.refuseSecretFlags(flags)
    const selecting = flags['all-projects'] || (flags.project?.length ?? 0) > 0 || flags.snapshot !== undefined
    const planning = flags.rule?.length || flags.suggestions || flags.output !== undefined
    if (flags.plan !== undefined && flags.undo !== undefined) throw new UsageError('--plan and --undo cannot be combined')
    if ((flags.plan !== undefined || flags.undo !== undefined) && (selecting || planning)) {
      throw new UsageError(`--${flags.plan !== undefined ? 'plan' : 'undo'} uses the file as it is: it cannot be combined with --project, --all-projects, --snapshot, --rule, --suggestions or --output`)
    }
    if (flags.plan === undefined && flags.undo === undefined) {
      this.checkProjectSelection(flags, 'plans for', 'nothing to plan: give --project ID (repeatable), --all-projects or --snapshot PATH; or --plan PLAN or --undo UNDO')
      if (flags.snapshot !== undefined && flags.apply) throw new UsageError('--apply sends to a server: write the plan from the snapshot with --output, review it, then apply it with --plan PLAN --apply')
    }
    if (flags['undo-output'] !== undefined && !flags.apply) throw new UsageError('--undo-output names the undo record --apply writes: give --apply')
    // The planner, the HTTP client and the rules are loaded only now: --help and the other commands never load them.
    const {runFix} = await import('../cli/fix.js')
    const code = await runFix(flags, {out: (line) => process.stdout.write(`${line}\n`), say: (line) => this.say(line), debug: this.debugLine}, this.config.version)
    if (code !== EXIT.ok) this.exit(code)
  }
}
