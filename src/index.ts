/**
 * The library entry (package.json `main` and `types`): what a rule plugin imports to be type-checked,
 * the same interface the built-in rules implement (docs/plugins.md):
 *
 *   import {defineRule} from 'onedev-audit'
 *   export const rules = [defineRule({meta: {...}, check: (context) => [...]})]
 *
 * Plugins are loaded by the CLI from the configuration's `plugins`; nothing here runs on import.
 */
export {defineRule, SEVERITIES} from './engine/rule.js'
export type {
  AuditSettings,
  FindingDraft,
  FixDraft,
  FixEdit,
  FixKind,
  IssueSettingContext,
  ProjectContext,
  RoleContext,
  Rule,
  RuleContext,
  RuleMeta,
  RuleScope,
  ServerContext,
  Severity,
} from './engine/rule.js'
export type {ProjectFacts, ProtectedBranch, ProtectedTagGroup, ServerFacts} from './engine/facts.js'
export type {
  AuditModel,
  BranchProtection,
  ChannelNotification,
  FileProtection,
  JobPrivilege,
  JobSecret,
  PayloadGeneration,
  Project,
  ProjectSetting,
  RepositoryInfo,
  Role,
  SecretAuthorization,
  TagProtection,
  WebHook,
} from './model/types.js'
