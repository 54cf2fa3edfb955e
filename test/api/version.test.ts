/**
 * Reading the server's version (GET /version/server) in a collection, against a loopback server that
 * answers as OneDev's VersionResource does (a Java String under application/json, written unquoted:
 * v16.5.6 rest/resource/VersionResource.java:18-23, first at v10.2.0), or as an older server (404);
 * the model keeps it in `server.version`, a snapshot keeps it and loads it back, and an older snapshot
 * without it still loads (unknown).
 */
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterEach, describe, expect, it} from 'vitest'

import {createClient} from '../../src/api/client.js'
import {collectModel} from '../../src/api/collect.js'
import {SERVER_FETCHERS} from '../../src/api/data-sources.js'
import type {ApiClient} from '../../src/api/types.js'
import {fetchServerVersion} from '../../src/api/version.js'
import type {AuditModel} from '../../src/model/types.js'
import {loadSnapshot, saveSnapshotDir, saveSnapshotFile} from '../../src/snapshot/snapshot.js'
import {type OneDevServer, type OneDevServerOptions, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

const started: OneDevServer[] = []
const clients: ApiClient[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  await Promise.all(started.splice(0).map((server) => server.close()))
})

async function collect(options: OneDevServerOptions, fetchers = [fetchServerVersion]): Promise<{model: AuditModel; server: OneDevServer}> {
  const server = await startOneDevServer(options)
  started.push(server)
  const client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret, retries: 0})
  clients.push(client)
  return {model: await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: [], serverFetchers: fetchers}), server}
}

const versionRequests = (server: OneDevServer) => server.requests.filter((r) => r.path === '/~api/version/server')

describe('the server version', () => {
  it('is read once, as the bare text OneDev sends, and kept in server.version', async () => {
    const {model, server} = await collect({version: '16.5.6'}, [...SERVER_FETCHERS])
    expect(model.errors).toEqual([])
    expect(model.server).toEqual({url: server.url, apiPrefix: '/~api', version: '16.5.6'})
    expect(model.serverData?.['version/server']).toBe('16.5.6')
    expect(model.notEvaluated?.map((n) => n.endpoint)).not.toContain('/version/server')
    expect(versionRequests(server)).toHaveLength(1)
  })

  it('a server before 10.2.0 (404): null, and recorded once as not offered, no error', async () => {
    const {model, server} = await collect({})
    expect(model.errors).toEqual([])
    expect(model.server?.version).toBeNull()
    expect(model.notEvaluated).toEqual([{endpoint: '/version/server', status: 404, checks: 'the judgements that depend on the OneDev version (made by the reading that exposes more instead)'}])
    expect(versionRequests(server)).toHaveLength(1)
  })

  it('a quoted answer (a stub) is read too; an answer that is no version is null', async () => {
    const quoted = await collect({})
    quoted.server.setHandler('GET /version/server', (_request, response) => {
      response.writeHead(200, {'content-type': 'application/json'})
      response.end('"15.0.1"')
    })
    const client = createClient({baseUrl: quoted.server.url, apiPrefix: '/~api', user: quoted.server.user, secret: quoted.server.secret})
    clients.push(client)
    expect((await collectModel(client, {server: {url: quoted.server.url, apiPrefix: '/~api'}, projects: [], serverFetchers: [fetchServerVersion]})).server?.version).toBe('15.0.1')
    for (const answer of ['<html>login</html>', '16.5.6\n\u001b[2J', 'x'.repeat(100), '']) {
      const {model} = await collect({version: answer})
      expect(model.server?.version, answer).toBeNull()
    }
  })

  it('a refusal is an error naming the endpoint, and the version is null', async () => {
    const {server} = await collect({version: '16.5.6'})
    server.override('GET /version/server', {status: 403, text: 'Forbidden'})
    const client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret, retries: 0})
    clients.push(client)
    const model = await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: [], serverFetchers: [fetchServerVersion]})
    expect(model.server?.version).toBeNull()
    expect(model.errors.map((e) => [e.kind, e.path, e.status])).toEqual([['forbidden', '/~api/version/server', 403]])
  })

  it('without server-wide data sources nothing is asked and the version is absent (not read)', async () => {
    const {model, server} = await collect({version: '16.5.6'}, [])
    expect(model.server).toEqual({url: server.url, apiPrefix: '/~api'})
    expect(versionRequests(server)).toHaveLength(0)
  })
})

describe('snapshots', () => {
  it('keep the version, in a file and in a folder, and load it back', async () => {
    const {model} = await collect({version: '14.1.0'})
    const dir = await tempDir('oda-version-snapshot')
    const file = join(dir, 'snapshot.json')
    await saveSnapshotFile(model, file, {name: 'onedev-audit', version: 'test'})
    await saveSnapshotDir(model, join(dir, 'folder'), {name: 'onedev-audit', version: 'test'})
    expect(JSON.parse(await readFile(file, 'utf8')).server.version).toBe('14.1.0')
    expect((await loadSnapshot(file)).server?.version).toBe('14.1.0')
    expect((await loadSnapshot(join(dir, 'folder'))).server?.version).toBe('14.1.0')
  })

  it('a snapshot written before the version was read loads, its version unknown; one whose version is no version text loads it as null', async () => {
    const {model} = await collect({version: '14.1.0'})
    const dir = await tempDir('oda-version-old')
    const file = join(dir, 'snapshot.json')
    await saveSnapshotFile(model, file, {name: 'onedev-audit', version: 'test'})
    const snapshot = JSON.parse(await readFile(file, 'utf8'))
    delete snapshot.server.version
    await writeFile(file, JSON.stringify(snapshot))
    const old = await loadSnapshot(file)
    expect(old.server).toEqual({url: model.server!.url, apiPrefix: '/~api'})
    snapshot.server.version = '\u001b[2J16.5.6'
    await writeFile(file, JSON.stringify(snapshot))
    expect((await loadSnapshot(file)).server?.version).toBeNull()
  })
})
