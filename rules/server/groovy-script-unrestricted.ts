/**
 * Groovy scripts that any build job may call: they run inside the OneDev server
 * (onedev-access-reference.md §3.2, §9 item 12).
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {groovyScriptsOf} from '../../src/model/admin-data.js'
import {memberPointer} from '../../src/model/pointer.js'
import {groovyScriptReach} from '../../src/onedev/executors.js'

export default defineRule({
  meta: {
    id: 'server/groovy-script-unrestricted',
    shortDescription: 'A groovy script may be used by every build job',
    fullDescription:
      'Reports groovy scripts that build jobs may use (*Can Be Used By Jobs*, on by default) with no job authorization. Scripts run inside the OneDev server ' +
      'with its privileges; whatever a script does (and whatever credentials its content holds), any job of any project and branch can trigger it.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'A groovy script runs in the OneDev JVM. Scripts are written by administrators, but with an empty job authorization any build spec can call',
      'one (for example in a job\'s parameter or a step): a script that deploys, tags, or reads a credential does so for a job on a branch',
      'anyone with write access created.',
      '',
      '## Fix',
      'In *Administration → Groovy Scripts* edit the script: clear *Can Be Used By Jobs* when jobs do not need it, or set *Job Authorization* to the jobs that do,',
      'for example `"Project" is "ops" and on branch "main"`.',
      '',
      '## Example',
      '```json',
      '{"name": "deploy", "canBeUsedByBuildJobs": true, "jobAuthorization": null}                   // reported',
      '{"name": "deploy", "canBeUsedByBuildJobs": true, "jobAuthorization": "on branch \\"main\\""}   // fine for this rule',
      '{"name": "report", "canBeUsedByBuildJobs": false, "jobAuthorization": null}                  // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'ci'],
    scope: 'server',
    requires: ['/settings/groovy-scripts'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const drafts: FindingDraft[] = []
    for (const script of groovyScriptsOf(context.model) ?? []) {
      // Unrestricted: no job authorization (`jobAuthorization`, `authorization` before 15.0), or up to 8.0.4 neither allowed projects nor branches.
      if (groovyScriptReach(script).reach !== 'any-job') continue
      drafts.push({
        subject: script.name,
        message:
          `Groovy script "${script.name}" may be used by every build job (no job authorization): it runs inside the OneDev server for any job of any project and branch. ` +
          'In Administration > Groovy Scripts clear Can Be Used By Jobs, or set its Job Authorization.',
        pointer: memberPointer(context.model.serverData, script.pointer, script.authorizationKey ?? 'jobAuthorization'),
        key: script.pointer,
      })
    }
    return drafts
  },
})
