import * as Flags from '@oclif/core/flags'

import {AuditCommand} from '../cli/base-command.js'
import {checkWritable, prepare} from '../cli/audit.js'
import {describeAuditError, EXIT, UsageError, writeOrSay} from '../cli/errors.js'
import {commonFlags, serverFlags} from '../cli/flags.js'
import {readSnapshot} from '../cli/sources.js'
import {ancestorsOf} from '../engine/evaluate.js'
import {ProjectFacts, ServerFacts} from '../engine/facts.js'
import {checkedBranches} from '../onedev/checked-refs.js'
import {gitNameProblem} from '../onedev/ref-name.js'
import {type AccessReport, formatAccessJson, formatAccessTable} from '../report/access.js'
import {oneLine} from '../util/escape.js'
import {writeFileAtomic} from '../util/fs.js'

export default class Access extends AuditCommand {
  static override summary = 'Who can do what on a project: principals × capabilities, each with the grant it comes from.'

  static override description = `Computes, as the server does, what each principal may do on one project: anonymous users (when anonymous access is on), every logged-in user, each group and user holding a role on the project or an ancestor, and administrators. Capabilities: read-code, write-code, push-without-review, force-push, delete-branch, create-branch (on --branch, else the default branch), run-jobs, read-secret:<name> (they can write the build spec of a job that receives the secret), manage-project, administer. Each comes with the roles and projects that grant it.

Reads the security setting, groups, memberships, users and the project's (and its ancestors') authorizations: the token must be an administrator's with owner permissions. Endpoints the server does not offer are listed as not evaluated. Never prints an email address or a secret.

Exit codes: 0 answered; 2 bad flags, an unknown project or principal, or something could not be read (the answer is still printed, with the errors).`

  static override examples = [
    {description: 'Who can do what on project 42 (its default branch)', command: 'ONEDEV_TOKEN=… <%= config.bin %> <%= command.id %> --url https://onedev.example.com --api-prefix /~api --project 42'},
    {description: 'One user on a release branch, as JSON', command: "<%= config.bin %> <%= command.id %> --project 42 --branch 'release/2.x' --principal alice --format json"},
    {description: 'From a snapshot written by collect', command: '<%= config.bin %> <%= command.id %> --snapshot examples/snapshot.json --project 2'},
  ]

  static override flags = {
    ...serverFlags,
    project: Flags.integer({char: 'p', description: 'Id of the project.', required: true, min: 1, helpValue: 'ID'}),
    branch: Flags.string({char: 'b', description: 'The branch the branch capabilities are judged on (default: the default branch).', helpValue: 'NAME'}),
    principal: Flags.string({description: 'Show only this principal: a login name, a group name, `everyone` or `anonymous`.', helpValue: 'NAME'}),
    snapshot: Flags.string({description: 'Read a snapshot written by `collect` instead of calling a server.', helpValue: 'FILE|DIR'}),
    format: Flags.option({char: 'f', options: ['table', 'json'] as const, default: 'table' as const, description: 'table (for people) or json (schemas/access.schema.json).'})(),
    output: Flags.string({char: 'o', description: 'Write the answer to this file instead of standard output.', helpValue: 'FILE'}),
    concurrency: Flags.integer({description: 'Requests in parallel over one keep-alive connection pool.', default: 8, min: 1, max: 64}),
    ...commonFlags,
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Access)
    this.debugEnabled = flags.debug
    this.refuseSecretFlags(flags)
    const refused = flags.branch === undefined ? null : gitNameProblem(flags.branch)
    if (refused !== null) throw new UsageError(`--branch "${oneLine(flags.branch!, 200)}": git refuses this branch name: ${refused}`)
    await checkWritable(flags.output)
    const prepared = await prepare(flags.config, flags.branch === undefined ? {} : {branches: [flags.branch]})
    const {model} = flags.snapshot
      ? await readSnapshot(flags.snapshot, prepared)
      : await (await import('../cli/collect-source.js')).collectFromServer(
          {...flags, project: [flags.project], 'all-projects': false},
          prepared,
          {debug: this.debugLine, say: (line) => this.say(line)},
        )
    const project = model.projects.find((p) => p.id === flags.project)
    if (!project) {
      for (const error of model.errors) this.say(`onedev-audit: error: ${describeAuditError(error)}`)
      throw new UsageError(`project ${flags.project} is not ${flags.snapshot ? 'an audited project of the snapshot' : 'readable on the server'}`)
    }
    const branch = flags.branch !== undefined ? {name: flags.branch, reason: 'given'} : (checkedBranches(project.repository, [])[0] ?? null)
    const facts = new ProjectFacts(new ServerFacts(model, prepared.settings), project, ancestorsOf(project, model))
    const principals = facts.capabilities(branch, flags.principal)
    if (flags.principal !== undefined && principals.length === 0) {
      throw new UsageError(`no principal named "${oneLine(flags.principal, 100)}" on project ${oneLine(project.path, 200)} (#${project.id}): give a login name, a group name, everyone or anonymous`)
    }
    const report: AccessReport = {
      project: {id: project.id, path: project.path},
      branch: branch?.name ?? null,
      principals,
      notEvaluated: (model.notEvaluated ?? []).map((entry) => ({...entry})),
      errors: model.errors.map(describeAuditError),
    }
    const text = flags.format === 'json' ? formatAccessJson(report) : formatAccessTable(report)
    let written = true
    if (flags.output === undefined) process.stdout.write(text)
    else written = await writeOrSay('--output', () => writeFileAtomic(flags.output!, text), (line) => this.say(line))
    for (const error of model.errors) this.say(`onedev-audit: error: ${describeAuditError(error)}`)
    if (model.errors.length > 0 || !written) this.exit(EXIT.incomplete)
  }
}
