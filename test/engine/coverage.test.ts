/**
 * Server data the audit read but cannot understand is said as a not-evaluated notice, never passed
 * silently: a setting of another shape, a listing that is not a list, items of a listing left out.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {beforeAll, describe, expect, it} from 'vitest'

import * as accessData from '../../src/api/access-data.js'
import * as adminData from '../../src/api/admin-data.js'
import * as versionData from '../../src/api/version.js'
import * as agentData from '../../src/api/agent-data.js'
import * as mailData from '../../src/api/mail-data.js'
import {createClient} from '../../src/api/client.js'
import {collectModel} from '../../src/api/collect.js'
import {PROJECT_FETCHERS, SERVER_FETCHERS} from '../../src/api/data-sources.js'
import type {OptionalGet} from '../../src/api/optional.js'
import {coverageOf} from '../../src/engine/coverage.js'
import type {AuditError, AuditModel, Project, ServerData} from '../../src/model/types.js'
import {ROOT, runCli} from '../helpers/cli.js'
import {model, project} from '../helpers/model-builders.js'
import {type FixtureAccess, startOneDevServer} from '../helpers/onedev-server.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'
import {tempDir} from '../helpers/temp-dir.js'

const PROJECT_ENDPOINTS = ['/projects/{id}/base-authorizations', '/projects/{id}/group-authorizations', '/projects/{id}/user-authorizations']

const notices = (serverData: ServerData) => coverageOf({...model(), serverData}, DEFAULT_SETTINGS).notices.map((n) => `${n.kind}: ${n.message}`)

describe('server data of a shape the audit does not know', () => {
  it('a valid document says nothing', () => {
    expect(
      notices({
        'settings/security': {enableAnonymousAccess: false, passwordPolicy: {minLength: 12}},
        'settings/authenticator': null,
        groups: [{id: 1, name: 'admins', administrator: true}],
        'groups/1/memberships': [{id: 1, userId: 2, groupId: 1}],
        'projects/7/base-authorizations': [{id: 1, projectId: 7, roleId: 2}],
      }),
    ).toEqual([])
  })

  it('a whole setting of another shape: its checks were not evaluated', () => {
    expect(notices({'settings/security': {enableAnonymousAccess: 'yes'}, 'settings/system': 42, 'settings/authenticator': {ldapUrl: 'ldap://x'}})).toEqual([
      'not-evaluated: GET /settings/authenticator: its answer has a shape the audit does not know, so the checks that need it were not evaluated',
      'not-evaluated: GET /settings/security: its answer has a shape the audit does not know, so the checks that need it were not evaluated',
      'not-evaluated: GET /settings/system: its answer has a shape the audit does not know, so the checks that need it were not evaluated',
    ])
  })

  it('items left out of a listing are counted; answers of one endpoint for many projects make one notice', () => {
    expect(
      notices({
        groups: [{id: 1, name: 'admins'}, {name: 'no id'}, 'junk'],
        'projects/1/base-authorizations': [{roleId: 'two'}],
        'projects/2/base-authorizations': {not: 'a list'},
        'projects/3/base-authorizations': [{roleId: 2}, {roleId: null}],
      }),
    ).toEqual([
      'not-evaluated: GET /groups: 2 of 3 items have a shape the audit does not know and were left out of the checks',
      'not-evaluated: GET /projects/{id}/base-authorizations: 2 of its answers have a shape the audit does not know, so the checks that need them were not evaluated; 1 of 2 items have a shape the audit does not know and were left out of the checks',
    ])
  })
})

describe('per-project answers the audit does not have', () => {
  // acme (1) is the parent of the audited acme/app (2) and acme/lib (3); other/tool (4) stands alone.
  const acme = project({id: 1, path: 'acme'})
  const withRepository = (p: Project): Project => ({...p, repository: {defaultBranch: 'main', branches: null, tags: []}})
  const audited = [project({id: 2, path: 'acme/app', parentId: 1}), project({id: 3, path: 'acme/lib', parentId: 1}), project({id: 4, path: 'other/tool'})].map(withRepository)
  const answers = (ids: number[]) =>
    Object.fromEntries(ids.flatMap((id) => ['base', 'group', 'user'].map((kind) => [`projects/${id}/${kind}-authorizations`, []])))
  // Every existing tag (the sample settings' `v1.0.0` is no tag of these projects: test/cli/branches.test.ts says that notice).
  const EVERY_TAG = {...DEFAULT_SETTINGS, tags: []}
  const noticesOf = (changes: Partial<AuditModel>) => coverageOf({...model({projects: audited, ancestors: [acme]}), serverData: answers([1, 2, 3, 4]), ...changes}, EVERY_TAG).notices.map((n) => `${n.kind}: ${n.message}`)

  it('every project that needs an answer has one: nothing to say', () => {
    expect(noticesOf({})).toEqual([])
  })

  it('an ancestor without answers counts: its authorizations are inherited', () => {
    const serverData = answers([2, 3, 4])
    delete serverData['projects/4/user-authorizations']
    expect(noticesOf({serverData})).toEqual([
      'not-evaluated: GET /projects/{id}/base-authorizations: the audit has no answer for 1 of 4 projects (acme): the snapshot predates the endpoint or was edited, so base roles of every logged-in user (and anonymous users) were not evaluated',
      'not-evaluated: GET /projects/{id}/group-authorizations: the audit has no answer for 1 of 4 projects (acme): the snapshot predates the endpoint or was edited, so roles granted to groups were not evaluated',
      'not-evaluated: GET /projects/{id}/user-authorizations: the audit has no answer for 2 of 4 projects (acme, other/tool): the snapshot predates the endpoint or was edited, so roles granted to users were not evaluated',
    ])
  })

  it('what something else explains is not said again: not offered, a failed request, a project read before 11.11, a stopped collection', () => {
    const serverData = answers([])
    const notEvaluated = PROJECT_ENDPOINTS.map((endpoint) => ({endpoint, status: 404, checks: 'x'}))
    expect(noticesOf({serverData, notEvaluated}).filter((n) => n.includes('no answer'))).toEqual([])
    const failed: AuditError[] = [1, 2, 3, 4].flatMap((id) => ['base', 'group', 'user'].map((kind) => ({kind: 'http' as const, message: 'HTTP 500', path: `/~api/projects/${id}/${kind}-authorizations`, status: 500})))
    expect(noticesOf({serverData, errors: failed})).toEqual([])
    expect(noticesOf({serverData, errors: [{kind: 'interrupted', message: 'interrupted'}]})).toEqual([])
    // Before 11.11 the project JSON's defaultRoleId holds the base authorizations: the endpoint is not asked.
    const legacy = model({projects: audited.map((p) => ({...p, defaultRoleId: null})), ancestors: [{...acme, defaultRoleId: 7}]})
    const withoutBase = Object.fromEntries(Object.entries(answers([1, 2, 3, 4])).filter(([key]) => !key.endsWith('/base-authorizations')))
    expect(coverageOf({...legacy, serverData: withoutBase}, EVERY_TAG).notices).toEqual([])
  })

  it('a project whose setting could not be read is not audited: it needs nothing', () => {
    const unread = {...audited[2]!, setting: null}
    const serverData = answers([1, 2, 3])
    expect(coverageOf({...model({projects: [audited[0]!, audited[1]!, unread], ancestors: [acme]}), serverData}, EVERY_TAG).notices).toEqual([])
  })
})

describe('scan of a snapshot whose security setting has another shape', () => {
  let dir: string
  beforeAll(async () => {
    dir = await tempDir('oda-coverage')
  })

  it('says the security checks were not evaluated, on stderr and in the report, and keeps the exit code', async () => {
    const example = JSON.parse(await readFile(join(ROOT, 'examples', 'snapshot.json'), 'utf8')) as {serverData: Record<string, unknown>}
    const snapshot = join(dir, 'snapshot.json')
    await writeFile(snapshot, JSON.stringify({...example, serverData: {...example.serverData, 'settings/security': {enableAnonymousAccess: 'yes-please'}}}))
    const [changed, original] = await Promise.all([
      runCli(['scan', '--snapshot', snapshot, '--format', 'json', '--fail-on', 'critical']),
      runCli(['scan', '--snapshot', 'examples/snapshot.json', '--format', 'json', '--fail-on', 'critical']),
    ])
    const notice = 'GET /settings/security: its answer has a shape the audit does not know, so the checks that need it were not evaluated'
    expect(JSON.parse(changed.stdout).notices).toEqual([{kind: 'not-evaluated', message: notice}])
    expect(changed.stderr).toBe(`onedev-audit: not-evaluated: ${notice}\n`)
    expect(JSON.parse(original.stdout).notices).toEqual([])
    expect(changed.code).toBe(original.code)
    expect(changed.code).toBe(1)
  }, 60_000)
})

describe('every endpoint of the built-in data sources belongs to a family of checks', () => {
  /** A collection by the built-in data sources from a server that offers none of their endpoints but `access`. */
  async function collectWithout(access: FixtureAccess | undefined, missing: string[] = []): Promise<AuditModel> {
    const server = await startOneDevServer({projects: [{id: 1, path: 'app', parentId: null}], settings: {1: {branchProtections: [], tagProtections: [], webHooks: [], contributedSettings: []}}, roles: [], repositories: {1: {defaultBranch: 'main'}}, access})
    for (const route of missing) server.override(route, {status: 404, text: 'HTTP 404 Not Found'})
    const client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret})
    try {
      return await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: [1], serverFetchers: SERVER_FETCHERS, projectFetchers: PROJECT_FETCHERS})
    } finally {
      await client.close()
      await server.close()
    }
  }

  it('each one the data sources ask (a fallback too) is grouped under a family, never "other checks"', async () => {
    const models = [
      // Nothing offered: every endpoint asked without a listing before it.
      await collectWithout(undefined),
      // Listings that name a group (the default and an administrator group) and a user without id: the endpoints asked for each.
      await collectWithout({security: {defaultGroupName: 'staff'}, groups: [{id: 3, name: 'staff', administrator: true}], users: [{name: 'root'}]}, ['GET /users/*']),
    ]
    const asked = new Set(models.flatMap((m) => (m.notEvaluated ?? []).flatMap((entry) => entry.endpoint.split(' or '))).filter((endpoint) => !endpoint.startsWith('/repositories/')))
    const declared = [...Object.values(accessData), ...Object.values(adminData), ...Object.values(versionData), ...Object.values(agentData), ...Object.values(mailData)].flatMap((value) => {
      const spec = value as Partial<OptionalGet>
      return typeof spec === 'object' && typeof spec.endpoint === 'string' && typeof spec.checks === 'string' ? [spec.endpoint, ...(spec.fallbacks ?? []).map((f) => f.endpoint)] : []
    })
    // Both collections between them asked every endpoint the data sources declare.
    expect([...asked].sort()).toEqual([...new Set(declared)].sort())
    for (const m of models) {
      const notices = coverageOf(m, DEFAULT_SETTINGS).notices.filter((n) => n.group?.reason === 'not offered')
      expect(notices.filter((n) => n.group!.families.length === 0).map((n) => n.message)).toEqual([])
    }
  })
})


describe('branch and tag patterns that matched nothing (issue 33)', () => {
  const withRepository = (id: number, repository: Project['repository']): Project => ({...project({id, path: `acme/p${id}`}), repository})
  const warnings = (projects: Project[], branches: string[], tags: string[] = []) =>
    coverageOf(model({projects}), {...DEFAULT_SETTINGS, branches, tags}, {branches: '--branch', tags: '--tag'}).notices.filter((n) => n.kind === 'warning').map((n) => n.message)

  it('names the patterns no branch or tag of any audited project matched, once; the default branch counts as a branch', () => {
    const projects = [withRepository(1, {defaultBranch: 'main', branches: ['main', 'release/1'], tags: ['v1']}), withRepository(2, {defaultBranch: 'trunk', branches: [], tags: []}), withRepository(3, {defaultBranch: null, branches: null, tags: null})]
    expect(warnings(projects, ['release/*', 'trunk', 'hotfix/*', 'feature/**'], ['v*', 'rc-*'])).toEqual([
      'the branch patterns "hotfix/*", "feature/**" (--branch) matched no branch of the 3 audited projects: nothing was judged for them; check them for a typo',
      'the tag pattern "rc-*" (--tag) matched no tag of the 3 audited projects: nothing was judged for it; check it for a typo',
    ])
  })

  it('says nothing where a list is unknown (the server does not offer it, or it failed for a project): the notices of the repository endpoints say what was judged', () => {
    const known = withRepository(1, {defaultBranch: 'main', branches: ['main'], tags: []})
    expect(warnings([known, withRepository(2, {defaultBranch: 'main', branches: null, tags: null})], ['hotfix/*'], ['rc-*'])).toEqual([])
    expect(warnings([known, withRepository(2, {branches: ['main'], tags: [], unreadable: ['default-branch']})], ['hotfix/*'])).toEqual([])
    expect(warnings([known, {...project({id: 2}), repository: undefined}], ['hotfix/*'])).toEqual([])
  })
})
