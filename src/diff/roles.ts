/**
 * Roles compared by what they grant: each privilege flag, code and package access, and for each job
 * capability (manage, run, logs, pipeline) which jobs it reaches. Job privileges are a set: their
 * order is no change.
 */
import type {JobPrivilege, Role} from '../model/types.js'
import {jobNamesMatchEveryJob} from '../onedev/job-match.js'
import {tryParsePatternSet} from '../onedev/pattern-set.js'
import {type Change, change, classify} from './change.js'

const FLAGS: {key: keyof Role; label: string; ruleId: string}[] = [
  {key: 'manageProject', label: 'Project Management', ruleId: 'role/over-privileged'},
  {key: 'createChildren', label: 'Create Child Projects', ruleId: 'role/over-privileged'},
  {key: 'managePullRequests', label: 'Pull Request Management', ruleId: 'role/over-privileged'},
  {key: 'manageCodeComments', label: 'Code Comment Management', ruleId: 'role/over-privileged'},
  {key: 'manageIssues', label: 'Issue Management', ruleId: 'role/over-privileged'},
  {key: 'accessConfidentialIssues', label: 'Access Confidential Issues', ruleId: 'role/confidential-issue-access'},
  {key: 'scheduleIssues', label: 'Schedule Issues', ruleId: 'role/over-privileged'},
  {key: 'manageBuilds', label: 'Build Management', ruleId: 'role/broad-job-privilege'},
]

const LEVELS = ['NONE', 'READ', 'WRITE']

const CAPABILITIES: {key: 'manageJob' | 'runJob' | 'accessLog' | 'accessPipeline'; label: string}[] = [
  {key: 'manageJob', label: 'manage jobs'},
  {key: 'runJob', label: 'run jobs'},
  {key: 'accessLog', label: 'read job logs'},
  {key: 'accessPipeline', label: 'see job pipelines'},
]

const EVERY_JOB = '*'

/**
 * The job patterns a capability reaches, sorted: ['*'] for every job; a pattern set with excludes
 * (or one that does not parse) stays whole, as its text.
 */
function reach(privileges: JobPrivilege[], key: (typeof CAPABILITIES)[number]['key']): string[] {
  const granting = privileges.filter((p) => p[key])
  if (granting.some((p) => jobNamesMatchEveryJob(p.jobNames))) return [EVERY_JOB]
  const patterns = new Set<string>()
  for (const privilege of granting) {
    const set = tryParsePatternSet(privilege.jobNames)
    if (!set || set.excludes.length > 0) patterns.add(privilege.jobNames ?? '')
    else for (const include of set.includes) patterns.add(include)
  }
  return [...patterns].sort()
}

const jobsText = (patterns: string[]) => (patterns.length === 0 ? 'no jobs' : patterns[0] === EVERY_JOB && patterns.length === 1 ? 'every job' : patterns.map((p) => `"${p}"`).join(', '))

export function compareRoles(before: Role, after: Role): Change[] {
  const role = {id: after.id, name: after.name}
  const out: Change[] = []
  const base = {kind: 'role' as const, role, subject: after.name, change: 'changed' as const}
  if (before.name !== after.name) {
    out.push(change({...base, change: 'renamed', classification: 'neutral', aspect: 'name', before: before.name, after: after.name, message: `Role "${before.name}" renamed to "${after.name}".`}))
  }
  for (const {key, label, ruleId} of FLAGS) {
    const was = before[key] === true
    const is = after[key] === true
    if (was === is) continue
    out.push(
      change({
        ...base,
        classification: is ? 'weakened' : 'strengthened',
        ruleId,
        aspect: label,
        before: was ? 'granted' : 'not granted',
        after: is ? 'granted' : 'not granted',
        message: `Role "${after.name}" ${is ? 'gained' : 'lost'} ${label}.`,
      }),
    )
  }
  for (const [key, label] of [['codePrivilege', 'code access'], ['packPrivilege', 'package access']] as const) {
    const was = before[key]
    const is = after[key]
    // An absent value (the contract's role shape omits it) is unknown, not a change.
    if (was === null || is === null || was === is) continue
    const rank = (level: string) => LEVELS.indexOf(level.toUpperCase())
    out.push(
      change({
        ...base,
        classification: classify(rank(is) > rank(was), rank(is) < rank(was)),
        ruleId: 'role/over-privileged',
        aspect: label,
        before: was,
        after: is,
        message: `Role "${after.name}": ${label} ${was} -> ${is}.`,
      }),
    )
  }
  for (const {key, label} of CAPABILITIES) {
    const was = reach(before.jobPrivileges, key)
    const is = reach(after.jobPrivileges, key)
    if (was.join('\n') === is.join('\n')) continue
    const everyBefore = was.includes(EVERY_JOB)
    const everyAfter = is.includes(EVERY_JOB)
    const gained = !everyBefore && (everyAfter || is.some((p) => !was.includes(p)))
    const lost = !everyAfter && (everyBefore || was.some((p) => !is.includes(p)))
    const classification = classify(gained, lost)
    const verb = gained && !lost ? 'widened' : lost && !gained ? 'narrowed' : 'changed'
    out.push(
      change({
        ...base,
        classification,
        ruleId: 'role/broad-job-privilege',
        aspect: `job privilege: ${label}`,
        before: jobsText(was),
        after: jobsText(is),
        message: `Role "${after.name}": may ${label} ${verb}: ${jobsText(was)} -> ${jobsText(is)}.`,
      }),
    )
  }
  return out
}
