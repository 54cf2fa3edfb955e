/**
 * Enabled remote shell executors whose job match admits jobs nobody vetted: their jobs run on the
 * agent's machine as the agent's user, without isolation.
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {jobExecutorsOf} from '../../src/model/admin-data.js'
import {admitsUntrustedJobs, REMOTE_SHELL_EXECUTOR} from '../../src/onedev/executor-settings.js'
import {enabledExecutors} from '../../src/onedev/executors.js'
import {serverRelease} from '../../src/onedev/versions.js'
import {describeRestriction, EXECUTORS_UI} from '../support/executor-findings.js'

export default defineRule({
  meta: {
    id: 'server/remote-shell-executor-broad',
    shortDescription: 'A remote shell executor runs jobs of any project or branch on its agents, unisolated',
    fullDescription:
      "Reports enabled remote shell executors whose job match admits jobs of projects it does not name or of any branch. Their jobs run on the agent's " +
      "machine, as the agent's own user, with no container around them: a job can read the agent's token and change what later jobs on that machine run. " +
      'An empty job match admits no job since 15.0.1 and every job before (as for a server shell executor).',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'A remote shell executor sends each job to one of its agents, which runs the commands with its own shell, as its own user',
      '(v16.5.6 RemoteShellExecutor.java:71–107). Nothing separates the job from the agent: it can read the agent\'s configuration and token',
      '(with which anyone can connect a machine of their own as that agent and receive jobs and their secrets), the work and cache directories',
      'of other jobs, and leave files or processes that change what later jobs on that machine do. A job is whatever the build spec of the commit',
      'says, so a job match such as `on branch "main"` (any project\'s `main`) or `"Project" is "ops"` (any branch of it, including one anyone',
      'with write access creates) hands all that to those people.',
      '',
      'An empty job match: a remote shell executor is a server shell executor (a subclass), which since 15.0.1 admits no job without one',
      '(v16.5.6 ServerShellExecutor.java:109–114; 15.0.1 filled empty ones with `"Project" is "**"`, which admits every project); on 11.11.1 –',
      '15.0.0 (v15.0.0 DefaultJobService.java:508–530), and with the older job requirement or job authorization, it admits every job.',
      '',
      '## Fix',
      'In *Administration → Job Executors*, set the executor\'s *Job Match* to named projects **and** protected branches, for example',
      '`"Project" is "infra/ops" and on branch "main"`, or run these jobs with a remote Docker executor, whose containers keep them apart.',
      '',
      '## Example',
      '```json',
      '{"@type": "RemoteShellExecutor", "enabled": true, "name": "builders", "jobMatch": "on branch \\"main\\""}                          // reported',
      '{"@type": "RemoteShellExecutor", "enabled": true, "name": "builders", "jobMatch": "\\"Project\\" is \\"ops\\" and on branch \\"main\\""}  // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'ci', 'executors'],
    scope: 'server',
    requires: ['/settings/job-executors'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const drafts: FindingDraft[] = []
    for (const {executor, assessment} of enabledExecutors(jobExecutorsOf(context.model), REMOTE_SHELL_EXECUTOR, serverRelease(context.model))) {
      if (!admitsUntrustedJobs(assessment)) continue
      drafts.push({
        subject: executor.name,
        message:
          `Remote shell executor "${executor.name}" runs jobs on its agents as the agent's own user, with no container, and ${describeRestriction(executor, assessment, context.model.server?.version)}: ` +
          "such a job can read the agent's token and change what later jobs on that machine run. " +
          `In ${EXECUTORS_UI} set its Job Match to named projects and protected branches, or run these jobs with a remote Docker executor.`,
        pointer: executor.jobMatchPointer,
      })
    }
    return drafts
  },
})
