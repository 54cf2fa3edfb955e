/**
 * The one table of judgements that depend on the OneDev version (issue 32). Each entry says what it
 * decides, what OneDev does from which release on, read in OneDev's source at the tag, file and line
 * given, and which reading is judged when the version is unknown: the one that exposes more. Rules
 * and the helpers of src/onedev ask `readingAt` (given the server's version, or unknown) instead of
 * deciding by the payload's shape alone.
 *
 * The version is what GET {prefix}/version/server answered (src/model/server-version.ts, OneDev
 * 10.2.0 and later). It is unknown when the server does not offer it (an older OneDev), refused or
 * failed it, answered something that is no version, or the snapshot predates the audit reading it;
 * and, for one entry, when the server's version and its payload disagree (a version before the
 * release whose payload shape the entry reads: the shape is a fact, the version only a claim).
 * Whatever was judged by the unknown reading is said once per run (`assumedJudgements`, the notice
 * of src/engine/coverage.ts) and in the finding's own message.
 */
import {JOB_EXECUTORS_KEY, type JobExecutor, jobExecutorsOf} from '../model/admin-data.js'
import type {AuditModel} from '../model/types.js'

/** A OneDev release, `[major, minor, patch]`. */
export type Release = readonly [number, number, number]

/** `16.5.6` (a suffix such as `-SNAPSHOT` is ignored) → [16, 5, 6]; null when it does not read as a release. */
export function parseRelease(text: string | null | undefined): Release | null {
  const match = typeof text === 'string' ? /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:[-+.][0-9A-Za-z.+-]*)?$/.exec(text) : null
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null
}

export function compareReleases(a: Release, b: Release): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
}

/**
 * Two tags whose version is not their code's: a server built from them says a version it is not.
 * `git describe --tags v11.1.6~1` is v14.1.5-2-geeafd5409b and v14.1.6 is v11.1.6 plus a version bump
 * (v11.1.6 pom.xml:12 says 11.1.6); `git describe --tags v11.0.2~1` is v11.1.1-9-g4ae762d640 and
 * v11.1.2 is v11.0.2 plus a version bump (v11.0.2 pom.xml:12 says 11.0.2). Judged as the release
 * their code is.
 */
const MISNUMBERED: ReadonlyArray<{says: string; is: Release}> = [
  {says: '11.1.6', is: [14, 1, 6]},
  {says: '11.0.2', is: [11, 1, 2]},
]

/** The release the server said it is (a mis-numbered one as the release its code is); null when unknown (see the module comment). */
export function serverRelease(model: Pick<AuditModel, 'server'>): Release | null {
  return releaseOfVersion(model.server?.version)
}

/** The release a version text names (GET /version/server's answer), a mis-numbered one as the release its code is; null when it names none. */
export function releaseOfVersion(version: string | null | undefined): Release | null {
  const release = parseRelease(version)
  if (release === null) return null
  return MISNUMBERED.find((entry) => compareReleases(parseRelease(entry.says)!, release) === 0)?.is ?? release
}

/** What OneDev does from one release on, until the next reading's release. */
export interface VersionReading<R extends string> {
  reading: R
  /** The first release that reads it (`11.11.1`). */
  from: string
  /** What OneDev does, in words (`takes every job`). */
  means: string
  /** Where it was read: `tag path:line`. */
  source: string
}

export interface VersionJudgement<R extends string = string> {
  /** Stable id (`executor-empty-job-match`). */
  id: string
  /** What the entry decides, in words. */
  decides: string
  /** The readings in release order; the first one's release is the first the entry concerns (the payload shape it reads starts there). */
  readings: readonly VersionReading<R>[]
  /** The reading judged when the version is unknown: the one that exposes more. */
  whenUnknown: R
  /** Which subjects of the model this judgement decides (empty: none, so nothing was judged by it), for the notice. */
  subjects(model: Pick<AuditModel, 'serverData'> & Partial<Pick<AuditModel, 'projectsById'>>): string[]
}

/** Why the version did not decide a judgement: `unknown` (not read or not a version), or `disagrees` (it is before the release whose payload shape the entry reads). */
export type AssumedBecause = 'unknown' | 'disagrees'

export interface Reading<R extends string> {
  reading: R
  /** The readings' entry that applies (the unknown one's when assumed). */
  applied: VersionReading<R>
  /** null: the version decided; otherwise why the reading that exposes more was judged. */
  assumed: AssumedBecause | null
}

/** What `judgement` reads for `release` (null: unknown). */
export function readingAt<R extends string>(judgement: VersionJudgement<R>, release: Release | null): Reading<R> {
  const readings = judgement.readings
  const assumed = (because: AssumedBecause): Reading<R> => ({reading: judgement.whenUnknown, applied: readings.find((r) => r.reading === judgement.whenUnknown)!, assumed: because})
  if (release === null) return assumed('unknown')
  let applied: VersionReading<R> | undefined
  for (const reading of readings) if (compareReleases(release, parseRelease(reading.from)!) >= 0) applied = reading
  return applied ? {reading: applied.reading, applied, assumed: null} : assumed('disagrees')
}

/** `11.11.1 to 15.0.0`, `15.0.1 and later`: the releases a reading applies to. */
export function releasesOf<R extends string>(judgement: VersionJudgement<R>, reading: VersionReading<R>): string {
  const next = judgement.readings[judgement.readings.indexOf(reading) + 1]
  return next ? `${reading.from} to ${previousRelease(next.from)}` : `${reading.from} and later`
}

/** The release before `text` as the tables name it: `15.0.0` before 15.0.1, `10.8.x` before 10.9.0, `10.x` before 11.0.0. */
function previousRelease(text: string): string {
  const [major, minor, patch] = parseRelease(text)!
  if (patch > 0) return `${major}.${minor}.${patch - 1}`
  return minor > 0 ? `${major}.${minor - 1}.x` : `${major - 1}.x`
}

// ---------------------------------------------------------------- the table

export type EmptyJobMatchReading = 'any-job' | 'no-job'

/** The executor classes whose empty job match the version decides: ServerShellExecutor and its subclass RemoteShellExecutor. */
export const SHELL_EXECUTORS: readonly string[] = ['ServerShellExecutor', 'RemoteShellExecutor']

/** Whether the version decides which jobs this executor takes: a shell executor whose `jobMatch` (not an older key) is empty. */
export function emptyMatchDecidedByVersion(executor: Pick<JobExecutor, 'type' | 'jobMatchKey' | 'jobMatch'>): boolean {
  return SHELL_EXECUTORS.includes(executor.type) && executor.jobMatch === null && (executor.jobMatchKey === 'jobMatch' || executor.jobMatchKey === null)
}

/**
 * A server shell executor (or a remote shell executor, its subclass at every tag: v11.11.1
 * plugin/executor/remoteshell/RemoteShellExecutor.java:34, v15.0.1 :37) with no job match
 * (`jobMatch`, the key from 11.11.1). Before 11.11.1 the key was `jobRequirement` (8.0.5 to 11.11.0)
 * or `jobAuthorization` (to 8.0.4), whose emptiness means every job on every server: the shape's
 * own meaning, not the version's (executors.ts). The 15.0.1 upgrade writes `"Project" is "**"` into
 * every shell executor without a job match (v15.0.1 data/migration/DataMigrator.java:8611, migrate223),
 * so an empty one there was set through the REST interface since.
 */
export const EXECUTOR_EMPTY_JOB_MATCH: VersionJudgement<EmptyJobMatchReading> = {
  id: 'executor-empty-job-match',
  decides: 'which jobs a server (or remote) shell executor with an empty job match takes',
  readings: [
    {
      reading: 'any-job',
      from: '11.11.1',
      means: 'takes every job',
      source:
        'v11.11.1 server-core/src/main/java/io/onedev/server/job/DefaultJobManager.java:511,532 (isApplicable: `if (executor.getJobMatch() != null) … else return true`; ' +
        'JobExecutor.java:87 placeholder "Any job"); the same at v14.1.0 job/DefaultJobService.java:507,528 and v15.0.0 job/DefaultJobService.java:508,529',
    },
    {
      reading: 'no-job',
      from: '15.0.1',
      means: 'takes no job',
      source:
        'v15.0.1 server-plugin/server-plugin-executor-servershell/src/main/java/io/onedev/server/plugin/executor/servershell/ServerShellExecutor.java:108-113 ' +
        '(isApplicable: `if (jobMatch != null) … else return false`; :98 @NotEmpty), asked by job/DefaultJobService.java:499-525; the same at v16.5.6 ServerShellExecutor.java:109-114',
    },
  ],
  whenUnknown: 'any-job',
  subjects(model) {
    return (jobExecutorsOf(model) ?? [])
      .filter((e) => e.enabled && emptyMatchDecidedByVersion(e))
      .map((e) => `${e.type === 'ServerShellExecutor' ? 'server' : 'remote'} shell executor "${e.name}"`)
  },
}

export type DiscoveryReading = 'shell-discovered' | 'containers-only'

/**
 * No job executor defined: each build auto-discovers one, by order (server Docker when `docker version`
 * runs, then server shell, then Kubernetes; v11.7.0 job/DefaultJobManager.java:502-514). Up to
 * 11.11.0 a server shell executor is among them when OneDev does not run in Docker; 11.11.1 dropped it
 * ("Do not auto-discover shell executor for security reason", c3ee58f52d).
 */
export const NO_EXECUTOR_DISCOVERY: VersionJudgement<DiscoveryReading> = {
  id: 'no-executor-discovery',
  decides: 'which executor a build auto-discovers when no job executor is defined',
  readings: [
    {
      reading: 'shell-discovered',
      from: '8.0.0',
      means: 'may discover a server shell executor (OneDev not in Docker, and no Docker to run) that takes every job',
      source:
        'v8.0.0 server-plugin/server-plugin-executor-servershell/src/main/java/io/onedev/server/plugin/executor/servershell/ServerShellModule.java:24,39-51 ' +
        '(outside Docker, a JobExecutorDiscoverer returning a ServerShellExecutor); the same at v11.11.0 :24,39-51; used by v11.7.0 job/DefaultJobManager.java:502-514',
    },
    {
      reading: 'containers-only',
      from: '11.11.1',
      means: 'discovers only a server Docker or Kubernetes executor',
      source: 'v11.11.1 server-plugin/server-plugin-executor-servershell/src/main/java/io/onedev/server/plugin/executor/servershell/ServerShellModule.java:23 (no discoverer; c3ee58f52d)',
    },
  ],
  whenUnknown: 'shell-discovered',
  subjects(model) {
    // An empty list, not a list whose items could not be read.
    const raw = model.serverData?.[JOB_EXECUTORS_KEY]
    return Array.isArray(raw) && raw.length === 0 ? ['the empty job executor list'] : []
  },
}

export type EmptySecretAuthorizationReading = 'any-branch' | 'non-pull-request' | 'any-job'

/**
 * A job secret with an empty `authorization` (a job match, the key from 8.0.5; `authorizedBranches`
 * before, whose emptiness means every branch whatever the version). Servers before 10.2.0 have no
 * version endpoint: their reading is in the table for what it is, and judged when a version says it.
 */
export const JOB_SECRET_EMPTY_AUTHORIZATION: VersionJudgement<EmptySecretAuthorizationReading> = {
  id: 'job-secret-empty-authorization',
  decides: 'which builds a job secret with an empty authorization is handed to',
  readings: [
    {
      reading: 'any-branch',
      from: '8.0.5',
      means: 'is handed to builds on any branch (`on branch "**"`)',
      source: 'v8.0.5 server-core/src/main/java/io/onedev/server/job/JobAuthorizationContext.java:64-66 (null: `new BranchCriteria("**")`); v10.1.6 :64-66 (`OnBranchCriteria("**")`)',
    },
    {
      reading: 'non-pull-request',
      from: '10.2.0',
      means: 'is handed to every build that is not of a pull request (`non-pull-request commits`)',
      source: 'v10.2.0 server-core/src/main/java/io/onedev/server/job/JobAuthorizationContext.java:68-70 (null: `new NonPullRequestCommitsCriteria()`); v10.8.0 :84-86',
    },
    {
      reading: 'any-job',
      from: '10.9.0',
      means: 'is handed to every build, pull requests from forks included',
      source: 'v10.9.0 server-core/src/main/java/io/onedev/server/job/JobAuthorizationContext.java:84-86 (null: the value, no check); v16.5.6 :80-82',
    },
  ],
  whenUnknown: 'any-job',
  subjects(model) {
    const subjects: string[] = []
    for (const project of model.projectsById?.values() ?? []) {
      for (const secret of project.setting?.jobSecrets ?? []) {
        const authorization = secret.authorization
        if (authorization.kind === 'job-match' && (authorization.expression === null || authorization.expression.trim() === '')) subjects.push(`job secret "${secret.name}" of ${project.path}`)
      }
    }
    return subjects
  },
}

export type IssueFieldValuesReading = 'one-value' | 'lists'

/**
 * What notify may send as the value of an issue field (a new issue's or a transition's `fields`): on
 * 8.x one string per field, stored as one value, so `"alice,bob"` would be one user who does not exist;
 * from 10.0.0 a list is several values. notify refuses several values of one field up front where one
 * is read (src/onedev/issue-workflow.ts fieldsNotCarried); an unknown version (8.x and 10.0 to 10.1 do
 * not say theirs) is taken for one value: refusing writes nothing wrong. The notice of the audit's
 * checks never names it (no check depends on it): notify says it where it refuses.
 */
export const ISSUE_FIELD_VALUES: VersionJudgement<IssueFieldValuesReading> = {
  id: 'issue-field-values',
  decides: 'whether an issue field sent through the REST interface may hold several values',
  readings: [
    {
      reading: 'one-value',
      from: '8.0.0',
      means: 'reads one string per field (a Map<String, String>) and stores it as one value',
      source: 'v8.0.0 server-core/src/main/java/io/onedev/server/rest/IssueResource.java:394,455 (Map<String, String> fields; each entry one value :236-247)',
    },
    {
      reading: 'lists',
      from: '10.0.0',
      means: 'reads a list as several values (a Map<String, Serializable>)',
      source: 'v10.0.0 server-core/src/main/java/io/onedev/server/rest/resource/IssueResource.java:430,504 (read at :396-400); v16.5.6 :543,618',
    },
  ],
  whenUnknown: 'one-value',
  subjects() {
    return []
  },
}

/** Every version-dependent judgement, in the order the notice lists them. */
export const VERSION_JUDGEMENTS: readonly VersionJudgement[] = [EXECUTOR_EMPTY_JOB_MATCH, NO_EXECUTOR_DISCOVERY, JOB_SECRET_EMPTY_AUTHORIZATION, ISSUE_FIELD_VALUES]

export interface AssumedJudgement {
  judgement: VersionJudgement
  because: AssumedBecause
  /** What the reading that exposes more was judged for (`server shell executor "shell"`). */
  subjects: string[]
}

/** The judgements this model's version did not decide and that concern something in it: each judged by the reading that exposes more. */
export function assumedJudgements(model: Pick<AuditModel, 'server' | 'serverData'> & Partial<Pick<AuditModel, 'projectsById'>>): AssumedJudgement[] {
  const release = serverRelease(model)
  return VERSION_JUDGEMENTS.flatMap((judgement) => {
    const {assumed} = readingAt(judgement, release)
    if (assumed === null) return []
    const subjects = judgement.subjects(model)
    return subjects.length === 0 ? [] : [{judgement, because: assumed, subjects}]
  })
}
