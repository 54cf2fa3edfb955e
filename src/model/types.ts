/**
 * The internal model: what rules see. Both payload generations (the contract's 8.0.x shape and
 * current 16.x servers') are normalized into these types once, at the edge (src/model/normalize.ts),
 * after redaction. No secret value ever reaches this model.
 *
 * Every object carries `pointer`, an RFC 6901 JSON pointer into the raw (redacted) payload it came
 * from, so findings can point at the exact setting. Every pointer resolves: a member pointer (such as
 * `signaturePointer`) names the member when the payload has it, else the object that lacks it. Absent fields take the server's own defaults
 * (the Java field initializers, onedev-reference.md §3), because that is what the server applies.
 */

/** Which shape a project setting arrived in. */
export type PayloadGeneration = 'legacy' | 'current'

export interface FileProtection {
  pointer: string
  paths: string | null
  reviewRequirement: string | null
  jobNames: string[]
}

export interface BranchProtection {
  pointer: string
  enabled: boolean
  /** Pattern set matched with the path matcher. null or empty matches nothing. */
  branches: string | null
  /** userMatch expression; null in the payload means the server default `anyone`. */
  userMatch: string
  preventForcedPush: boolean
  preventDeletion: boolean
  preventCreation: boolean
  /** `signatureRequired` (legacy) or `commitSignatureRequired` (current). */
  signatureRequired: boolean
  /** Pointer of whichever signature field the payload had (or would have). */
  signaturePointer: string
  reviewRequirement: string | null
  jobNames: string[]
  fileProtections: FileProtection[]
  /** "Require Strict Pull Request Builds": pull-request builds of an outdated merge commit do not count (false when absent). */
  requireStrictBuilds: boolean
}

export interface TagProtection {
  pointer: string
  enabled: boolean
  tags: string | null
  userMatch: string
  preventUpdate: boolean
  preventDeletion: boolean
  preventCreation: boolean
  signatureRequired: boolean
  signaturePointer: string
}

/** Who may use a job secret. Legacy servers scope by branch pattern set; current ones by job-match expression. */
export type SecretAuthorization =
  | {kind: 'branches'; branches: string | null; pointer: string}
  | {kind: 'job-match'; expression: string | null; pointer: string}

export interface JobSecret {
  pointer: string
  name: string
  archived: boolean
  authorization: SecretAuthorization
}

/** Legacy (≤ 8.0.4) build action authorizations: CreateTagAuthorization, CloseMilestoneAuthorization. */
export interface ActionAuthorization {
  pointer: string
  type: string
  authorizedBranches: string | null
  /** tagNames or milestoneNames; null means any. */
  names: string | null
}

/** What redaction found in a URL before it masked it. */
export interface UrlFacts {
  /** Lower-case scheme without the colon (`http`, `https`), or null when the URL could not be parsed. */
  scheme: string | null
  host: string | null
  /** The URL carried user info (`user:password@`). */
  hadUserInfo: boolean
  /** Names of query parameters that looked like credentials (token, key, secret, password, ...). */
  secretQueryParams: string[]
  /** The path carried a secret segment, as Slack- and Discord-style webhook URLs do. */
  secretPath: boolean
  /** Names of path parameters (`/notify;token=…`, RFC 3986 §3.3) that looked like credentials; absent when none did. */
  secretPathParams?: string[]
}

export interface ChannelNotification {
  pointer: string
  /**
   * `Slack`, `Discord`, `Ntfy` or whatever the `@type` said, without `NotificationSetting`; for the
   * contract's top-level list, which carries no type, guessed from the URL's host (`Unknown` when it
   * cannot be).
   */
  channel: string
  /** Whether the payload said the channel (`@type` or the class name of the legacy map), rather than it being guessed. */
  channelKnown: boolean
  /** The redacted URL: safe to print. */
  webhookUrl: string | null
  url: UrlFacts | null
  /** What it is sent for (`issues`, `pull requests`, `builds`, `code push`, `code comments`), in that order. */
  events: string[]
}

export interface WebHook {
  pointer: string
  /** The redacted URL: safe to print. */
  postUrl: string | null
  url: UrlFacts | null
  hasSecret: boolean
  headerNames: string[]
  eventTypes: string[]
}

export interface ProjectSetting {
  generation: PayloadGeneration
  branchProtections: BranchProtection[]
  tagProtections: TagProtection[]
  jobSecrets: JobSecret[]
  /**
   * Build action authorizations: only OneDev 8.0.4 and earlier send them (removed in 8.0.5); null when
   * the payload has none to send (`VERSIONED_SETTING_MEMBERS`).
   */
  actionAuthorizations: ActionAuthorization[] | null
  notifications: ChannelNotification[]
  webHooks: WebHook[]
}

/** A part of what the server says about a repository, each from its own endpoint (REPOSITORY_ENDPOINTS in endpoints.ts). */
export type RepositoryPart = 'default-branch' | 'branches' | 'tags'

/**
 * Members of a project setting that only some server versions send, by JSON pointer into the payload:
 * which versions, and whether a setting's payload had the member. A rule that judges one names it in
 * `meta.requires` as `/projects/{id}/setting#<pointer>`: when no audited project's setting has it,
 * the server is of a version without it, the rule has nothing it could find, and it is not evaluated
 * (its silence is no evidence for a compliance control).
 */
export const VERSIONED_SETTING_MEMBERS: Readonly<Record<string, {servers: string; present: (setting: ProjectSetting) => boolean}>> = {
  '/buildSetting/actionAuthorizations': {servers: 'OneDev 8.0.4 and earlier', present: (setting) => setting.actionAuthorizations !== null},
}

/**
 * What the server says about a project's Git repository (onedev-access-reference.md §1): which
 * branches and tags exist. It decides which branches and tags the protection rules judge.
 */
export interface RepositoryInfo {
  /**
   * The default branch; null when the repository is not initialized (the server answered 204);
   * absent when unknown: the server does not offer the endpoint (judged on configured names or
   * `main`, with a notice), or it failed for this project (`unreadable`).
   */
  defaultBranch?: string | null
  /** Every existing branch, or null when the list was not fetched (no `branches` entry needed it) or is unknown. */
  branches: string[] | null
  /** Every existing tag, or null when unknown. */
  tags: string[] | null
  /**
   * Parts the server failed to give for this project alone, while it gives them for others (an error
   * names the project): nothing is judged in their place. Without the default branch, the lists were not asked.
   */
  unreadable?: RepositoryPart[]
}

export interface Project {
  id: number
  /** Full slash path (`group/sub/repo`); falls back to the name, then to the id. */
  path: string
  name: string | null
  parentId: number | null
  /** null when the setting could not be fetched or parsed (the error is in the audit's errors). */
  setting: ProjectSetting | null
  /** The redacted raw payload the setting came from, for locations. */
  raw: unknown
  /**
   * Its repository's branches and tags; null (or absent, in snapshots of older versions) when none
   * of them is known: the server offers none of the repository endpoints, or they were not fetched.
   */
  repository?: RepositoryInfo | null
  /**
   * Servers before 11.11 (no base authorizations): the project's single default role
   * (`defaultRoleId` of the project JSON, onedev-access-reference.md §2), null when it has none.
   * Absent on newer servers and in snapshots of older versions.
   */
  defaultRoleId?: number | null
}

export interface JobPrivilege {
  pointer: string
  jobNames: string | null
  manageJob: boolean
  runJob: boolean
  accessLog: boolean
  accessPipeline: boolean
  accessibleReports: string | null
}

export interface Role {
  /** Position in the roles listing (roles.json). Pointers of role findings are relative to the role. */
  index: number
  id: number
  name: string
  manageProject: boolean
  createChildren: boolean
  managePullRequests: boolean
  manageCodeComments: boolean
  manageIssues: boolean
  accessConfidentialIssues: boolean
  scheduleIssues: boolean
  manageBuilds: boolean
  /** Upload build caches; null when the role has no such member: a server before 10.1.0, which uploads no build cache (v10.1.0 Role.java:70). */
  uploadCache: boolean | null
  codePrivilege: string | null
  /** `NONE`, `READ` or `WRITE` (v10.0.0 PackPrivilege.java); null when the role has no such member: a server before 10.0.0, which has no packages. */
  packPrivilege: string | null
  jobPrivileges: JobPrivilege[]
  raw: unknown
}

/** Kinds of AuditError (schemas/snapshot.schema.json lists the same, for snapshot files). */
export const ERROR_KINDS = [
  'auth',
  'forbidden',
  'not-found',
  'http',
  'not-json',
  'network',
  'timeout',
  'too-large',
  'invalid-payload',
  'paging',
  'config',
  'io',
  'plugin',
  'internal',
  'interrupted',
] as const

export type ErrorKind = (typeof ERROR_KINDS)[number]

/** An error is a value until a command turns it into a message and an exit code. */
export interface AuditError {
  kind: ErrorKind
  /** One line, safe to print: no secret, server strings escaped by whoever prints them. */
  message: string
  project?: {id: number; path: string} | null
  /** URL path (with the API prefix, without the base URL or query) of the failing request. */
  path?: string
  status?: number
  /** JSON pointer of the payload part that failed validation. */
  pointer?: string
  /** The rule whose check failed, for an error of evaluation (the rule is then not evaluated). */
  rule?: string
}

/**
 * An optional endpoint the server did not offer (404 or 405, onedev-access-reference.md §7): the
 * checks that need it are not evaluated, never reported as passed.
 */
export interface NotEvaluated {
  /** The endpoint as a template, e.g. `/settings/security` or `/projects/{id}/base-authorizations`. */
  endpoint: string
  status: number
  /** What could not be evaluated without it, e.g. `two-factor and sign-up checks`. */
  checks: string
}

/**
 * Payloads of the optional endpoints beyond project settings and roles (security and admin settings,
 * groups, users, authorizations, ...), redacted at ingest, keyed by the endpoint's path without the
 * prefix and query: `settings/security`, `groups`, `groups/2/memberships`, `projects/42/base-authorizations`.
 * One JSON document: `collect --output-dir` writes it as server.json, and findings about it point into it.
 * A key that is absent was not fetched (or not offered: see `notEvaluated`). Typed views of it are
 * parsed in src/model/ (e.g. access-data.ts); the facts of a run (src/engine/facts.ts) parse them once.
 */
export type ServerData = Record<string, unknown>

/** Everything the rules evaluate: the normalized server state. */
/** The server audited: where, and which OneDev it said it is. */
export interface ServerInfo {
  url: string
  apiPrefix: string
  /**
   * What GET {prefix}/version/server answered (server-version.ts), e.g. `16.5.6`; null when the
   * collection asked and could not read it; absent when it was not asked (a model built without the
   * optional data, a snapshot written before the audit read it). Judgements that depend on it ask
   * src/onedev/versions.ts, which reads null and absent alike: unknown.
   */
  version?: string | null
}

export interface AuditModel {
  server: ServerInfo | null
  projects: Project[]
  /** Projects by id, including ancestors fetched only for inheritance. */
  projectsById: Map<number, Project>
  roles: Role[]
  /** The redacted raw roles listing, for locations. */
  rolesRaw: unknown[]
  errors: AuditError[]
  /** When the payloads were fetched (ISO 8601); set by collection, kept by snapshots. */
  collectedAt?: string
  /** Payloads of optional endpoints, redacted (see ServerData); absent in models built without them. */
  serverData?: ServerData
  /** Optional endpoints the server does not offer, once each. */
  notEvaluated?: NotEvaluated[]
}
