/**
 * Enabled server shell executors: their jobs run as the OneDev process, with its files, its database
 * and every project's secrets (onedev-access-reference.md §3.2, §9 item 11).
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {jobExecutorsOf} from '../../src/model/admin-data.js'
import {enabledExecutors, SERVER_SHELL_EXECUTOR} from '../../src/onedev/executors.js'
import {serverRelease} from '../../src/onedev/versions.js'
import {describeRestriction} from '../support/executor-findings.js'

export default defineRule({
  meta: {
    id: 'server/shell-executor',
    shortDescription: 'A server shell executor runs jobs with the OneDev process\'s own privileges',
    fullDescription:
      'Reports enabled server shell executors that admit some job. Their jobs run on the OneDev server, as the OneDev process: a job can read the database, ' +
      'every project\'s repositories and job secrets, and the server\'s keys. Critical when the executor\'s job match admits jobs of projects it does not name ' +
      'or of any branch (anyone who can push a branch, or create a project, can run code as OneDev); high when it is scoped to named projects and protected branches.',
    defaultSeverity: 'critical',
    help: [
      '## Risk',
      'OneDev says it itself: "Jobs running with this executor has same privilege as OneDev process". A job is whatever the build spec of the',
      'commit says, so whoever can push a branch whose jobs this executor takes can run any command as OneDev: dump the database, read every',
      'job secret, add an administrator. A job match such as `on branch "main"` does not narrow it to one project: every project has a `main`,',
      'and whoever creates a project owns it.',
      '',
      '## By OneDev version',
      'What an empty restriction takes depends on the release (the audit reads the version at `GET /~api/version/server`):',
      '',
      '| OneDev | key | empty means |',
      '| --- | --- | --- |',
      '| up to 8.0.4 | `jobAuthorization` | every job |',
      '| 8.0.5 to 11.11.0 | `jobRequirement` | every job |',
      '| 11.11.1 to 15.0.0 | `jobMatch` | every job (`DefaultJobService.isApplicable`: no job match, no check) |',
      '| 15.0.1 and later | `jobMatch` | no job (`ServerShellExecutor.isApplicable`; the field is required) |',
      '',
      'When the version cannot be read (OneDev before 10.2.0 has no version endpoint, a refusal, a snapshot that predates it), an empty `jobMatch` is judged',
      'to take every job, the reading that exposes more, and the report says so in a notice.',
      '',
      '## Fix',
      'In *Administration → Job Executors*, disable or delete the server shell executor and run jobs in containers (server Docker without the',
      'Docker socket, or a remote/Kubernetes executor). If it must stay, set its *Job Match* to named projects **and** protected branches,',
      'for example `"Project" is "infra/ops" and on branch "main"`.',
      '',
      '## Example',
      '```json',
      '{"@type": "ServerShellExecutor", "enabled": true, "name": "shell", "jobMatch": "on branch \\"main\\""}            // critical: any project\'s main',
      '{"@type": "ServerShellExecutor", "enabled": true, "name": "shell", "jobMatch": "\\"Project\\" is \\"ops\\" and on branch \\"main\\""}  // high',
      '{"@type": "ServerShellExecutor", "enabled": true, "name": "shell", "jobMatch": null}                         // critical on 11.11.1 to 15.0.0 (every job), fine from 15.0.1 (no job)',
      '```',
    ].join('\n'),
    tags: ['server', 'ci', 'executors'],
    scope: 'server',
    requires: ['/settings/job-executors'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const drafts: FindingDraft[] = []
    const release = serverRelease(context.model)
    for (const {executor, assessment} of enabledExecutors(jobExecutorsOf(context.model), SERVER_SHELL_EXECUTOR, release)) {
      if (assessment.reach === 'none') continue
      const restriction = describeRestriction(executor, assessment, context.model.server?.version)
      const broad = assessment.reach === 'any-job' || assessment.reach === 'broad'
      drafts.push({
        subject: executor.name,
        severity: broad ? 'critical' : 'high',
        message:
          `Server shell executor "${executor.name}" runs jobs as the OneDev process (every project's secrets, the database, the server's keys), and ${restriction}. ` +
          (broad
            ? 'In Administration > Job Executors disable it, or set its Job Match to named projects and protected branches.'
            : 'In Administration > Job Executors disable it and run these jobs in containers, or keep its Job Match this narrow.'),
        pointer: executor.jobMatchPointer,
        key: executor.pointer,
      })
    }
    return drafts
  },
})

