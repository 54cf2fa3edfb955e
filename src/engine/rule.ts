/**
 * The rule interface. Built-in rules (rules/*.ts) and user plugins implement exactly this.
 *
 * A rule is a plain module: `meta` describes it (and drives `rules`, the docs pages and SARIF's
 * tool.driver.rules), `check` looks at one object of its scope and returns findings. Rules decide;
 * they never do I/O and never format output.
 */
import type {AuditModel, Project, Role} from '../model/types.js'
import type {ProtectionSemantics} from '../onedev/protection.js'
import type {Finding, Severity} from '../types/report-types.js'
import type {ProjectFacts, ServerFacts} from './facts.js'
import type {FixDraft, FixEdit, FixKind, NewProtectionSettings} from './fix.js'

export type {Finding, FixDraft, FixEdit, FixKind, Severity}

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info']

/** The severity one level below `severity` (`info` stays `info`), for a lesser variant of a finding. */
export function oneLevelLower(severity: Severity): Severity {
  return SEVERITIES[Math.min(SEVERITIES.indexOf(severity) + 1, SEVERITIES.length - 1)]!
}

/**
 * What a rule looks at: each project, each role, the server as a whole (security and admin settings,
 * groups, users: `model.serverData`), or an issue setting (global workflow file).
 */
export type RuleScope = 'project' | 'role' | 'server' | 'issue-setting'

export interface RuleMeta {
  /** Public and stable: `area/name`, e.g. `branch-protection/force-push-allowed`. */
  id: string
  /** One line. */
  shortDescription: string
  /** A paragraph: what the rule checks and why it matters. */
  fullDescription: string
  defaultSeverity: Severity
  /** Markdown: the risk, how to fix it in OneDev, and examples. */
  help: string
  /**
   * Free tags; `security` is added to every rule in SARIF. Compliance controls are not tags here: the
   * built-in rules' controls are in rules/compliance/, and SARIF adds their ids (`CIS-1.1.16`, `OSPS-AC-03.01`).
   */
  tags: string[]
  scope: RuleScope
  /**
   * What the rule judges besides what its scope implies (a project rule: the project listing and each
   * audited project's setting; a role rule: the roles listing), as endpoint templates of the REST
   * interface: `/settings/security`, `/projects/{id}/base-authorizations`, `/repositories/{id}/default-branch`;
   * `A or B` when either answer will do. When one could not be read (not offered, refused, failed, of
   * an unknown shape, not collected), the rule is not evaluated (src/engine/availability.ts): the
   * compliance controls it evidences are not-evaluated, never passed. A member of the project setting
   * that only some server versions send, as `/projects/{id}/setting#/buildSetting/actionAuthorizations`
   * (the known ones: VERSIONED_SETTING_MEMBERS in src/model/types.ts): when no audited project's
   * setting has it, the rule is not evaluated either.
   */
  requires?: string[]
  /** JSON Schema (draft 2020-12) of the rule's options object, if it has options. */
  optionsSchema?: Record<string, unknown>
  defaultOptions?: Record<string, unknown>
  /**
   * Whether the rule's findings come with a change `onedev-audit fix` can make (`fixes` on its
   * drafts), and of which kind: the docs page says so. A rule that declares it offers one.
   */
  fix?: FixKind
}

/** Settings of the whole audit that rules share (from the configuration file and flags). */
export interface AuditSettings {
  /**
   * Branch patterns judged besides each project's default branch (default none). Which branches are
   * checked in a project: src/onedev/checked-refs.ts (rules read `context.facts.checkedBranches`).
   */
  branches: string[]
  /** Tag patterns judged (default none: every existing tag). */
  tags: string[]
  /** Roles allowed to hold manageProject (default `Project Owner`). */
  allowedAdminRoles: string[]
  /** How several protections matching one branch combine: current servers take the first, ≤ 8.1 merged them. */
  protectionSemantics: ProtectionSemantics
  /** What a protection added by `onedev-audit fix` holds (configuration key `fix`); absent: DEFAULT_NEW_PROTECTIONS. */
  fix?: NewProtectionSettings
}

interface ContextBase<O> {
  options: O
  settings: AuditSettings
  model: AuditModel
}

export interface ProjectContext<O> extends ContextBase<O> {
  scope: 'project'
  project: Project
  /** Ancestors with known settings, nearest first. */
  ancestors: Project[]
  /** Ids of the audited projects (model.projects), computed once per evaluation. */
  audited: ReadonlySet<number>
  /**
   * What the project's rules share, derived once for this project (hierarchies, checked branches,
   * effective protections, code writers...) and the run's server-wide facts as `facts.server`:
   * src/engine/facts.ts.
   */
  facts: ProjectFacts
}

export interface RoleContext<O> extends ContextBase<O> {
  scope: 'role'
  role: Role
  /** The run's server-wide facts (access index, role holdings...): src/engine/facts.ts. */
  facts: ServerFacts
}

/** The whole server, once per audit: rules read `model.serverData` through the typed views in src/model/. */
export interface ServerContext<O> extends ContextBase<O> {
  scope: 'server'
  /** The run's server-wide facts (access index, administrators...): src/engine/facts.ts. */
  facts: ServerFacts
}

export interface IssueSettingContext<O> extends ContextBase<O> {
  scope: 'issue-setting'
  /** The parsed issue setting (see src/model/issue-setting.ts). */
  issueSetting: import('../model/issue-setting.js').IssueSetting
  facts: ServerFacts
}

export type RuleContext<O = Record<string, unknown>> = ProjectContext<O> | RoleContext<O> | ServerContext<O> | IssueSettingContext<O>

/** What a rule reports; the engine adds rule id, severity, project/role refs and the fingerprint. */
export interface FindingDraft {
  /** The branch, tag, secret, role or other name this finding is about, readable (shown, matched by suppressions). Part of the fingerprint. */
  subject: string
  /** What is wrong and how to fix it. */
  message: string
  /** JSON pointer into the payload of the setting that decides (the project's, `sourceProjectId`'s, or the role). */
  pointer: string
  /** Overrides the rule's severity for this finding (e.g. medium for a lesser variant). */
  severity?: Severity
  /** The project whose setting the pointer is in, when it is an ancestor. */
  sourceProjectId?: number
  /**
   * Distinguishes two findings of one rule with the same subject (part of the fingerprint): what the
   * finding is about, never where it sits (no list index or pointer), so that inserting, removing or
   * reordering other items of a list keeps it. Findings identical in subject and key are told apart
   * by the engine, by their order among themselves. See src/engine/identity.ts.
   */
  key?: string
  /**
   * `server`: `pointer` points into the server data document (model.serverData, server.json), e.g.
   * `/projects~142~1base-authorizations/0`, instead of the project's setting. Implied for server-scope rules.
   */
  document?: 'server'
  /**
   * Changes that clear this finding, most preferred first (e.g. where a new protection goes): the
   * planner keeps the first one the rules prove. See src/engine/fix.ts for the shape.
   */
  fixes?: FixDraft[]
}

export interface Rule<O = Record<string, unknown>> {
  meta: RuleMeta
  check(context: RuleContext<O>): FindingDraft[]
}

/** Identity helper for rule authors: `export default defineRule({meta, check})` gets type checking. */
export function defineRule<O = Record<string, unknown>>(rule: Rule<O>): Rule<O> {
  return rule
}
