/**
 * Models for fix tests built the way the audit builds them: from raw setting payloads of either
 * generation, through ingest (redaction, validation, normalization), so that the edits a plan makes
 * are edits of real payloads.
 */
import {builtinRules} from '../../rules/index.js'
import {DEFAULT_SETTINGS} from '../../src/engine/config.js'
import type {ActiveRule} from '../../src/engine/evaluate.js'
import type {AuditSettings} from '../../src/engine/rule.js'
import {ingestProjectSettingNow} from '../../src/model/ingest.js'
import type {AuditModel, Project, RepositoryInfo} from '../../src/model/types.js'

/** A current (16.x) branch protection payload, OneDev's defaults unless overridden. */
export function branchProtection(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    enabled: true,
    branches: 'main',
    userMatch: 'anyone',
    preventForcedPush: true,
    preventDeletion: true,
    preventCreation: true,
    commitSignatureRequired: false,
    commitMessageChecker: null,
    maxCommitMessageLineLength: null,
    disallowedFileTypes: [],
    reviewRequirement: null,
    jobNames: [],
    fileProtections: [],
    requireStrictBuilds: false,
    ...fields,
  }
}

/** The same in the legacy (8.0.x) shape: `signatureRequired`, none of the fields added since. */
export function legacyBranchProtection(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const {commitSignatureRequired, commitMessageChecker: _checker, maxCommitMessageLineLength: _length, disallowedFileTypes: _types, ...common} = branchProtection()
  return {...common, signatureRequired: commitSignatureRequired, ...fields}
}

export function tagProtection(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {enabled: true, tags: 'v*', userMatch: 'anyone', preventUpdate: true, preventDeletion: true, preventCreation: true, commitSignatureRequired: false, disallowedFileTypes: [], ...fields}
}

/** A current setting payload with the given parts (the rest empty). */
export function currentSetting(parts: Record<string, unknown> = {}): Record<string, unknown> {
  return {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: [], buildPreservations: []}, webHooks: [], contributedSettings: [], ...parts}
}

/** A legacy setting payload (its markers: a job secret's authorizedBranches, action authorizations). */
export function legacySetting(parts: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    serviceDeskName: null,
    branchProtections: [],
    tagProtections: [],
    buildSetting: {jobSecrets: [], buildPreservations: [], actionAuthorizations: []},
    webHooks: [],
    contributedSettings: {},
    ...parts,
  }
}

export function repository(defaultBranch = 'main', more: Partial<RepositoryInfo> = {}): RepositoryInfo {
  return {defaultBranch, branches: null, tags: [], ...more}
}

/** A project as collection builds it: the payload redacted, checked and normalized. */
export function rawProject(id: number, path: string, raw: unknown, options: {parentId?: number | null; repository?: RepositoryInfo | null} = {}): Project {
  const ingested = ingestProjectSettingNow(structuredClone(raw), {id, path})
  if ('failed' in ingested || ingested.setting === null) throw new Error(`test payload of ${path} does not pass the payload checks`)
  return {id, path, name: path.split('/').pop()!, parentId: options.parentId ?? null, setting: ingested.setting, raw: ingested.raw, repository: options.repository === undefined ? repository() : options.repository}
}

/** A model auditing `projects`, with `ancestors` known for inheritance only. */
export function fixModel(projects: Project[], ancestors: Project[] = []): AuditModel {
  const projectsById = new Map<number, Project>()
  for (const project of [...projects, ...ancestors]) projectsById.set(project.id, project)
  return {server: {url: 'https://onedev.example.com', apiPrefix: '/~api'}, projects, projectsById, roles: [], rolesRaw: [], errors: []}
}

/** Every built-in rule, active with its defaults. */
export const ALL_RULES: ActiveRule[] = builtinRules.map((rule) => ({rule, options: rule.meta.defaultOptions ?? {}}))

export function settings(overrides: Partial<AuditSettings> = {}): AuditSettings {
  return {...DEFAULT_SETTINGS, ...overrides}
}
