/**
 * Roles that may run or manage every job. Whoever runs a job gets the job secrets its
 * authorization admits; `manageBuilds` implies `ManageJob` on `*` (reference §4).
 */
import {jobPrivilegeKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {jobNamesMatchEveryJob as matchesEveryJob} from '../../src/onedev/job-match.js'
import {memberPointer} from '../../src/onedev/url.js'
import {holdingNote} from '../support/access-findings.js'

export default defineRule({
  meta: {
    id: 'role/broad-job-privilege',
    shortDescription: 'A role may run or manage every job',
    fullDescription:
      'Reports job privileges with `manageJob` or `runJob` on job names that match every job (`*`, `**`, an exclusion-only set such as `-deploy`, or empty), and roles with `manageBuilds`, which implies managing every job. ' +
      'Running a job hands it the job secrets its authorization admits, so a role that can run any job can reach, for example, a deploy job and its credentials.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'A user who can run a job (manually, with parameters they choose) on a branch a secret admits gets that secret into the job.',
      'With job names `*` the role can run deployment and release jobs, not just CI. OneDev\'s built-in *Code Writer* role has',
      '`runJob` on `*`, so this rule reports it unless it is narrowed.',
      '',
      '## Fix',
      'In OneDev open *Administration → Role Management*, edit the role\'s *Job Privileges* and list only the jobs the role needs',
      '(for example `ci test`), or clear *Run Job* / *Manage Job*; clear *Build Management* unless the role really administers builds.',
      '',
      '## Example',
      '```json',
      '{"jobNames": "*", "runJob": true}            // reported',
      '{"jobNames": "ci test", "runJob": true}      // fine',
      '{"jobNames": "*", "accessLog": true}         // fine: no run or manage',
      '```',
    ].join('\n'),
    tags: ['access-control', 'ci', 'secrets'],
    scope: 'role',
  },
  check(context) {
    if (context.scope !== 'role') return []
    const {role} = context
    // manageProject implies everything; role/over-privileged judges it.
    if (role.manageProject) return []
    const drafts: FindingDraft[] = []
    const held = holdingNote(context.facts.roleHoldings, role, 'medium')
    if (role.manageBuilds) {
      drafts.push({
        subject: role.name,
        message: `Role "${role.name}" has Build Management, which implies managing (and running) every job: the jobs get the secrets their authorizations admit. Clear it unless the role administers builds.${held.text}`,
        ...held.severity,
        pointer: memberPointer(role.raw, '', 'manageBuilds'),
        key: 'manageBuilds',
      })
    }
    for (const privilege of role.jobPrivileges) {
      if (!(privilege.manageJob || privilege.runJob) || !matchesEveryJob(privilege.jobNames)) continue
      const flag = privilege.manageJob ? 'manageJob' : 'runJob'
      const names = privilege.jobNames === null || privilege.jobNames.trim() === '' ? 'no job names (every job)' : `job names "${privilege.jobNames}"`
      drafts.push({
        subject: role.name,
        message:
          `Role "${role.name}" may ${privilege.manageJob ? 'manage and run' : 'run'} every job (${names}): running a job hands it the secrets its authorization admits. ` +
          'List only the jobs the role needs.' +
          held.text,
        pointer: memberPointer(role.raw, privilege.pointer, flag),
        ...held.severity,
        key: jobPrivilegeKey(privilege),
      })
    }
    return drafts
  },
})
