/**
 * The zod schemas of the server-wide payloads read by access-data.ts (security setting, groups,
 * memberships, users, authorizations) and admin-data.ts (executors, scripts, system setting,
 * authenticator, SSO, access tokens): lenient, unknown keys kept. Loaded by `npm run generate` only,
 * which compiles them into src/model/payload-checks.ts; the audit itself checks with those.
 */
import {z} from 'zod'

const integer = () => z.int()
const flag = z.boolean().nullish()
const name = z.string()
const text = z.string().nullish()

export const SecuritySchema = z.looseObject({
  enableAnonymousAccess: flag,
  enableSelfRegister: flag,
  allowedSelfRegisterEmailDomain: z.string().nullish(),
  defaultGroupName: z.string().nullish(),
  defaultLoginGroupName: z.string().nullish(),
  enforce2FA: flag,
  disableInternalLogin: flag,
  corsAllowedOrigins: z.array(z.unknown()).nullish(),
  passwordPolicy: z.looseObject({}).nullish(),
})

export const GroupSchema = z.looseObject({id: integer(), name, administrator: flag, createRootProjects: flag, enforce2FA: flag})
export const MembershipSchema = z.looseObject({id: integer().nullish(), userId: integer(), groupId: integer().nullish()})
export const UserSchema = z.looseObject({
  id: integer().nullish(),
  name,
  fullName: z.string().nullish(),
  disabled: flag,
  type: z.string().nullish(),
  serviceAccount: flag,
})
export const AuthorizationSchema = z.looseObject({id: integer().nullish(), projectId: integer().nullish(), roleId: integer(), groupId: integer().nullish(), userId: integer().nullish()})

// Administration data (admin-data.ts)
/** `@type` (default typing) or `@class` (a class-level @JsonTypeInfo): polymorphic.ts reads either; the views require one. */
const typed = {'@type': text, '@class': text}

export const ExecutorSchema = z.looseObject({
  ...typed,
  name: text,
  enabled: flag,
  jobMatch: text,
  jobRequirement: text,
  jobAuthorization: text,
  mountDockerSock: flag,
  /** Server and remote Docker executors: extra `docker run` options (v16.5.6 ServerDockerExecutor.java:98). */
  runOptions: text,
  /** Every executor (v16.5.6 JobExecutor.java:37, :39). */
  htmlReportPublishEnabled: flag,
  sitePublishEnabled: flag,
  /** Kubernetes executors (v16.5.6 KubernetesExecutor.java:120). */
  clusterRole: text,
})
export const GroovySchema = z.looseObject({name: text, canBeUsedByBuildJobs: flag, jobAuthorization: text, authorization: text, allowedProjects: text, allowedBranches: text})
export const SystemSchema = z.looseObject({serverUrl: text})
export const AuthenticatorSchema = z.looseObject({...typed, ldapUrl: text, groupRetrieval: z.looseObject(typed).nullish()})
export const ConnectorSchema = z.looseObject({...typed, name: text, groupsClaim: text})
export const ProviderSchema = z.looseObject({name: text, connector: ConnectorSchema})
export const TokenSchema = z.looseObject({id: z.int().nullish(), name: text, description: text, hasOwnerPermissions: flag, expireDate: text})
