/**
 * Typed views of the administration settings in the server data document (model.serverData,
 * redacted at ingest): job executors, groovy scripts, the system setting, the external
 * authenticator, SSO providers (or the SSO connectors of servers up to 12.0) and each user's access
 * tokens (onedev-access-reference.md §3.2, §3.3, §5). Each view parses the document when asked (a few
 * server rules ask, once per run) and is `undefined` when the data was not fetched or not offered:
 * rules then stay silent (the not-evaluated notice covers it). Items that do not have the expected
 * shape are left out.
 *
 * Pointers are JSON pointers into the server data document, e.g. `/settings~1job-executors/0`.
 */
import type {z} from 'zod'

import * as checks from './payload-checks.js'
import {hasOwn, parser, validItems} from './parser.js'
import {joinPointer} from './pointer.js'
import {typedCheck, typeOf} from './polymorphic.js'
import type * as S from './server-schemas.js'
import type {AuditModel, ServerData} from './types.js'

export const JOB_EXECUTORS_KEY = 'settings/job-executors'
export const GROOVY_SCRIPTS_KEY = 'settings/groovy-scripts'
export const SYSTEM_KEY = 'settings/system'
export const AUTHENTICATOR_KEY = 'settings/authenticator'
export const SSO_PROVIDERS_KEY = 'sso-providers'
/** Servers up to 12.0.8 (v8.0.0 SettingResource.java:182-187 to v12.0.8; 12.0.9 to 13.1.6 offer neither this nor /sso-providers). */
export const SSO_CONNECTORS_KEY = 'settings/sso-connectors'
export const accessTokensKey = (userId: number) => `users/${userId}/access-tokens`

type Model = Pick<AuditModel, 'serverData'>

/** Which key restricts the jobs an executor takes, by server generation (§3.2). */
export type JobMatchKey =
  /** v11.11.1+: null on a server shell executor admits no job, elsewhere any job */
  | 'jobMatch'
  /** v8.0.5 – v11.11.0: null admits any job */
  | 'jobRequirement'
  /** up to v8.0.4: null admits any job */
  | 'jobAuthorization'

export interface JobExecutor {
  /** `/settings~1job-executors/<index>`. */
  pointer: string
  /** Its class (polymorphic.ts: `@type`, or `@class`): ServerShellExecutor, ServerDockerExecutor, RemoteDockerExecutor, RemoteShellExecutor, KubernetesExecutor, ... */
  type: string
  name: string
  enabled: boolean
  /** The key the payload carries (the newest when several); null when it carries none. */
  jobMatchKey: JobMatchKey | null
  /** The restriction's text; null when empty. */
  jobMatch: string | null
  /** Where the restriction sits (the executor itself when the payload has no such key). */
  jobMatchPointer: string
  /** Server and remote Docker executors: the Docker socket is mounted into job containers. */
  mountDockerSock: boolean
  /**
   * Server and remote Docker executors: options OneDev adds to each step's `docker run` (as the text
   * holds them, redacted like every server string); null when empty.
   */
  runOptions: string | null
  /** "Enable Html Report Publish" (v10.0.0+; false when absent). */
  htmlReportPublishEnabled: boolean
  /** "Enable Site Publish" (false when absent). */
  sitePublishEnabled: boolean
  /** Kubernetes executors: the cluster role bound to each job's service account; null when empty. */
  clusterRole: string | null
}

/**
 * Which key restricts the build jobs that may use a groovy script, by server generation:
 * `jobAuthorization` from 15.0.0 (v15.0.0 model/support/administration/GroovyScript.java:35),
 * `authorization` from 8.0.5 to 14.1.x (v8.0.5 and v14.1.0 GroovyScript.java:30), both job matches;
 * up to 8.0.4 the pattern sets `allowedProjects` and `allowedBranches` (v8.0.0 GroovyScript.java:39-41,
 * `isAuthorized` :110-118: null allows every project, every branch).
 */
export type GroovyAuthorizationKey = 'jobAuthorization' | 'authorization' | 'allowedProjects'

export interface GroovyScript {
  /** `/settings~1groovy-scripts/<index>`. */
  pointer: string
  name: string
  /** Default true (§3.2). */
  canBeUsedByBuildJobs: boolean
  /** The key the payload restricts jobs with (the newest when several); null when it carries none. */
  authorizationKey: GroovyAuthorizationKey | null
  /** The jobs allowed to use it (`jobAuthorization` or `authorization`); null (empty) = any job. */
  jobAuthorization: string | null
  /** Up to 8.0.4: the projects and branches allowed (pattern sets; null = all); null on later servers. */
  allowed: {projects: string | null; branches: string | null} | null
}

export interface SystemSetting {
  /** `/settings~1system`. */
  pointer: string
  /** Redacted like every URL (user info and token-like parts masked; the scheme and host are kept). */
  serverUrl: string | null
}

export interface Authenticator {
  /** `/settings~1authenticator`. */
  pointer: string
  /** `LdapAuthenticator`, `ActiveDirectoryAuthenticator`, ... (OneDev writes it as `@class`, the full name: polymorphic.ts) */
  type: string
  ldapUrl: string | null
  /** The class of `groupRetrieval` (`@type`): `DoNotRetrieveGroups`, `GetGroupsUsingAttribute`, `SearchGroupsUsingFilter`; null when absent. */
  groupRetrieval: string | null
}

export interface SsoProvider {
  /** `/sso-providers/<index>` or `/settings~1sso-connectors/<index>`. */
  pointer: string
  name: string
  /** The connector's class (`@type`: `OpenIdConnector`, `GitHubConnector`, ...). */
  type: string
  /** The claim whose values are synced as group names; null when none. */
  groupsClaim: string | null
  /** Where `groupsClaim` sits. */
  groupsClaimPointer: string
  /**
   * The group every account the provider logs in joins: by id (`defaultGroupId`, v13.1.7+), or by name
   * (`defaultGroup`, the SSO connectors of servers up to 12.0.8); both null when none.
   */
  defaultGroupId: number | null
  defaultGroupName: string | null
  /** Where the default group sits. */
  defaultGroupPointer: string
}

export interface AccessToken {
  /** `/users~1<id>~1access-tokens/<index>`. */
  pointer: string
  id: number | null
  name: string
  /** The user whose token list holds it. */
  ownerId: number
  /** Whether it acts with every permission of its owner; tokens before 10.7.0 (no such key) always do. */
  hasOwnerPermissions: boolean
  /** null: never expires. */
  expireDate: string | null
}

const ExecutorSchema = parser<z.infer<typeof S.ExecutorSchema>>(typedCheck(checks.isExecutor))
const GroovySchema = parser<z.infer<typeof S.GroovySchema>>(checks.isGroovy)
const SystemSchema = parser<z.infer<typeof S.SystemSchema>>(checks.isSystem)
const AuthenticatorSchema = parser<z.infer<typeof S.AuthenticatorSchema>>(typedCheck(checks.isAuthenticator))
const ConnectorSchema = parser<z.infer<typeof S.ConnectorSchema>>(checks.isConnector)
const ProviderSchema = parser<z.infer<typeof S.ProviderSchema>>(checks.isProvider)
const TokenSchema = parser<z.infer<typeof S.TokenSchema>>(checks.isToken)

const blankToNull = (value: string | null | undefined): string | null => (value === null || value === undefined || value.trim() === '' ? null : value)

/** A view of the document: `parse` runs when it holds data, and its null means "not read". */
function view<T>(model: Model, parse: (data: ServerData) => T | null): T | undefined {
  const data = model.serverData
  return data ? (parse(data) ?? undefined) : undefined
}

// ---------------------------------------------------------------- job executors

/** GET /settings/job-executors, in the server's order (the first applicable executor runs a job); undefined when not read. */
export function jobExecutorsOf(model: Model): JobExecutor[] | undefined {
  return view(model, (data) => {
    if (!hasOwn(data, JOB_EXECUTORS_KEY)) return null
    const list = validItems(data[JOB_EXECUTORS_KEY], ExecutorSchema)
    return list?.map(({item, index}) => toExecutor(item, index, data[JOB_EXECUTORS_KEY] as unknown[])) ?? null
  })
}

function toExecutor(item: z.infer<typeof S.ExecutorSchema>, index: number, list: unknown[]): JobExecutor {
  const raw = list[index] as Record<string, unknown>
  const jobMatchKey = (['jobMatch', 'jobRequirement', 'jobAuthorization'] as const).find((key) => hasOwn(raw, key)) ?? null
  const pointer = joinPointer('', JOB_EXECUTORS_KEY, index)
  return {
    pointer,
    type: typeOf(item)!,
    name: item.name ?? `#${index + 1}`,
    enabled: item.enabled ?? true,
    jobMatchKey,
    jobMatch: jobMatchKey === null ? null : blankToNull(item[jobMatchKey]),
    jobMatchPointer: jobMatchKey === null ? pointer : joinPointer(pointer, jobMatchKey),
    mountDockerSock: item.mountDockerSock ?? false,
    runOptions: blankToNull(item.runOptions),
    htmlReportPublishEnabled: item.htmlReportPublishEnabled ?? false,
    sitePublishEnabled: item.sitePublishEnabled ?? false,
    clusterRole: blankToNull(item.clusterRole),
  }
}

// ---------------------------------------------------------------- groovy scripts

/** GET /settings/groovy-scripts (the content is never kept); undefined when not read. */
export function groovyScriptsOf(model: Model): GroovyScript[] | undefined {
  return view(model, (data) => {
    if (!hasOwn(data, GROOVY_SCRIPTS_KEY)) return null
    return (
      validItems(data[GROOVY_SCRIPTS_KEY], GroovySchema)?.map(({item, index}) => {
        const key = (['jobAuthorization', 'authorization', 'allowedProjects', 'allowedBranches'] as const).find((candidate) => hasOwn(item, candidate)) ?? null
        const legacy = key === 'allowedProjects' || key === 'allowedBranches'
        return {
          pointer: joinPointer('', GROOVY_SCRIPTS_KEY, index),
          name: item.name ?? `#${index + 1}`,
          canBeUsedByBuildJobs: item.canBeUsedByBuildJobs ?? true,
          authorizationKey: legacy ? 'allowedProjects' : key,
          jobAuthorization: legacy || key === null ? null : blankToNull(item[key]),
          allowed: legacy ? {projects: blankToNull(item.allowedProjects), branches: blankToNull(item.allowedBranches)} : null,
        }
      }) ?? null
    )
  })
}

// ---------------------------------------------------------------- system setting

/** GET /settings/system; undefined when not read. */
export function systemSettingOf(model: Model): SystemSetting | undefined {
  return view(model, (data) => {
    if (!hasOwn(data, SYSTEM_KEY)) return null
    const parsed = SystemSchema.safeParse(data[SYSTEM_KEY])
    return parsed.success ? {pointer: joinPointer('', SYSTEM_KEY), serverUrl: blankToNull(parsed.data.serverUrl)} : null
  })
}

// ---------------------------------------------------------------- authenticator

/** GET /settings/authenticator: null when the server has none (204), undefined when not read. */
export function authenticatorOf(model: Model): Authenticator | null | undefined {
  const found = view<Authenticator | 'none'>(model, (data) => {
    if (!hasOwn(data, AUTHENTICATOR_KEY)) return null
    const raw = data[AUTHENTICATOR_KEY]
    if (raw === null) return 'none'
    const parsed = AuthenticatorSchema.safeParse(raw)
    if (!parsed.success) return null
    return {
      pointer: joinPointer('', AUTHENTICATOR_KEY),
      type: typeOf(parsed.data)!,
      ldapUrl: blankToNull(parsed.data.ldapUrl),
      groupRetrieval: typeOf(parsed.data.groupRetrieval),
    }
  })
  return found === 'none' ? null : found
}

/**
 * The external authenticator's default group (`Authenticator.defaultGroup`, a group name; every
 * account the directory creates joins it, and every login that syncs groups keeps it: v16.5.6
 * server-core/src/main/java/io/onedev/server/security/DefaultAuthenticatingService.java:97-108). Read
 * whatever the payload names its class with: the authenticator is written with `@class`
 * (`@JsonTypeInfo(use=Id.CLASS)`, v16.5.6 server-core/src/main/java/io/onedev/server/model/support/administration/authenticator/Authenticator.java:14,
 * `defaultGroup` :19; v8.0.0 the same file :16, :21). null when there is no authenticator (204) or it
 * names no group; undefined when not read.
 */
export function authenticatorDefaultGroupOf(model: Model): {pointer: string; group: string} | null | undefined {
  const found = view<{pointer: string; group: string} | 'none'>(model, (data) => {
    if (!hasOwn(data, AUTHENTICATOR_KEY)) return null
    const raw = data[AUTHENTICATOR_KEY]
    if (raw === null) return 'none'
    if (typeof raw !== 'object' || Array.isArray(raw)) return null
    const group = (raw as Record<string, unknown>).defaultGroup
    if (group !== undefined && group !== null && typeof group !== 'string') return null
    const name = blankToNull(group)
    return name === null ? 'none' : {pointer: joinPointer('', AUTHENTICATOR_KEY, 'defaultGroup'), group: name}
  })
  return found === 'none' ? null : found
}

// ---------------------------------------------------------------- SSO

/** GET /sso-providers (v13.1.7+) or /settings/sso-connectors (up to v12.0.8); undefined when neither was read. */
export function ssoProvidersOf(model: Model): SsoProvider[] | undefined {
  return view(model, (data) => {
    if (hasOwn(data, SSO_PROVIDERS_KEY)) {
      return (
        validItems(data[SSO_PROVIDERS_KEY], ProviderSchema)?.map(({item, index}) => {
          const pointer = joinPointer('', SSO_PROVIDERS_KEY, index)
          return {
            pointer,
            name: item.name ?? `#${index + 1}`,
            type: typeOf(item.connector) ?? 'unknown',
            groupsClaim: blankToNull(item.connector.groupsClaim),
            groupsClaimPointer: joinPointer(pointer, 'connector', 'groupsClaim'),
            defaultGroupId: item.defaultGroupId ?? null,
            defaultGroupName: null,
            defaultGroupPointer: joinPointer(pointer, 'defaultGroupId'),
          }
        }) ?? null
      )
    }
    if (hasOwn(data, SSO_CONNECTORS_KEY)) {
      return (
        validItems(data[SSO_CONNECTORS_KEY], ConnectorSchema)?.map(({item, index}) => {
          const pointer = joinPointer('', SSO_CONNECTORS_KEY, index)
          return {
            pointer,
            name: item.name ?? `#${index + 1}`,
            type: typeOf(item) ?? 'unknown',
            groupsClaim: blankToNull(item.groupsClaim),
            groupsClaimPointer: joinPointer(pointer, 'groupsClaim'),
            defaultGroupId: null,
            defaultGroupName: blankToNull(item.defaultGroup),
            defaultGroupPointer: joinPointer(pointer, 'defaultGroup'),
          }
        }) ?? null
      )
    }
    return null
  })
}

// ---------------------------------------------------------------- access tokens

const TOKENS_KEY = /^users\/(\d+)\/access-tokens$/

/**
 * The access tokens of every user whose list was read (GET /users/{id}/access-tokens, metadata only:
 * the values were redacted at ingest), by user id then position; undefined when none was read.
 */
export function accessTokensOf(model: Model): AccessToken[] | undefined {
  const lists = view(model, (data) => {
    const out: {userId: number; tokens: AccessToken[]}[] = []
    for (const key of Object.keys(data)) {
      const match = TOKENS_KEY.exec(key)
      if (!match) continue
      const ownerId = Number(match[1])
      const tokens = (validItems(data[key], TokenSchema) ?? []).map(({item, index}) => ({
        pointer: joinPointer('', key, index),
        id: item.id ?? null,
        // Before 10.7.0 a token had a description and no name (v10.2.0 model/support/AccessToken.java:25-31).
        name: item.name ?? item.description ?? `#${index + 1}`,
        ownerId,
        // The key exists from 10.7.0 (v10.7.0 model/AccessToken.java:45, a boolean Jackson always writes);
        // before, a token always acts with every permission of its owner: absent means true.
        hasOwnerPermissions: hasOwn(item, 'hasOwnerPermissions') ? item.hasOwnerPermissions === true : true,
        expireDate: blankToNull(item.expireDate),
      }))
      out.push({userId: ownerId, tokens})
    }
    if (out.length === 0) return null
    return out.sort((a, b) => a.userId - b.userId).map((entry) => entry.tokens)
  })
  return lists?.flat()
}
