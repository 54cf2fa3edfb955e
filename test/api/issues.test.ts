/**
 * notify's issue requests (src/api/issues.ts, src/api/version.ts) against a loopback server that
 * stores issues as OneDev's IssueResource does (test/helpers/issue-store.ts): the query finds a project's
 * issues by path, title or marker whatever the path holds, oldest first, paging when a page is full;
 * the account is read from /users/me, or from an issue it opened where /users/me has no id; a
 * description goes as the raw body; errors are values; the version is read as the bare text it is.
 */
import {afterEach, describe, expect, it} from 'vitest'

import {createClient} from '../../src/api/client.js'
import {notifyIssueQuery, openIssue, queryNotifyIssues, quoteQueryValue, readOwnAccount, setIssueDescription, transitIssue} from '../../src/api/issues.js'
import {ApiError, type ApiClient} from '../../src/api/types.js'
import {readServerVersion} from '../../src/api/version.js'
import {formatMarker, ISSUE_TITLES} from '../../src/model/issue.js'
import {DEFAULT_WORKFLOW, installIssueStore, type IssueServerFlavor, MEMBER, ONEDEV_11, ONEDEV_16, ONEDEV_8, parseIssueQuery} from '../helpers/issue-store.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'

const HOSTILE_PATH = 'acme/we"ird\\path and "Title" contains "x'
const PROJECTS = [
  {id: 2, path: 'acme/app'},
  {id: 5, path: HOSTILE_PATH},
  {id: 6, path: 'acme/app2'},
]

let servers: OneDevServer[] = []
let clients: ApiClient[] = []
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await Promise.all(servers.map((s) => s.close()))
  servers = []
  clients = []
})

async function setup(issues: Parameters<typeof installIssueStore>[1]['issues'] = [], flavor: IssueServerFlavor = ONEDEV_16) {
  const server = await startOneDevServer({projects: PROJECTS, issueSetting: DEFAULT_WORKFLOW})
  servers.push(server)
  const store = installIssueStore(server, {projects: PROJECTS, workflow: DEFAULT_WORKFLOW, issues, forbidden: [6], flavor})
  const client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret, retries: 0})
  clients.push(client)
  return {server, store, client}
}

describe('the notify issue query', () => {
  it('is valid issue-query syntax whatever the path holds, and matches exactly that path', () => {
    expect(quoteQueryValue('a"b\\c')).toBe('"a\\"b\\\\c"')
    expect(notifyIssueQuery('acme/app')).toBe('"Project" is "acme/app" and ("Title" contains "onedev-audit: security findings" or "Description" contains "onedev-audit:notify") order by "Number" asc')
    const paths = new Map(PROJECTS.map((p) => [p.id, p.path]))
    const matches = parseIssueQuery(notifyIssueQuery(HOSTILE_PATH), (id) => paths.get(id)!)
    const issue = (projectId: number, title: string, description = '') => ({id: 1, number: 1, projectId, title, description, state: 'Open', confidential: true, fields: {}, comments: [], submitterId: MEMBER.id})
    expect(matches(issue(5, ISSUE_TITLES.project))).toBe(true)
    expect(matches(issue(5, 'x', 'see <!-- onedev-audit:notify server findings=none -->'))).toBe(true)
    expect(matches(issue(5, 'unrelated x'))).toBe(false)
    expect(matches(issue(2, ISSUE_TITLES.project))).toBe(false)
  })

  it("finds a project's issues, everyone's, with one request, and only that project's, oldest first", async () => {
    const marker = formatMarker({scope: {kind: 'project', id: 5}, findings: 'none'})
    const {server, client} = await setup([
      {projectId: 5, title: 'anything', description: marker},
      {projectId: 5, title: ISSUE_TITLES.project, submitterId: MEMBER.id},
      {projectId: 5, title: 'a bug report'},
      {projectId: 2, title: ISSUE_TITLES.project},
      {projectId: 6, title: ISSUE_TITLES.project},
    ])
    const found = await queryNotifyIssues(client, HOSTILE_PATH)
    expect(found.map((issue) => [issue.projectId, issue.title, issue.submitterId])).toEqual([
      [5, 'anything', 1],
      [5, ISSUE_TITLES.project, MEMBER.id],
    ])
    expect(server.requests.map((r) => [r.method, r.path, r.query])).toEqual([['GET', '/~api/issues', {query: notifyIssueQuery(HOSTILE_PATH), offset: '0', count: '100'}]])
  })

  it('pages on only while pages come back full, however many newer look-alikes there are', async () => {
    const {server, store, client} = await setup([{projectId: 2, title: ISSUE_TITLES.project}])
    for (let i = 0; i < 150; i++) store.add({projectId: 2, title: `${ISSUE_TITLES.project} (${i})`})
    const found = await queryNotifyIssues(client, 'acme/app')
    expect(found).toHaveLength(151)
    expect(found[0]).toMatchObject({number: 1, submitterId: 1})
    expect(server.requests.map((r) => r.query.offset)).toEqual(['0', '100'])
  })
})

describe("the account's id", () => {
  it('is what GET /users/me answers, on 16.x as on 8.x: one request', async () => {
    for (const flavor of [ONEDEV_16, ONEDEV_8]) {
      const {server, client} = await setup([], flavor)
      expect(await readOwnAccount(client)).toBe(1)
      expect(server.requests.map((r) => r.path)).toEqual(['/~api/users/me'])
    }
  })

  it('is the submitter of an issue it opened where /users/me answers no id (11.8 to 14.0), or none when it opened none', async () => {
    const {server, store, client} = await setup([{projectId: 5, title: 'by someone else', submitterId: MEMBER.id}], ONEDEV_11)
    expect(await readOwnAccount(client)).toBeNull()
    store.add({projectId: 2, title: 'ours', submitterId: 1})
    expect(await readOwnAccount(client)).toBe(1)
    expect(server.requests.map((r) => [r.path, r.query.query ?? ''])).toEqual([
      ['/~api/users/me', ''],
      ['/~api/issues', 'submitted by me order by "Number" asc'],
      ['/~api/users/me', ''],
      ['/~api/issues', 'submitted by me order by "Number" asc'],
    ])
  })
})

describe("the server's version", () => {
  it('is the bare text GET /version/server answers, or null and why where the resource is missing (8.x)', async () => {
    const current = await setup()
    expect(await readServerVersion(current.client)).toEqual({version: '16.5.6'})
    const old = await setup([], ONEDEV_8)
    expect(await readServerVersion(old.client)).toEqual({version: null, why: 'GET /~api/version/server is not offered, as before OneDev 10.2'})
    old.server.setHandler('GET /version/server', (_request, response) => void response.writeHead(200, {'content-type': 'application/json'}).end('<b>not a version</b>'))
    expect(await readServerVersion(old.client)).toEqual({version: null, why: 'GET /~api/version/server answered no version number'})
  })
})

describe('writing issues', () => {
  it('opens a confidential issue and reads its id; sends a description as the raw body; moves it through a manual transition', async () => {
    const {server, store, client} = await setup()
    const description = 'line "one"\n\n- `two` {"json": true}\n'
    const id = await openIssue(client, {projectId: 2, title: ISSUE_TITLES.project, description, fields: {Type: ['Bug'], Assignees: ['a', 'b']}})
    expect(store.issues).toEqual([expect.objectContaining({id, projectId: 2, title: ISSUE_TITLES.project, description, confidential: true, state: 'Open', fields: {Type: 'Bug', Assignees: ['a', 'b']}})])
    expect(JSON.parse(server.requests[0]!.body)).toEqual({projectId: 2, title: ISSUE_TITLES.project, description, confidential: true, fields: {Type: 'Bug', Assignees: ['a', 'b']}})

    await setIssueDescription(client, id, 'new "text"\n')
    expect(server.requests[1]!.body).toBe('new "text"\n')
    expect(store.issues[0]!.description).toBe('new "text"\n')

    await transitIssue(client, id, {state: 'Closed', fields: {}, comment: 'done'})
    expect(store.issues[0]).toMatchObject({state: 'Closed', comments: ['done']})
    expect(JSON.parse(server.requests[2]!.body)).toEqual({state: 'Closed', fields: {}, comment: 'done'})
  })

  it("turns the server's refusals into errors naming the request and the reason", async () => {
    const {client} = await setup()
    const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof ApiError ? error.error : error))
    expect(await refusal(openIssue(client, {projectId: 6, title: 't', description: '', fields: {}}))).toMatchObject({kind: 'forbidden', status: 403, message: expect.stringContaining('POST /~api/issues: 403 Forbidden: Not authorized; the audit needs administrator rights')})
    expect(await refusal(openIssue(client, {projectId: 9, title: 't', description: '', fields: {}}))).toMatchObject({kind: 'not-found', status: 404})
    expect(await refusal(openIssue(client, {projectId: 2, title: 't', description: '', fields: {Nope: ['x']}}))).toMatchObject({kind: 'http', status: 406, message: 'POST /~api/issues: 406 Not Acceptable: Undefined field: Nope'})
    const id = await openIssue(client, {projectId: 2, title: 't', description: '', fields: {}})
    expect(await refusal(transitIssue(client, id, {state: 'Nowhere', fields: {}, comment: ''}))).toMatchObject({status: 406, message: expect.stringContaining('No applicable manual transition spec found')})
  })
})
