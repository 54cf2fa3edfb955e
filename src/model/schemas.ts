/**
 * Lenient zod schemas of the payloads of both generations: the contract's 8.0.x shape and current
 * (16.x) servers'. Every object is loose (unknown keys are kept) and every field is optional and
 * nullable, because the server omits or nulls fields freely; only a wrong TYPE is an error. The
 * schemas cover the fields the model reads; contributed settings are checked in normalize.ts because
 * their shape depends on the plugin.
 */
import {z} from 'zod'

import {EXPECTED_INTEGER} from './parser.js'
const integer = () => z.int({error: EXPECTED_INTEGER})

const text = z.string().nullish()
const flag = z.boolean().nullish()
const names = z.array(z.string()).nullish()

export const FileProtectionSchema = z.looseObject({
  paths: text,
  reviewRequirement: text,
  jobNames: names,
})

export const BranchProtectionSchema = z.looseObject({
  enabled: flag,
  branches: text,
  userMatch: text,
  preventForcedPush: flag,
  preventDeletion: flag,
  preventCreation: flag,
  /** Legacy (≤ 8.x) name. */
  signatureRequired: flag,
  /** Current name (by v10.0.0). */
  commitSignatureRequired: flag,
  reviewRequirement: text,
  jobNames: names,
  fileProtections: z.array(FileProtectionSchema).nullish(),
  /** "Require Strict Pull Request Builds" (v8.0.0 BranchProtection.java:61; v16.5.6 :76). */
  requireStrictBuilds: flag,
})

export const TagProtectionSchema = z.looseObject({
  enabled: flag,
  tags: text,
  userMatch: text,
  preventUpdate: flag,
  preventDeletion: flag,
  preventCreation: flag,
  signatureRequired: flag,
  commitSignatureRequired: flag,
})

export const JobSecretSchema = z.looseObject({
  name: text,
  /** Already `<redacted>` (or null) when validated: redaction runs first. */
  value: z.unknown().optional(),
  /** Current: job-match expression; null = any job, fork pull requests included. */
  authorization: text,
  /** Legacy (≤ 8.0.4): branch pattern set; null = `**`. */
  authorizedBranches: text,
  archived: flag,
})

export const ActionAuthorizationSchema = z.looseObject({
  '@type': text,
  '@class': text,
  authorizedBranches: text,
  tagNames: text,
  milestoneNames: text,
})

export const BuildSettingSchema = z.looseObject({
  jobSecrets: z.array(JobSecretSchema).nullish(),
  actionAuthorizations: z.array(ActionAuthorizationSchema).nullish(),
})

export const ChannelNotificationSchema = z.looseObject({
  webhookUrl: text,
})

/** A notifications[] entry: legacy wraps the fields in `channelNotification`, current does not. */
export const NotificationEntrySchema = z.looseObject({
  channelNotification: ChannelNotificationSchema.nullish(),
  webhookUrl: text,
})

export const NotificationSettingSchema = z.looseObject({
  '@type': text,
  '@class': text,
  notifications: z.array(NotificationEntrySchema).nullish(),
})

export const WebHookHeaderSchema = z.looseObject({
  name: text,
  value: z.unknown().optional(),
})

export const WebHookSchema = z.looseObject({
  postUrl: text,
  eventTypes: names,
  secret: z.unknown().optional(),
  headers: z.array(WebHookHeaderSchema).nullish(),
})

export const ProjectSettingSchema = z.looseObject({
  branchProtections: z.array(BranchProtectionSchema).nullish(),
  tagProtections: z.array(TagProtectionSchema).nullish(),
  buildSetting: BuildSettingSchema.nullish(),
  /** The contract's top-level notifications (`[{channelNotification: {...}}]`). */
  notifications: z.array(NotificationEntrySchema).nullish(),
  /** A map keyed by class name (8.0–11.6.9) or a list of `@type`d objects (current): checked in normalize.ts. */
  contributedSettings: z.unknown().optional(),
  webHooks: z.array(WebHookSchema).nullish(),
})

export const JobPrivilegeSchema = z.looseObject({
  jobNames: text,
  manageJob: flag,
  runJob: flag,
  accessLog: flag,
  accessPipeline: flag,
  accessibleReports: text,
})

export const RoleSchema = z.looseObject({
  id: integer(),
  name: text,
  manageProject: flag,
  createChildren: flag,
  managePullRequests: flag,
  manageCodeComments: flag,
  manageIssues: flag,
  accessConfidentialIssues: flag,
  scheduleIssues: flag,
  manageBuilds: flag,
  /** v10.1.0+ (v10.1.0 Role.java:70; v16.5.6 Role.java:126). */
  uploadCache: flag,
  codePrivilege: text,
  packPrivilege: text,
  jobPrivileges: z.array(JobPrivilegeSchema).nullish(),
})

export const ProjectListItemSchema = z.looseObject({
  id: integer(),
  parentId: integer().nullish(),
  path: text,
  name: text,
  defaultRoleId: integer().nullish(),
})

export type FileProtectionPayload = z.infer<typeof FileProtectionSchema>
export type BranchProtectionPayload = z.infer<typeof BranchProtectionSchema>
export type TagProtectionPayload = z.infer<typeof TagProtectionSchema>
export type JobSecretPayload = z.infer<typeof JobSecretSchema>
export type ActionAuthorizationPayload = z.infer<typeof ActionAuthorizationSchema>
export type NotificationEntryPayload = z.infer<typeof NotificationEntrySchema>
export type NotificationSettingPayload = z.infer<typeof NotificationSettingSchema>
export type WebHookPayload = z.infer<typeof WebHookSchema>
export type ProjectSettingPayload = z.infer<typeof ProjectSettingSchema>
export type JobPrivilegePayload = z.infer<typeof JobPrivilegeSchema>
export type RolePayload = z.infer<typeof RoleSchema>
export type ProjectListItemPayload = z.infer<typeof ProjectListItemSchema>
