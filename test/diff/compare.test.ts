/**
 * compareModels: for each kind of change, a pair of models and the exact classification. Models
 * are built with the rule tests' builders; payload generations go through the real ingest.
 */
import {describe, expect, it} from 'vitest'

import {compareModels} from '../../src/diff/compare.js'
import type {Change} from '../../src/diff/diff-types.js'
import type {AuditSettings} from '../../src/engine/rule.js'
import {ingestProjectSetting} from '../../src/model/ingest.js'
import type {AuditModel, Project} from '../../src/model/types.js'
import {model, project, type ProjectInput, role} from '../helpers/model-builders.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'

/** What a test asserts of a change: everything but the message and id. */
function brief(change: Change) {
  return {
    kind: change.kind,
    change: change.change,
    classification: change.classification,
    ...(change.ruleId ? {ruleId: change.ruleId} : {}),
    subject: change.subject,
    aspect: change.aspect,
    ...(change.principals ? {principals: change.principals} : {}),
    before: change.before,
    after: change.after,
  }
}

function diff(before: AuditModel, after: AuditModel, settings: Partial<AuditSettings> = {}) {
  return compareModels(before, after, {...DEFAULT_SETTINGS, ...settings}).map(brief)
}

/** One project (#1, acme/app) before and after. */
function projectDiff(before: ProjectInput, after: ProjectInput, settings: Partial<AuditSettings> = {}) {
  const a = project({id: 1, path: 'acme/app', ...before})
  const b = project({id: 1, path: 'acme/app', ...after})
  return diff(model({projects: [a]}), model({projects: [b]}), settings)
}

const EVERYONE = ['everyone else']

describe('no change', () => {
  it('identical models give no change', () => {
    const input: ProjectInput = {
      branchProtections: [{branches: 'main', reviewRequirement: 'group(core):2', jobNames: ['ci']}],
      tagProtections: [{tags: 'v*'}],
      jobSecrets: [{name: 'deploy', authorization: 'on branch "main"'}],
      webHooks: [{postUrl: 'https://ci.example.com/hook'}],
      notifications: [{webhookUrl: 'https://hooks.slack.com/services/T/B/REDACTED'}],
    }
    const roles = [role({name: 'Dev', jobPrivileges: [{jobNames: 'ci', runJob: true}]})]
    expect(diff(model({projects: [project({id: 1, ...input})], roles}), model({projects: [project({id: 1, ...input})], roles}))).toEqual([])
  })

  it('reordered lists give no change: protections with disjoint patterns, secrets, web hooks, notifications, job privileges, roles', () => {
    const before = project({
      id: 1,
      branchProtections: [{branches: 'main', preventForcedPush: true}, {branches: 'dev/**', preventForcedPush: false}],
      tagProtections: [{tags: 'v*'}, {tags: 'nightly-*', preventUpdate: false}],
      jobSecrets: [{name: 'a', authorization: 'on branch "main"'}, {name: 'b', authorization: null}],
      webHooks: [{postUrl: 'https://a.example.com/x', hasSecret: false}, {postUrl: 'http://b.example.com/y', eventTypes: ['BUILD']}],
      notifications: [{webhookUrl: 'https://a.example.com/n'}, {channel: 'Discord', webhookUrl: 'https://b.example.com/n'}],
    })
    const after = project({
      id: 1,
      branchProtections: [{branches: 'dev/**', preventForcedPush: false}, {branches: 'main', preventForcedPush: true}],
      tagProtections: [{tags: 'nightly-*', preventUpdate: false}, {tags: 'v*'}],
      jobSecrets: [{name: 'b', authorization: null}, {name: 'a', authorization: 'on branch "main"'}],
      webHooks: [{postUrl: 'http://b.example.com/y', eventTypes: ['BUILD']}, {postUrl: 'https://a.example.com/x', hasSecret: false}],
      notifications: [{channel: 'Discord', webhookUrl: 'https://b.example.com/n'}, {webhookUrl: 'https://a.example.com/n'}],
    })
    const rolesBefore = [role({id: 1, name: 'A', jobPrivileges: [{jobNames: 'ci', runJob: true}, {jobNames: 'deploy', accessLog: true}]}), role({id: 2, name: 'B'})]
    const rolesAfter = [role({id: 2, name: 'B'}), role({id: 1, name: 'A', jobPrivileges: [{jobNames: 'deploy', accessLog: true}, {jobNames: 'ci', runJob: true}]})]
    expect(diff(model({projects: [before], roles: rolesBefore}), model({projects: [after], roles: rolesAfter}), {tags: ['v1.0.0', 'nightly-1']})).toEqual([])
  })

  it('a legacy (8.0.x) payload and the same settings in the current (16.x) shape give no change', async () => {
    const legacy = {
      branchProtections: [{enabled: true, branches: 'main', userMatch: 'anyone', preventForcedPush: true, preventDeletion: true, preventCreation: true, signatureRequired: true, reviewRequirement: 'group(core):2', jobNames: ['ci'], fileProtections: []}],
      tagProtections: [{enabled: true, tags: 'v*', userMatch: 'anyone', preventUpdate: true, preventDeletion: true, preventCreation: true}],
      buildSetting: {jobSecrets: [{name: 'deploy', value: 'x', authorizedBranches: 'main release/**'}], actionAuthorizations: []},
      webHooks: [],
    }
    const current = {
      branchProtections: [{enabled: true, branches: 'main', userMatch: 'anyone', preventForcedPush: true, preventDeletion: true, preventCreation: true, commitSignatureRequired: true, reviewRequirement: 'group(core):2', jobNames: ['ci'], fileProtections: []}],
      tagProtections: [{enabled: true, tags: 'v*', userMatch: 'anyone', preventUpdate: true, preventDeletion: true, preventCreation: true, commitSignatureRequired: false}],
      buildSetting: {jobSecrets: [{name: 'deploy', value: 'x', authorization: 'on branch "main", "release/**"', archived: false}]},
      webHooks: [],
    }
    const ingested = async (raw: unknown): Promise<Project> => {
      const {setting, raw: redacted} = await ingestProjectSetting(raw, {id: 1, path: 'acme/app'})
      return {id: 1, path: 'acme/app', name: 'app', parentId: null, setting, raw: redacted}
    }
    const before = await ingested(legacy)
    const after = await ingested(current)
    expect(before.setting?.generation).toBe('legacy')
    expect(after.setting?.generation).toBe('current')
    expect(diff(model({projects: [before]}), model({projects: [after]}))).toEqual([])
  })
})

describe('branch protections', () => {
  it('Prevent Forced Push turned off while the required reviews still block it: weakened, though no finding shows it', () => {
    expect(projectDiff({branchProtections: [{reviewRequirement: 'group(core)'}]}, {branchProtections: [{reviewRequirement: 'group(core)', preventForcedPush: false}]})).toEqual([
      {kind: 'branch-protection', change: 'changed', classification: 'weakened', ruleId: 'branch-protection/force-push-allowed', subject: 'main', aspect: 'force push', principals: EVERYONE, before: 'prevented', after: 'blocked by required reviews'},
    ])
  })

  it('force push allowed, then prevented again', () => {
    const strict = {branchProtections: [{}]}
    const loose = {branchProtections: [{preventForcedPush: false}]}
    const change = {kind: 'branch-protection', change: 'changed', ruleId: 'branch-protection/force-push-allowed', subject: 'main', aspect: 'force push', principals: EVERYONE}
    expect(projectDiff(strict, loose)).toEqual([{...change, classification: 'weakened', before: 'prevented', after: 'allowed'}])
    expect(projectDiff(loose, strict)).toEqual([{...change, classification: 'strengthened', before: 'allowed', after: 'prevented'}])
  })

  it('deletion, creation, reviews, required builds and signatures, each its own change', () => {
    const before = {branchProtections: [{reviewRequirement: 'user(alice) group(core):2', jobNames: ['ci', 'lint'], signatureRequired: true}]}
    const after = {branchProtections: [{preventDeletion: false, preventCreation: false, reviewRequirement: 'user(alice)', jobNames: ['ci'], signatureRequired: false}]}
    const base = {kind: 'branch-protection', change: 'changed', classification: 'weakened', subject: 'main', principals: EVERYONE}
    expect(projectDiff(before, after)).toEqual([
      {...base, ruleId: 'branch-protection/deletion-allowed', aspect: 'deletion', before: 'prevented', after: 'allowed'},
      {...base, aspect: 'creation', before: 'prevented', after: 'allowed'},
      {...base, ruleId: 'branch-protection/review-not-required', aspect: 'review', before: 'user(alice) group(core):2', after: 'user(alice)'},
      {...base, ruleId: 'branch-protection/build-not-required', aspect: 'required builds', before: '"ci", "lint"', after: '"ci"'},
      {...base, ruleId: 'branch-protection/signature-not-required', aspect: 'signatures', before: 'required', after: 'not required'},
    ])
  })

  it('more reviewers is a strengthening; reviewers swapped is a weakening (someone\'s review is no longer needed)', () => {
    expect(projectDiff({branchProtections: [{reviewRequirement: 'group(core)'}]}, {branchProtections: [{reviewRequirement: 'group(core):2'}]})).toEqual([
      expect.objectContaining({aspect: 'review', classification: 'strengthened', before: 'group(core)', after: 'group(core):2'}),
    ])
    expect(projectDiff({branchProtections: [{reviewRequirement: 'group(core)'}]}, {branchProtections: [{reviewRequirement: 'group(docs)'}]})).toEqual([
      expect.objectContaining({aspect: 'review', classification: 'weakened'}),
    ])
  })

  it('the build spec\'s file protection losing its reviewers is weakened', () => {
    const spec = (reviewRequirement: string | null) => ({branchProtections: [{fileProtections: [{paths: '.onedev-buildspec.yml', reviewRequirement}]}]})
    expect(projectDiff(spec('group(ci-owners)'), spec(null))).toEqual([
      {kind: 'branch-protection', change: 'changed', classification: 'weakened', ruleId: 'file-protection/buildspec-unprotected', subject: 'main', aspect: '.onedev-buildspec.yml review', principals: EVERYONE, before: 'group(ci-owners)', after: 'none'},
    ])
    expect(projectDiff(spec(null), spec('group(ci-owners)'))[0]).toMatchObject({classification: 'strengthened'})
  })

  it('a branch no protection applies to any more is one change, not one per aspect', () => {
    expect(projectDiff({branchProtections: [{}]}, {branchProtections: [{branches: 'master'}]})).toEqual([
      {kind: 'branch-protection', change: 'changed', classification: 'weakened', ruleId: 'branch-protection/unprotected-branch', subject: 'main', aspect: 'protection', principals: EVERYONE, before: '/branchProtections/0 ("main")', after: 'none'},
    ])
    expect(projectDiff({}, {branchProtections: [{}]})[0]).toMatchObject({classification: 'strengthened', aspect: 'protection', before: 'none'})
  })

  it('the branch moving to another protection with the same effect is neutral', () => {
    expect(projectDiff({branchProtections: [{branches: 'main'}]}, {branchProtections: [{branches: '**'}]})).toEqual([
      {kind: 'branch-protection', change: 'changed', classification: 'neutral', subject: 'main', aspect: 'decided by', principals: EVERYONE, before: '/branchProtections/0 ("main")', after: '/branchProtections/0 ("**")'},
    ])
  })

  it('first-match order that changes what applies is judged by the effective protection', () => {
    const strict = {branches: 'main'}
    const loose = {branches: '**', preventForcedPush: false, preventDeletion: false, preventCreation: false}
    const changes = projectDiff({branchProtections: [strict, loose]}, {branchProtections: [loose, strict]})
    expect(changes.map((c) => [c.aspect, c.classification])).toEqual([
      ['force push', 'weakened'],
      ['deletion', 'weakened'],
      ['creation', 'weakened'],
      ['decided by', 'neutral'],
    ])
  })

  it('a user taken out of the protection everyone else keeps: weakened for that user only (user-bypass)', () => {
    const changes = projectDiff({branchProtections: [{}]}, {branchProtections: [{userMatch: 'anyone except user(bot)'}]})
    expect(changes).toEqual([
      {kind: 'branch-protection', change: 'changed', classification: 'weakened', ruleId: 'branch-protection/user-bypass', subject: 'main', aspect: 'protection', principals: ['user(bot)'], before: '/branchProtections/0 ("main")', after: 'none'},
    ])
  })

  it('the same change for several user classes is one change naming them all', () => {
    const changes = projectDiff(
      {branchProtections: [{userMatch: 'anyone except group(bots)'}, {userMatch: 'group(bots)', preventDeletion: false}]},
      {branchProtections: [{userMatch: 'anyone except group(bots)', preventForcedPush: false}, {userMatch: 'group(bots)', preventDeletion: false, preventForcedPush: false}]},
    )
    expect(changes).toEqual([
      expect.objectContaining({aspect: 'force push', principals: ['everyone else', 'group(bots)'], classification: 'weakened', ruleId: 'branch-protection/force-push-allowed'}),
    ])
  })

  it('an inherited protection changing in the parent changes the child\'s effective protection', () => {
    const parentBefore = project({id: 1, path: 'acme', branchProtections: [{}]})
    const parentAfter = project({id: 1, path: 'acme', branchProtections: [{preventDeletion: false}]})
    const child = () => project({id: 2, path: 'acme/app', parentId: 1})
    const changes = diff(model({projects: [child()], ancestors: [parentBefore]}), model({projects: [child()], ancestors: [parentAfter]}))
    expect(changes).toEqual([expect.objectContaining({kind: 'branch-protection', subject: 'main', aspect: 'deletion', classification: 'weakened'})])
  })

  it('compares the union of both sides\' checked branches with the configured list', () => {
    expect(projectDiff({branchProtections: [{branches: 'release/**'}]}, {branchProtections: [{branches: 'release/**', preventDeletion: false}]}, {branches: ['main', 'release/1.0']})).toEqual([
      expect.objectContaining({subject: 'release/1.0', aspect: 'deletion'}),
    ])
  })
})

describe('tag protections', () => {
  it('update, deletion, creation and unsigned tags allowed', () => {
    const base = {kind: 'tag-protection', change: 'changed', classification: 'weakened', subject: 'v1.0.0', principals: EVERYONE, before: 'prevented', after: 'allowed'}
    expect(projectDiff({tagProtections: [{signatureRequired: true}]}, {tagProtections: [{preventUpdate: false, preventDeletion: false, preventCreation: false}]})).toEqual([
      {...base, ruleId: 'tag-protection/update-allowed', aspect: 'update'},
      {...base, ruleId: 'tag-protection/deletion-allowed', aspect: 'deletion'},
      {...base, ruleId: 'tag-protection/unprotected-tags', aspect: 'creation'},
      {...base, ruleId: 'tag-protection/signature-not-required', aspect: 'unsigned tags'},
    ])
  })

  it('a tag no protection applies to any more', () => {
    expect(projectDiff({tagProtections: [{}]}, {tagProtections: [{enabled: false}]})).toEqual([
      {kind: 'tag-protection', change: 'changed', classification: 'weakened', ruleId: 'tag-protection/unprotected-tags', subject: 'v1.0.0', aspect: 'protection', principals: EVERYONE, before: '/tagProtections/0 ("v*")', after: 'none'},
    ])
  })
})

describe('job secrets', () => {
  const secret = (authorization: string | null) => ({jobSecrets: [{name: 'deploy', authorization}]})
  const base = {kind: 'job-secret', ruleId: 'job-secret/broad-branches', subject: 'deploy'}

  it('on branch "main" -> on branch "**" is widened (weakened); back is narrowed (strengthened)', () => {
    expect(projectDiff(secret('on branch "main"'), secret('on branch "**"'))).toEqual([
      {...base, change: 'changed', classification: 'weakened', aspect: 'authorization', before: 'on branch "main"', after: 'on branch "**"'},
    ])
    expect(projectDiff(secret('on branch "**"'), secret('on branch "main"'))).toEqual([
      {...base, change: 'changed', classification: 'strengthened', aspect: 'authorization', before: 'on branch "**"', after: 'on branch "main"'},
    ])
  })

  it('an empty authorization (any job) is wider than any branch; more protected branches is wider; another branch is neutral', () => {
    expect(projectDiff(secret('on branch "**"'), secret(null))[0]).toMatchObject({classification: 'weakened', after: 'any job (empty)'})
    expect(projectDiff(secret('on branch "main"'), secret('on branch "main", "release"'))[0]).toMatchObject({classification: 'weakened'})
    expect(projectDiff(secret('on branch "main"'), secret('on branch "main" and "Job" is "deploy"'))[0]).toMatchObject({classification: 'strengthened'})
    expect(projectDiff(secret('on branch "main"'), secret('on branch "release"'))[0]).toMatchObject({classification: 'neutral', aspect: 'authorization'})
  })

  it('an `on branch` value is one path pattern: "-main" and "main dev" name one branch each, not every branch but main', () => {
    // Scoped to another branch: neither wider nor narrower (neutral), never widened.
    expect(projectDiff(secret('on branch "main"'), secret('on branch "-main"'))[0]).toMatchObject({classification: 'neutral', aspect: 'authorization'})
    // 8.x's pattern set "-main" (every branch but main) to the current "-main" (one branch): narrowed.
    expect(projectDiff({jobSecrets: [{name: 'deploy', authorizedBranches: '-main'}]}, secret('on branch "-main"'))[0]).toMatchObject({classification: 'strengthened'})
    // As the 8.0.5 migration wrote 8.x's "main dev": the same reach.
    expect(projectDiff({jobSecrets: [{name: 'deploy', authorizedBranches: 'main dev'}]}, secret('on branch "main" or on branch "dev"'))).toEqual([])
  })

  it('legacy authorized branches widened', () => {
    expect(projectDiff({jobSecrets: [{name: 'deploy', authorizedBranches: 'main'}]}, {jobSecrets: [{name: 'deploy', authorizedBranches: '**'}]})).toEqual([
      {...base, change: 'changed', classification: 'weakened', aspect: 'authorization', before: 'branches "main"', after: 'branches "**"'},
    ])
  })

  it('added broad is weakened, added scoped is neutral; removed broad is strengthened, removed scoped neutral', () => {
    expect(projectDiff({}, secret(null))).toEqual([{...base, change: 'added', classification: 'weakened', aspect: 'secret', before: null, after: 'any job (empty)'}])
    expect(projectDiff({}, secret('on branch "main"'))).toEqual([{...base, change: 'added', classification: 'neutral', aspect: 'secret', before: null, after: 'on branch "main"'}])
    expect(projectDiff(secret('on branch "**"'), {})).toEqual([{...base, change: 'removed', classification: 'strengthened', aspect: 'secret', before: 'on branch "**"', after: null}])
    expect(projectDiff(secret('on branch "main"'), {})).toEqual([{...base, change: 'removed', classification: 'neutral', aspect: 'secret', before: 'on branch "main"', after: null}])
  })
})

describe('roles', () => {
  const one = (input: Parameters<typeof role>[0]) => model({roles: [role({id: 5, ...input})]})

  it('a privilege gained is weakened, lost is strengthened, each with the rule it touches', () => {
    expect(diff(one({name: 'Dev'}), one({name: 'Dev', manageProject: true, accessConfidentialIssues: true}))).toEqual([
      {kind: 'role', change: 'changed', classification: 'weakened', ruleId: 'role/over-privileged', subject: 'Dev', aspect: 'Project Management', before: 'not granted', after: 'granted'},
      {kind: 'role', change: 'changed', classification: 'weakened', ruleId: 'role/confidential-issue-access', subject: 'Dev', aspect: 'Access Confidential Issues', before: 'not granted', after: 'granted'},
    ])
    expect(diff(one({name: 'Dev', manageBuilds: true}), one({name: 'Dev'}))).toEqual([
      {kind: 'role', change: 'changed', classification: 'strengthened', ruleId: 'role/broad-job-privilege', subject: 'Dev', aspect: 'Build Management', before: 'granted', after: 'not granted'},
    ])
    expect(diff(one({name: 'Dev', codePrivilege: 'READ'}), one({name: 'Dev', codePrivilege: 'WRITE'}))).toEqual([
      {kind: 'role', change: 'changed', classification: 'weakened', ruleId: 'role/over-privileged', subject: 'Dev', aspect: 'code access', before: 'READ', after: 'WRITE'},
    ])
  })

  it('job privileges widened and narrowed', () => {
    const jobs = (...privileges: {jobNames: string; runJob?: boolean}[]) => one({name: 'Dev', jobPrivileges: privileges})
    expect(diff(jobs({jobNames: 'ci', runJob: true}), jobs({jobNames: '*', runJob: true}))).toEqual([
      {kind: 'role', change: 'changed', classification: 'weakened', ruleId: 'role/broad-job-privilege', subject: 'Dev', aspect: 'job privilege: run jobs', before: '"ci"', after: 'every job'},
    ])
    expect(diff(jobs({jobNames: 'ci deploy', runJob: true}), jobs({jobNames: 'ci', runJob: true}))[0]).toMatchObject({classification: 'strengthened', before: '"ci", "deploy"', after: '"ci"'})
    expect(diff(jobs({jobNames: 'ci', runJob: true}), jobs({jobNames: 'ci', runJob: true}, {jobNames: 'deploy', runJob: true}))[0]).toMatchObject({classification: 'weakened'})
    expect(diff(jobs({jobNames: 'ci', runJob: true}), jobs({jobNames: 'ci'}))[0]).toMatchObject({classification: 'strengthened', after: 'no jobs'})
  })

  it('roles added, removed and renamed (same id) are neutral', () => {
    expect(diff(model(), one({name: 'Dev'}))).toEqual([{kind: 'role', change: 'added', classification: 'neutral', subject: 'Dev', aspect: 'role', before: null, after: 'Dev'}])
    expect(diff(one({name: 'Dev'}), model())).toEqual([{kind: 'role', change: 'removed', classification: 'neutral', subject: 'Dev', aspect: 'role', before: 'Dev', after: null}])
    expect(diff(one({name: 'Dev'}), one({name: 'Developer'}))).toEqual([{kind: 'role', change: 'renamed', classification: 'neutral', subject: 'Developer', aspect: 'name', before: 'Dev', after: 'Developer'}])
  })
})

describe('web hooks and notifications', () => {
  const hook = (input: {postUrl?: string; hasSecret?: boolean; eventTypes?: string[]}) => ({webHooks: [input]})

  it('a web hook that lost its secret is weakened; one that gained a secret is strengthened', () => {
    expect(projectDiff(hook({}), hook({hasSecret: false}))).toEqual([
      {kind: 'web-hook', change: 'changed', classification: 'weakened', ruleId: 'webhook/missing-secret', subject: 'ci.example.com', aspect: 'secret', before: 'set', after: 'none'},
    ])
    expect(projectDiff(hook({hasSecret: false}), hook({}))[0]).toMatchObject({classification: 'strengthened', aspect: 'secret'})
  })

  it('pointed elsewhere (same events, another host) is weakened; another path on the same host is neutral; https -> http is weakened', () => {
    expect(projectDiff(hook({postUrl: 'https://ci.example.com/hook'}), hook({postUrl: 'https://collector.example.net/hook'}))).toEqual([
      {kind: 'web-hook', change: 'changed', classification: 'weakened', ruleId: 'notification/insecure-webhook', subject: 'collector.example.net', aspect: 'url', before: 'https://ci.example.com', after: 'https://collector.example.net'},
    ])
    expect(projectDiff(hook({postUrl: 'https://ci.example.com/a'}), hook({postUrl: 'https://ci.example.com/b'}))).toEqual([
      {kind: 'web-hook', change: 'changed', classification: 'neutral', ruleId: 'notification/insecure-webhook', subject: 'ci.example.com', aspect: 'url', before: 'https://ci.example.com', after: 'https://ci.example.com (another path)'},
    ])
    expect(projectDiff(hook({postUrl: 'https://ci.example.com/a'}), hook({postUrl: 'http://ci.example.com/a'}))[0]).toMatchObject({classification: 'weakened', after: 'http://ci.example.com'})
  })

  it('http:// -> https:// of the same host is the same receiver over TLS: strengthened (another host over https:// is still weakened)', () => {
    expect(projectDiff(hook({postUrl: 'http://ci.example.com/a'}), hook({postUrl: 'https://ci.example.com/a'}))).toEqual([
      {kind: 'web-hook', change: 'changed', classification: 'strengthened', ruleId: 'notification/insecure-webhook', subject: 'ci.example.com', aspect: 'url', before: 'http://ci.example.com', after: 'https://ci.example.com'},
    ])
    expect(projectDiff(hook({postUrl: 'http://ci.example.com/a'}), hook({postUrl: 'https://evil.example.net/a'}))[0]).toMatchObject({classification: 'weakened'})
  })

  it('added and removed; an added web hook that is insecure or has no secret is weakened; events changed is neutral', () => {
    expect(projectDiff({}, hook({}))).toEqual([{kind: 'web-hook', change: 'added', classification: 'neutral', subject: 'ci.example.com', aspect: 'web-hook', before: null, after: 'https://ci.example.com'}])
    expect(projectDiff({}, hook({hasSecret: false}))).toEqual([
      {kind: 'web-hook', change: 'added', classification: 'weakened', ruleId: 'webhook/missing-secret', subject: 'ci.example.com', aspect: 'web-hook', before: null, after: 'https://ci.example.com'},
    ])
    expect(projectDiff({}, hook({postUrl: 'http://ci.example.com/x'}))[0]).toMatchObject({classification: 'weakened', ruleId: 'notification/insecure-webhook'})
    expect(projectDiff(hook({}), {})).toEqual([{kind: 'web-hook', change: 'removed', classification: 'neutral', subject: 'ci.example.com', aspect: 'web-hook', before: 'https://ci.example.com', after: null}])
    expect(projectDiff(hook({eventTypes: ['BUILD']}), hook({eventTypes: ['BUILD', 'CODE_PUSH']}))).toEqual([
      {kind: 'web-hook', change: 'changed', classification: 'neutral', subject: 'ci.example.com', aspect: 'events', before: 'BUILD', after: 'BUILD, CODE_PUSH'},
    ])
  })

  it('notifications added, removed and pointed elsewhere; credentials in a new URL are weakened', () => {
    const notification = (webhookUrl: string) => ({notifications: [{webhookUrl}]})
    expect(projectDiff({}, notification('https://hooks.example.com/a'))).toEqual([
      {kind: 'notification', change: 'added', classification: 'neutral', subject: 'hooks.example.com', aspect: 'notification', before: null, after: 'https://hooks.example.com'},
    ])
    expect(projectDiff(notification('https://hooks.example.com/a'), {})[0]).toMatchObject({change: 'removed', classification: 'neutral'})
    expect(projectDiff(notification('https://hooks.example.com/a'), notification('https://elsewhere.example.org/a'))).toEqual([
      {kind: 'notification', change: 'changed', classification: 'weakened', ruleId: 'notification/insecure-webhook', subject: 'elsewhere.example.org', aspect: 'url', before: 'https://hooks.example.com', after: 'https://elsewhere.example.org'},
    ])
    expect(projectDiff({}, notification('https://hooks.example.com/a?token=REDACTED'))[0]).toMatchObject({classification: 'weakened', ruleId: 'notification/credentials-in-url'})
  })

  it('a channel one side does not know is no change (either way); a known channel that differs, and other events, are neutral changes', () => {
    const url = 'https://relay.example.com/n'
    const guessed = {notifications: [{channel: 'Unknown', channelKnown: false, webhookUrl: url, events: ['builds']}]}
    const ntfy = (...events: string[]) => ({notifications: [{channel: 'Ntfy', webhookUrl: url, events}]})
    expect(projectDiff(guessed, ntfy('builds'))).toEqual([])
    expect(projectDiff(ntfy('builds'), guessed)).toEqual([])
    expect(projectDiff({notifications: [{channel: 'Slack', webhookUrl: url, events: ['builds']}]}, ntfy('builds'))).toEqual([
      {kind: 'notification', change: 'changed', classification: 'neutral', subject: 'relay.example.com', aspect: 'channel', before: 'Slack', after: 'Ntfy'},
    ])
    expect(compareModels(model({projects: [project({id: 1, ...guessed})]}), model({projects: [project({id: 1, ...ntfy('builds', 'code push')})]}), DEFAULT_SETTINGS).map((c) => [c.aspect, c.message])).toEqual([
      ['events', 'Ntfy notification to relay.example.com: events builds -> builds, code push.'],
    ])
  })
})

describe('projects', () => {
  it('added and removed projects are neutral', () => {
    const a = project({id: 1, path: 'acme/a'})
    const b = project({id: 2, path: 'acme/b'})
    expect(diff(model({projects: [a]}), model({projects: [a, b]}))).toEqual([{kind: 'project', change: 'added', classification: 'neutral', subject: 'acme/b', aspect: 'project', before: null, after: 'acme/b'}])
    expect(diff(model({projects: [a, b]}), model({projects: [b]}))).toEqual([{kind: 'project', change: 'removed', classification: 'neutral', subject: 'acme/a', aspect: 'project', before: 'acme/a', after: null}])
  })

  it('a renamed project (same id, new path) is a rename, not a removal and an addition', () => {
    const input = {id: 7, branchProtections: [{}], jobSecrets: [{name: 'deploy', authorization: 'on branch "main"'}]}
    expect(diff(model({projects: [project({...input, path: 'acme/old'})]}), model({projects: [project({...input, path: 'platform/new'})]}))).toEqual([
      {kind: 'project', change: 'renamed', classification: 'neutral', subject: 'platform/new', aspect: 'path', before: 'acme/old', after: 'platform/new'},
    ])
  })
})
