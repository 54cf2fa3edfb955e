/**
 * Builders of normalized model objects for rule tests. Defaults are OneDev's own defaults
 * (onedev-reference.md §3). `project()` assigns pointers by position and builds a raw payload in the
 * current 16.x shape that mirrors the model, so every pointer of a built project resolves in `raw`.
 *
 * For payload-generation tests (legacy vs current JSON), go through src/model/ingest.ts instead.
 */
import type {
  ActionAuthorization,
  AuditModel,
  BranchProtection,
  ChannelNotification,
  FileProtection,
  JobPrivilege,
  JobSecret,
  Project,
  ProjectSetting,
  Role,
  TagProtection,
  UrlFacts,
  WebHook,
} from '../../src/model/types.js'

type Without<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>
type BranchInput = Partial<Omit<BranchProtection, 'pointer' | 'signaturePointer' | 'fileProtections'>> & {
  fileProtections?: Array<Partial<Omit<FileProtection, 'pointer'>>>
}
type TagInput = Partial<Omit<TagProtection, 'pointer' | 'signaturePointer'>>
type SecretInput = {name: string; archived?: boolean} & (
  | {authorizedBranches: string | null}
  | {authorization: string | null}
)
type NotificationInput = {channel?: string; channelKnown?: boolean; webhookUrl: string | null; url?: UrlFacts | null; events?: string[]}
type WebHookInput = Partial<Omit<WebHook, 'pointer'>>

export interface SettingInput {
  generation?: 'legacy' | 'current'
  branchProtections?: BranchInput[]
  tagProtections?: TagInput[]
  jobSecrets?: SecretInput[]
  actionAuthorizations?: Array<Partial<Omit<ActionAuthorization, 'pointer'>>>
  notifications?: NotificationInput[]
  webHooks?: WebHookInput[]
}

export function urlFacts(url: string | null): UrlFacts | null {
  if (url === null) return null
  try {
    const parsed = new URL(url)
    return {
      scheme: parsed.protocol.replace(/:$/, '').toLowerCase(),
      host: parsed.hostname,
      hadUserInfo: parsed.username !== '' || parsed.password !== '',
      secretQueryParams: [...parsed.searchParams.keys()].filter((name) => /token|key|secret|pass|sig|auth/i.test(name)),
      secretPath: false,
    }
  } catch {
    return {scheme: null, host: null, hadUserInfo: false, secretQueryParams: [], secretPath: false}
  }
}

/** A normalized setting plus the raw payload it mirrors. */
export function setting(input: SettingInput = {}): {setting: ProjectSetting; raw: Record<string, unknown>} {
  const branchProtections: BranchProtection[] = (input.branchProtections ?? []).map((b, i) => {
    const pointer = `/branchProtections/${i}`
    return {
      pointer,
      enabled: b.enabled ?? true,
      branches: b.branches === undefined ? 'main' : b.branches,
      userMatch: b.userMatch ?? 'anyone',
      preventForcedPush: b.preventForcedPush ?? true,
      preventDeletion: b.preventDeletion ?? true,
      preventCreation: b.preventCreation ?? true,
      signatureRequired: b.signatureRequired ?? false,
      signaturePointer: `${pointer}/commitSignatureRequired`,
      reviewRequirement: b.reviewRequirement ?? null,
      jobNames: b.jobNames ?? [],
      fileProtections: (b.fileProtections ?? []).map((f, j) => ({
        pointer: `${pointer}/fileProtections/${j}`,
        paths: f.paths ?? null,
        reviewRequirement: f.reviewRequirement ?? null,
        jobNames: f.jobNames ?? [],
      })),
      requireStrictBuilds: b.requireStrictBuilds ?? false,
    }
  })
  const tagProtections: TagProtection[] = (input.tagProtections ?? []).map((t, i) => ({
    pointer: `/tagProtections/${i}`,
    enabled: t.enabled ?? true,
    tags: t.tags === undefined ? 'v*' : t.tags,
    userMatch: t.userMatch ?? 'anyone',
    preventUpdate: t.preventUpdate ?? true,
    preventDeletion: t.preventDeletion ?? true,
    preventCreation: t.preventCreation ?? true,
    signatureRequired: t.signatureRequired ?? false,
    signaturePointer: `/tagProtections/${i}/commitSignatureRequired`,
  }))
  const jobSecrets: JobSecret[] = (input.jobSecrets ?? []).map((s, i) => {
    const pointer = `/buildSetting/jobSecrets/${i}`
    return {
      pointer,
      name: s.name,
      archived: s.archived ?? false,
      authorization:
        'authorizedBranches' in s
          ? {kind: 'branches', branches: s.authorizedBranches, pointer: `${pointer}/authorizedBranches`}
          : {kind: 'job-match', expression: s.authorization, pointer: `${pointer}/authorization`},
    }
  })
  // Given: an 8.0.4 payload, which has the list (empty or not); absent: a later server's, which has none.
  const actionAuthorizations: ActionAuthorization[] | null =
    input.actionAuthorizations?.map((a, i) => ({
      pointer: `/buildSetting/actionAuthorizations/${i}`,
      type: a.type ?? 'CreateTagAuthorization',
      authorizedBranches: a.authorizedBranches ?? null,
      names: a.names ?? null,
    })) ?? null
  const notifications: ChannelNotification[] = (input.notifications ?? []).map((n, i) => ({
    pointer: `/contributedSettings/0/notifications/${i}`,
    channel: n.channel ?? 'Slack',
    channelKnown: n.channelKnown ?? true,
    webhookUrl: n.webhookUrl,
    url: n.url === undefined ? urlFacts(n.webhookUrl) : n.url,
    events: n.events ?? ['issues'],
  }))
  const webHooks: WebHook[] = (input.webHooks ?? []).map((w, i) => ({
    pointer: `/webHooks/${i}`,
    postUrl: w.postUrl ?? 'https://ci.example.com/hook',
    url: w.url === undefined ? urlFacts(w.postUrl ?? 'https://ci.example.com/hook') : w.url,
    hasSecret: w.hasSecret ?? true,
    headerNames: w.headerNames ?? [],
    eventTypes: w.eventTypes ?? ['CODE_PUSH'],
  }))
  const normalized: ProjectSetting = {
    generation: input.generation ?? (jobSecrets.some((s) => s.authorization.kind === 'branches') || actionAuthorizations !== null ? 'legacy' : 'current'),
    branchProtections,
    tagProtections,
    jobSecrets,
    actionAuthorizations,
    notifications,
    webHooks,
  }
  const raw = {
    branchProtections: branchProtections.map((b) => ({
      enabled: b.enabled,
      branches: b.branches,
      userMatch: b.userMatch,
      preventForcedPush: b.preventForcedPush,
      preventDeletion: b.preventDeletion,
      preventCreation: b.preventCreation,
      commitSignatureRequired: b.signatureRequired,
      reviewRequirement: b.reviewRequirement,
      jobNames: b.jobNames,
      fileProtections: b.fileProtections.map((f) => ({paths: f.paths, reviewRequirement: f.reviewRequirement, jobNames: f.jobNames})),
      requireStrictBuilds: b.requireStrictBuilds,
    })),
    tagProtections: tagProtections.map((t) => ({
      enabled: t.enabled,
      tags: t.tags,
      userMatch: t.userMatch,
      preventUpdate: t.preventUpdate,
      preventDeletion: t.preventDeletion,
      preventCreation: t.preventCreation,
      commitSignatureRequired: t.signatureRequired,
    })),
    buildSetting: {
      jobSecrets: jobSecrets.map((s) =>
        s.authorization.kind === 'branches'
          ? {name: s.name, value: '<redacted>', authorizedBranches: s.authorization.branches}
          : {name: s.name, value: '<redacted>', authorization: s.authorization.expression, archived: s.archived},
      ),
      ...(actionAuthorizations ? {actionAuthorizations: actionAuthorizations.map((a) => ({'@type': a.type, authorizedBranches: a.authorizedBranches, tagNames: a.names}))} : {}),
    },
    webHooks: webHooks.map((w) => ({postUrl: w.postUrl, eventTypes: w.eventTypes, secret: w.hasSecret ? '<redacted>' : null, headers: w.headerNames.map((name) => ({name, value: '<redacted>'}))})),
    contributedSettings: [
      // What the model holds beyond the URL rides along, so that models that differ have raws that differ.
      {'@type': 'SlackNotificationSetting', notifications: notifications.map((n) => ({webhookUrl: n.webhookUrl, channel: n.channel, channelKnown: n.channelKnown, events: n.events}))},
    ],
  }
  return {setting: normalized, raw}
}

export interface ProjectInput extends SettingInput {
  id?: number
  path?: string
  parentId?: number | null
}

let nextId = 1000

export function project(input: ProjectInput = {}): Project {
  const {setting: normalized, raw} = setting(input)
  const id = input.id ?? nextId++
  const path = input.path ?? `acme/project-${id}`
  return {id, path, name: path.split('/').pop() ?? path, parentId: input.parentId ?? null, setting: normalized, raw}
}

type RoleInput = Partial<Omit<Role, 'index' | 'raw' | 'jobPrivileges'>> & {
  name: string
  jobPrivileges?: Array<Partial<Omit<JobPrivilege, 'pointer'>>>
}

export function role(input: RoleInput, index = 0): Role {
  const jobPrivileges: JobPrivilege[] = (input.jobPrivileges ?? []).map((j, i) => ({
    pointer: `/jobPrivileges/${i}`,
    jobNames: j.jobNames ?? '*',
    manageJob: j.manageJob ?? false,
    runJob: j.runJob ?? false,
    accessLog: j.accessLog ?? false,
    accessPipeline: j.accessPipeline ?? false,
    accessibleReports: j.accessibleReports ?? null,
  }))
  const built: Omit<Role, 'raw'> = {
    index,
    id: input.id ?? index + 1,
    name: input.name,
    manageProject: input.manageProject ?? false,
    createChildren: input.createChildren ?? false,
    managePullRequests: input.managePullRequests ?? false,
    manageCodeComments: input.manageCodeComments ?? false,
    manageIssues: input.manageIssues ?? false,
    accessConfidentialIssues: input.accessConfidentialIssues ?? false,
    scheduleIssues: input.scheduleIssues ?? false,
    manageBuilds: input.manageBuilds ?? false,
    uploadCache: input.uploadCache ?? false,
    codePrivilege: input.codePrivilege ?? 'READ',
    packPrivilege: input.packPrivilege ?? 'READ',
    jobPrivileges,
  }
  const {index: _index, ...rawRole} = built
  return {...built, raw: {...rawRole, jobPrivileges: jobPrivileges.map(({pointer: _p, ...rest}) => rest)}}
}

/** A model of audited projects (and ancestors fetched only for inheritance) and roles. */
export function model(input: {projects?: Project[]; ancestors?: Project[]; roles?: Role[]; server?: AuditModel['server']} = {}): AuditModel {
  const projects = input.projects ?? []
  const roles = (input.roles ?? []).map((r, index) => ({...r, index}))
  const projectsById = new Map<number, Project>()
  for (const p of [...projects, ...(input.ancestors ?? [])]) projectsById.set(p.id, p)
  return {
    server: input.server ?? {url: 'https://onedev.example.com', apiPrefix: '/~api'},
    projects,
    projectsById,
    roles,
    rolesRaw: roles.map((r) => r.raw),
    errors: [],
  }
}
