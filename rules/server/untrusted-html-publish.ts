/**
 * Enabled executors that let untrusted jobs publish HTML reports or sites, which OneDev serves as
 * they are, from its own origin.
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {jobExecutorsOf} from '../../src/model/admin-data.js'
import {admitsUntrustedJobs, publishingAllowed} from '../../src/onedev/executor-settings.js'
import {executorReach} from '../../src/onedev/executors.js'
import {serverRelease} from '../../src/onedev/versions.js'
import {describeRestriction, EXECUTORS_UI} from '../support/executor-findings.js'

export default defineRule({
  meta: {
    id: 'server/untrusted-html-publish',
    shortDescription: 'An executor lets jobs of any project or branch publish pages OneDev serves as they are',
    fullDescription:
      'Reports enabled job executors with Enable Html Report Publish or Enable Site Publish whose job match admits jobs of projects it does not name or ' +
      "of any branch. OneDev serves the published files as they are, from its own origin: a page with a script runs in the session of whoever opens it.",
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'The *Publish HTML Report* and *Publish Site* steps only run on an executor that allows them (v16.5.6 PublishHtmlReportStep.java:60,',
      'PublishSiteStep.java:98), and OneDev says why: "OneDev will serve project site files as is. To avoid XSS attack, make sure this executor',
      'can only be used by trusted jobs" (JobExecutor.java:62–73; site publishing since 8.0 and before, HTML reports since 10.0.0). A job is',
      'whatever the build spec of the commit says, so whoever can push a branch whose jobs the executor takes can publish a page whose script',
      'runs, on OneDev\'s own origin, with the session of anyone who opens it: an administrator who follows a link acts for the attacker.',
      '',
      '## Fix',
      'In *Administration → Job Executors*, edit the executor and clear *Enable Html Report Publish* and *Enable Site Publish* (under',
      '*Security Settings*), or set its *Job Match* to trusted projects and protected branches, for example',
      '`"Project" is "docs" and on branch "main"`, and keep the publishing jobs on it.',
      '',
      '## Example',
      '```json',
      '{"@type": "ServerDockerExecutor", "enabled": true, "name": "docker", "htmlReportPublishEnabled": true, "jobMatch": null}   // reported',
      '{"@type": "ServerDockerExecutor", "enabled": true, "name": "docs", "sitePublishEnabled": true,',
      ' "jobMatch": "\\"Project\\" is \\"docs\\" and on branch \\"main\\""}                                                          // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'ci', 'executors', 'xss'],
    scope: 'server',
    requires: ['/settings/job-executors'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const drafts: FindingDraft[] = []
    const release = serverRelease(context.model)
    for (const executor of jobExecutorsOf(context.model) ?? []) {
      if (!executor.enabled) continue
      const allowed = publishingAllowed(executor)
      if (allowed.length === 0) continue
      const assessment = executorReach(executor, release)
      if (!admitsUntrustedJobs(assessment)) continue
      drafts.push({
        subject: executor.name,
        message:
          `Job executor "${executor.name}" has ${allowed.join(' and ')} on, and ${describeRestriction(executor, assessment, context.model.server?.version)}: ` +
          "such a job can publish a page with a script that OneDev serves as it is and that runs in the session of whoever opens it, administrators included. " +
          `In ${EXECUTORS_UI} clear ${allowed.join(' and ')}, or set its Job Match to trusted projects and protected branches.`,
        pointer: `${executor.pointer}/${executor.htmlReportPublishEnabled ? 'htmlReportPublishEnabled' : 'sitePublishEnabled'}`,
      })
    }
    return drafts
  },
})
