/**
 * A hand-built report input for the formatter tests: findings across two projects (one inherited
 * from its parent), roles and an issue-setting file, rule metas, and raw payloads from the fixtures.
 */
import {readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import type {RuleMeta} from '../../src/engine/rule.js'
import type {LocationSource, ReportInput, ReportRule} from '../../src/report/index.js'
import type {Finding, Severity} from '../../src/types/report-types.js'

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures')

/** The current-shape project setting fixture, unredacted: its canary values must never reach a report. */
export const parentRaw = JSON.parse(readFileSync(join(fixtures, 'current', 'setting-full.json'), 'utf8')) as Record<string, unknown>
export const rolesRaw = JSON.parse(readFileSync(join(fixtures, 'roles.json'), 'utf8')) as Array<Record<string, unknown>>
export const childRaw = {
  branchProtections: [],
  tagProtections: [{enabled: true, tags: '**', userMatch: 'anyone', preventUpdate: false, preventDeletion: false, preventCreation: false}],
  buildSetting: {jobSecrets: []},
}

export const ISSUE_FILE = 'config/issue-setting.json'
export const issueFileText = '{\n  "stateSpecs": [\n    {"name": "Open"},\n    {"name": "Closed"}\n  ],\n  "transitionSpecs": []\n}\n'

export const PARENT = {id: 1, path: 'acme'}
export const CHILD = {id: 2, path: 'acme/web'}
export const CODE_WRITER = {id: 2, name: 'Code Writer'}

export function meta(id: string, defaultSeverity: Severity, extra: Partial<RuleMeta> = {}): RuleMeta {
  return {
    id,
    shortDescription: `Short ${id}`,
    fullDescription: `Full description of ${id}.`,
    defaultSeverity,
    help: `## ${id}\n\nFix it in *Settings*.`,
    tags: ['CIS-1.1.16'],
    scope: 'project',
    ...extra,
  }
}

export const rules: ReportRule[] = [
  {meta: meta('branch-protection/force-push-allowed', 'critical'), severity: 'critical', enabled: true},
  {meta: meta('job-secret/unrestricted', 'high'), severity: 'high', enabled: true},
  {meta: meta('tag-protection/updatable', 'medium'), severity: 'medium', enabled: true},
  {meta: meta('role/runs-any-job', 'low', {scope: 'role', tags: []}), severity: 'low', enabled: true},
  {meta: meta('issue-setting/unknown-state', 'info', {scope: 'issue-setting', tags: []}), severity: 'info', enabled: true},
  {meta: meta('webhook/plain-http', 'high'), severity: 'high', enabled: false},
]

export function finding(partial: Partial<Finding> & Pick<Finding, 'ruleId' | 'severity' | 'subject' | 'pointer'>): Finding {
  return {
    message: `Message of ${partial.ruleId} about ${partial.subject}.`,
    project: null,
    role: null,
    fingerprint: `fp-${partial.ruleId}-${partial.subject}`,
    ...partial,
  }
}

export const findings: Finding[] = [
  finding({
    ruleId: 'branch-protection/force-push-allowed',
    severity: 'critical',
    subject: 'develop',
    pointer: '/branchProtections/1/preventForcedPush',
    project: CHILD,
    source: PARENT,
  }),
  finding({ruleId: 'job-secret/unrestricted', severity: 'high', subject: 'npm-token', pointer: '/buildSetting/jobSecrets/1/authorization', project: PARENT}),
  finding({ruleId: 'tag-protection/updatable', severity: 'medium', subject: '**', pointer: '/tagProtections/0/preventUpdate', project: CHILD}),
  finding({ruleId: 'role/runs-any-job', severity: 'low', subject: 'Code Writer', pointer: '/jobPrivileges/0/runJob', role: CODE_WRITER}),
  finding({ruleId: 'issue-setting/unknown-state', severity: 'info', subject: 'Closed', pointer: '/stateSpecs/1/name', file: ISSUE_FILE}),
]

export const locations: LocationSource = {
  projectRaw: (id) => (id === PARENT.id ? parentRaw : id === CHILD.id ? childRaw : undefined),
  projectPath: (id) => (id === PARENT.id ? PARENT.path : id === CHILD.id ? CHILD.path : undefined),
  rolesRaw,
  roleIndex: (id) => rolesRaw.findIndex((role) => role.id === id),
  file: {path: ISSUE_FILE, text: issueFileText},
}

export function sampleInput(overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    tool: {name: 'onedev-audit', version: '0.1.0', informationUri: 'https://github.com/onedev-audit/onedev-audit'},
    source: {kind: 'server', server: {url: 'https://onedev.example.com', apiPrefix: '/~api', version: '16.5.6'}},
    generatedAt: '2026-11-22T10:00:00.000Z',
    findings,
    suppressed: [
      {
        finding: finding({ruleId: 'job-secret/unrestricted', severity: 'high', subject: 'sonar-login', pointer: '/buildSetting/jobSecrets/2/authorization', project: PARENT}),
        reason: {kind: 'suppression', justification: 'sonar token is read-only', expires: '2027-01-01'},
      },
      {
        finding: finding({ruleId: 'tag-protection/updatable', severity: 'medium', subject: 'v*', pointer: '/tagProtections/0', project: PARENT}),
        reason: {kind: 'baseline'},
      },
    ],
    errors: [{kind: 'forbidden', message: 'the token may not read this setting', project: {id: 3, path: 'acme/secret'}, path: '/~api/projects/3/setting', status: 403}],
    notices: [{kind: 'suppression-expired', message: 'suppression of job-secret/unrestricted for acme/ci expired on 2026-01-01'}],
    rules,
    counts: {projects: 3, roles: rolesRaw.length},
    locations,
    ...overrides,
  }
}
