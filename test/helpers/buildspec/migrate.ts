/**
 * OneDev's own migrations of a build spec from version 39 to 53 (theonedev/onedev v16.5.6,
 * server-core/src/main/java/io/onedev/server/buildspec/BuildSpec.java; `MigrationHelper.migrate` runs
 * every `migrateN` after the spec's `version`, in order), replayed on the parsed YAML so that a build
 * spec written for an older release is judged at a newer one as that release reads it.
 *
 * Each migration is replayed as far as the build specs under examples/ need it, line by line after the
 * source (the lines are cited); where a migration would change something this replay does not carry out
 * (a step type it rewrites, a value it would have to compute with code not replayed here), it throws
 * `NotReplayed` naming the migration and what it met: the check then fails instead of judging a spec
 * OneDev would have changed. Versions before 39 are not replayed at all.
 */
export const BUILD_SPEC_SOURCE = 'v16.5.6 server-core/src/main/java/io/onedev/server/buildspec/BuildSpec.java'

/** Marks a mapping whose class is named by a YAML tag (`!CommandStep`), as specs before version 42 write it; `type` holds the name either way. */
export const TAGGED = Symbol('named by a YAML tag')

export type YamlNode = Record<string, unknown> & {[TAGGED]?: true}

export class NotReplayed extends Error {
  constructor(migration: number, what: string) {
    super(`migrate${migration} (${BUILD_SPEC_SOURCE}) would change ${what}, which this replay does not carry out`)
    this.name = 'NotReplayed'
  }
}

export const FIRST_REPLAYED = 39
export const LAST_REPLAYED = 53

const isNode = (value: unknown): value is YamlNode => typeof value === 'object' && value !== null && !Array.isArray(value)
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const nodes = (value: unknown): YamlNode[] => list(value).filter(isNode)
const jobsOf = (doc: YamlNode) => nodes(doc.jobs)

/** `migrateSteps` (BuildSpec.java:1863-1889): the steps of every job and of every step template. */
function stepLists(doc: YamlNode): unknown[][] {
  return [...jobsOf(doc), ...nodes(doc.stepTemplates)].filter((owner) => Array.isArray(owner.steps)).map((owner) => owner.steps as unknown[])
}
const allSteps = (doc: YamlNode) => stepLists(doc).flatMap(nodes)

/** `getStepType` (BuildSpec.java:2467-2473): the `type` key, which exists from migrate42 on. */
const stepType = (step: YamlNode): string | undefined => (step[TAGGED] ? undefined : (step.type as string | undefined))

/** `migrate47_setDefaultRunAs` (BuildSpec.java:2475-2483). */
function setDefaultRunAs(node: YamlNode): void {
  if (!('runAs' in node)) node.runAs = '0:0'
}

const MIGRATIONS: Record<number, (doc: YamlNode) => void> = {
  // BuildSpec.java:2193-2234: WorkingPeriodParam parameters of jobs and step templates become IntegerParam.
  39(doc) {
    for (const owner of [...jobsOf(doc), ...nodes(doc.stepTemplates)]) {
      for (const param of nodes(owner.paramSpecs)) if (param[TAGGED] && param.type === 'WorkingPeriodParam') param.type = 'IntegerParam'
    }
  },
  // BuildSpec.java:2237-2253: condition ALL_PREVIOUS_STEPS_WERE_SUCCESSFUL becomes SUCCESSFUL; every step gets `optional: false`.
  40(doc) {
    for (const step of allSteps(doc)) {
      if (step.condition === 'ALL_PREVIOUS_STEPS_WERE_SUCCESSFUL') step.condition = 'SUCCESSFUL'
      step.optional = false
    }
  },
  // BuildSpec.java:2256-2276: a job's `retryCondition: never` is removed.
  41(doc) {
    for (const job of jobsOf(doc)) if (job.retryCondition === 'never') delete job.retryCondition
  },
  // BuildSpec.java:2279-2319 (migrate42 and migrate42_processNode): every tagged mapping names its class with a `type` key instead.
  42(doc) {
    const untag = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(untag)
      else if (isNode(value)) {
        delete value[TAGGED]
        Object.values(value).forEach(untag)
      }
    }
    untag(doc)
  },
  // BuildSpec.java:2322-2385. For each job, the keys in order: at `retryCondition` a blank one is removed
  // and the loop ends (`break`, line 2340): triggers after it are not reached; at `triggers`, each
  // BranchUpdateTrigger without a non-blank userMatch gets `userMatch: anyone`. A job without a
  // (non-blank) retryCondition gets `retryCondition: never`.
  43(doc) {
    for (const job of jobsOf(doc)) {
      let hasRetryCondition = false
      for (const key of Object.keys(job)) {
        if (key === 'retryCondition') {
          const value = job.retryCondition
          if (value === null || value === undefined || String(value).trim() === '') delete job.retryCondition
          else hasRetryCondition = true
          break
        } else if (key === 'triggers') {
          for (const trigger of nodes(job.triggers)) {
            if (trigger.type !== 'BranchUpdateTrigger') continue
            const userMatch = trigger.userMatch
            const blank = userMatch === undefined || userMatch === null || String(userMatch).trim() === ''
            if (blank) {
              delete trigger.userMatch
              trigger.userMatch = 'anyone'
            }
          }
        }
      }
      if (!hasRetryCondition) job.retryCondition = 'never'
    }
  },
  // BuildSpec.java:2388-2429: scanner steps are renamed or removed.
  44(doc) {
    for (const step of allSteps(doc)) {
      if (['OsvVulnerScannerStep', 'OsvLicenseScannerStep', 'FSScannerStep', 'ImageScannerStep', 'RootFSScannerStep'].includes(stepType(step) ?? '')) throw new NotReplayed(44, `the step type ${String(step.type)}`)
    }
  },
  // BuildSpec.java:2432-2449 and 2452-2465: scanner steps still named by a tag get publishJSONReportAsArtifact.
  45(doc) {
    for (const step of allSteps(doc)) if (step[TAGGED] && ['FSScannerStep', 'ImageScannerStep', 'RootFSScannerStep', 'OsvSourceScannerStep'].includes(String(step.type))) throw new NotReplayed(45, `the step type ${String(step.type)}`)
  },
  46(doc) {
    for (const step of allSteps(doc)) if (step[TAGGED] && ['FSScannerStep', 'ImageScannerStep', 'RootFSScannerStep'].includes(String(step.type))) throw new NotReplayed(46, `the step type ${String(step.type)}`)
  },
  // BuildSpec.java:2486-2631: services and command-like steps get `runAs: 0:0`; a CommandStep's commands
  // have ONEDEV_WORKSPACE and /onedev-build/workspace renamed (2578-2579); checksum, cache and branch steps are rewritten.
  47(doc) {
    for (const service of nodes(doc.services)) setDefaultRunAs(service)
    for (const step of allSteps(doc)) {
      const type = stepType(step)
      if (type === 'GenerateChecksumStep' || type === 'SetupCacheStep' || type === 'CreateBranchStep') throw new NotReplayed(47, `the step type ${type}`)
      if (type === 'CommandStep') {
        const interpreter = step.interpreter
        if (isNode(interpreter) && typeof interpreter.commands === 'string') {
          interpreter.commands = interpreter.commands.replaceAll('ONEDEV_WORKSPACE', 'ONEDEV_WORKDIR').replaceAll('/onedev-build/workspace', '/onedev-build/work')
        }
        setDefaultRunAs(step)
      } else if (['BuildImageWithKanikoStep', 'SSHCommandStep', 'SCPCommandStep', 'PushImageStep', 'PullImageStep', 'RenovateStep'].includes(type ?? '')) {
        setDefaultRunAs(step)
      }
    }
  },
  // BuildSpec.java:2634-2666: CreateBranchStep's generated branch name loses its prefix.
  48(doc) {
    for (const step of allSteps(doc)) if (stepType(step) === 'CreateBranchStep') throw new NotReplayed(48, 'the step type CreateBranchStep')
  },
  // BuildSpec.java:2669-2677: RunContainerStep gets `runAs: 0:0`.
  49(doc) {
    for (const step of allSteps(doc)) if (stepType(step) === 'RunContainerStep') setDefaultRunAs(step)
  },
  // BuildSpec.java:2690-2732: a CommandStep's ShellInterpreter becomes PosixInterpreter; its
  // DefaultInterpreter becomes PosixInterpreter with `shell: sh` when the step runs in a container with an
  // image (runInContainer is true unless the key says otherwise, 2711-2714), else what ShellCommandDetector.isWindowsBatch
  // says of its commands (not replayed).
  50(doc) {
    for (const step of allSteps(doc)) {
      if (stepType(step) !== 'CommandStep' || !isNode(step.interpreter)) continue
      const interpreter = step.interpreter
      if (interpreter.type === 'ShellInterpreter') interpreter.type = 'PosixInterpreter'
      else if (interpreter.type === 'DefaultInterpreter') {
        const runInContainer = step.runInContainer === undefined ? true : String(step.runInContainer) === 'true'
        const containerImageUsed = runInContainer && typeof step.image === 'string' && step.image.trim() !== ''
        if (!containerImageUsed) throw new NotReplayed(50, 'a DefaultInterpreter outside a container (ShellCommandDetector.isWindowsBatch decides its type)')
        interpreter.type = 'PosixInterpreter'
        interpreter.shell = 'sh'
      }
    }
  },
  // BuildSpec.java:2753-2767: CreateIssueAction post-build actions lose projectPath and accessTokenSecret.
  51(doc) {
    for (const job of jobsOf(doc)) for (const action of nodes(job.postBuildActions)) if (action.type === 'CreateIssueAction') throw new NotReplayed(51, 'a CreateIssueAction')
  },
  // BuildSpec.java:2778-2810: cache steps' paths become entries.
  52(doc) {
    for (const step of allSteps(doc)) if (['SetupCacheStep', 'RenovateCacheStep'].includes(String(step.type))) throw new NotReplayed(52, `the step type ${String(step.type)}`)
  },
  // BuildSpec.java:2813-2828: every job gets includeUpstreamWhenRebuild and includeDownstreamWhenRebuild false.
  53(doc) {
    for (const job of jobsOf(doc)) {
      job.includeUpstreamWhenRebuild = false
      job.includeDownstreamWhenRebuild = false
    }
  },
}

/** Runs OneDev's migrations after `from` up to `to` on `doc` (changed in place). */
export function migrate(doc: YamlNode, from: number, to: number): void {
  for (let version = from + 1; version <= to; version++) {
    const step = MIGRATIONS[version]
    if (!step) throw new NotReplayed(version, 'the build spec (versions before 39 are not replayed)')
    step(doc)
  }
}
