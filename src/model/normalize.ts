/**
 * Validation issues and normalization of both payload generations into the model (types.ts).
 * Input is always the REDACTED raw payload, so the model is a pure function of what is stored in a
 * snapshot: re-ingesting a snapshot gives the same model.
 *
 * Defaults: an absent or null field takes the value of the Java field initializer, because that is
 * what the server applies when it loads such an object (onedev-reference.md §3.1-3.3, §4, §5):
 * enabled true, preventForcedPush/preventDeletion/preventCreation/preventUpdate true, signature
 * required false, userMatch `anyone`, jobNames [], reviewRequirement null, role flags false.
 */
import type {z} from 'zod'
import {mapped} from '../util/collections.js'
import {oneLine} from '../util/escape.js'
import {isObject} from '../util/json.js'
import * as checks from './payload-checks.js'
import {EXPECTED_INTEGER} from './parser.js'
import {joinPointer, pointerOf, resolvePointer} from './pointer.js'
import {simpleTypeName, typeOf} from './polymorphic.js'
import {redactUrl} from './redact.js'
import type * as schemas from './schemas.js'
import type {
  ActionAuthorizationPayload,
  BranchProtectionPayload,
  FileProtectionPayload,
  JobPrivilegePayload,
  JobSecretPayload,
  NotificationEntryPayload,
  ProjectSettingPayload,
  RolePayload,
  TagProtectionPayload,
  WebHookPayload,
} from './schemas.js'
import type {
  ActionAuthorization,
  BranchProtection,
  ChannelNotification,
  FileProtection,
  JobPrivilege,
  JobSecret,
  PayloadGeneration,
  ProjectSetting,
  Role,
  SecretAuthorization,
  TagProtection,
  UrlFacts,
  WebHook,
} from './types.js'

/** One thing wrong with a payload: where (JSON pointer) and what (`expected boolean, got string`). */
export interface PayloadIssue {
  pointer: string
  message: string
}

const MAX_ISSUES_SHOWN = 5

type Json = Record<string, unknown>

function has(object: unknown, key: string): boolean {
  return isObject(object) && Object.prototype.hasOwnProperty.call(object, key)
}

function own(object: unknown, key: string): unknown {
  return has(object, key) ? (object as Json)[key] : undefined
}

/** The JSON type of a value, as issues name it. */
export function jsonTypeName(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/** A payload schema of schemas.ts, by name: zod is loaded only when a payload fails its generated check. */
export async function payloadSchema(name: {[K in keyof typeof schemas]: K extends `${string}Schema` ? K : never}[keyof typeof schemas]): Promise<z.ZodType> {
  return (await import('./schemas.js'))[name]
}

const EXPECTED_NAMES: Record<string, string> = {int: 'integer', record: 'object'}

/**
 * Validates `value` (found at `base` inside `root`) and returns its issues with pointers into `root`:
 * none when the generated check (payload-checks.ts) passes; else zod's, from the schema `schema` loads.
 */
export async function schemaIssues(
  check: (value: unknown) => boolean,
  schema: () => Promise<z.ZodType>,
  value: unknown,
  root: unknown,
  base: readonly (string | number)[] = [],
): Promise<PayloadIssue[]> {
  if (check(value)) return []
  const result = (await schema()).safeParse(value)
  if (result.success) return []
  return result.error.issues.map((issue) => {
    const pointer = pointerOf([...base, ...issue.path])
    if (issue.code === 'invalid_type') {
      const expected = issue.message === EXPECTED_INTEGER ? 'integer' : (EXPECTED_NAMES[issue.expected] ?? issue.expected)
      return {pointer, message: `expected ${expected}, got ${jsonTypeName(resolvePointer(root, pointer))}`}
    }
    return {pointer, message: issue.message}
  })
}

/** `subject: /a/b: expected boolean, got string; /c: ...; and 3 more` */
export function describeIssues(subject: string, issues: readonly PayloadIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => `${oneLine(issue.pointer || '(root)')}: ${oneLine(issue.message)}`)
  const more = issues.length > MAX_ISSUES_SHOWN ? `; and ${issues.length - MAX_ISSUES_SHOWN} more` : ''
  return `${subject}: ${shown.join('; ')}${more}`
}

// ---------------------------------------------------------------- project setting: validation

/**
 * Whether a (redacted) project setting payload is valid, by the generated checks alone: true exactly
 * when projectSettingIssues finds none. Synchronous and allocation-free, for the common case.
 */
export function projectSettingPasses(raw: unknown): boolean {
  if (!isObject(raw) || !checks.isProjectSetting(raw)) return false
  const contributed = own(raw, 'contributedSettings')
  if (contributed === undefined || contributed === null) return true
  if (Array.isArray(contributed)) {
    for (let key = 0; key < contributed.length; key++) if (!contributedPasses(key, contributed[key])) return false
    return true
  }
  if (!isObject(contributed)) return false
  for (const key of Object.keys(contributed)) if (!contributedPasses(key, contributed[key])) return false
  return true
}

function contributedPasses(key: string | number, item: unknown): boolean {
  if (item === null) return true
  if (!isObject(item)) return false
  return notificationChannel(key, item) === null || checks.isNotificationSetting(item)
}

/** Every type error of a (redacted) project setting payload of either generation. */
export async function projectSettingIssues(raw: unknown): Promise<PayloadIssue[]> {
  if (!isObject(raw)) return [{pointer: '', message: `expected object, got ${jsonTypeName(raw)}`}]
  const issues = await schemaIssues(checks.isProjectSetting, () => payloadSchema('ProjectSettingSchema'), raw, raw)
  issues.push(...(await contributedSettingIssues(raw)))
  return issues
}

async function contributedSettingIssues(raw: Json): Promise<PayloadIssue[]> {
  const contributed = own(raw, 'contributedSettings')
  if (contributed === undefined || contributed === null) return []
  if (!Array.isArray(contributed) && !isObject(contributed)) {
    return [{pointer: '/contributedSettings', message: `expected array or object, got ${jsonTypeName(contributed)}`}]
  }
  const issues: PayloadIssue[] = []
  for (const {key, item} of contributedEntries(contributed)) {
    if (item === null) continue
    if (!isObject(item)) {
      issues.push({pointer: joinPointer('/contributedSettings', key), message: `expected object, got ${jsonTypeName(item)}`})
    } else if (notificationChannel(key, item) !== null) {
      issues.push(...(await schemaIssues(checks.isNotificationSetting, () => payloadSchema('NotificationSettingSchema'), item, raw, ['contributedSettings', key])))
    }
  }
  return issues
}

function contributedEntries(contributed: unknown): {key: string | number; item: unknown}[] {
  if (Array.isArray(contributed)) return mapped(contributed, (item, key) => ({key, item}))
  if (isObject(contributed)) return Object.keys(contributed).map((key) => ({key, item: contributed[key]}))
  return []
}

const NOTIFICATION_SUFFIX = 'NotificationSetting'

/**
 * The channel of a contributed setting (`Slack` for `SlackNotificationSetting`), from its type
 * (polymorphic.ts), else from the class-name key of the legacy map; null when it is some other plugin's setting.
 */
function notificationChannel(key: string | number, item: Json): string | null {
  const className = typeOf(item) ?? (typeof key === 'string' ? simpleTypeName(key) : null)
  if (className === null) return has(item, 'notifications') ? 'Unknown' : null
  if (!className.endsWith(NOTIFICATION_SUFFIX)) return null
  return className.slice(0, -NOTIFICATION_SUFFIX.length) || className
}

// ---------------------------------------------------------------- project setting: normalization

/** 'legacy' when the payload carries any 8.0.x-era marker, else 'current'. */
export function detectGeneration(raw: unknown): PayloadGeneration {
  if (!isObject(raw)) return 'current'
  if (anyHas(own(raw, 'branchProtections'), 'signatureRequired') || anyHas(own(raw, 'tagProtections'), 'signatureRequired')) return 'legacy'
  const buildSetting = own(raw, 'buildSetting')
  if (has(buildSetting, 'actionAuthorizations')) return 'legacy'
  const secrets = own(buildSetting, 'jobSecrets')
  if (anyHas(secrets, 'authorizedBranches')) return 'legacy'
  const notifications = own(raw, 'notifications')
  if (notifications !== undefined && notifications !== null) return 'legacy'
  const contributed = own(raw, 'contributedSettings')
  if (isObject(contributed)) return 'legacy'
  if (Array.isArray(contributed)) {
    for (const item of contributed) {
      const list = own(item, 'notifications')
      if (anyHas(list, 'channelNotification')) return 'legacy'
    }
  }
  return 'current'
}

/** Whether `list` is an array with an object that has `key` of its own. */
function anyHas(list: unknown, key: string): boolean {
  if (!Array.isArray(list)) return false
  for (const item of list) if (has(item, key)) return true
  return false
}

/** A VALID (see projectSettingIssues) redacted project setting → the model. */
export function normalizeProjectSetting(raw: unknown): ProjectSetting {
  const setting = raw as ProjectSettingPayload
  const generation = detectGeneration(raw)
  const buildSetting = setting.buildSetting ?? {}
  const secrets = buildSetting.jobSecrets ?? []
  const scheme = secretScheme(secrets, generation)
  return {
    generation,
    branchProtections: mapped(setting.branchProtections ?? [], (p, i) => branchProtection(p, joinPointer('', 'branchProtections', i))),
    tagProtections: mapped(setting.tagProtections ?? [], (p, i) => tagProtection(p, joinPointer('', 'tagProtections', i))),
    jobSecrets: mapped(secrets, (s, i) => jobSecret(s, joinPointer('', 'buildSetting', 'jobSecrets', i), scheme)),
    actionAuthorizations: has(buildSetting, 'actionAuthorizations')
      ? mapped(buildSetting.actionAuthorizations ?? [], (a, i) => actionAuthorization(a, joinPointer('', 'buildSetting', 'actionAuthorizations', i)))
      : null,
    notifications: notifications(setting),
    webHooks: mapped(setting.webHooks ?? [], (w, i) => webHook(w, joinPointer('', 'webHooks', i))),
  }
}

/** The signature flag the payload has: `commitSignatureRequired` (current) or `signatureRequired` (legacy). */
function signatureKey(protection: Json): string {
  return !has(protection, 'commitSignatureRequired') && has(protection, 'signatureRequired') ? 'signatureRequired' : 'commitSignatureRequired'
}

/** The pointer of a member when the payload has it; else of the object, so every pointer resolves. */
function memberPointer(object: Json, pointer: string, key: string): string {
  return has(object, key) ? joinPointer(pointer, key) : pointer
}

/** null (and `""`, which the server reads as null) mean `anyone`. */
function userMatch(value: string | null | undefined): string {
  return value === null || value === undefined || value === '' ? 'anyone' : value
}

function fileProtection(p: FileProtectionPayload, pointer: string): FileProtection {
  return {pointer, paths: p.paths ?? null, reviewRequirement: p.reviewRequirement ?? null, jobNames: p.jobNames ?? []}
}

function branchProtection(p: BranchProtectionPayload, pointer: string): BranchProtection {
  const signature = signatureKey(p)
  return {
    pointer,
    enabled: p.enabled ?? true,
    branches: p.branches ?? null,
    userMatch: userMatch(p.userMatch),
    preventForcedPush: p.preventForcedPush ?? true,
    preventDeletion: p.preventDeletion ?? true,
    preventCreation: p.preventCreation ?? true,
    signatureRequired: own(p, signature) === true,
    signaturePointer: memberPointer(p, pointer, signature),
    reviewRequirement: p.reviewRequirement ?? null,
    jobNames: p.jobNames ?? [],
    fileProtections: mapped(p.fileProtections ?? [], (f, i) => fileProtection(f, joinPointer(pointer, 'fileProtections', i))),
    requireStrictBuilds: p.requireStrictBuilds ?? false,
  }
}

function tagProtection(p: TagProtectionPayload, pointer: string): TagProtection {
  const signature = signatureKey(p)
  return {
    pointer,
    enabled: p.enabled ?? true,
    tags: p.tags ?? null,
    userMatch: userMatch(p.userMatch),
    preventUpdate: p.preventUpdate ?? true,
    preventDeletion: p.preventDeletion ?? true,
    preventCreation: p.preventCreation ?? true,
    signatureRequired: own(p, signature) === true,
    signaturePointer: memberPointer(p, pointer, signature),
  }
}

/**
 * How the secrets of this payload are authorized when a secret has neither key: like its siblings
 * if any sibling says, else by the payload's generation (8.0.5–11.6.9 servers send current-style
 * secrets inside otherwise legacy-looking payloads).
 */
function secretScheme(secrets: JobSecretPayload[], generation: PayloadGeneration): SecretAuthorization['kind'] {
  if (secrets.some((s) => has(s, 'authorization'))) return 'job-match'
  if (secrets.some((s) => has(s, 'authorizedBranches'))) return 'branches'
  return generation === 'legacy' ? 'branches' : 'job-match'
}

function jobSecret(s: JobSecretPayload, pointer: string, fallback: SecretAuthorization['kind']): JobSecret {
  // A secret with both keys is read as current: `authorization` is what today's servers enforce.
  const kind = has(s, 'authorization') ? 'job-match' : has(s, 'authorizedBranches') ? 'branches' : fallback
  const authorization: SecretAuthorization =
    kind === 'job-match'
      ? {kind, expression: s.authorization ?? null, pointer: memberPointer(s, pointer, 'authorization')}
      : {kind, branches: s.authorizedBranches ?? null, pointer: memberPointer(s, pointer, 'authorizedBranches')}
  return {pointer, name: s.name ?? '', archived: s.archived ?? false, authorization}
}

function actionAuthorization(a: ActionAuthorizationPayload, pointer: string): ActionAuthorization {
  const names = has(a, 'tagNames') ? a.tagNames : a.milestoneNames
  return {pointer, type: typeOf(a) ?? '', authorizedBranches: a.authorizedBranches ?? null, names: names ?? null}
}

function url(value: string | null | undefined): {url: string | null; facts: UrlFacts | null} {
  if (value === null || value === undefined || value === '') return {url: null, facts: null}
  const redacted = redactUrl(value)
  return {url: redacted.url, facts: redacted.facts}
}

function webHook(w: WebHookPayload, pointer: string): WebHook {
  const post = url(w.postUrl)
  return {
    pointer,
    postUrl: post.url,
    url: post.facts,
    hasSecret: w.secret !== null && w.secret !== undefined && w.secret !== '',
    headerNames: (w.headers ?? []).flatMap((h) => (typeof h.name === 'string' ? [h.name] : [])),
    eventTypes: w.eventTypes ?? [],
  }
}

/** The contract's top-level list, then each notification plugin of contributedSettings (map or list). */
function notifications(setting: ProjectSettingPayload): ChannelNotification[] {
  const out: ChannelNotification[] = []
  for (const [i, entry] of (setting.notifications ?? []).entries()) {
    out.push(channelNotification(entry, joinPointer('', 'notifications', i), null))
  }
  for (const {key, item} of contributedEntries(setting.contributedSettings)) {
    if (!isObject(item)) continue
    const channel = notificationChannel(key, item)
    if (channel === null) continue
    const list = (own(item, 'notifications') ?? []) as NotificationEntryPayload[]
    for (const [i, entry] of list.entries()) {
      out.push(channelNotification(entry, joinPointer('', 'contributedSettings', key, 'notifications', i), channel))
    }
  }
  return out
}

/** The kinds of activity a channel notification can be sent for (ChannelNotification.java), in OneDev's order. */
const NOTIFICATION_EVENTS: ReadonlyArray<[field: string, event: string]> = [
  ['issues', 'issues'],
  ['pullRequests', 'pull requests'],
  ['builds', 'builds'],
  ['codePush', 'code push'],
  ['codeComments', 'code comments'],
]

function channelNotification(entry: NotificationEntryPayload, pointer: string, channel: string | null): ChannelNotification {
  const wrapped = has(entry, 'channelNotification') && isObject(entry.channelNotification)
  const fields = wrapped ? entry.channelNotification! : entry
  const hook = url(fields.webhookUrl)
  return {
    pointer: wrapped ? joinPointer(pointer, 'channelNotification') : pointer,
    channel: channel ?? channelOfUrl(hook.facts),
    channelKnown: channel !== null && channel !== 'Unknown',
    webhookUrl: hook.url,
    url: hook.facts,
    events: mapped(NOTIFICATION_EVENTS.filter(([field]) => own(fields, field) === true), ([, event]) => event),
  }
}

/** The contract's top-level notifications carry no type: name the channel after the webhook host. */
function channelOfUrl(facts: UrlFacts | null): string {
  const host = facts?.host ?? ''
  if (/(^|\.)slack\.com$/i.test(host)) return 'Slack'
  if (/(^|\.)discord(app)?\.com$/i.test(host)) return 'Discord'
  if (/(^|\.)ntfy\.sh$/i.test(host)) return 'Ntfy'
  return 'Unknown'
}

// ---------------------------------------------------------------- roles

/** A VALID redacted role → the model. Pointers inside are relative to the role. */
export function normalizeRole(r: RolePayload, index: number, raw: unknown): Role {
  return {
    index,
    id: r.id,
    name: r.name ?? String(r.id),
    manageProject: r.manageProject ?? false,
    createChildren: r.createChildren ?? false,
    managePullRequests: r.managePullRequests ?? false,
    manageCodeComments: r.manageCodeComments ?? false,
    manageIssues: r.manageIssues ?? false,
    accessConfidentialIssues: r.accessConfidentialIssues ?? false,
    scheduleIssues: r.scheduleIssues ?? false,
    manageBuilds: r.manageBuilds ?? false,
    uploadCache: r.uploadCache ?? null,
    codePrivilege: r.codePrivilege ?? null,
    packPrivilege: r.packPrivilege ?? null,
    jobPrivileges: mapped(r.jobPrivileges ?? [], (j, i) => jobPrivilege(j, joinPointer('', 'jobPrivileges', i))),
    raw,
  }
}

function jobPrivilege(j: JobPrivilegePayload, pointer: string): JobPrivilege {
  return {
    pointer,
    jobNames: j.jobNames ?? null,
    manageJob: j.manageJob ?? false,
    runJob: j.runJob ?? false,
    accessLog: j.accessLog ?? false,
    accessPipeline: j.accessPipeline ?? false,
    accessibleReports: j.accessibleReports ?? null,
  }
}

