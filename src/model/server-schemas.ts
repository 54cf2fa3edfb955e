/**
 * The zod schemas of the server-wide payloads read by access-data.ts (security setting, groups,
 * memberships, users, authorizations), admin-data.ts (executors, scripts, system setting,
 * authenticator, SSO, access tokens), agent-data.ts (agents, agent tokens), mail-data.ts (mail
 * service, service desk) and ai-users.ts (AI users' settings): lenient, unknown keys kept. Loaded by `npm run generate` only,
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
/** `defaultGroup`: the name of the group new accounts join (SSO connectors up to 12.0.8). */
export const ConnectorSchema = z.looseObject({...typed, name: text, groupsClaim: text, defaultGroup: text})
/** `defaultGroupId`: the group every account the provider logs in joins (v13.1.7+). */
export const ProviderSchema = z.looseObject({name: text, defaultGroupId: integer().nullish(), connector: ConnectorSchema})
export const TokenSchema = z.looseObject({id: z.int().nullish(), name: text, description: text, hasOwnerPermissions: flag, expireDate: text})

// Agents and their tokens (agent-data.ts). A token's `value` is redacted at ingest; `tokenId` is the
// agent's token (`Agent.token`, a @JoinColumn written as `tokenId`: v16.5.6
// server-core/src/main/java/io/onedev/server/util/jackson/hibernate/HibernateAnnotationIntrospector.java:34-35).
export const AgentTokenSchema = z.looseObject({id: integer()})
export const AgentSchema = z.looseObject({id: integer().nullish(), tokenId: integer().nullish(), name: text, paused: flag, online: flag, temporal: flag})

// The mail service (mail-data.ts): recognised by its fields, whatever its generation (v8.x
// OtherMailSetting, v10+ SmtpImapMailService / SmtpImapConnector); Gmail and Office 365 have none of them.
const sslSetting = z.looseObject(typed).nullish()
export const MailSchema = z.looseObject({
  smtpHost: text,
  sslSetting,
  enableStartTLS: flag,
  inboxPollSetting: z.looseObject({imapHost: text, sslSetting}).nullish(),
  otherInboxPollSetting: z.looseObject({imapHost: text, enableSSL: flag}).nullish(),
})

// The service desk (mail-data.ts): `senderEmails` up to v11.6.5, `senderAuthorizations` up to v11.5.0.
export const IssueCreationSchema = z.looseObject({senderEmails: text, applicableProjects: text, confidential: flag})
export const SenderAuthorizationSchema = z.looseObject({senderEmails: text, authorizedProjects: text, authorizedRoleName: text})
// Order decides (the first matching entry applies), so one entry of another shape makes the whole setting unreadable.
export const ServiceDeskSchema = z.looseObject({issueCreationSettings: z.array(IssueCreationSchema).nullish(), senderAuthorizations: z.array(SenderAuthorizationSchema).nullish()})

// An AI user's settings in the users listing (ai-users.ts): v15.1.7+; `modelSetting.apiKey` is redacted at ingest.
export const AiSettingSchema = z.looseObject({entitleToAll: flag})
