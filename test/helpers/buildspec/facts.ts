/**
 * What OneDev accepts in a build spec (.onedev-buildspec.yml), read in its source (theonedev/onedev) at
 * the oldest release the README names for examples/onedev-buildspec.yml and at the newest release, for
 * the classes the examples use: the properties each class has (a YAML key OneDev has no setter for fails
 * the whole build spec: "Malformed build spec"), the required ones (@NotEmpty / @NotNull on the getter,
 * with the field's initial value, which an absent key keeps), minimums, the values of the enums, and the
 * highest build spec version each release reads. Every fact names its tag, file and line; the checker
 * (check.ts) replays these rules and, for a release newer than the spec's version, OneDev's own
 * migrations of the spec (migrate.ts) first.
 *
 * How OneDev reads a build spec (the same at both releases):
 * - `BuildSpec.parse` → `VersionedYamlDoc.fromYaml(…).toBean(BuildSpec.class)`: `MigrationHelper.migrate`
 *   runs every `migrateN` after the spec's `version` (and fails with "Can not find migrate method …
 *   migrateN" when the release has no `migrateN`), then SnakeYAML builds the beans by their properties
 *   (`setBeanAccess(BeanAccess.PROPERTY)`, no `setSkipMissingProperties`: an unknown key is an error).
 * - Each submission, each commit's trigger check and each schedule validate the whole spec with Bean
 *   Validation (`validateBuildSpec`: `validator.validate(buildSpec)`); the first violation stops it, so
 *   no job of the spec runs. Steps are validated in cascade from 13.0.2 (`@Valid` on `Job.getSteps`);
 *   before, a step's missing required property fails that step when it runs, and the build spec editor
 *   refuses to save it.
 * - ExecuteCondition (a step's `condition`) is an enum of theonedev/k8shelper, which is not read here:
 *   its values are those OneDev's own source uses, each cited.
 */
export interface Source {
  /** `<tag> <file>:<line>` in theonedev/onedev. */
  readonly source: string
}

export interface PropertyFact extends Source {
  /** The getter's Java type: `String`, `boolean`, `int`, `long`, `Integer`, an enum (ENUMS), a class of CLASSES, or `List<…>`. */
  readonly javaType: string
  readonly required?: {kind: 'NotEmpty' | 'NotNull'} & Source
  /** The field's initializer: what an absent key leaves. */
  readonly initial?: {java: string} & Source
  readonly min?: {value: number} & Source
  /** A Quartz cron expression (`new org.quartz.CronExpression(value)`). */
  readonly cron?: string
  /** Must name a job secret of the project (HttpCredential#isValid). */
  readonly jobSecret?: string
  /** Shown, and so validated, only while this boolean property of the same node is true (@ShowCondition, @DependsOn). */
  readonly shownWhen?: {property: string} & Source
}

export interface ClassFact extends Source {
  readonly abstract?: boolean
  /** The superclass, or the interface it implements (GitCredential). */
  readonly extends?: string
  readonly properties: Readonly<Record<string, PropertyFact>>
}

export interface ReleaseFacts {
  readonly tag: string
  /** The highest `migrateN` of BuildSpec: the highest build spec version the release reads. */
  readonly specVersion: {value: number} & Source
  /** Whether a node may name its class with a `type:` key (from 13.0.x, migrate42); YAML tags (`!CommandStep`) are read at every release. */
  readonly typeKey: false | Source
  /** The failure when `version` names no migrate method. */
  readonly tooNew: Source & {message: string}
  readonly classes: Readonly<Record<string, ClassFact>>
  readonly enums: Readonly<Record<string, {values: ReadonlyArray<{value: string} & Source>}>>
  /** Job names are unique (BuildSpec#isValid). */
  readonly uniqueJobNames: Source
}

const at = (tag: string, file: string, line: number): string => `${tag} ${file}:${line}`

const FILE = {
  BuildSpec: 'server-core/src/main/java/io/onedev/server/buildspec/BuildSpec.java',
  Job: 'server-core/src/main/java/io/onedev/server/buildspec/job/Job.java',
  Step: 'server-core/src/main/java/io/onedev/server/buildspec/step/Step.java',
  ServerSideStep: 'server-core/src/main/java/io/onedev/server/buildspec/step/ServerSideStep.java',
  PublishReportStep: 'server-core/src/main/java/io/onedev/server/buildspec/step/PublishReportStep.java',
  CheckoutStep: 'server-core/src/main/java/io/onedev/server/buildspec/step/CheckoutStep.java',
  HttpCredential: 'server-core/src/main/java/io/onedev/server/buildspec/job/gitcredential/HttpCredential.java',
  DefaultCredential: 'server-core/src/main/java/io/onedev/server/buildspec/job/gitcredential/DefaultCredential.java',
  CommandStep: 'server-core/src/main/java/io/onedev/server/buildspec/step/CommandStep.java',
  Interpreter: 'server-core/src/main/java/io/onedev/server/buildspec/step/commandinterpreter/Interpreter.java',
  PublishMarkdownReportStep: 'server-plugin/server-plugin-report-markdown/src/main/java/io/onedev/server/plugin/report/markdown/PublishMarkdownReportStep.java',
  PublishHtmlReportStep: 'server-plugin/server-plugin-report-html/src/main/java/io/onedev/server/plugin/report/html/PublishHtmlReportStep.java',
  PublishUnitTestReportStep: 'server-plugin/server-plugin-report-unittest/src/main/java/io/onedev/server/plugin/report/unittest/PublishUnitTestReportStep.java',
  PublishJUnitReportStep: 'server-plugin/server-plugin-report-junit/src/main/java/io/onedev/server/plugin/report/junit/PublishJUnitReportStep.java',
  PublishProblemReportStep: 'server-plugin/server-plugin-report-problem/src/main/java/io/onedev/server/plugin/report/problem/PublishProblemReportStep.java',
  PublishCheckstyleReportStep: 'server-plugin/server-plugin-report-checkstyle/src/main/java/io/onedev/server/plugin/report/checkstyle/PublishCheckstyleReportStep.java',
  JobTrigger: 'server-core/src/main/java/io/onedev/server/buildspec/job/trigger/JobTrigger.java',
  ScheduleTrigger: 'server-core/src/main/java/io/onedev/server/buildspec/job/trigger/ScheduleTrigger.java',
  BranchUpdateTrigger: 'server-core/src/main/java/io/onedev/server/buildspec/job/trigger/BranchUpdateTrigger.java',
  DefaultInterpreter: 'server-core/src/main/java/io/onedev/server/buildspec/step/commandinterpreter/DefaultInterpreter.java',
  PosixInterpreter: 'server-core/src/main/java/io/onedev/server/buildspec/step/commandinterpreter/PosixInterpreter.java',
  CronExpressionValidator: 'server-core/src/main/java/io/onedev/server/validation/validator/CronExpressionValidator.java',
  GitCredential: 'server-core/src/main/java/io/onedev/server/buildspec/job/gitcredential/GitCredential.java',
  CodeProblem: 'server-core/src/main/java/io/onedev/server/codequality/CodeProblem.java',
  GolangJobSuggestion: 'server-plugin/server-plugin-buildspec-golang/src/main/java/io/onedev/server/plugin/buildspec/golang/GolangJobSuggestion.java',
  VersionedYamlDoc: 'server-core/src/main/java/io/onedev/server/data/migration/VersionedYamlDoc.java',
  MigrationHelper: 'server-core/src/main/java/io/onedev/server/data/migration/MigrationHelper.java',
  DefaultJobService: 'server-core/src/main/java/io/onedev/server/job/DefaultJobService.java',
} as const
const CLASSES_11_6_3: Record<string, ClassFact> = {
  BuildSpec: {source: at('v11.6.3', FILE.BuildSpec, 54), properties: {
    jobs: {source: at('v11.6.3', FILE.BuildSpec, 112), javaType: 'List<Job>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.BuildSpec, 87)}},
    stepTemplates: {source: at('v11.6.3', FILE.BuildSpec, 122), javaType: 'List<StepTemplate>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.BuildSpec, 89)}},
    services: {source: at('v11.6.3', FILE.BuildSpec, 132), javaType: 'List<Service>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.BuildSpec, 91)}},
    properties: {source: at('v11.6.3', FILE.BuildSpec, 142), javaType: 'List<JobProperty>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.BuildSpec, 93)}},
    imports: {source: at('v11.6.3', FILE.BuildSpec, 152), javaType: 'List<Import>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.BuildSpec, 95)}},
  }},
  Job: {source: at('v11.6.3', FILE.Job, 50), properties: {
    name: {source: at('v11.6.3', FILE.Job, 108), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.Job, 102)}},
    jobExecutor: {source: at('v11.6.3', FILE.Job, 131), javaType: 'String'},
    steps: {source: at('v11.6.3', FILE.Job, 172), javaType: 'List<Step>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.Job, 74)}},
    paramSpecs: {source: at('v11.6.3', FILE.Job, 182), javaType: 'List<ParamSpec>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.Job, 76)}},
    triggers: {source: at('v11.6.3', FILE.Job, 192), javaType: 'List<JobTrigger>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.Job, 84)}},
    jobDependencies: {source: at('v11.6.3', FILE.Job, 203), javaType: 'List<JobDependency>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.Job, 78)}},
    projectDependencies: {source: at('v11.6.3', FILE.Job, 214), javaType: 'List<ProjectDependency>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.Job, 80)}},
    requiredServices: {source: at('v11.6.3', FILE.Job, 227), javaType: 'List<String>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.Job, 82)}},
    sequentialGroup: {source: at('v11.6.3', FILE.Job, 255), javaType: 'String'},
    retryCondition: {source: at('v11.6.3', FILE.Job, 266), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.Job, 260)}, initial: {java: "\"never\"", source: at('v11.6.3', FILE.Job, 92)}},
    maxRetries: {source: at('v11.6.3', FILE.Job, 276), javaType: 'int', min: {value: 1, source: at('v11.6.3', FILE.Job, 271)}, initial: {java: "3", source: at('v11.6.3', FILE.Job, 94)}},
    retryDelay: {source: at('v11.6.3', FILE.Job, 288), javaType: 'int', min: {value: 1, source: at('v11.6.3', FILE.Job, 283)}, initial: {java: "30", source: at('v11.6.3', FILE.Job, 96)}},
    timeout: {source: at('v11.6.3', FILE.Job, 297), javaType: 'long', initial: {java: "14400", source: at('v11.6.3', FILE.Job, 86)}},
    postBuildActions: {source: at('v11.6.3', FILE.Job, 307), javaType: 'List<PostBuildAction>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.Job, 88)}},
  }},
  Step: {source: at('v11.6.3', FILE.Step, 18), abstract: true, properties: {
    name: {source: at('v11.6.3', FILE.Step, 34), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.Step, 29)}},
    condition: {source: at('v11.6.3', FILE.Step, 44), javaType: 'ExecuteCondition', required: {kind: 'NotNull', source: at('v11.6.3', FILE.Step, 39)}, initial: {java: "ExecuteCondition.ALL_PREVIOUS_STEPS_WERE_SUCCESSFUL", source: at('v11.6.3', FILE.Step, 22)}},
  }},
  ServerSideStep: {source: at('v11.6.3', FILE.ServerSideStep, 23), abstract: true, extends: 'Step', properties: {
  }},
  PublishReportStep: {source: at('v11.6.3', FILE.PublishReportStep, 17), abstract: true, extends: 'ServerSideStep', properties: {
    reportName: {source: at('v11.6.3', FILE.PublishReportStep, 34), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.PublishReportStep, 29)}},
    filePatterns: {source: at('v11.6.3', FILE.PublishReportStep, 56), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.PublishReportStep, 51)}},
  }},
  CheckoutStep: {source: at('v11.6.3', FILE.CheckoutStep, 20), extends: 'Step', properties: {
    cloneCredential: {source: at('v11.6.3', FILE.CheckoutStep, 42), javaType: 'GitCredential', required: {kind: 'NotNull', source: at('v11.6.3', FILE.CheckoutStep, 37)}, initial: {java: "new DefaultCredential()", source: at('v11.6.3', FILE.CheckoutStep, 24)}},
    withLfs: {source: at('v11.6.3', FILE.CheckoutStep, 51), javaType: 'boolean'},
    withSubmodules: {source: at('v11.6.3', FILE.CheckoutStep, 62), javaType: 'boolean'},
    cloneDepth: {source: at('v11.6.3', FILE.CheckoutStep, 72), javaType: 'Integer'},
    checkoutPath: {source: at('v11.6.3', FILE.CheckoutStep, 85), javaType: 'String'},
  }},
  // An interface: HttpCredential and DefaultCredential implement it.
  GitCredential: {source: at('v11.6.3', FILE.GitCredential, 16), abstract: true, properties: {}},
  HttpCredential: {source: at('v11.6.3', FILE.HttpCredential, 23), extends: 'GitCredential', properties: {
    accessTokenSecret: {source: at('v11.6.3', FILE.HttpCredential, 36), javaType: 'String', jobSecret: at('v11.6.3', FILE.HttpCredential, 54), required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.HttpCredential, 31)}},
  }},
  DefaultCredential: {source: at('v11.6.3', FILE.DefaultCredential, 11), extends: 'GitCredential', properties: {
  }},
  CommandStep: {source: at('v11.6.3', FILE.CommandStep, 29), extends: 'Step', properties: {
    runInContainer: {source: at('v11.6.3', FILE.CommandStep, 57), javaType: 'boolean', initial: {java: "true", source: at('v11.6.3', FILE.CommandStep, 38)}},
    image: {source: at('v11.6.3', FILE.CommandStep, 74), javaType: 'String', shownWhen: {property: 'runInContainer', source: at('v11.6.3', FILE.CommandStep, 67)}, required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.CommandStep, 69)}},
    interpreter: {source: at('v11.6.3', FILE.CommandStep, 88), javaType: 'Interpreter', required: {kind: 'NotNull', source: at('v11.6.3', FILE.CommandStep, 83)}, initial: {java: "new DefaultInterpreter()", source: at('v11.6.3', FILE.CommandStep, 42)}},
    runAs: {source: at('v11.6.3', FILE.CommandStep, 101), javaType: 'String'},
    registryLogins: {source: at('v11.6.3', FILE.CommandStep, 113), javaType: 'List<RegistryLogin>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.CommandStep, 46)}},
    envVars: {source: at('v11.6.3', FILE.CommandStep, 123), javaType: 'List<EnvVar>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.CommandStep, 48)}},
    useTTY: {source: at('v11.6.3', FILE.CommandStep, 133), javaType: 'boolean', initial: {java: "true", source: at('v11.6.3', FILE.CommandStep, 50)}},
  }},
  Interpreter: {source: at('v11.6.3', FILE.Interpreter, 16), abstract: true, properties: {
    commands: {source: at('v11.6.3', FILE.Interpreter, 26), javaType: 'String'},
  }},
  PublishMarkdownReportStep: {source: at('v11.6.3', FILE.PublishMarkdownReportStep, 26), extends: 'PublishReportStep', properties: {
    startPage: {source: at('v11.6.3', FILE.PublishMarkdownReportStep, 43), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.PublishMarkdownReportStep, 38)}},
  }},
  PublishHtmlReportStep: {source: at('v11.6.3', FILE.PublishHtmlReportStep, 28), extends: 'PublishReportStep', properties: {
    startPage: {source: at('v11.6.3', FILE.PublishHtmlReportStep, 45), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.PublishHtmlReportStep, 40)}},
  }},
  PublishUnitTestReportStep: {source: at('v11.6.3', FILE.PublishUnitTestReportStep, 24), abstract: true, extends: 'PublishReportStep', properties: {
  }},
  PublishJUnitReportStep: {source: at('v11.6.3', FILE.PublishJUnitReportStep, 29), extends: 'PublishUnitTestReportStep', properties: {
    filePatterns: {source: at('v11.6.3', FILE.PublishJUnitReportStep, 44), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.PublishJUnitReportStep, 37)}},
  }},
  PublishProblemReportStep: {source: at('v11.6.3', FILE.PublishProblemReportStep, 31), abstract: true, extends: 'PublishReportStep', properties: {
    failThreshold: {source: at('v11.6.3', FILE.PublishProblemReportStep, 45), javaType: 'Severity', required: {kind: 'NotNull', source: at('v11.6.3', FILE.PublishProblemReportStep, 40)}, initial: {java: "HIGH", source: at('v11.6.3', FILE.PublishProblemReportStep, 35)}},
  }},
  PublishCheckstyleReportStep: {source: at('v11.6.3', FILE.PublishCheckstyleReportStep, 34), extends: 'PublishProblemReportStep', properties: {
    filePatterns: {source: at('v11.6.3', FILE.PublishCheckstyleReportStep, 53), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.PublishCheckstyleReportStep, 46)}},
    tabWidth: {source: at('v11.6.3', FILE.PublishCheckstyleReportStep, 123), javaType: 'int', initial: {java: "8", source: at('v11.6.3', FILE.PublishCheckstyleReportStep, 38)}},
  }},
  JobTrigger: {source: at('v11.6.3', FILE.JobTrigger, 31), abstract: true, properties: {
    projects: {source: at('v11.6.3', FILE.JobTrigger, 57), javaType: 'String'},
    paramMatrix: {source: at('v11.6.3', FILE.JobTrigger, 74), javaType: 'List<ParamInstances>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.JobTrigger, 43)}},
    excludeParamMaps: {source: at('v11.6.3', FILE.JobTrigger, 84), javaType: 'List<ParamMap>', initial: {java: "new ArrayList<>()", source: at('v11.6.3', FILE.JobTrigger, 45)}},
  }},
  ScheduleTrigger: {source: at('v11.6.3', FILE.ScheduleTrigger, 22), extends: 'JobTrigger', properties: {
    cronExpression: {source: at('v11.6.3', FILE.ScheduleTrigger, 38), javaType: 'String', cron: at('v11.6.3', FILE.CronExpressionValidator, 23), required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.ScheduleTrigger, 33)}},
    branches: {source: at('v11.6.3', FILE.ScheduleTrigger, 51), javaType: 'String'},
  }},
  BranchUpdateTrigger: {source: at('v11.6.3', FILE.BranchUpdateTrigger, 29), extends: 'JobTrigger', properties: {
    branches: {source: at('v11.6.3', FILE.BranchUpdateTrigger, 45), javaType: 'String'},
    paths: {source: at('v11.6.3', FILE.BranchUpdateTrigger, 62), javaType: 'String'},
  }},
  DefaultInterpreter: {source: at('v11.6.3', FILE.DefaultInterpreter, 16), extends: 'Interpreter', properties: {
    commands: {source: at('v11.6.3', FILE.DefaultInterpreter, 31), javaType: 'String', required: {kind: 'NotEmpty', source: at('v11.6.3', FILE.DefaultInterpreter, 24)}},
  }},
}

const CLASSES_16_5_6: Record<string, ClassFact> = {
  BuildSpec: {source: at('v16.5.6', FILE.BuildSpec, 67), properties: {
    jobs: {source: at('v16.5.6', FILE.BuildSpec, 126), javaType: 'List<Job>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.BuildSpec, 100)}},
    stepTemplates: {source: at('v16.5.6', FILE.BuildSpec, 137), javaType: 'List<StepTemplate>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.BuildSpec, 102)}},
    services: {source: at('v16.5.6', FILE.BuildSpec, 148), javaType: 'List<Service>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.BuildSpec, 104)}},
    properties: {source: at('v16.5.6', FILE.BuildSpec, 159), javaType: 'List<JobProperty>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.BuildSpec, 106)}},
    imports: {source: at('v16.5.6', FILE.BuildSpec, 170), javaType: 'List<Import>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.BuildSpec, 108)}},
  }},
  Job: {source: at('v16.5.6', FILE.Job, 64), properties: {
    name: {source: at('v16.5.6', FILE.Job, 128), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.Job, 122)}},
    jobExecutor: {source: at('v16.5.6', FILE.Job, 149), javaType: 'String'},
    steps: {source: at('v16.5.6', FILE.Job, 194), javaType: 'List<Step>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.Job, 90)}},
    paramSpecs: {source: at('v16.5.6', FILE.Job, 204), javaType: 'List<ParamSpec>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.Job, 92)}},
    triggers: {source: at('v16.5.6', FILE.Job, 214), javaType: 'List<JobTrigger>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.Job, 100)}},
    jobDependencies: {source: at('v16.5.6', FILE.Job, 225), javaType: 'List<JobDependency>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.Job, 94)}},
    projectDependencies: {source: at('v16.5.6', FILE.Job, 236), javaType: 'List<ProjectDependency>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.Job, 96)}},
    requiredServices: {source: at('v16.5.6', FILE.Job, 249), javaType: 'List<String>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.Job, 98)}},
    sequentialGroup: {source: at('v16.5.6', FILE.Job, 276), javaType: 'String'},
    retryCondition: {source: at('v16.5.6', FILE.Job, 287), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.Job, 282)}, initial: {java: "\"never\"", source: at('v16.5.6', FILE.Job, 108)}},
    maxRetries: {source: at('v16.5.6', FILE.Job, 298), javaType: 'int', min: {value: 1, source: at('v16.5.6', FILE.Job, 292)}, initial: {java: "3", source: at('v16.5.6', FILE.Job, 110)}},
    retryDelay: {source: at('v16.5.6', FILE.Job, 311), javaType: 'int', min: {value: 1, source: at('v16.5.6', FILE.Job, 305)}, initial: {java: "30", source: at('v16.5.6', FILE.Job, 112)}},
    includeUpstreamWhenRebuild: {source: at('v16.5.6', FILE.Job, 320), javaType: 'boolean'},
    includeDownstreamWhenRebuild: {source: at('v16.5.6', FILE.Job, 329), javaType: 'boolean'},
    timeout: {source: at('v16.5.6', FILE.Job, 339), javaType: 'long', initial: {java: "14400", source: at('v16.5.6', FILE.Job, 102)}},
    postBuildActions: {source: at('v16.5.6', FILE.Job, 349), javaType: 'List<PostBuildAction>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.Job, 104)}},
  }},
  Step: {source: at('v16.5.6', FILE.Step, 19), abstract: true, properties: {
    name: {source: at('v16.5.6', FILE.Step, 35), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.Step, 30)}},
    condition: {source: at('v16.5.6', FILE.Step, 46), javaType: 'ExecuteCondition', required: {kind: 'NotNull', source: at('v16.5.6', FILE.Step, 41)}, initial: {java: "SUCCESSFUL", source: at('v16.5.6', FILE.Step, 25)}},
    optional: {source: at('v16.5.6', FILE.Step, 57), javaType: 'boolean'},
  }},
  ServerSideStep: {source: at('v16.5.6', FILE.ServerSideStep, 21), abstract: true, extends: 'Step', properties: {
  }},
  PublishReportStep: {source: at('v16.5.6', FILE.PublishReportStep, 17), abstract: true, extends: 'ServerSideStep', properties: {
    reportName: {source: at('v16.5.6', FILE.PublishReportStep, 34), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.PublishReportStep, 29)}},
    filePatterns: {source: at('v16.5.6', FILE.PublishReportStep, 56), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.PublishReportStep, 51)}},
  }},
  CheckoutStep: {source: at('v16.5.6', FILE.CheckoutStep, 22), extends: 'Step', properties: {
    cloneCredential: {source: at('v16.5.6', FILE.CheckoutStep, 45), javaType: 'GitCredential', required: {kind: 'NotNull', source: at('v16.5.6', FILE.CheckoutStep, 40)}, initial: {java: "new DefaultCredential()", source: at('v16.5.6', FILE.CheckoutStep, 26)}},
    withLfs: {source: at('v16.5.6', FILE.CheckoutStep, 54), javaType: 'boolean'},
    withSubmodules: {source: at('v16.5.6', FILE.CheckoutStep, 65), javaType: 'boolean'},
    cloneDepth: {source: at('v16.5.6', FILE.CheckoutStep, 75), javaType: 'Integer'},
    checkoutPath: {source: at('v16.5.6', FILE.CheckoutStep, 88), javaType: 'String'},
  }},
  // An interface: HttpCredential and DefaultCredential implement it.
  GitCredential: {source: at('v16.5.6', FILE.GitCredential, 16), abstract: true, properties: {}},
  HttpCredential: {source: at('v16.5.6', FILE.HttpCredential, 23), extends: 'GitCredential', properties: {
    accessTokenSecret: {source: at('v16.5.6', FILE.HttpCredential, 36), javaType: 'String', jobSecret: at('v16.5.6', FILE.HttpCredential, 54), required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.HttpCredential, 31)}},
  }},
  DefaultCredential: {source: at('v16.5.6', FILE.DefaultCredential, 11), extends: 'GitCredential', properties: {
  }},
  CommandStep: {source: at('v16.5.6', FILE.CommandStep, 32), extends: 'Step', properties: {
    runInContainer: {source: at('v16.5.6', FILE.CommandStep, 60), javaType: 'boolean', initial: {java: "true", source: at('v16.5.6', FILE.CommandStep, 41)}},
    image: {source: at('v16.5.6', FILE.CommandStep, 72), javaType: 'String', shownWhen: {property: 'runInContainer', source: at('v16.5.6', FILE.CommandStep, 65)}, required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.CommandStep, 67)}},
    interpreter: {source: at('v16.5.6', FILE.CommandStep, 83), javaType: 'Interpreter', required: {kind: 'NotNull', source: at('v16.5.6', FILE.CommandStep, 78)}, initial: {java: "new PosixInterpreter()", source: at('v16.5.6', FILE.CommandStep, 45)}},
    runAs: {source: at('v16.5.6', FILE.CommandStep, 95), javaType: 'String', shownWhen: {property: 'runInContainer', source: at('v16.5.6', FILE.CommandStep, 88)}, required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.CommandStep, 90)}, initial: {java: "\"0:0\"", source: at('v16.5.6', FILE.CommandStep, 47)}},
    registryLogins: {source: at('v16.5.6', FILE.CommandStep, 108), javaType: 'List<RegistryLogin>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.CommandStep, 49)}},
    envVars: {source: at('v16.5.6', FILE.CommandStep, 119), javaType: 'List<EnvVar>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.CommandStep, 51)}},
    useTTY: {source: at('v16.5.6', FILE.CommandStep, 129), javaType: 'boolean', initial: {java: "true", source: at('v16.5.6', FILE.CommandStep, 53)}},
  }},
  Interpreter: {source: at('v16.5.6', FILE.Interpreter, 12), abstract: true, properties: {
    commands: {source: at('v16.5.6', FILE.Interpreter, 22), javaType: 'String'},
  }},
  PublishMarkdownReportStep: {source: at('v16.5.6', FILE.PublishMarkdownReportStep, 26), extends: 'PublishReportStep', properties: {
    startPage: {source: at('v16.5.6', FILE.PublishMarkdownReportStep, 43), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.PublishMarkdownReportStep, 38)}},
  }},
  PublishHtmlReportStep: {source: at('v16.5.6', FILE.PublishHtmlReportStep, 29), extends: 'PublishReportStep', properties: {
    startPage: {source: at('v16.5.6', FILE.PublishHtmlReportStep, 46), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.PublishHtmlReportStep, 41)}},
  }},
  PublishUnitTestReportStep: {source: at('v16.5.6', FILE.PublishUnitTestReportStep, 24), abstract: true, extends: 'PublishReportStep', properties: {
  }},
  PublishJUnitReportStep: {source: at('v16.5.6', FILE.PublishJUnitReportStep, 29), extends: 'PublishUnitTestReportStep', properties: {
    filePatterns: {source: at('v16.5.6', FILE.PublishJUnitReportStep, 44), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.PublishJUnitReportStep, 37)}},
  }},
  PublishProblemReportStep: {source: at('v16.5.6', FILE.PublishProblemReportStep, 31), abstract: true, extends: 'PublishReportStep', properties: {
    failThreshold: {source: at('v16.5.6', FILE.PublishProblemReportStep, 45), javaType: 'Severity', required: {kind: 'NotNull', source: at('v16.5.6', FILE.PublishProblemReportStep, 40)}, initial: {java: "HIGH", source: at('v16.5.6', FILE.PublishProblemReportStep, 35)}},
  }},
  PublishCheckstyleReportStep: {source: at('v16.5.6', FILE.PublishCheckstyleReportStep, 34), extends: 'PublishProblemReportStep', properties: {
    filePatterns: {source: at('v16.5.6', FILE.PublishCheckstyleReportStep, 53), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.PublishCheckstyleReportStep, 46)}},
    tabWidth: {source: at('v16.5.6', FILE.PublishCheckstyleReportStep, 123), javaType: 'int', initial: {java: "8", source: at('v16.5.6', FILE.PublishCheckstyleReportStep, 38)}},
  }},
  JobTrigger: {source: at('v16.5.6', FILE.JobTrigger, 35), abstract: true, properties: {
    projects: {source: at('v16.5.6', FILE.JobTrigger, 61), javaType: 'String'},
    paramMatrix: {source: at('v16.5.6', FILE.JobTrigger, 78), javaType: 'List<ParamInstances>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.JobTrigger, 47)}},
    excludeParamMaps: {source: at('v16.5.6', FILE.JobTrigger, 88), javaType: 'List<ParamMap>', initial: {java: "new ArrayList<>()", source: at('v16.5.6', FILE.JobTrigger, 49)}},
  }},
  ScheduleTrigger: {source: at('v16.5.6', FILE.ScheduleTrigger, 22), extends: 'JobTrigger', properties: {
    cronExpression: {source: at('v16.5.6', FILE.ScheduleTrigger, 38), javaType: 'String', cron: at('v16.5.6', FILE.CronExpressionValidator, 23), required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.ScheduleTrigger, 33)}},
    branches: {source: at('v16.5.6', FILE.ScheduleTrigger, 51), javaType: 'String'},
  }},
  BranchUpdateTrigger: {source: at('v16.5.6', FILE.BranchUpdateTrigger, 34), extends: 'JobTrigger', properties: {
    branches: {source: at('v16.5.6', FILE.BranchUpdateTrigger, 52), javaType: 'String'},
    paths: {source: at('v16.5.6', FILE.BranchUpdateTrigger, 69), javaType: 'String'},
    userMatch: {source: at('v16.5.6', FILE.BranchUpdateTrigger, 80), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.BranchUpdateTrigger, 75)}, initial: {java: "new Anyone().toString()", source: at('v16.5.6', FILE.BranchUpdateTrigger, 42)}},
  }},
  PosixInterpreter: {source: at('v16.5.6', FILE.PosixInterpreter, 12), extends: 'Interpreter', properties: {
    shell: {source: at('v16.5.6', FILE.PosixInterpreter, 25), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.PosixInterpreter, 20)}, initial: {java: "\"sh\"", source: at('v16.5.6', FILE.PosixInterpreter, 16)}},
    commands: {source: at('v16.5.6', FILE.PosixInterpreter, 40), javaType: 'String', required: {kind: 'NotEmpty', source: at('v16.5.6', FILE.PosixInterpreter, 33)}},
  }},
}

const ENUMS_11_6_3: ReleaseFacts['enums'] = {
  ExecuteCondition: {
    values: [
      {value: 'ALL_PREVIOUS_STEPS_WERE_SUCCESSFUL', source: at('v11.6.3', FILE.Step, 22)},
      {value: 'ALWAYS', source: at('v11.6.3', FILE.PublishReportStep, 39)},
      {value: 'NEVER', source: at('v11.6.3', FILE.GolangJobSuggestion, 123)},
    ],
  },
  Severity: {
    values: [
      {value: 'CRITICAL', source: at('v11.6.3', FILE.CodeProblem, 13)},
      {value: 'HIGH', source: at('v11.6.3', FILE.CodeProblem, 14)},
      {value: 'MEDIUM', source: at('v11.6.3', FILE.CodeProblem, 15)},
      {value: 'LOW', source: at('v11.6.3', FILE.CodeProblem, 16)},
    ],
  },
}

const ENUMS_16_5_6: ReleaseFacts['enums'] = {
  ExecuteCondition: {
    values: [
      // migrate40 renamed ALL_PREVIOUS_STEPS_WERE_SUCCESSFUL (v16.5.6 BuildSpec.java:2246-2247)
      {value: 'SUCCESSFUL', source: at('v16.5.6', FILE.Step, 25)},
      {value: 'ALWAYS', source: at('v16.5.6', FILE.PublishReportStep, 39)},
      {value: 'NEVER', source: at('v16.5.6', FILE.GolangJobSuggestion, 135)},
    ],
  },
  Severity: {
    values: [
      {value: 'CRITICAL', source: at('v16.5.6', FILE.CodeProblem, 13)},
      {value: 'HIGH', source: at('v16.5.6', FILE.CodeProblem, 14)},
      {value: 'MEDIUM', source: at('v16.5.6', FILE.CodeProblem, 15)},
      {value: 'LOW', source: at('v16.5.6', FILE.CodeProblem, 16)},
    ],
  },
}

/** The oldest release examples/onedev-buildspec.yml runs on: the first whose BuildSpec has migrate38. */
export const OLDEST: ReleaseFacts = {
  tag: 'v11.6.3',
  specVersion: {value: 38, source: at('v11.6.3', FILE.BuildSpec, 2210)},
  typeKey: false,
  tooNew: {message: 'Can not find migrate method', source: at('v11.6.3', FILE.MigrationHelper, 123)},
  classes: CLASSES_11_6_3,
  enums: ENUMS_11_6_3,
  uniqueJobNames: {source: at('v11.6.3', FILE.BuildSpec, 298)},
}

/** The newest release. */
export const NEWEST: ReleaseFacts = {
  tag: 'v16.5.6',
  specVersion: {value: 53, source: at('v16.5.6', FILE.BuildSpec, 2813)},
  typeKey: {source: at('v16.5.6', FILE.VersionedYamlDoc, 146)},
  tooNew: {message: 'Cannot find migrate method', source: at('v16.5.6', FILE.MigrationHelper, 123)},
  classes: CLASSES_16_5_6,
  enums: ENUMS_16_5_6,
  uniqueJobNames: {source: at('v16.5.6', FILE.BuildSpec, 306)},
}

export const RELEASES: readonly ReleaseFacts[] = [OLDEST, NEWEST]
