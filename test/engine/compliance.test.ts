/**
 * The status of a control: fail on an active or baselined finding, not-evaluated when one of its
 * rules could not be judged (data not offered, refused, not collected or unreadable, a project that
 * could not be read, the rule turned off, not run or failed), exception when its only findings are
 * suppressed (each suppression listed), pass only when every rule ran over everything it needs and
 * found nothing, manual without rules. What each status means is said once (CONTROL_STATUSES).
 */
import {readFile} from 'node:fs/promises'

import {describe, expect, it} from 'vitest'

import {type ComplianceRule, CONTROL_STATUSES, emptyComplianceDetail, type FrameworkMapping, judgeAudit} from '../../src/engine/compliance.js'
import type {AuditSettings} from '../../src/engine/rule.js'
import type {AuditError, AuditModel, Project} from '../../src/model/types.js'
import type {ComplianceControl, Finding, SuppressedFinding} from '../../src/types/report-types.js'
import {model, project} from '../helpers/model-builders.js'

const framework: FrameworkMapping = {
  key: 'cis',
  name: 'Test Framework',
  label: 'TF v1',
  slug: 'tf-1',
  version: '1',
  source: {repository: 'https://example.com/tf', commit: '0'.repeat(40), path: 'controls.yaml'},
  tagPrefix: 'TF-',
  controls: [
    {id: 'C1', title: 'Force pushes are denied', evidence: [{rule: 'branch/force'}, {rule: 'branch/unprotected'}]},
    {id: 'C2', title: 'Administrators use MFA', evidence: [{rule: 'server/two-factor', approximate: 'administrators only'}]},
    {id: 'C3', title: 'The primary branch is protected', evidence: [{rule: 'branch/force', findings: 'primary-branch'}]},
    {id: 'C4', title: 'Inactive users are removed', evidence: [], note: 'judged by hand'},
    {id: 'C5', title: 'SSO groups cannot make administrators', evidence: [{rule: 'server/sso'}]},
  ],
  unmapped: {},
}

const BRANCH_NEEDS = ['/repositories/{id}/default-branch', '/repositories/{id}/branches']
const RULES: ComplianceRule[] = [
  {meta: {id: 'branch/force', scope: 'project', requires: BRANCH_NEEDS}, enabled: true},
  {meta: {id: 'branch/unprotected', scope: 'project', requires: BRANCH_NEEDS}, enabled: true},
  {meta: {id: 'server/two-factor', scope: 'server', requires: ['/settings/security', '/groups']}, enabled: true},
  {meta: {id: 'server/sso', scope: 'server', requires: ['/sso-providers or /settings/sso-connectors']}, enabled: true},
]
const SETTINGS: AuditSettings = {branches: [], tags: [], allowedAdminRoles: ['Project Owner'], protectionSemantics: 'first-match'}

function audited(id: number, path: string, defaultBranch: string): Project {
  return {...project({id, path}), repository: {defaultBranch, branches: null, tags: []}}
}

interface Audit {
  model?: AuditModel
  rules?: ComplianceRule[]
  findings?: Finding[]
  suppressed?: SuppressedFinding[]
  errors?: AuditError[]
}

function fullModel(): AuditModel {
  return {
    ...model({projects: [audited(1, 'acme/app', 'main'), audited(2, 'acme/lib', 'master')]}),
    serverData: {'settings/security': {enforce2FA: true}, groups: [], 'sso-providers': []},
    notEvaluated: [],
  }
}

function judge(audit: Audit = {}): Map<string, ComplianceControl> {
  const [result] = judgeAudit([framework], {
    model: audit.model ?? fullModel(),
    settings: SETTINGS,
    rules: audit.rules ?? RULES,
    findings: audit.findings ?? [],
    suppressed: audit.suppressed ?? [],
    errors: audit.errors ?? [],
  })
  return new Map(result!.controls.map((control) => [control.id, control]))
}

const statuses = (controls: Map<string, ComplianceControl>) => Object.fromEntries([...controls].map(([id, c]) => [id, c.status]))
const reasons = (control: ComplianceControl | undefined) => control!.rules.map((r) => [r.id, r.status, r.notEvaluated ?? null])

function branchFinding(ruleId: string, projectId: number, path: string, branch: string): Finding {
  return {ruleId, severity: 'high', message: 'm', project: {id: projectId, path}, role: null, subject: branch, pointer: '/branchProtections/0', fingerprint: `${ruleId}-${projectId}-${branch}`}
}

describe('a control', () => {
  it('passes only when every rule was judged over everything and found nothing; without rules it is manual', () => {
    const controls = judge()
    expect(statuses(controls)).toEqual({C1: 'pass', C2: 'pass', C3: 'pass', C4: 'manual', C5: 'pass'})
    expect(controls.get('C4')).toEqual({id: 'C4', title: 'Inactive users are removed', tag: 'TF-C4', status: 'manual', approximate: false, findings: 0, baselined: 0, suppressed: 0, projects: [], rules: [], note: 'judged by hand'})
    expect(controls.get('C2')!.approximate).toBe(true)
  })

  it('fails with an active finding of one of its rules, naming the projects', () => {
    const controls = judge({findings: [branchFinding('branch/force', 2, 'acme/lib', 'master'), branchFinding('branch/force', 1, 'acme/app', 'main'), branchFinding('branch/unprotected', 1, 'acme/app', 'dev')]})
    expect(controls.get('C1')).toMatchObject({status: 'fail', findings: 3, suppressed: 0, projects: [{id: 1, path: 'acme/app'}, {id: 2, path: 'acme/lib'}]})
    expect(reasons(controls.get('C1'))).toEqual([['branch/force', 'fail', null], ['branch/unprotected', 'fail', null]])
    expect(controls.get('C1')!.rules.map((r) => r.findings)).toEqual([2, 1])
  })

  it('primary-branch evidence counts findings about the default branch only', () => {
    const release = judge({findings: [branchFinding('branch/force', 1, 'acme/app', 'release/1.x')]})
    expect([release.get('C1')!.status, release.get('C3')!.status]).toEqual(['fail', 'pass'])
    const main = judge({findings: [branchFinding('branch/force', 1, 'acme/app', 'main')]})
    expect(main.get('C3')).toMatchObject({status: 'fail', findings: 1, projects: [{id: 1, path: 'acme/app'}]})
    expect(main.get('C3')!.rules).toEqual([{id: 'branch/force', status: 'fail', findings: 1, baselined: 0, suppressed: 0, primaryBranchOnly: true}])
  })

  it('a baselined finding fails it: a baseline says "known", not "accepted"', () => {
    const suppressed: SuppressedFinding[] = [{finding: branchFinding('branch/force', 2, 'acme/lib', 'master'), reason: {kind: 'baseline'}}]
    const controls = judge({suppressed})
    expect(controls.get('C1')).toMatchObject({status: 'fail', findings: 0, baselined: 1, suppressed: 0, projects: [{id: 2, path: 'acme/lib'}]})
    expect(controls.get('C1')!.exceptions).toBeUndefined()
    expect(controls.get('C1')!.rules[0]).toEqual({id: 'branch/force', status: 'fail', findings: 0, baselined: 1, suppressed: 0})
  })

  it('a control whose only findings are suppressed is an exception, listing each justification and expiry', () => {
    const suppressed: SuppressedFinding[] = [
      {finding: branchFinding('branch/force', 1, 'acme/app', 'main'), reason: {kind: 'suppression', justification: 'accepted', expires: '2027-03-31'}},
      {finding: branchFinding('branch/force', 2, 'acme/lib', 'master'), reason: {kind: 'suppression', justification: 'accepted', expires: '2027-03-31'}},
      {finding: branchFinding('branch/unprotected', 2, 'acme/lib', 'dev'), reason: {kind: 'suppression', justification: 'a sandbox'}},
    ]
    const controls = judge({suppressed})
    expect(controls.get('C1')).toMatchObject({status: 'exception', findings: 0, baselined: 0, suppressed: 3, projects: []})
    expect(controls.get('C1')!.exceptions).toEqual([
      {rule: 'branch/force', justification: 'accepted', expires: '2027-03-31', findings: 2},
      {rule: 'branch/unprotected', justification: 'a sandbox', findings: 1},
    ])
    expect(controls.get('C1')!.rules.map((r) => [r.id, r.status, r.suppressed])).toEqual([['branch/force', 'exception', 2], ['branch/unprotected', 'exception', 1]])
    // On the default branch only (C3): the finding on main counts, the one on master (acme/lib's default) too.
    expect(controls.get('C3')).toMatchObject({status: 'exception', suppressed: 2})
  })

  it('the detail names the findings that fail each control and those its suppressions leave out, as each control counts them', () => {
    const onRelease = branchFinding('branch/force', 1, 'acme/app', 'release/1.x')
    const onMain = branchFinding('branch/force', 1, 'acme/app', 'main')
    const excused: SuppressedFinding = {finding: branchFinding('branch/force', 2, 'acme/lib', 'master'), reason: {kind: 'suppression', justification: 'accepted'}}
    const excusedElsewhere: SuppressedFinding = {finding: branchFinding('branch/force', 2, 'acme/lib', 'dev'), reason: {kind: 'suppression', justification: 'accepted'}}
    const detail = emptyComplianceDetail()
    judgeAudit([framework], {model: fullModel(), settings: SETTINGS, rules: RULES, findings: [onRelease, onMain], suppressed: [excused, excusedElsewhere], errors: []}, detail)
    expect(detail.failing.get('TF-C1')).toEqual([onRelease, onMain])
    expect(detail.excused.get('TF-C1')).toEqual([excused, excusedElsewhere])
    // The primary-branch control counts only what is on each project's default branch.
    expect(detail.failing.get('TF-C3')).toEqual([onMain])
    expect(detail.excused.get('TF-C3')).toEqual([excused])
    expect(detail.failing.has('TF-C2')).toBe(false)
  })

  it('an active finding beside suppressed ones fails it; a rule not judged beside them leaves it not evaluated', () => {
    const suppressed: SuppressedFinding[] = [{finding: branchFinding('branch/force', 1, 'acme/app', 'main'), reason: {kind: 'suppression', justification: 'accepted'}}]
    expect(judge({suppressed, findings: [branchFinding('branch/unprotected', 2, 'acme/lib', 'master')]}).get('C1')).toMatchObject({status: 'fail', findings: 1, suppressed: 1})
    const rules = RULES.map((r) => (r.meta.id === 'branch/unprotected' ? {...r, enabled: false} : r))
    expect(judge({suppressed, rules}).get('C1')).toMatchObject({status: 'not-evaluated', suppressed: 1, exceptions: [{rule: 'branch/force', justification: 'accepted', findings: 1}]})
  })

  it('a finding is proof: it fails the control even when another of its rules could not be judged', () => {
    const rules = RULES.map((r) => (r.meta.id === 'branch/unprotected' ? {...r, enabled: false} : r))
    expect(judge({rules, findings: [branchFinding('branch/force', 1, 'acme/app', 'main')]}).get('C1')!.status).toBe('fail')
  })
})

describe('a rule that could not be judged keeps its controls from passing', () => {
  it('turned off in the configuration, or not run by this command', () => {
    const off = judge({rules: RULES.map((r) => (r.meta.id === 'branch/unprotected' ? {...r, enabled: false} : r))})
    expect(off.get('C1')!.status).toBe('not-evaluated')
    expect(reasons(off.get('C1'))).toEqual([['branch/force', 'pass', null], ['branch/unprotected', 'not-evaluated', 'turned off in the configuration']])
    expect(off.get('C3')!.status).toBe('pass')
    const notRun = judge({rules: RULES.filter((r) => r.meta.scope !== 'server')})
    expect(reasons(notRun.get('C2'))).toEqual([['server/two-factor', 'not-evaluated', 'not run by this command']])
  })

  it('an endpoint the server does not offer', () => {
    const controls = judge({model: {...fullModel(), notEvaluated: [{endpoint: '/settings/security', status: 404, checks: 'security checks'}]}})
    expect(statuses(controls)).toEqual({C1: 'pass', C2: 'not-evaluated', C3: 'pass', C4: 'manual', C5: 'pass'})
    expect(reasons(controls.get('C2'))).toEqual([['server/two-factor', 'not-evaluated', 'GET /settings/security: the server does not offer it (404)']])
  })

  it('a request the server refused (403), found by its path under the API prefix', () => {
    const errors: AuditError[] = [{kind: 'forbidden', message: 'GET /~api/groups: 403 Forbidden', path: '/~api/groups', status: 403}]
    expect(reasons(judge({errors}).get('C2'))).toEqual([['server/two-factor', 'not-evaluated', 'GET /groups: the request failed (forbidden, HTTP 403)']])
  })

  it('a per-project endpoint that failed for one project makes its template unreadable', () => {
    const errors: AuditError[] = [{kind: 'timeout', message: 'timed out', path: '/~api/repositories/2/branches', project: {id: 2, path: 'acme/lib'}}]
    expect(reasons(judge({errors}).get('C3'))).toEqual([['branch/force', 'not-evaluated', 'GET /repositories/{id}/branches: the request failed (timeout)']])
  })

  it('server data not collected at all, or without the answer the rule needs', () => {
    const none = judge({model: {...fullModel(), serverData: undefined}})
    expect(reasons(none.get('C2'))).toEqual([['server/two-factor', 'not-evaluated', 'GET /settings/security: not collected (this audit read no server data)']])
    expect(none.get('C1')!.status).toBe('pass')
    const withoutGroups = judge({model: {...fullModel(), serverData: {'settings/security': {enforce2FA: true}, 'sso-providers': []}}})
    expect(reasons(withoutGroups.get('C2'))).toEqual([['server/two-factor', 'not-evaluated', 'GET /groups: not collected']])
  })

  it('`A or B`: either answer will do; neither offered, not evaluated', () => {
    const connectors = judge({model: {...fullModel(), serverData: {'settings/security': {}, groups: [], 'settings/sso-connectors': []}}})
    expect(connectors.get('C5')!.status).toBe('pass')
    const neither = judge({model: {...fullModel(), notEvaluated: [{endpoint: '/sso-providers or /settings/sso-connectors', status: 404, checks: 'SSO'}]}})
    expect(reasons(neither.get('C5'))).toEqual([['server/sso', 'not-evaluated', 'GET /sso-providers or /settings/sso-connectors: the server does not offer it (404)']])
  })

  it('a per-project answer missing for a project that needs it (a snapshot that predates the endpoint)', () => {
    const frameworkOf = (rule: string): FrameworkMapping => ({...framework, controls: [{id: 'A1', title: 'Least privilege', evidence: [{rule}]}]})
    const access: ComplianceRule = {meta: {id: 'access/base', scope: 'project', requires: ['/roles', '/projects/{id}/base-authorizations']}, enabled: true}
    const judged = (serverData: Record<string, unknown>) =>
      judgeAudit([frameworkOf('access/base')], {model: {...fullModel(), serverData}, settings: SETTINGS, rules: [access], findings: [], suppressed: [], errors: []})[0]!.controls[0]!
    expect(judged({'projects/1/base-authorizations': [], 'projects/2/base-authorizations': []}).status).toBe('pass')
    expect(reasons(judged({'projects/1/base-authorizations': []}))).toEqual([['access/base', 'not-evaluated', 'GET /projects/{id}/base-authorizations: the audit has no answer for 1 of 2 projects (acme/lib)']])
  })

  it('a setting member only some server versions send: not evaluated when no audited project\'s setting has it', () => {
    const legacyOnly: ComplianceRule = {meta: {id: 'build/actions', scope: 'project', requires: ['/projects/{id}/setting#/buildSetting/actionAuthorizations']}, enabled: true}
    const judged = (projects: Project[]) =>
      judgeAudit([{...framework, controls: [{id: 'P1', title: 'Least privilege on pipelines', evidence: [{rule: 'build/actions'}]}]}], {
        model: {...fullModel(), projects},
        settings: SETTINGS,
        rules: [legacyOnly],
        findings: [],
        suppressed: [],
        errors: [],
      })[0]!.controls[0]!
    // Current servers (8.0.5 and later) send no action authorizations: the rule's silence is no evidence.
    expect(reasons(judged(fullModel().projects))).toEqual([
      ['build/actions', 'not-evaluated', "GET /projects/{id}/setting#/buildSetting/actionAuthorizations: no audited project's setting has it (only OneDev 8.0.4 and earlier send it): nothing to judge on this server"],
    ])
    // An 8.0.4 payload has the list, empty or not: judged, and nothing found.
    const legacy: Project = {...project({id: 5, path: 'old/tool', actionAuthorizations: []}), repository: {defaultBranch: 'main', branches: null, tags: []}}
    expect(judged([...fullModel().projects, legacy]).status).toBe('pass')
  })

  it('an answer of a shape the audit does not know', () => {
    const controls = judge({model: {...fullModel(), serverData: {'settings/security': {enforce2FA: 'yes'}, groups: [], 'sso-providers': []}}})
    expect(reasons(controls.get('C2'))).toEqual([['server/two-factor', 'not-evaluated', 'GET /settings/security: its answer has a shape the audit does not know']])
  })

  it('a project whose setting could not be read: every project rule, not the server ones', () => {
    const broken: Project = {...audited(3, 'acme/secret', 'main'), setting: null, raw: null}
    const controls = judge({model: {...fullModel(), projects: [...fullModel().projects, broken]}})
    expect(statuses(controls)).toEqual({C1: 'not-evaluated', C2: 'pass', C3: 'not-evaluated', C4: 'manual', C5: 'pass'})
    expect(reasons(controls.get('C3'))).toEqual([['branch/force', 'not-evaluated', 'GET /projects/{id}/setting: the settings of 1 project could not be read']])
  })

  it('default branches the server did not say: the branch rules judged a guess', () => {
    const guessed: Project = {...project({id: 4, path: 'old'})}
    const controls = judge({model: {...fullModel(), projects: [...fullModel().projects, guessed]}})
    expect(reasons(controls.get('C1'))[0]).toEqual(['branch/force', 'not-evaluated', 'GET /repositories/{id}/default-branch: the default branches of 1 project is unknown'])
  })

  it('a rule that failed on some object', () => {
    const errors: AuditError[] = [{kind: 'internal', message: 'rule branch/force failed on project acme/app (#1): boom', project: {id: 1, path: 'acme/app'}, rule: 'branch/force'}]
    expect(reasons(judge({errors}).get('C3'))).toEqual([['branch/force', 'not-evaluated', 'the rule failed: rule branch/force failed on project acme/app (#1): boom']])
  })

  it('the collection stopped (interrupted, or the credentials refused midway): nothing passes', () => {
    const interrupted: AuditError[] = [{kind: 'interrupted', message: 'interrupted: 3 of 10 projects were not collected', project: null}]
    expect(statuses(judge({errors: interrupted}))).toEqual({C1: 'not-evaluated', C2: 'not-evaluated', C3: 'not-evaluated', C4: 'manual', C5: 'not-evaluated'})
    const refused: AuditError[] = [{kind: 'auth', message: 'GET /~api/projects/7/setting: 401 Unauthorized', path: '/~api/projects/7/setting', status: 401, project: null}]
    expect(reasons(judge({errors: refused}).get('C5'))).toEqual([['server/sso', 'not-evaluated', 'the collection stopped (auth)']])
  })

  it('an error that names neither a request nor a project: nothing passes', () => {
    const errors: AuditError[] = [{kind: 'invalid-payload', message: 'roles: (root): expected array, got object', pointer: ''}]
    expect(reasons(judge({errors}).get('C2'))).toEqual([['server/two-factor', 'not-evaluated', 'the audit is incomplete (invalid-payload)']])
  })
})

describe('the result', () => {
  it('counts the statuses per framework, in the framework\'s order, with the source and the tags', () => {
    const [result] = judgeAudit([framework], {model: fullModel(), settings: SETTINGS, rules: RULES, findings: [branchFinding('branch/force', 1, 'acme/app', 'main')], suppressed: [], errors: [{kind: 'forbidden', message: 'x', path: '/~api/groups', status: 403}]})
    expect(result!.counts).toEqual({pass: 1, fail: 2, exception: 0, notEvaluated: 1, manual: 1})
    expect(result!.controls.map((c) => [c.id, c.tag, c.status])).toEqual([
      ['C1', 'TF-C1', 'fail'],
      ['C2', 'TF-C2', 'not-evaluated'],
      ['C3', 'TF-C3', 'fail'],
      ['C4', 'TF-C4', 'manual'],
      ['C5', 'TF-C5', 'pass'],
    ])
    expect([result!.framework, result!.label, result!.source.commit]).toEqual(['cis', 'TF v1', '0'.repeat(40)])
  })
})

describe('what each status means, said once', () => {
  it('names every status of the schema, in the order of the counts, and the schema says the same', async () => {
    const schema = JSON.parse(await readFile(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'))
    expect(CONTROL_STATUSES.map((s) => s.status)).toEqual(schema.$defs.ControlStatus.enum)
    expect(schema.$defs.ControlStatus.description).toBe(CONTROL_STATUSES.map((s) => `${s.status}: ${s.meaning}.`).join(' '))
    expect(Object.keys(schema.$defs.ComplianceFramework.properties.counts.properties)).toEqual(['pass', 'fail', 'exception', 'notEvaluated', 'manual'])
  })
})
