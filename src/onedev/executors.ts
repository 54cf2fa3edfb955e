/**
 * Which jobs a job executor or a groovy script admits (onedev-access-reference.md §3.2), from its job
 * restriction as the server that sent it reads it:
 *
 * - `jobMatch` (v11.11.1+): null admits any job on every executor but a server or remote shell executor, where
 *   the version decides (versions.ts EXECUTOR_EMPTY_JOB_MATCH): every job from 11.11.1 to 15.0.0, no
 *   job from 15.0.1 ("Jobs running with this executor has same privilege as OneDev process"), every
 *   job when the version is unknown (the reading that exposes more);
 * - `jobRequirement` (v8.0.5 to v11.11.0) and `jobAuthorization` (up to v8.0.4): null admits any job;
 * - otherwise a job-match expression (job-match.ts): it admits jobs of any project when a project it
 *   does not name may satisfy it, and jobs of any branch when a branch anyone with write access can
 *   create may satisfy it. "Scoped" means neither.
 */
import type {GroovyScript, JobExecutor} from '../model/admin-data.js'
import {admitsArbitraryBranch, admitsArbitraryProject, type JobMatchExpression, parseJobMatch} from './job-match.js'
import {type Matcher, pathMatcher} from './matchers.js'
import {matchesArbitraryNames, parsePatternSet} from './pattern-set.js'
import {EXECUTOR_EMPTY_JOB_MATCH, emptyMatchDecidedByVersion, type EmptyJobMatchReading, type Reading, readingAt, type Release} from './versions.js'

export type JobReach =
  /** admits no job at all (a server shell executor with no job match from 15.0.1, a groovy script build jobs may not use) */
  | 'none'
  /** no restriction: every job of every project and branch */
  | 'any-job'
  /** a restriction that still admits jobs of any project or of any branch */
  | 'broad'
  /** restricted both to named projects and to branches a writer cannot freely create */
  | 'scoped'
  /** the text does not parse as a job match */
  | 'invalid'

export interface JobReachAssessment {
  reach: JobReach
  /** Some project the restriction does not name may run jobs on it (any-job included). */
  anyProject: boolean
  /** Jobs of a branch anyone with write access can create may run on it (any-job included). */
  anyBranch: boolean
  /** When the server's version decided it (a server shell executor's empty job match): the reading of versions.ts, assumed or not. */
  byVersion?: Reading<EmptyJobMatchReading>
}

export const SERVER_SHELL_EXECUTOR = 'ServerShellExecutor'
export const SERVER_DOCKER_EXECUTOR = 'ServerDockerExecutor'

/** Judges a job-match text; null (no restriction) is judged by the caller. */
export function assessJobMatchText(text: string): JobReachAssessment {
  let expression: JobMatchExpression
  try {
    expression = parseJobMatch(text)
  } catch {
    return {reach: 'invalid', anyProject: false, anyBranch: false}
  }
  const anyProject = admitsArbitraryProject(expression)
  const anyBranch = admitsArbitraryBranch(expression)
  return {reach: anyProject || anyBranch ? 'broad' : 'scoped', anyProject, anyBranch}
}

const ANY_JOB: JobReachAssessment = {reach: 'any-job', anyProject: true, anyBranch: true}
const NO_JOB: JobReachAssessment = {reach: 'none', anyProject: false, anyBranch: false}

/** The enabled executors of one type (e.g. ServerShellExecutor), each with the jobs it takes on the server's release (null: unknown). */
export function enabledExecutors(executors: readonly JobExecutor[] | undefined, type: string, release: Release | null): Array<{executor: JobExecutor; assessment: JobReachAssessment}> {
  return (executors ?? []).filter((executor) => executor.type === type && executor.enabled).map((executor) => ({executor, assessment: executorReach(executor, release)}))
}

/** Which jobs an executor takes on the server's release (null: unknown, judged by the reading that exposes more). */
export function executorReach(executor: Pick<JobExecutor, 'type' | 'jobMatchKey' | 'jobMatch'>, release: Release | null): JobReachAssessment {
  if (executor.jobMatch !== null) return assessJobMatchText(executor.jobMatch)
  // An empty jobRequirement or jobAuthorization (before 11.11.1), and an empty jobMatch of any other executor: every job.
  if (!emptyMatchDecidedByVersion(executor)) return ANY_JOB
  const byVersion = readingAt(EXECUTOR_EMPTY_JOB_MATCH, release)
  return {...(byVersion.reading === 'no-job' ? NO_JOB : ANY_JOB), byVersion}
}

/**
 * Which build jobs may call a groovy script ('none' when build jobs may not use it at all): by its job
 * authorization, or, up to 8.0.4, by its allowed projects and branches (pattern sets, null = all).
 */
export function groovyScriptReach(script: Pick<GroovyScript, 'canBeUsedByBuildJobs' | 'jobAuthorization'> & Partial<Pick<GroovyScript, 'allowed'>>): JobReachAssessment {
  if (!script.canBeUsedByBuildJobs) return NO_JOB
  if (script.allowed) {
    const arbitrary = (text: string | null, matcher: Matcher) => text === null || matchesArbitraryNames(parsePatternSet(text), matcher)
    const anyProject = arbitrary(script.allowed.projects, pathMatcher)
    const anyBranch = arbitrary(script.allowed.branches, pathMatcher)
    return anyProject && anyBranch ? ANY_JOB : {reach: anyProject || anyBranch ? 'broad' : 'scoped', anyProject, anyBranch}
  }
  return script.jobAuthorization === null ? ANY_JOB : assessJobMatchText(script.jobAuthorization)
}

/** In words, for messages: what the restriction lets through. */
export function describeReach(assessment: JobReachAssessment): string {
  switch (assessment.reach) {
    case 'none':
      return 'no job'
    case 'any-job':
      return 'every job of every project and branch'
    case 'broad':
      return assessment.anyProject && assessment.anyBranch
        ? 'jobs of projects it does not name, on any branch'
        : assessment.anyProject
          ? 'jobs of projects it does not name'
          : 'jobs of any branch, including branches anyone with write access can create'
    case 'scoped':
      return 'only jobs of the projects and branches it names'
    case 'invalid':
      return 'an expression OneDev cannot parse'
  }
}
