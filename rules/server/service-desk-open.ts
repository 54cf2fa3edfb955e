/**
 * The service desk turns mail from anyone into issues in projects it does not name, and the issues
 * it opens are not confidential (src/onedev/mail.ts).
 */
import {defineRule} from '../../src/engine/rule.js'
import {serviceDeskOf} from '../../src/model/mail-data.js'
import {memberPointer} from '../../src/model/pointer.js'
import {openServiceDeskEntry} from '../../src/onedev/mail.js'

export default defineRule({
  meta: {
    id: 'server/service-desk-open',
    shortDescription: 'The service desk opens non-confidential issues in any project from anyone\'s mail',
    fullDescription:
      'Reports an enabled service desk whose issue creation entry that applies to projects it does not name (empty *Applicable Projects*, or a ' +
      'pattern such as `**`) creates issues that are not confidential. OneDev opens an issue from any mail sent to `system+<project path>@…` ' +
      '(or to a project\'s service desk address), from anyone, account or not; the first entry matching the project decides whether it is confidential. ' +
      'On OneDev up to 11.5.0 a sender without an account also needs a sender authorization for the project: the check applies when the first ' +
      'one for any sender covers every project.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'Whoever knows the system address and a project\'s path (or guesses it) opens issues in that project, internal ones included. The issue is',
      'visible to everyone who can read the project\'s issues, and OneDev itself mails it to the project\'s watchers: a ready-made channel for',
      'phishing links and spam that arrives from OneDev\'s own address. Non-confidential issues also show what outsiders wrote to whoever reads the project.',
      '',
      '## Fix',
      'In OneDev open *Administration → Service Desk Settings*: give each issue creation entry *Applicable Projects* that name the projects meant',
      'to take mail from outsiders (for example `support/**`), keep *Confidential* checked, and remove any entry without applicable projects; or',
      'turn the service desk off (*Enable*) when no project needs it.',
      '',
      '## In OneDev\'s source',
      '- v16.5.6 `server-core/src/main/java/io/onedev/server/rest/resource/SettingResource.java:135-142` (`GET /settings/service-desk`; null when not enabled).',
      '- v16.5.6 `server-core/src/main/java/io/onedev/server/model/support/administration/ServiceDeskSetting.java:54-66` (first entry matching the project),',
      '  `IssueCreationSetting.java:28-32` (`confidential` defaults to true from 11.5.1);',
      '  `server-core/src/main/java/io/onedev/server/mail/DefaultMailService.java:285-294`, `:460-470`, `:773-785` (any sender; the entry decides confidentiality).',
      '- v8.0.0 `server-core/src/main/java/io/onedev/server/model/support/administration/ServiceDeskSetting.java:83-131` (sender authorizations, entries by sender and project),',
      '  `SenderAuthorization.java:82-86`, `server-core/src/main/java/io/onedev/server/mail/DefaultMailManager.java:362-370`, `:506-520`.',
      '',
      '## Example',
      '```json',
      '{"issueCreationSettings": [{"applicableProjects": null, "confidential": false, "issueFields": []}]}        // reported',
      '{"issueCreationSettings": [{"applicableProjects": "support", "confidential": true, "issueFields": []}]}    // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'mail', 'issues'],
    scope: 'server',
    requires: ['/settings/service-desk'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const desk = serviceDeskOf(context.model)
    if (!desk) return []
    const entry = openServiceDeskEntry(desk)
    if (!entry) return []
    const projects = entry.applicableProjects === null ? 'any project' : `projects "${entry.applicableProjects}"`
    return [
      {
        subject: `service desk entry for ${projects}`,
        message:
          `The service desk entry for ${projects} applies to every project no earlier entry names and opens issues that are not confidential: ` +
          'anyone who mails system+<project path>@… opens an issue that everyone who reads that project\'s issues sees and its watchers are mailed. ' +
          'In Administration > Service Desk Settings, limit Applicable Projects to the projects that take mail from outsiders and keep Confidential checked.',
        pointer: memberPointer(context.model.serverData, entry.pointer, 'confidential'),
        key: `${entry.senderEmails ?? '*'} ${entry.applicableProjects ?? '**'}`,
      },
    ]
  },
})
