import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {createClient} from '../../src/api/client.js'
import {collectModel, type CollectRequest} from '../../src/api/collect.js'
import type {ApiClient} from '../../src/api/types.js'
import {createLane, type Lane} from '../../src/util/lane.js'
import {expectNoCanary, FIXTURES_DIR} from '../helpers/canaries.js'
import {startOneDevServer, type FixtureProject, type OneDevServer, type OneDevServerOptions} from '../helpers/onedev-server.js'

const settingFull: unknown = JSON.parse(readFileSync(join(FIXTURES_DIR, 'current', 'setting-full.json'), 'utf8'))
const rolesFixture: unknown[] = JSON.parse(readFileSync(join(FIXTURES_DIR, 'roles.json'), 'utf8')) as unknown[]
const EMPTY_SETTING = {branchProtections: [], tagProtections: [], webHooks: [], contributedSettings: []}

const started: OneDevServer[] = []
const clients: ApiClient[] = []

async function setup(options: OneDevServerOptions & {connections?: number; secret?: string} = {}): Promise<{server: OneDevServer; client: ApiClient}> {
  const server = await startOneDevServer({roles: rolesFixture, ...options})
  started.push(server)
  const client = createClient({
    baseUrl: server.url,
    apiPrefix: '/~api',
    user: server.user,
    secret: options.secret ?? server.secret,
    connections: options.connections ?? 16,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 2,
  })
  clients.push(client)
  return {server, client}
}

function request(server: OneDevServer, overrides: Partial<CollectRequest>): CollectRequest {
  return {server: {url: server.url, apiPrefix: '/~api'}, projects: 'all', ...overrides}
}

function settingsFor(projects: FixtureProject[], setting: unknown = EMPTY_SETTING): Record<number, unknown> {
  return Object.fromEntries(projects.map((project) => [project.id, setting]))
}

function countOf(server: OneDevServer, path: string): number {
  return server.requests.filter((r) => r.path === path).length
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  await Promise.all(started.splice(0).map((server) => server.close()))
})

const tree: FixtureProject[] = [
  {id: 1, path: 'acme', parentId: null},
  {id: 2, path: 'acme/web', parentId: 1},
  {id: 3, path: 'acme/api', parentId: 1},
  {id: 4, path: 'other', parentId: null},
]

describe('collectModel', () => {
  it('audits every listed project, sorted by path, with roles', async () => {
    const {server, client} = await setup({projects: tree, settings: {...settingsFor(tree), 2: settingFull}})
    const model = await collectModel(client, request(server, {}))
    expect(model.errors).toEqual([])
    expect(model.server).toEqual({url: server.url, apiPrefix: '/~api'})
    expect(model.projects.map((p) => [p.id, p.path, p.parentId])).toEqual([
      [1, 'acme', null],
      [3, 'acme/api', 1],
      [2, 'acme/web', 1],
      [4, 'other', null],
    ])
    expect(model.projects.every((p) => p.setting !== null)).toBe(true)
    expect(model.roles).toHaveLength(rolesFixture.length)
    expect(model.rolesRaw).toHaveLength(rolesFixture.length)
    expect(countOf(server, '/~api/projects')).toBe(1)
    expect(server.requests.every((r) => r.basic?.secret === server.secret)).toBe(true)
  })

  it('keeps no secret from the payloads in the model', async () => {
    const {server, client} = await setup({projects: tree, settings: settingsFor(tree, settingFull)})
    const model = await collectModel(client, request(server, {}))
    const projects = [...model.projectsById.values()]
    expectNoCanary(JSON.stringify({projects, roles: model.roles, rolesRaw: model.rolesRaw, errors: model.errors}))
  })

  it('fetches excluded ancestors for inheritance without auditing them', async () => {
    const {server, client} = await setup({projects: tree, settings: settingsFor(tree)})
    const model = await collectModel(client, request(server, {filter: (path) => path !== 'acme'}))
    expect(model.projects.map((p) => p.path)).toEqual(['acme/api', 'acme/web', 'other'])
    expect([...model.projectsById.keys()]).toEqual([1, 2, 3, 4])
    expect(model.projectsById.get(1)?.setting).not.toBeNull()
    expect(countOf(server, '/~api/projects/1/setting')).toBe(1)
  })

  it('fetches a shared ancestor chain once for many children requested at once', async () => {
    const children: FixtureProject[] = Array.from({length: 20}, (_, i) => ({id: 100 + i, path: `g/sub/p${i}`, parentId: 11}))
    const projects: FixtureProject[] = [{id: 10, path: 'g', parentId: null}, {id: 11, path: 'g/sub', parentId: 10}, ...children]
    const {server, client} = await setup({projects, settings: settingsFor(projects)})
    server.override('GET /projects/*', {delayMs: 20})
    const model = await collectModel(client, request(server, {projects: children.map((c) => c.id), concurrency: 8}))
    expect(model.errors).toEqual([])
    expect(model.projects).toHaveLength(20)
    expect([...model.projectsById.keys()]).toEqual([10, 11, ...children.map((c) => c.id)])
    for (const ancestor of [10, 11]) {
      expect(countOf(server, `/~api/projects/${ancestor}`)).toBe(1)
      expect(countOf(server, `/~api/projects/${ancestor}/setting`)).toBe(1)
    }
    expect(model.projectsById.get(11)).toMatchObject({path: 'g/sub', parentId: 10})
  })

  it('never has more than `concurrency` requests in flight', async () => {
    const projects: FixtureProject[] = Array.from({length: 30}, (_, i) => ({id: i + 1, path: `p${String(i).padStart(2, '0')}`, parentId: null}))
    const {server, client} = await setup({projects, settings: settingsFor(projects), connections: 16})
    server.override('GET /projects/*/setting', {delayMs: 15})
    const progress: Array<[number, number]> = []
    const model = await collectModel(client, request(server, {concurrency: 4, onProgress: (done, total) => progress.push([done, total])}))
    expect(model.projects).toHaveLength(30)
    expect(server.maxInFlight).toBe(4)
    expect(progress).toEqual(Array.from({length: 30}, (_, i) => [i + 1, 30]))
  })

  it('records a failing project and audits the others', async () => {
    const {server, client} = await setup({projects: tree, settings: settingsFor(tree)})
    server.override('GET /projects/3/setting', {status: 500, text: 'Internal Server Error'})
    const model = await collectModel(client, request(server, {}))
    expect(model.errors).toEqual([
      {
        kind: 'http',
        status: 500,
        path: '/~api/projects/3/setting',
        message: 'GET /~api/projects/3/setting: 500 Internal Server Error: Internal Server Error',
        project: {id: 3, path: 'acme/api'},
      },
    ])
    expect(model.projects.map((p) => [p.path, p.setting === null])).toEqual([
      ['acme', false],
      ['acme/api', true],
      ['acme/web', false],
      ['other', false],
    ])
  })

  it('audits the projects when the roles are forbidden (non-admin token)', async () => {
    const {server, client} = await setup({projects: tree, settings: settingsFor(tree)})
    server.override('GET /roles', {status: 403, text: 'Not authorized'})
    const model = await collectModel(client, request(server, {}))
    expect(model.roles).toEqual([])
    expect(model.errors).toHaveLength(1)
    expect(model.errors[0]).toMatchObject({kind: 'forbidden', status: 403, path: '/~api/roles'})
    expect(model.errors[0]?.project ?? null).toBeNull()
    expect(model.projects).toHaveLength(4)
  })

  it('stops after a 401 and records it once', async () => {
    const projects: FixtureProject[] = Array.from({length: 40}, (_, i) => ({id: i + 1, path: `p${i}`, parentId: null}))
    const {server, client} = await setup({projects, settings: settingsFor(projects), secret: 'not-the-secret'})
    const model = await collectModel(client, request(server, {projects: projects.map((p) => p.id), concurrency: 3}))
    expect(model.errors).toHaveLength(1)
    expect(model.errors[0]).toMatchObject({kind: 'auth', status: 401, project: null})
    expect(model.errors[0]?.message).not.toContain('not-the-secret')
    expect(server.requests.length).toBeLessThanOrEqual(3)
    expect(model.projects).toEqual([])
  })

  it('still reads the setting when GET /projects/{id} fails, with the id as path', async () => {
    const {server, client} = await setup({projects: tree, settings: settingsFor(tree)})
    server.override('GET /projects/4', {status: 404, text: 'HTTP 404 Not Found'})
    const model = await collectModel(client, request(server, {projects: [4]}))
    expect(model.errors).toEqual([
      {
        kind: 'not-found',
        status: 404,
        path: '/~api/projects/4',
        message: 'GET /~api/projects/4: 404 Not Found: HTTP 404 Not Found',
        project: {id: 4, path: '4'},
      },
    ])
    expect(model.projects).toHaveLength(1)
    expect(model.projects[0]).toMatchObject({id: 4, path: '4', parentId: null})
    expect(model.projects[0]?.setting).not.toBeNull()
  })

  it('orders errors deterministically: roles first, then by project id', async () => {
    const projects: FixtureProject[] = Array.from({length: 6}, (_, i) => ({id: 6 - i, path: `p${i}`, parentId: null}))
    const {server, client} = await setup({projects, settings: {}})
    server.override('GET /roles', {status: 403, text: 'Not authorized', delayMs: 40})
    for (const project of projects) server.override(`GET /projects/${project.id}/setting`, {delayMs: project.id * 3})
    const model = await collectModel(client, request(server, {}))
    expect(model.errors.map((e) => [e.kind, e.project?.id ?? null])).toEqual([
      ['forbidden', null],
      ['not-found', 1],
      ['not-found', 2],
      ['not-found', 3],
      ['not-found', 4],
      ['not-found', 5],
      ['not-found', 6],
    ])
  })

  it('reports a failed project listing and still returns the roles', async () => {
    const {server, client} = await setup({projects: tree, settings: settingsFor(tree)})
    server.override('GET /projects', {status: 500, text: 'boom'})
    const model = await collectModel(client, request(server, {}))
    expect(model.projects).toEqual([])
    expect(model.roles).toHaveLength(rolesFixture.length)
    expect(model.errors).toEqual([
      {kind: 'http', status: 500, path: '/~api/projects', message: 'GET /~api/projects: 500 Internal Server Error: boom'},
    ])
  })
})

describe('what a server offers is learnt per endpoint, the same at any concurrency', () => {
  const JERSEY_404 = {status: 404, text: 'HTTP 404 Not Found'}
  const pair: FixtureProject[] = [
    {id: 10, path: 'app/one', parentId: null},
    {id: 11, path: 'app/two', parentId: null},
  ]
  const repositories = {10: {defaultBranch: 'main', tags: ['v1']}, 11: {defaultBranch: 'main', tags: ['v2']}}
  const tagsAsked = (server: OneDevServer) => server.requests.filter((r) => r.path.endsWith('/tags')).map((r) => r.path).sort()

  for (const concurrency of [1, 2, 8]) {
    it(`one project's tag list answers like a missing endpoint, before the other asked its own: that project's error, never "not offered" (concurrency ${concurrency})`, async () => {
      const {server, client} = await setup({projects: pair, settings: settingsFor(pair), repositories})
      server.override('GET /repositories/10/tags', JERSEY_404)
      const model = await collectModel(client, request(server, {concurrency}))
      expect(model.notEvaluated).toBeUndefined()
      expect(model.errors.map((e) => [e.project?.path, e.message])).toEqual([
        ['app/one', 'GET /~api/repositories/10/tags: 404 Not Found: HTTP 404 Not Found; the server answers GET /repositories/{id}/tags for other projects, so this project may have been deleted during the audit'],
      ])
      expect(model.projects.map((p) => [p.path, p.repository])).toEqual([
        ['app/one', {defaultBranch: 'main', branches: null, tags: null, unreadable: ['tags']}],
        ['app/two', {defaultBranch: 'main', branches: null, tags: ['v2']}],
      ])
      // The other project's tag list was asked once: the confirmation is its own request.
      expect(tagsAsked(server)).toEqual(['/~api/repositories/10/tags', '/~api/repositories/11/tags'])
    })

    it(`a server without the tag list: "not offered" once two projects missed, one request more than the first (concurrency ${concurrency})`, async () => {
      const four: FixtureProject[] = Array.from({length: 4}, (_, i) => ({id: 10 + i, path: `app/p${i}`, parentId: null}))
      const {server, client} = await setup({projects: four, settings: settingsFor(four), repositories: Object.fromEntries(four.map((p) => [p.id, {defaultBranch: 'main', tags: []}]))})
      server.override('GET /repositories/*/tags', JERSEY_404)
      const model = await collectModel(client, request(server, {concurrency}))
      expect(model.errors).toEqual([])
      expect(model.notEvaluated).toEqual([{endpoint: '/repositories/{id}/tags', status: 404, checks: 'tag lists (tag protections judged for configured or sample tag names)'}])
      expect(model.projects.map((p) => p.repository)).toEqual(four.map(() => ({defaultBranch: 'main', branches: null, tags: null})))
      if (concurrency === 1) expect(tagsAsked(server)).toHaveLength(2)
    })
  }

  it('a single project: its miss is the endpoint\'s (no other subject to ask), one request', async () => {
    const {server, client} = await setup({projects: pair, settings: settingsFor(pair), repositories})
    server.override('GET /repositories/*/tags', JERSEY_404)
    const model = await collectModel(client, request(server, {projects: [11]}))
    expect(model.errors).toEqual([])
    expect(model.notEvaluated).toEqual([{endpoint: '/repositories/{id}/tags', status: 404, checks: 'tag lists (tag protections judged for configured or sample tag names)'}])
    expect(tagsAsked(server)).toEqual(['/~api/repositories/11/tags'])
  })
})

describe('a request waiting for an endpoint\'s verdict holds no slot of the limiter', () => {
  const four: FixtureProject[] = Array.from({length: 4}, (_, i) => ({id: 10 + i, path: `app/p${i}`, parentId: null}))
  const heads = ['main', 'master', 'develop', 'trunk']
  const repositories = Object.fromEntries(four.map((p, i) => [p.id, {defaultBranch: heads[i]!, tags: [`v${i}`]}]))

  for (const part of ['default-branch', 'tags'] as const) {
    it(`concurrency 1: project #10's ${part} misses; the request that decides is held by the server while the rest wait, and the run completes with every other project read`, async () => {
      const {server, client} = await setup({projects: four, settings: settingsFor(four), repositories})
      let deciding: string | undefined
      let held!: () => void
      const heldNow = new Promise<void>((resolve) => (held = resolve))
      let release!: () => void
      const released = new Promise<void>((resolve) => (release = resolve))
      server.setHandler(`GET /repositories/*/${part}`, async (_request, response, recorded) => {
        const id = Number(recorded.path.split('/').at(-2))
        if (id === 10) {
          response.writeHead(404, {'content-type': 'text/plain'})
          return void response.end('HTTP 404 Not Found')
        }
        if (deciding === undefined) {
          // The first request after the miss decides whether the server offers the endpoint.
          deciding = recorded.path
          held()
          await released
        }
        const repository = repositories[id]!
        response.writeHead(200, {'content-type': part === 'tags' ? 'application/json' : 'text/plain'})
        response.end(part === 'tags' ? JSON.stringify(repository.tags) : repository.defaultBranch)
      })
      const collected = collectModel(client, request(server, {concurrency: 1}))
      // At concurrency 1 the held request has the only slot: it got it although project #10's read
      // waits for its verdict, and nothing else is sent until it is answered.
      await heldNow
      expect(server.requests.filter((r) => r.path.endsWith(`/${part}`)).map((r) => r.path)).toEqual([`/~api/repositories/10/${part}`, deciding])
      expect(server.inFlight).toBe(1)
      release()
      const model = await collected
      expect(server.maxInFlight).toBe(1)
      expect(model.notEvaluated).toBeUndefined()
      expect(model.errors.map((e) => [e.project?.path, e.message])).toEqual([
        ['app/p0', `GET /~api/repositories/10/${part}: 404 Not Found: HTTP 404 Not Found; the server answers GET /repositories/{id}/${part} for other projects, so this project may have been deleted during the audit`],
      ])
      expect(model.projects.map((p) => [p.path, p.repository])).toEqual([
        ['app/p0', part === 'tags' ? {defaultBranch: 'main', branches: null, tags: null, unreadable: ['tags']} : {branches: null, tags: null, unreadable: ['default-branch']}],
        ['app/p1', {defaultBranch: 'master', branches: null, tags: ['v1']}],
        ['app/p2', {defaultBranch: 'develop', branches: null, tags: ['v2']}],
        ['app/p3', {defaultBranch: 'trunk', branches: null, tags: ['v3']}],
      ])
    })
  }
})

describe('answers are processed between reads, never inside their slot (issue 28)', () => {
  it('answers that arrive together are each read, and their slots given to the next requests, before the work on any of them starts', async () => {
    const twelve: FixtureProject[] = Array.from({length: 12}, (_, i) => ({id: 20 + i, path: `app/p${i}`, parentId: null}))
    const {server, client} = await setup({projects: twelve, settings: settingsFor(twelve, settingFull)})
    // The server holds each setting request until another one waits too, then answers both in one go:
    // the two answers reach the client together. At each release: how many requests the client had sent.
    const held: Array<() => void> = []
    const sentAtRelease: number[] = []
    server.setHandler('GET /projects/*/setting', async (_request, response) => {
      await new Promise<void>((resolve) => {
        held.push(resolve)
        if (held.length === 2) {
          sentAtRelease.push(client.requestCount)
          for (const release of held.splice(0)) release()
        }
        // The last one, alone: answered on its own.
        setTimeout(() => held.includes(resolve) && held.splice(held.indexOf(resolve), 1) && resolve(), 200)
      })
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(JSON.stringify(settingFull))
    })
    // The lane the collection does its work on (ArrivalHooks.lane): how many requests the client had sent when each task started.
    const lane = createLane()
    const sentAtWork: number[] = []
    const watched: Lane = {
      run: (task, options) => lane.run(() => (sentAtWork.push(client.requestCount), task()), options),
      get waiting() {
        return lane.waiting
      },
    }
    const model = await collectModel(client, request(server, {concurrency: 2, arrival: {lane: watched, expect: () => {}, allExpected: () => {}, ready: () => {}, add: () => {}}}))
    expect(model.errors).toEqual([])
    expect(model.projects.map((p) => p.setting === null)).toEqual(twelve.map(() => false))
    // Every setting was ingested on the lane, and for the pairs answered while other requests still
    // waited, the work on the first answer started once both were read and two requests sent.
    expect(sentAtWork).toHaveLength(12)
    const pairs = sentAtRelease.slice(0, 3)
    expect(pairs.map((sent, i) => sentAtWork[2 * i]! - sent)).toEqual([2, 2, 2])
  }, 20_000)
})
