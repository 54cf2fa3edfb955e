/**
 * Optional data sources (src/api/optional.ts) through a real collection against a loopback server:
 * payloads land redacted in the server data document, an endpoint the server does not offer is
 * recorded once as not evaluated, 403 is an error naming the permission, and snapshots keep it all.
 */
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterEach, describe, expect, it} from 'vitest'

import {createClient} from '../../src/api/client.js'
import {collectModel} from '../../src/api/collect.js'
import type {ProjectFetcher, ServerFetcher} from '../../src/api/optional.js'
import type {ApiClient} from '../../src/api/types.js'
import {loadSnapshot, saveSnapshotDir, saveSnapshotFile} from '../../src/snapshot/snapshot.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

const CANARY_PASSWORD = 'CANARY-ldap-manager-password-41c2'
const CANARY_TOKEN = 'CANARY-access-token-value-9d0e'
const CANARY_EMAIL = 'canary.person@example.invalid'
const CANARY_SCRIPT = 'CANARY-groovy-content-55aa'

const projects = [
  {id: 1, path: 'acme', parentId: null},
  {id: 2, path: 'acme/app', parentId: 1},
]
const EMPTY = {branchProtections: [], tagProtections: [], webHooks: [], contributedSettings: []}

const started: OneDevServer[] = []
const clients: ApiClient[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  await Promise.all(started.splice(0).map((server) => server.close()))
})

async function setup(): Promise<{server: OneDevServer; client: ApiClient}> {
  const server = await startOneDevServer({projects, settings: {1: EMPTY, 2: EMPTY}, roles: [], repositories: {2: {defaultBranch: 'main'}}})
  started.push(server)
  const json = (body: unknown) => (_request: unknown, response: import('node:http').ServerResponse) => {
    response.writeHead(200, {'content-type': 'application/json'})
    response.end(JSON.stringify(body))
  }
  server.setHandler('GET /settings/authenticator', json({'@class': 'io.onedev.server.plugin.authenticator.ldap.LdapAuthenticator', ldapUrl: 'ldap://ldap.example:389', managerPassword: CANARY_PASSWORD}))
  server.setHandler('GET /settings/groovy-scripts', json([{name: 'deploy', content: [`def t = "${CANARY_SCRIPT}"`], canBeUsedByBuildJobs: true}]))
  server.setHandler('GET /users/5/access-tokens', json([{id: 3, name: 'deploy', value: CANARY_TOKEN, expireDate: null}]))
  server.setHandler('GET /users', json([{id: 5, name: 'alice', email: CANARY_EMAIL}]))
  server.setHandler('GET /projects/*/base-authorizations', (request, response) => {
    const id = Number(request.url?.split('/')[3])
    response.writeHead(200, {'content-type': 'application/json'})
    response.end(JSON.stringify([{id: 70 + id, projectId: id, roleId: 3}]))
  })
  const client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret})
  clients.push(client)
  return {server, client}
}

const serverFetcher: ServerFetcher = async (fetch) => {
  await Promise.all([
    fetch.get('/settings/authenticator', {endpoint: '/settings/authenticator', checks: 'LDAP checks'}),
    fetch.get('/settings/groovy-scripts', {endpoint: '/settings/groovy-scripts', checks: 'groovy script checks'}),
    fetch.get('/settings/security', {endpoint: '/settings/security', checks: 'two-factor and sign-up checks'}),
    fetch.get('/users/5/access-tokens', {endpoint: '/users/{id}/access-tokens', checks: 'access token checks'}),
    fetch.get('/users', {endpoint: '/users', checks: 'user checks', paged: true}),
  ])
}
const projectFetcher: ProjectFetcher = async (fetch, project) => {
  await fetch.get(`/projects/${project.id}/base-authorizations`, {endpoint: '/projects/{id}/base-authorizations', checks: 'base role checks'})
  await fetch.get(`/projects/${project.id}/group-authorizations`, {endpoint: '/projects/{id}/group-authorizations', checks: 'group role checks'})
}

describe('optional data sources', () => {
  it('store redacted payloads by path, for audited projects and their ancestors, and record a missing endpoint once', async () => {
    const {server, client} = await setup()
    const model = await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: [2], serverFetchers: [serverFetcher], projectFetchers: [projectFetcher]})
    expect(model.errors).toEqual([])
    expect(Object.keys(model.serverData!)).toEqual([
      'projects/1/base-authorizations',
      'projects/2/base-authorizations',
      'settings/authenticator',
      'settings/groovy-scripts',
      'users',
      'users/5/access-tokens',
    ])
    expect(model.serverData!['projects/1/base-authorizations']).toEqual([{id: 71, projectId: 1, roleId: 3}])
    const text = JSON.stringify(model.serverData)
    for (const canary of [CANARY_PASSWORD, CANARY_TOKEN, CANARY_EMAIL, CANARY_SCRIPT]) expect(text).not.toContain(canary)
    expect(model.serverData!['users']).toEqual([{id: 5, name: 'alice', email: '<redacted>'}])
    expect(model.notEvaluated).toEqual([
      {endpoint: '/projects/{id}/group-authorizations', status: 404, checks: 'group role checks'},
      {endpoint: '/settings/security', status: 404, checks: 'two-factor and sign-up checks'},
    ])
    // The missing per-project endpoint was asked at most once per project that was already waiting.
    expect(server.requests.filter((r) => r.path.endsWith('/group-authorizations')).length).toBeLessThanOrEqual(2)
  })

  it('a per-project endpoint that answers for one project and 404s for another (deleted during the audit): that project\'s error, never "not offered"', async () => {
    const {server, client} = await setup()
    server.setHandler('GET /projects/2/group-authorizations', (_request, response) => {
      response.writeHead(200, {'content-type': 'application/json'})
      response.end('[]')
    })
    server.override('GET /projects/1/group-authorizations', {status: 404, text: 'No row with the given identifier exists: [io.onedev.server.model.Project#1]'})
    const model = await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: [2], projectFetchers: [projectFetcher], concurrency: 1})
    expect(model.notEvaluated).toEqual([])
    expect(model.errors.map((e) => [e.project?.path, e.message])).toEqual([
      ['acme', 'GET /~api/projects/1/group-authorizations: 404 Not Found: No row with the given identifier exists: [io.onedev.server.model.Project#1]'],
    ])
    expect(model.serverData!['projects/2/group-authorizations']).toEqual([])
  })

  it('403 is an error naming the permission; the rest is collected', async () => {
    const {server, client} = await setup()
    server.setHandler('GET /users', null)
    server.override('GET /users', {status: 403, text: 'Unauthorized access'})
    const model = await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: [2], serverFetchers: [serverFetcher]})
    expect(model.errors.map((e) => [e.kind, e.status])).toEqual([['forbidden', 403]])
    expect(model.errors[0]!.message).toContain('administrator rights')
    expect(model.serverData!['settings/authenticator']).toBeDefined()
  })

  it('snapshots keep the server data document (file and folder server.json) and the not-evaluated endpoints', async () => {
    const {server, client} = await setup()
    const model = await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: [2], serverFetchers: [serverFetcher], projectFetchers: [projectFetcher]})
    const dir = await tempDir('oda-optional')
    const tool = {name: 'onedev-audit', version: 'test'}
    await saveSnapshotFile(model, join(dir, 'snapshot.json'), tool)
    await saveSnapshotDir(model, join(dir, 'folder'), tool)
    const serverJson = await readFile(join(dir, 'folder', 'server.json'), 'utf8')
    expect(JSON.parse(serverJson)).toEqual(model.serverData)
    for (const path of [join(dir, 'snapshot.json'), join(dir, 'folder')]) {
      const loaded = await loadSnapshot(path)
      expect(loaded.serverData).toEqual(model.serverData)
      expect(loaded.notEvaluated).toEqual(model.notEvaluated)
    }
    for (const canary of [CANARY_PASSWORD, CANARY_TOKEN, CANARY_EMAIL, CANARY_SCRIPT]) {
      expect(serverJson).not.toContain(canary)
      expect(await readFile(join(dir, 'snapshot.json'), 'utf8')).not.toContain(canary)
    }
  })

  for (const concurrency of [1, 2, 8]) {
    it(`a per-project endpoint that answers like a missing endpoint for one project alone: that project's error, the same at concurrency ${concurrency}`, async () => {
      const many = Array.from({length: 6}, (_, i) => ({id: 20 + i, path: `team/p${i}`, parentId: null}))
      const server = await startOneDevServer({projects: many, settings: Object.fromEntries(many.map((p) => [p.id, EMPTY])), roles: [], repositories: Object.fromEntries(many.map((p) => [p.id, {defaultBranch: 'main'}])), access: {groupProjectAuthorizations: {}}})
      started.push(server)
      server.override('GET /projects/20/group-authorizations', {status: 404, text: 'HTTP 404 Not Found'})
      const client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret})
      clients.push(client)
      const groupAuthorizations: ProjectFetcher = async (fetch, project) => {
        await fetch.get(`/projects/${project.id}/group-authorizations`, {endpoint: '/projects/{id}/group-authorizations', checks: 'group role checks'})
      }
      const model = await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: 'all', projectFetchers: [groupAuthorizations], concurrency})
      expect(model.notEvaluated).toEqual([])
      expect(model.errors.map((e) => [e.project?.path, e.message])).toEqual([['team/p0', 'GET /~api/projects/20/group-authorizations: 404 Not Found: HTTP 404 Not Found']])
      expect(Object.keys(model.serverData!)).toEqual(many.slice(1).map((p) => `projects/${p.id}/group-authorizations`))
      // Each project's list asked once: the confirmation is another project's own request.
      expect(server.requests.filter((r) => r.path.endsWith('/group-authorizations'))).toHaveLength(6)
    })
  }
})
