/**
 * Shared wording for the job executor rules (rules/server): how a message names an executor, the
 * options it found, and what they give a job. The judgements are in src/onedev/executors.ts,
 * src/onedev/executor-settings.ts and src/onedev/docker-options.ts.
 */
import type {JobExecutor} from '../../src/model/admin-data.js'
import type {DockerRiskKind} from '../../src/onedev/docker-options.js'
import {describeReach, type JobReachAssessment} from '../../src/onedev/executors.js'
import {EXECUTOR_EMPTY_JOB_MATCH, releasesOf} from '../../src/onedev/versions.js'

/** Where the executors are changed in OneDev's UI. */
export const EXECUTORS_UI = 'Administration > Job Executors'

/** "`--privileged`, `--network host` and 2 more": the options found, each once, for a message. */
export function optionList(options: readonly string[], max = 5): string {
  const distinct = [...new Set(options)]
  const shown = distinct.slice(0, max).map((o) => `\`${o}\``)
  const more = distinct.length - shown.length
  if (more > 0) return `${shown.join(', ')} and ${more} more`
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
}

/** Options that make a job root on the machine that runs its container. */
const ROOT: ReadonlySet<DockerRiskKind> = new Set(['privileged', 'capability', 'docker-socket'])

/** What the options found give a job of `machine` ("the OneDev server"): root, or the host's namespaces and no confinement. */
export function dockerEffect(kinds: Iterable<DockerRiskKind>, machine: string): string {
  const found = new Set(kinds)
  if ([...found].some((kind) => ROOT.has(kind))) return `gets root on ${machine}`
  const parts: string[] = []
  if (found.has('host-namespace')) parts.push(`shares namespaces with ${machine}`)
  if (found.has('unconfined')) parts.push(`runs without the kernel confinement that stops container escapes`)
  return parts.join(' and ')
}

/**
 * What an executor's job restriction lets through, for a message: "its jobMatch `on branch "main"`
 * admits jobs of projects it does not name", or that it is empty and how that was read (by the key's
 * own meaning, by the server's version, or by the reading that exposes more: versions.ts).
 */
export function describeRestriction(executor: Pick<JobExecutor, 'jobMatch' | 'jobMatchKey'>, assessment: JobReachAssessment, version: string | null | undefined): string {
  return executor.jobMatch === null
    ? `its ${executor.jobMatchKey ?? 'job match'} is empty, ${emptyMatchReading(assessment, version)}`
    : `its ${executor.jobMatchKey} \`${executor.jobMatch}\` admits ${describeReach(assessment)}`
}

/** How an empty job match was read: by the key's own meaning (before 11.11.1), by the server's version, or by the reading that exposes more. */
function emptyMatchReading(assessment: JobReachAssessment, version: string | null | undefined): string {
  const byVersion = assessment.byVersion
  if (!byVersion) return 'which this server reads as every job'
  const newest = EXECUTOR_EMPTY_JOB_MATCH.readings.at(-1)!
  const as = `as OneDev ${releasesOf(EXECUTOR_EMPTY_JOB_MATCH, byVersion.applied)} reads it: every job (from ${newest.from} it ${newest.means})`
  if (byVersion.assumed === null) return `which OneDev ${version} reads as every job (${releasesOf(EXECUTOR_EMPTY_JOB_MATCH, byVersion.applied)} do; from ${newest.from} it ${newest.means})`
  if (byVersion.assumed === 'disagrees') return `and the server says it is OneDev ${version}, which has no jobMatch yet (from ${EXECUTOR_EMPTY_JOB_MATCH.readings[0]!.from}): judged ${as}`
  return `and the server's version is unknown: judged ${as}`
}

