/** diffModels: findings new, fixed and unchanged by fingerprint, across renames and reorders; severities of weakenings. */
import {describe, expect, it} from 'vitest'

import {diffModels, type DiffInput} from '../../src/diff/diff.js'
import type {ActiveRule} from '../../src/engine/evaluate.js'
import type {Severity} from '../../src/engine/rule.js'
import type {AuditModel} from '../../src/model/types.js'
import {builtinRules} from '../../rules/index.js'
import {model, project, role} from '../helpers/model-builders.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'
import {serverModel} from '../rules/server/helpers.js'

async function run(before: AuditModel, after: AuditModel, overrides: Partial<DiffInput> = {}) {
  const rules = builtinRules
  const active: ActiveRule[] = rules.filter((r) => r.meta.scope !== 'issue-setting').map((rule) => ({rule, options: rule.meta.defaultOptions ?? {}}))
  const ruleSeverities = new Map(rules.map((r) => [r.meta.id, {severity: r.meta.defaultSeverity as Severity, enabled: true}]))
  return diffModels({before, after, rules: active, settings: DEFAULT_SETTINGS, suppressions: [], ruleSeverities, today: '2026-11-23', ...overrides})
}

const strict = {branchProtections: [{reviewRequirement: 'group(core)', jobNames: ['ci'], signatureRequired: true, fileProtections: [{paths: '.onedev-buildspec.yml', reviewRequirement: 'group(ci)'}]}], tagProtections: [{signatureRequired: true}]}

describe('diffModels', () => {
  it('identical models: no change, every finding unchanged', async () => {
    const m = () => model({projects: [project({id: 1, path: 'acme/app', webHooks: [{hasSecret: false}]})], roles: [role({name: 'Dev', manageProject: true})]})
    const result = await run(m(), m())
    expect(result.changes).toEqual([])
    expect(result.findings.new).toEqual([])
    expect(result.findings.fixed).toEqual([])
    expect(result.findings.unchanged.map((f) => f.ruleId).sort()).toContain('webhook/missing-secret')
    expect(result.errors).toEqual([])
  })

  it('a weakening takes the severity of the new finding it causes, else of the rule it touches', async () => {
    const before = model({projects: [project({id: 1, path: 'acme/app', ...strict, jobSecrets: [{name: 'deploy', authorization: 'on branch "main"'}, {name: 'old', archived: true, authorization: 'on branch "main"'}]})]})
    const after = model({projects: [project({id: 1, path: 'acme/app', ...strict, jobSecrets: [{name: 'deploy', authorization: null}, {name: 'old', archived: true, authorization: 'on branch "**"'}]})]})
    const result = await run(before, after)
    expect(result.changes.map((c) => [c.subject, c.classification, c.severity])).toEqual([
      ['deploy', 'weakened', 'critical'],
      ['old', 'weakened', 'medium'],
    ])
    expect(result.findings.new.map((f) => [f.ruleId, f.subject, f.severity])).toEqual([
      ['job-secret/broad-branches', 'deploy', 'critical'],
      ['job-secret/broad-branches', 'old', 'medium'],
    ])
    // Prevent Forced Push cleared behind a review requirement: the finding it causes is low.
    const cleared = await run(before, model({projects: [project({id: 1, path: 'acme/app', ...strict, branchProtections: [{...strict.branchProtections[0], preventForcedPush: false}], jobSecrets: before.projects[0]!.setting!.jobSecrets.map((s) => ({name: s.name, archived: s.archived, authorization: 'on branch "main"'}))})]}))
    expect(cleared.findings.new.map((f) => [f.ruleId, f.severity])).toEqual([['branch-protection/force-push-allowed', 'low']])
    expect(cleared.changes.map((c) => [c.aspect, c.classification, c.severity])).toEqual([['force push', 'weakened', 'low']])
  })

  it('a weakening that touches a rule turned off is info', async () => {
    const rules = builtinRules
    const ruleSeverities = new Map(rules.map((r) => [r.meta.id, {severity: r.meta.defaultSeverity as Severity, enabled: r.meta.id !== 'branch-protection/build-not-required'}]))
    const result = await run(model({projects: [project({id: 1, ...strict})]}), model({projects: [project({id: 1, ...strict, branchProtections: [{...strict.branchProtections[0], jobNames: []}]})]}), {
      ruleSeverities,
      rules: [],
    })
    expect(result.changes.map((c) => [c.aspect, c.severity])).toEqual([['required builds', 'info']])
  })

  it('findings of a renamed project stay unchanged (their fingerprints hold the path): one rename, nothing new or fixed', async () => {
    const input = {id: 7, webHooks: [{hasSecret: false}], jobSecrets: [{name: 'deploy', authorization: null}]}
    const result = await run(model({projects: [project({...input, path: 'acme/old'})], roles: [role({id: 3, name: 'Dev', manageBuilds: true})]}), model({projects: [project({...input, path: 'platform/new'})], roles: [role({id: 3, name: 'Developer', manageBuilds: true})]}))
    expect(result.changes.map((c) => [c.kind, c.change])).toEqual([
      ['project', 'renamed'],
      ['role', 'renamed'],
    ])
    expect(result.findings.new).toEqual([])
    expect(result.findings.fixed).toEqual([])
    expect(result.findings.unchanged.length).toBeGreaterThan(3)
  })

  it('findings keyed by position (web hooks) stay unchanged when the list is reordered', async () => {
    const hooks = [{postUrl: 'http://a.example.com/x', hasSecret: false}, {postUrl: 'http://b.example.com/y', hasSecret: false, eventTypes: ['BUILD']}]
    const result = await run(model({projects: [project({id: 1, webHooks: hooks})]}), model({projects: [project({id: 1, webHooks: [...hooks].reverse()})]}))
    expect(result.changes).toEqual([])
    expect(result.findings.new).toEqual([])
    expect(result.findings.fixed).toEqual([])
  })

  it('new and fixed findings', async () => {
    const result = await run(model({roles: [role({id: 1, name: 'Dev', manageProject: true})]}), model({roles: [role({id: 1, name: 'Dev', accessConfidentialIssues: true})]}))
    expect(result.findings.fixed.map((f) => f.ruleId)).toEqual(['role/over-privileged'])
    expect(result.findings.new.map((f) => f.ruleId)).toEqual(['role/confidential-issue-access'])
    expect(result.changes.map((c) => [c.aspect, c.classification])).toEqual([
      ['Access Confidential Issues', 'weakened'],
      ['Project Management', 'strengthened'],
    ])
  })

  it('errors of either side are kept, with their side', async () => {
    const after = model()
    after.errors.push({kind: 'forbidden', message: 'roles: 403 Forbidden'})
    expect((await run(model(), after)).errors).toEqual([{side: 'new', kind: 'forbidden', message: 'roles: 403 Forbidden'}])
  })
})

describe('diffModels with a side that could not read everything', () => {
  it('roles a side could not read (403) are not all "removed", and their findings not all "fixed"', async () => {
    const after = model({projects: [project({id: 1})]})
    after.errors.push({kind: 'forbidden', message: 'reading the roles failed: 403 Forbidden', path: '/~api/roles', status: 403})
    const result = await run(model({projects: [project({id: 1})], roles: [role({id: 1, name: 'Dev', manageProject: true})]}), after)
    expect(result.changes).toEqual([])
    expect(result.findings.fixed).toEqual([])
    expect(result.errors).toHaveLength(1)
  })

  it('a project whose setting one side could not read: its findings are neither new nor fixed', async () => {
    const after = model({projects: [{...project({id: 1}), setting: null, raw: null}]})
    after.errors.push({kind: 'forbidden', message: '403 Forbidden', project: {id: 1, path: 'acme/project-1'}, path: '/~api/projects/1/setting', status: 403})
    const result = await run(model({projects: [project({id: 1, webHooks: [{hasSecret: false}]})]}), after)
    expect(result.changes).toEqual([])
    expect(result.findings.fixed).toEqual([])
  })

  it('a side whose project listing failed (an unreachable server): its projects are not "removed", their findings not "fixed", and a warning says so', async () => {
    const before = model({projects: [project({id: 1, path: 'acme/app', webHooks: [{hasSecret: false}]}), project({id: 2, path: 'acme/lib', jobSecrets: [{name: 'deploy', authorization: null}]})]})
    const after = model()
    after.errors.push({kind: 'network', message: 'GET /~api/projects: connection failed (ECONNREFUSED)', path: '/~api/projects'})
    const result = await run(before, after)
    expect(result.changes).toEqual([])
    expect(result.findings.fixed).toEqual([])
    expect(result.findings.new).toEqual([])
    expect(result.notices.map((n) => n.message)).toEqual([
      'not compared: 2 projects that one side could not read (acme/app (#1), acme/lib (#2)) are neither added nor removed, and their findings neither new nor fixed',
    ])
    // A project NEW did list and no longer has is removed, as before; one the listing did not reach is not.
    const listed = model({projects: [project({id: 1, path: 'acme/app', webHooks: [{hasSecret: false}]})]})
    const gone = await run(before, listed)
    expect(gone.changes.map((c) => [c.subject, c.change])).toEqual([['acme/lib', 'removed']])
    expect(gone.findings.fixed.map((f) => [f.project?.path, f.ruleId])).toEqual([
      ['acme/lib', 'job-secret/broad-branches'],
      ['acme/lib', 'branch-protection/unprotected-branch'],
      ['acme/lib', 'tag-protection/unprotected-tags'],
    ])
    expect(gone.notices).toEqual([])
  })

  it('projects below one a side could not read: their inherited protections are not compared, nor their findings', async () => {
    const parent = project({id: 1, path: 'acme', branchProtections: [{branches: '**', preventForcedPush: true}]})
    const child = project({id: 2, path: 'acme/app', parentId: 1})
    const after = model({projects: [{...project({id: 1, path: 'acme'}), setting: null, raw: null}, child]})
    after.errors.push({kind: 'forbidden', message: '403 Forbidden', project: {id: 1, path: 'acme'}, path: '/~api/projects/1/setting', status: 403})
    const result = await run(model({projects: [parent, child]}), after)
    expect(result.changes).toEqual([])
    expect(result.findings.new).toEqual([])
    expect(result.notices.map((n) => n.message)).toEqual([
      'not compared: 2 projects that one side could not read (acme (#1), acme/app (#2)) are neither added nor removed, and their findings neither new nor fixed',
    ])
  })

  it('below an unread project, every level is not compared; a loop of parents (a hostile snapshot) ends the walk', async () => {
    const side = (rootReadable: boolean) => {
      const root = project({id: 1, path: 'a'})
      const m = model({projects: [rootReadable ? root : {...root, setting: null, raw: null}, project({id: 2, path: 'a/b', parentId: 1}), project({id: 3, path: 'a/b/c', parentId: 2, webHooks: [{hasSecret: false}]}), project({id: 4, path: 'x', parentId: 5}), project({id: 5, path: 'y', parentId: 4, webHooks: [{hasSecret: false}]})]})
      if (!rootReadable) m.errors.push({kind: 'forbidden', message: '403 Forbidden', project: {id: 1, path: 'a'}, path: '/~api/projects/1/setting', status: 403})
      return m
    }
    const after = side(false)
    after.projectsById.get(5)!.setting!.webHooks = []
    const result = await run(side(true), after)
    expect(result.notices.map((n) => n.message)).toEqual([
      'not compared: 3 projects that one side could not read (a (#1), a/b (#2), a/b/c (#3)) are neither added nor removed, and their findings neither new nor fixed',
    ])
    // The looped projects are compared: y's web hook is gone.
    expect(result.findings.fixed.map((f) => [f.project?.path, f.ruleId])).toEqual([['y', 'webhook/missing-secret']])
  })

  it('server data one side could not read: the findings of the rules that need it are neither new nor fixed; other rules still compare', async () => {
    const scripts = '/settings/groovy-scripts'
    const before = {...serverModel({[scripts]: [{name: 'deploy', content: ['return 1'], canBeUsedByBuildJobs: true, jobAuthorization: null}]}), roles: [role({id: 1, name: 'Dev', manageProject: true})]}
    const after = {...serverModel({}), roles: [role({id: 1, name: 'Dev'})]}
    after.errors.push({kind: 'timeout', message: `GET /~api${scripts}: no answer in 30 s`, path: `/~api${scripts}`})
    const result = await run(before, after)
    expect(result.findings.fixed.map((f) => f.ruleId)).toEqual(['role/over-privileged'])
    expect(result.notices.map((n) => n.message)).toEqual([
      `not compared: the findings of 1 rule that one side could not judge (server/groovy-script-unrestricted; server/groovy-script-unrestricted: NEW: GET ${scripts}: the request failed (timeout)) are neither new nor fixed`,
    ])
    // Read on both sides: compared as ever.
    const read = await run(before, {...serverModel({[scripts]: []}), roles: before.roles})
    expect(read.findings.fixed.map((f) => f.ruleId)).toEqual(['server/groovy-script-unrestricted'])
    expect(read.notices).toEqual([])
  })

  it('a role one side left out for its shape (an error naming no request) does not keep the other findings from being compared', async () => {
    const before = model({projects: [project({id: 1, path: 'acme/app', webHooks: [{hasSecret: false}]})]})
    const after = model({projects: [project({id: 1, path: 'acme/app'})]})
    after.errors.push({kind: 'invalid-payload', message: 'role #99: /name: expected string, got number', pointer: '/3/name'})
    const result = await run(before, after)
    expect(result.findings.fixed.map((f) => f.ruleId)).toEqual(['webhook/missing-secret'])
    expect(result.notices).toEqual([])
  })

  it("a project whose default branch one side does not know: its branch findings are neither new nor fixed, its other findings compare", async () => {
    const known = (branch: string, webHooks: Array<{hasSecret: boolean}>) => ({...project({id: 1, path: 'acme/app', webHooks}), repository: {defaultBranch: branch, branches: [branch], tags: []}})
    const unknown = {...project({id: 1, path: 'acme/app'}), repository: {branches: null, tags: null, unreadable: ['default-branch' as const]}}
    const result = await run(model({projects: [known('master', [{hasSecret: false}])]}), model({projects: [unknown]}))
    expect(result.findings.fixed.map((f) => f.ruleId)).toEqual(['webhook/missing-secret'])
    expect(result.findings.new).toEqual([])
    expect(result.notices.map((n) => n.message)).toEqual([
      'not compared: the branch and tag findings of 1 project whose default branch one side does not know (acme/app (#1)) are neither new nor fixed',
    ])
  })
})
