import {Buffer} from 'node:buffer'
import {createServer as createHttpServer} from 'node:http'
import {connect, type Socket} from 'node:net'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {
  backoffDelay,
  createClient,
  normalizeApiPrefix,
  parseRetryAfter,
  permissionNeeded,
  startsWithTag,
} from '../../src/api/client.js'
import {MAY_QUOTE_A_SECRET, withheldNote} from '../../src/model/server-text.js'
import {oneLine} from '../../src/util/escape.js'
import {ApiError, type ApiClient, type ClientOptions} from '../../src/api/types.js'
import type {AuditError} from '../../src/model/types.js'
import {expectNoCanary} from '../helpers/canaries.js'
import {brokenAnswers, encodeAs, endlessRolesPage, SPLIT_SECRET, INVALID_UTF8, LATIN1_SECRET, multiLineAnswer, serverAnswers, shortAnswers, UMLAUT_SECRET, umlautAnswers, UNKNOWN_CHARSET, type HostileAnswer} from '../helpers/hostile.js'
import {closedPort, type Handler, startOneDevServer, type OneDevServer} from '../helpers/onedev-server.js'

const roles = Array.from({length: 250}, (_, i) => ({id: i + 1, name: `role-${String(i + 1).padStart(3, '0')}`, manageProject: false}))

let server: OneDevServer
const clients: ApiClient[] = []

function clientFor(options: Partial<ClientOptions> = {}): ApiClient {
  const client = createClient({
    baseUrl: server.url,
    apiPrefix: '/~api',
    user: server.user,
    secret: server.secret,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    ...options,
  })
  clients.push(client)
  return client
}

async function failure(promise: Promise<unknown>): Promise<AuditError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return (error as ApiError).error
  }
  throw new Error('expected the request to fail')
}

beforeAll(async () => {
  server = await startOneDevServer({
    roles,
    projects: [{id: 1, path: 'acme'}],
    settings: {1: {branchProtections: []}},
  })
})

afterEach(async () => {
  server.reset()
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

afterAll(async () => {
  await server.close()
})

describe('requests', () => {
  it('pages the roles with count=100 until a short page and keeps their order', async () => {
    const client = clientFor()
    const result = await client.paged('/roles')
    expect(result).toEqual(roles)
    expect(server.requests.map((r) => `${r.path}?${new URLSearchParams(r.query)}`)).toEqual([
      '/~api/roles?offset=0&count=100',
      '/~api/roles?offset=100&count=100',
      '/~api/roles?offset=200&count=100',
    ])
    expect(client.requestCount).toBe(3)
  })

  it('sends the same Basic credentials and Accept header on every request', async () => {
    const client = clientFor()
    await client.paged('/roles')
    await client.getJson('/projects/1')
    await client.getJson('/projects/1/setting')
    await client.postJson('/settings/issue', {stateSpecs: [{name: 'Open'}]})
    expect(server.requests).toHaveLength(6)
    for (const request of server.requests) {
      expect(request.basic).toEqual({user: 'auditor', secret: 's3cr3t-token-value'})
      expect(request.authorization).toBe(`Basic ${Buffer.from('auditor:s3cr3t-token-value').toString('base64')}`)
    }
  })

  it('encodes an empty user as ":token"', async () => {
    const open = await startOneDevServer({credentials: null, projects: [{id: 1, path: 'a'}]})
    try {
      const client = createClient({baseUrl: open.url, apiPrefix: '/~api', user: '', secret: 'tok'})
      clients.push(client)
      await client.getJson('/projects/1')
      expect(open.requests[0]?.basic).toEqual({user: '', secret: 'tok'})
    } finally {
      await open.close()
    }
  })

  it('keeps the base URL path part and normalizes the prefix', async () => {
    const nested = await startOneDevServer({prefix: '/onedev/~api', projects: [{id: 4, path: 'x/y'}]})
    try {
      const client = createClient({baseUrl: `${nested.url}/onedev/`, apiPrefix: '~api/', user: nested.user, secret: nested.secret})
      clients.push(client)
      expect(await client.getJson('/projects/4')).toMatchObject({id: 4, path: 'x/y'})
      expect(nested.requests[0]?.path).toBe('/onedev/~api/projects/4')
      const error = await failure(client.getJson('/projects/5'))
      expect(error.path).toBe('/~api/projects/5')
    } finally {
      await nested.close()
    }
  })

  it('posts JSON and resolves on 200', async () => {
    const client = clientFor()
    await client.postJson('/settings/issue', {stateSpecs: [{name: 'Open', color: '#fff'}]})
    expect(server.issueSetting).toEqual({stateSpecs: [{name: 'Open', color: '#fff'}]})
    expect(server.requests[0]?.method).toBe('POST')
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({stateSpecs: [{name: 'Open', color: '#fff'}]})
  })

  it('reads bare text and maps 204 to null', async () => {
    server.setHandler('GET /repositories/1/default-branch', (_req, res) => {
      res.writeHead(200, {'content-type': 'text/plain'})
      res.end('main')
    })
    server.setHandler('GET /repositories/2/default-branch', (_req, res) => {
      res.writeHead(204)
      res.end()
    })
    const client = clientFor()
    expect(await client.getText('/repositories/1/default-branch')).toBe('main')
    expect(await client.getText('/repositories/2/default-branch')).toBeNull()
  })

  it('clamps the page size to 100 (the server refuses more with 406)', async () => {
    const client = clientFor()
    expect(await client.paged('/roles', {}, {pageSize: 500})).toHaveLength(250)
    expect(server.requests.map((r) => r.query.count)).toEqual(['100', '100', '100'])
  })

  it('passes extra query parameters through every page', async () => {
    const client = clientFor()
    const result = await client.paged('/roles', {name: 'ROLE-00'}, {pageSize: 5})
    expect(result).toHaveLength(9)
    expect(server.requests.map((r) => r.query)).toEqual([
      {name: 'ROLE-00', offset: '0', count: '5'},
      {name: 'ROLE-00', offset: '5', count: '5'},
    ])
  })

  it('reports the server refusing unknown query params or pages over 100 (406)', async () => {
    const client = clientFor()
    expect(await failure(client.paged('/roles', {bogus: 1}))).toEqual({
      kind: 'http',
      status: 406,
      path: '/~api/roles',
      message: 'GET /~api/roles: 406 Not Acceptable: Unexpected query params: [bogus]',
    })
    expect(await failure(client.getJson('/roles', {offset: 0, count: 101}))).toMatchObject({
      kind: 'http',
      status: 406,
      message: 'GET /~api/roles: 406 Not Acceptable: Count should not be greater than 100',
    })
  })

  it('refuses a server URL holding credentials without echoing them', () => {
    let error: unknown
    try {
      createClient({baseUrl: 'https://bob:hunter2@onedev.example.com', apiPrefix: '/~api', user: 'u', secret: 's'})
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).error.kind).toBe('config')
    expect((error as ApiError).message).not.toContain('hunter2')
  })
})

describe('proxy', () => {
  it('goes through HTTP_PROXY unless NO_PROXY names the host', async () => {
    // undici tunnels through the proxy with CONNECT, also for http:// targets
    const proxied: string[] = []
    const proxy = createHttpServer()
    proxy.on('connect', (req, clientSocket: Socket, head: Buffer) => {
      proxied.push(`${req.method} ${req.url}`)
      const [host, port] = (req.url ?? '').split(':')
      const upstream = connect(Number(port), host, () => {
        clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.write(head)
        upstream.pipe(clientSocket)
        clientSocket.pipe(upstream)
      })
      upstream.on('error', () => clientSocket.destroy())
      clientSocket.on('error', () => upstream.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const saved = {HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY}
    try {
      process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as {port: number}).port}`
      process.env.NO_PROXY = ''
      expect(await clientFor().getJson('/projects/1')).toMatchObject({id: 1})
      expect(proxied).toEqual([`CONNECT ${new URL(server.url).host}`])
      process.env.NO_PROXY = 'localhost,127.0.0.1'
      expect(await clientFor().getJson('/projects/1')).toMatchObject({id: 1})
      expect(proxied).toHaveLength(1)
      expect(server.requests).toHaveLength(2)
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
      await Promise.all(clients.splice(0).map((client) => client.close()))
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
  })
})

describe('error mapping', () => {
  it('maps 401 to auth, names the variables to check, and never echoes the secret', async () => {
    const client = clientFor({secret: 'wrong-secret-value'})
    const error = await failure(client.paged('/roles'))
    expect(error).toEqual({
      kind: 'auth',
      status: 401,
      path: '/~api/roles',
      message:
        'GET /~api/roles: 401 Unauthorized: the server refused the credentials or found none: Invalid account or incorrect credentials; check ONEDEV_USER and ONEDEV_TOKEN',
    })
    expect(server.requests).toHaveLength(1)
  })

  it('warns that an unknown token with an empty user is treated as anonymous', async () => {
    const client = clientFor({user: '', secret: 'bogus-token'})
    const error = await failure(client.getJson('/projects/1'))
    expect(error.kind).toBe('auth')
    expect(error.message).toContain('with an empty ONEDEV_USER, a token the server does not know is treated as anonymous')
  })

  it('maps 403 on /roles to forbidden and says administrator rights are needed', async () => {
    server.override('GET /roles', {status: 403, text: 'Not authorized'})
    const error = await failure(clientFor().paged('/roles'))
    expect(error).toEqual({
      kind: 'forbidden',
      status: 403,
      path: '/~api/roles',
      message:
        'GET /~api/roles: 403 Forbidden: Not authorized; the audit needs administrator rights (GET /roles is admin-only); use a token with owner permissions of a user who has it',
    })
  })

  it('maps 403 on a project setting to the manage-project permission on that project', async () => {
    server.override('GET /projects/*/setting', {status: 403, text: 'Not authorized'})
    const error = await failure(clientFor().getJson('/projects/1/setting'))
    expect(error.kind).toBe('forbidden')
    expect(error.message).toContain('the manage-project permission on project 1 or one of its ancestors')
  })

  it('maps 404 to not-found with the server text', async () => {
    const error = await failure(clientFor().getJson('/projects/99/setting'))
    expect(error).toEqual({
      kind: 'not-found',
      status: 404,
      path: '/~api/projects/99/setting',
      message: 'GET /~api/projects/99/setting: 404 Not Found: No row with the given identifier exists: [io.onedev.server.model.Project#99]',
    })
  })

  it('maps 500 to http with the detail on one line, control characters escaped', async () => {
    server.override('GET /projects/1', {status: 500, text: 'Boom:\n  line two\r\n\u001b[31mred\u202e'})
    const error = await failure(clientFor().getJson('/projects/1'))
    expect(error).toEqual({
      kind: 'http',
      status: 500,
      path: '/~api/projects/1',
      message: 'GET /~api/projects/1: 500 Internal Server Error: Boom: line two \\x1b[31mred\\u202e',
    })
    expect(server.requests).toHaveLength(1)
  })

  it('trims a long detail to 300 characters', async () => {
    server.override('GET /projects/1', {status: 500, text: 'x'.repeat(5000)})
    const error = await failure(clientFor().getJson('/projects/1'))
    expect(error.message).toBe(`GET /~api/projects/1: 500 Internal Server Error: ${'x'.repeat(299)}…`)
  })

  it('suggests --api-prefix /~api when /api answers HTML', async () => {
    const client = clientFor({apiPrefix: '/api'})
    const error = await failure(client.paged('/roles'))
    expect(error).toEqual({
      kind: 'not-json',
      status: 404,
      path: '/api/roles',
      message:
        'GET /api/roles: the server answered an HTML page (status 404), not JSON; this is what a wrong API prefix gives: current OneDev servers need --api-prefix /~api',
    })
  })

  it('treats a 200 HTML page (a login page) as not-json', async () => {
    server.override('GET /projects/1/setting', {status: 200, html: '<html><body>Sign in</body></html>'})
    const error = await failure(clientFor().getJson('/projects/1/setting'))
    expect(error.kind).toBe('not-json')
    expect(error.status).toBe(200)
    expect(error.message).toContain('the server answered an HTML page (status 200)')
    expect(error.message).toContain('check the server URL and --api-prefix')
  })

  it('maps truncated JSON to not-json naming the path and status', async () => {
    server.override('GET /projects/1/setting', {truncate: true})
    const error = await failure(clientFor().getJson('/projects/1/setting'))
    expect(error).toEqual({
      kind: 'not-json',
      status: 200,
      path: '/~api/projects/1/setting',
      message: 'GET /~api/projects/1/setting: status 200 but the body is not valid JSON (truncated, or not an API answer)',
    })
  })

  it('rejects a body over the limit announced by content-length', async () => {
    const error = await failure(clientFor({maxBodyBytes: 1000}).getJson('/roles', {offset: 0, count: 100}))
    expect(error).toEqual({
      kind: 'too-large',
      status: 200,
      path: '/~api/roles',
      message: 'GET /~api/roles: the answer is larger than the limit of 1000 bytes',
    })
  })

  it('stops reading a streamed body (no content-length) at the limit', async () => {
    let written = 0
    server.setHandler('GET /big', (_req, res) => {
      res.writeHead(200, {'content-type': 'application/json'})
      const chunk = `[${'"x",'.repeat(2000)}`
      const timer = setInterval(() => {
        if (res.destroyed || written > 10_000_000) {
          clearInterval(timer)
          res.destroy()
          return
        }
        written += chunk.length
        res.write(chunk)
      }, 1)
    })
    const error = await failure(clientFor({maxBodyBytes: 50_000}).getJson('/big'))
    expect(error.kind).toBe('too-large')
    expect(written).toBeLessThan(5_000_000)
  })

  it('the secret never reaches a message, even when the server echoes it', async () => {
    const basic = Buffer.from(`${server.user}:${server.secret}`).toString('base64')
    server.override('GET /projects/1', {status: 500, text: `bad token ${server.secret} in header Basic ${basic}`})
    server.override('GET /roles', {status: 403, text: `user ${server.secret} is not admin`})
    const client = clientFor()
    const errors = [await failure(client.getJson('/projects/1')), await failure(client.paged('/roles'))]
    for (const error of errors) {
      expect(error.message).not.toContain(server.secret)
      expect(error.message).not.toContain(basic)
      expect(error.message).toContain(`not shown: ${MAY_QUOTE_A_SECRET}`)
    }
  })

  it('withholds server text quoting a short secret or a JSON-escaped one', async () => {
    const odd = await startOneDevServer({credentials: {user: 'u', secret: 'q"7\\z'}, projects: [{id: 1, path: 'a'}]})
    const short = await startOneDevServer({credentials: {user: 'u', secret: 'x9'}, projects: [{id: 1, path: 'a'}]})
    try {
      odd.override('GET /projects/1', {status: 500, text: `{"token":"q\\"7\\\\z"} and raw q"7\\z`})
      short.override('GET /projects/1', {status: 500, text: 'token x9 rejected'})
      const oddClient = createClient({baseUrl: odd.url, apiPrefix: '/~api', user: 'u', secret: 'q"7\\z'})
      const shortClient = createClient({baseUrl: short.url, apiPrefix: '/~api', user: 'u', secret: 'x9'})
      clients.push(oddClient, shortClient)
      const oddText = `{"token":"q\\"7\\\\z"} and raw q"7\\z`
      expect((await failure(oddClient.getJson('/projects/1'))).message).toBe(
        `GET /~api/projects/1: 500 Internal Server Error: ${withheldNote(Buffer.byteLength(oddText), true, MAY_QUOTE_A_SECRET)}`,
      )
      expect((await failure(shortClient.getJson('/projects/1'))).message).toBe(
        `GET /~api/projects/1: 500 Internal Server Error: ${withheldNote(Buffer.byteLength('token x9 rejected'), true, MAY_QUOTE_A_SECRET)}`,
      )
    } finally {
      await Promise.all([odd.close(), short.close()])
    }
  })
  it('a text quoting the audit\'s own secret in a form the plain masks miss (HTML-escaped, Gson \\u-escaped, base64) is withheld whole, with no mask given', async () => {
    const secret = 'p&ss<w>rd 7f3a'
    const echoes = ['p&amp;ss&lt;w&gt;rd 7f3a', 'p\\u0026ss\\u003cw\\u003erd 7f3a', Buffer.from(secret).toString('base64')]
    const odd = await startOneDevServer({credentials: {user: 'u', secret}, projects: [{id: 1, path: 'a'}]})
    try {
      const client = createClient({baseUrl: odd.url, apiPrefix: '/~api', user: 'u', secret})
      clients.push(client)
      for (const echoed of echoes) {
        odd.override('GET /projects/1', {status: 500, text: `token ${echoed} rejected`})
        expect((await failure(client.getJson('/projects/1'))).message).toBe(
          `GET /~api/projects/1: 500 Internal Server Error: ${withheldNote(Buffer.byteLength(`token ${echoed} rejected`), true, MAY_QUOTE_A_SECRET)}`,
        )
      }
    } finally {
      await odd.close()
    }
  })
})

describe('server text judged whole, before anything is cut (issue 25: the hostile corpus)', () => {
  // Longer than 40 characters, as the issue's: after 65,496 spaces it crosses the 64 KiB read of an error answer.
  const token = 'CANARY-audit-token-7f3a-0123456789abcdefghijklmn'
  /** A server whose token is `secret`, answering GET /projects/1 and POST /projects/1/setting with `answer`. */
  async function answering(secret: string, answer: HostileAnswer, status: number): Promise<{client: ApiClient; close: () => Promise<void>; unsafe: string[]}> {
    const odd = await startOneDevServer({credentials: null, projects: [{id: 1, path: 'a'}], settings: {1: {}}})
    const send = (_request: unknown, response: import('node:http').ServerResponse) => {
      response.writeHead(status, {'content-type': answer.contentType, 'content-length': answer.body.length})
      response.end(answer.body)
    }
    odd.setHandler('GET /projects/1', send)
    odd.setHandler('POST /projects/1/setting', send)
    const unsafe: string[] = []
    const client = createClient({baseUrl: odd.url, apiPrefix: '/~api', user: 'auditor', secret, retries: 0, unsafeServerText: (line) => unsafe.push(line)})
    clients.push(client)
    return {client, close: () => odd.close(), unsafe}
  }

  /** Fails when the message shows any of the server's text, or any piece of the secret. */
  function expectWithheld(message: string, answer: HostileAnswer): void {
    expect(message, answer.why).toMatch(/: \(the server's answer: (more than )?[\d,]+ bytes, not shown: .+; --debug-unsafe-server-text prints it\)(; check ONEDEV_USER and ONEDEV_TOKEN.*)?$/)
    expectNoCanary(message)
    expect(message).not.toMatch(/was refused|is not valid|REFUSED|line 2 of/)
  }

  it.each([500, 401])('a %s body of 65,496 spaces and then the audit\'s token: withheld (it was not read whole), no piece of the token shown', async (status) => {
    const answer = serverAnswers(token)[0]!
    const odd = await answering(token, answer, status)
    try {
      const error = await failure(odd.client.getJson('/projects/1'))
      expect(error.message).toBe(
        status === 500
          ? "GET /~api/projects/1: 500 Internal Server Error: (the server's answer: more than 65,536 bytes, not shown: it was not read whole; --debug-unsafe-server-text prints it)"
          : "GET /~api/projects/1: 401 Unauthorized: the server refused the credentials or found none: (the server's answer: more than 65,536 bytes, not shown: it was not read whole; --debug-unsafe-server-text prints it); check ONEDEV_USER and ONEDEV_TOKEN",
      )
      // Asked for, the text goes to the unsafe channel, the audit's own token masked even there (the start of it, where the read stopped).
      expect(odd.unsafe).toEqual([`GET /~api/projects/1 ${status}: ${' '.repeat(65_496)}<redacted>`])
    } finally {
      await odd.close()
    }
  })

  it('the same body with a shorter token is read whole, and withheld because it quotes the token', async () => {
    const short = 'CANARY-audit-token-7f3a'
    const odd = await answering(short, serverAnswers(short)[0]!, 500)
    try {
      expect((await failure(odd.client.getJson('/projects/1'))).message).toBe(
        "GET /~api/projects/1: 500 Internal Server Error: (the server's answer: 65,531 bytes, not shown: it may quote a secret; --debug-unsafe-server-text prints it)",
      )
      expect(odd.unsafe).toEqual([`GET /~api/projects/1 500: ${' '.repeat(65_496)}<redacted> was refused`])
    } finally {
      await odd.close()
    }
  })

  it.each(serverAnswers(token).map((answer) => [answer.name, answer] as const))("quoting the audit's token, %s: withheld", async (_, answer) => {
    const odd = await answering(token, answer, 500)
    try {
      expectWithheld((await failure(odd.client.getJson('/projects/1'))).message, answer)
    } finally {
      await odd.close()
    }
  })

  const settingSecrets = [...umlautAnswers(), multiLineAnswer(), ...shortAnswers(), ...brokenAnswers(SPLIT_SECRET)]
  it.each(settingSecrets.map((answer) => [answer.name, answer] as const))('a refused POST quoting a secret of the posted setting, %s: withheld', async (_, answer) => {
    const odd = await answering(token, answer, 500)
    try {
      const message = (await failure(odd.client.postJson('/projects/1/setting', {buildSetting: {jobSecrets: [{name: 'key', value: answer.secret}]}}, [answer.secret]))).message
      expectWithheld(message, answer)
    } finally {
      await odd.close()
    }
  })

  it.each(umlautAnswers().map((answer) => [answer.name, answer] as const))("a 401 quoting the audit's token, %s: withheld", async (_, answer) => {
    const odd = await answering(UMLAUT_SECRET, answer, 401)
    try {
      expectWithheld((await failure(odd.client.getJson('/projects/1'))).message, answer)
    } finally {
      await odd.close()
    }
  })

  it('a text in UTF-16LE quoting no secret is shown decoded, on one line', async () => {
    const answer: HostileAnswer = {name: 'utf-16le', why: '', secret: token, contentType: 'text/plain; charset=utf-16le', body: Buffer.from('Wert für "Äpfel"\nungültig', 'utf16le')}
    const odd = await answering(token, answer, 500)
    try {
      expect((await failure(odd.client.getJson('/projects/1'))).message).toBe('GET /~api/projects/1: 500 Internal Server Error: Wert für "Äpfel" ungültig')
      expect(odd.unsafe).toEqual([])
    } finally {
      await odd.close()
    }
  })
})

describe('retries and time limits', () => {
  it('retries a 503 and then succeeds, logging each retry', async () => {
    server.override('GET /projects/1', {status: 503, text: 'Service Unavailable', times: 2})
    const lines: string[] = []
    const client = clientFor({debug: (line) => lines.push(line)})
    expect(await client.getJson('/projects/1')).toMatchObject({id: 1})
    expect(server.requests).toHaveLength(3)
    expect(client.requestCount).toBe(3)
    expect(lines.map((line) => line.replace(/\d+ms/g, 'Nms'))).toEqual([
      'GET /~api/projects/1 503 Nms',
      'retry 1/3 after Nms: 503',
      'GET /~api/projects/1 503 Nms',
      'retry 2/3 after Nms: 503',
      'GET /~api/projects/1 200 Nms',
    ])
  })

  it('gives up after `retries` retries with the last status', async () => {
    server.override('GET /projects/1', {status: 502, text: 'Bad Gateway'})
    const error = await failure(clientFor({retries: 2}).getJson('/projects/1'))
    expect(error).toMatchObject({kind: 'http', status: 502, message: 'GET /~api/projects/1: 502 Bad Gateway: Bad Gateway'})
    expect(server.requests).toHaveLength(3)
  })

  it('honours Retry-After in seconds', async () => {
    server.override('GET /projects/1', {status: 429, text: 'slow down', headers: {'retry-after': '1'}, times: 1})
    const started = Date.now()
    await clientFor().getJson('/projects/1')
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(server.requests).toHaveLength(2)
  })

  it.each([400, 401, 404, 406, 500])('does not retry %i', async (status) => {
    server.override('GET /projects/1', {status, text: 'no'})
    await failure(clientFor().getJson('/projects/1'))
    expect(server.requests).toHaveLength(1)
  })

  it('does not retry a POST that reached the server', async () => {
    server.override('POST /settings/issue', {status: 503, text: 'busy'})
    const error = await failure(clientFor().postJson('/settings/issue', {}))
    expect(error).toMatchObject({kind: 'http', status: 503, path: '/~api/settings/issue'})
    expect(server.requests).toHaveLength(1)
  })

  it('retries a connection closed mid-body', async () => {
    server.override('GET /projects/1', {resetMidBody: true, times: 1})
    expect(await clientFor().getJson('/projects/1')).toMatchObject({id: 1})
    expect(server.requests).toHaveLength(2)
  })

  it('maps a refused connection to network after retrying', async () => {
    const port = await closedPort()
    const lines: string[] = []
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiPrefix: '/~api',
      user: 'u',
      secret: 'p',
      retries: 2,
      retryBaseDelayMs: 1,
      debug: (line) => lines.push(line),
    })
    clients.push(client)
    const error = await failure(client.getJson('/roles'))
    expect(error).toEqual({kind: 'network', path: '/~api/roles', message: 'GET /~api/roles: connection failed (ECONNREFUSED)'})
    expect(client.requestCount).toBe(3)
    expect(lines.filter((line) => line.startsWith('retry'))).toHaveLength(2)
  })

  // Counted on the client: on a loaded machine the server may record an abandoned request only after
  // the client gave up on it (and after the next test started).
  it('times out a slow answer and retries it', async () => {
    server.override('GET /projects/1', {delayMs: 10_000})
    const client = clientFor({timeoutMs: 60, retries: 1})
    const error = await failure(client.getJson('/projects/1'))
    expect(error).toEqual({kind: 'timeout', path: '/~api/projects/1', message: 'GET /~api/projects/1: no complete answer within 60 ms'})
    expect(client.requestCount).toBe(2)
  })

  /** Headers and the start of a JSON body, then nothing more until the client gives up. */
  const stallBody = (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, {'content-type': 'application/json', 'content-length': '100'})
    res.write('[{"id"')
  }

  it('cuts off a body that stalls after the headers at the timeout, and retries it', async () => {
    server.setHandler('GET /projects/1', stallBody)
    const client = clientFor({timeoutMs: 60, retries: 1})
    const error = await failure(client.getJson('/projects/1'))
    expect(error).toEqual({kind: 'timeout', path: '/~api/projects/1', message: 'GET /~api/projects/1: no complete answer within 60 ms'})
    expect(client.requestCount).toBe(2)
  })

  it('a body stalling past the overall deadline fails as the deadline, not retried', async () => {
    server.setHandler('GET /projects/1', stallBody)
    const client = clientFor({deadlineMs: 100, retries: 3})
    const error = await failure(client.getJson('/projects/1'))
    expect(error).toEqual({kind: 'timeout', path: '/~api/projects/1', message: 'GET /~api/projects/1: the overall deadline of 100 ms was reached during the request'})
    expect(client.requestCount).toBe(1)
  })

  it('reads a body that arrives in pieces', async () => {
    server.setHandler('GET /projects/1', (_req, res) => {
      res.writeHead(200, {'content-type': 'application/json'})
      const parts = ['{"id": 1, ', '"path": "a/b"', ', "name": "é"}']
      const next = () => {
        const part = parts.shift()
        if (part === undefined) return void res.end()
        res.write(part)
        setTimeout(next, 5)
      }
      next()
    })
    expect(await clientFor().getJson('/projects/1')).toEqual({id: 1, path: 'a/b', name: 'é'})
  })

  it('starts no request after the overall deadline', async () => {
    server.override('GET /projects/1', {delayMs: 10_000})
    const client = clientFor({deadlineMs: 100, retries: 3})
    const first = await failure(client.getJson('/projects/1'))
    expect(first.kind).toBe('timeout')
    expect(first.message).toContain('overall deadline of 100 ms')
    const second = await failure(client.getJson('/projects/1'))
    expect(second.kind).toBe('timeout')
    expect(client.requestCount).toBe(1)
  })

  it('does not wait for a Retry-After past the deadline', async () => {
    server.override('GET /projects/1', {status: 503, text: 'busy', headers: {'retry-after': '30'}})
    const started = Date.now()
    const error = await failure(clientFor({deadlineMs: 2000}).getJson('/projects/1'))
    expect(Date.now() - started).toBeLessThan(1000)
    expect(error).toMatchObject({kind: 'timeout', status: 503, path: '/~api/projects/1'})
    expect(server.requests).toHaveLength(1)
  })
})

describe('paging guards', () => {
  it('stops when a page repeats the previous one (offset ignored)', async () => {
    server.override('GET /roles', {ignoreOffset: true})
    const error = await failure(clientFor().paged('/roles'))
    expect(error).toEqual({
      kind: 'paging',
      status: 200,
      path: '/~api/roles',
      message: 'GET /~api/roles: the page at offset 100 repeats the previous page (the server ignores offset); stopped paging',
    })
    expect(server.requests).toHaveLength(2)
  })

  it('accepts consecutive pages that only start alike', async () => {
    const pages = [[{id: 1}, {id: 2}], [{id: 1}, {id: 3}], []]
    server.setHandler('GET /things', (req, res) => {
      const offset = Number(new URL(req.url ?? '', 'http://x').searchParams.get('offset'))
      res.writeHead(200, {'content-type': 'application/json'})
      res.end(JSON.stringify(pages[offset / 2]))
    })
    expect(await clientFor().paged('/things', {}, {pageSize: 2})).toEqual([{id: 1}, {id: 2}, {id: 1}, {id: 3}])
  })

  it('stops after maxPages full pages', async () => {
    const error = await failure(clientFor().paged('/roles', {}, {pageSize: 100, maxPages: 2}))
    expect(error).toMatchObject({kind: 'paging', path: '/~api/roles'})
    expect(error.message).toBe('GET /~api/roles: still full pages after 2 pages of 100; stopped paging')
    expect(server.requests).toHaveLength(2)
  })

  it('stops a listing of endless distinct pages at its item bound, and all listings of the client at their byte bound', async () => {
    const endless: Handler = (req, res) => {
      const url = new URL(req.url ?? '', 'http://x')
      res.writeHead(200, {'content-type': 'application/json'})
      res.end(endlessRolesPage(Number(url.searchParams.get('offset')), Number(url.searchParams.get('count')), 20_000))
    }
    server.setHandler('GET /endless', endless)
    const byItems = await failure(clientFor({maxListingItems: 1_000}).paged('/endless'))
    expect(byItems).toEqual({
      kind: 'paging',
      status: 200,
      path: '/~api/endless',
      message: 'GET /~api/endless: stopped paging at offset 1000: the listing passed 1,000 items (--max-listing-items); a server paging without end, or raise the limit',
    })
    expect(server.requests).toHaveLength(11)
    server.reset()
    server.setHandler('GET /endless', endless)
    // Two listings of one client share the byte bound: the second passes it.
    const client = clientFor({maxListingBytes: 150_000})
    expect(await client.paged('/roles')).toHaveLength(250)
    const byBytes = await failure(client.paged('/endless'))
    expect(byBytes.message).toMatch(/^GET \/~api\/endless: stopped paging at offset \d+00: the listings of this run passed 0\.143 MiB \(--max-listing-mb\), which bounds the memory they take; a server paging without end, or raise the limit$/)
    expect(server.requests.filter((r) => r.path === '/~api/endless').length).toBeLessThanOrEqual(8)
  })

  it('reports a listing that is not an array', async () => {
    server.override('GET /roles', {json: {roles: []}})
    const error = await failure(clientFor().paged('/roles'))
    expect(error).toMatchObject({kind: 'invalid-payload', path: '/~api/roles', message: 'GET /~api/roles: expected a JSON array, got an object'})
  })
})

describe('charsets', () => {
  function serve(route: string, body: Buffer, contentType: string): void {
    server.setHandler(route, (_req, res) => {
      res.writeHead(200, {'content-type': contentType})
      res.end(body)
    })
  }

  it('decodes a body in the charset its Content-Type names: ISO-8859-1 byte for byte, Java\'s UTF-16 (big-endian, byte-order mark), UTF-16LE', async () => {
    const text = JSON.stringify({value: LATIN1_SECRET})
    serve('GET /latin1', encodeAs(text, 'iso-8859-1'), 'application/json;charset=ISO-8859-1')
    serve('GET /utf16', encodeAs(text, 'utf-16be-bom'), 'application/json; charset="UTF-16"')
    serve('GET /utf16le', encodeAs(text, 'utf-16le'), 'application/json; charset=utf-16le')
    // A byte-order mark before UTF-8 JSON is not part of the JSON.
    serve('GET /bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 'application/json')
    const client = clientFor()
    expect(await client.getJson('/latin1')).toEqual({value: LATIN1_SECRET})
    expect(await client.getText('/latin1')).toBe(text)
    expect(await client.getJson('/utf16')).toEqual({value: LATIN1_SECRET})
    expect(await client.getJson('/utf16le')).toEqual({value: LATIN1_SECRET})
    expect(await client.getJson('/bom')).toEqual({value: LATIN1_SECRET})
  })

  it('refuses a body in a charset it does not know, and bytes its charset does not allow, instead of replacing them with U+FFFD', async () => {
    serve('GET /unknown', Buffer.from('{"a": 1}'), `application/json; charset=${UNKNOWN_CHARSET}`)
    serve('GET /invalid', INVALID_UTF8, 'application/json')
    serve('GET /latin1-as-utf8', encodeAs(JSON.stringify(LATIN1_SECRET), 'iso-8859-1'), 'application/json; charset=utf-8')
    const client = clientFor()
    expect(await failure(client.getJson('/unknown'))).toEqual({
      kind: 'invalid-payload',
      status: 200,
      path: '/~api/unknown',
      message: `GET /~api/unknown: the answer's charset is not one this tool decodes; nothing of the answer is used`,
    })
    expect((await failure(client.getText('/invalid'))).message).toBe('GET /~api/invalid: the body is not valid UTF-8; nothing of the answer is used')
    expect((await failure(client.getJson('/latin1-as-utf8'))).message).toBe('GET /~api/latin1-as-utf8: the body is not valid UTF-8; nothing of the answer is used')
  })

  it('posts UTF-8 and says so', async () => {
    let contentType: string | undefined
    server.setHandler('POST /echo', (req, res) => {
      contentType = req.headers['content-type']
      res.writeHead(204)
      res.end()
    })
    await clientFor().postJson('/echo', {value: LATIN1_SECRET})
    expect(contentType).toBe('application/json; charset=utf-8')
    // The fixture server reads what was posted as UTF-8.
    expect(server.requests.at(-1)?.body).toBe(JSON.stringify({value: LATIN1_SECRET}))
  })
})

describe('debug lines', () => {
  it('name method, path, status and time, and nothing from headers', async () => {
    const lines: string[] = []
    const client = clientFor({debug: (line) => lines.push(line)})
    await client.paged('/roles')
    await failure(client.getJson('/projects/77'))
    expect(lines).toHaveLength(4)
    expect(lines[0]).toMatch(/^GET \/~api\/roles\?offset=0&count=100 200 \d+ms$/)
    expect(lines[3]).toMatch(/^GET \/~api\/projects\/77 404 \d+ms$/)
    const basic = Buffer.from(`${server.user}:${server.secret}`).toString('base64')
    for (const line of lines) {
      expect(line).not.toContain(server.secret)
      expect(line).not.toContain(basic)
      expect(line).not.toMatch(/basic|authorization/i)
    }
  })
})

describe('helpers', () => {
  it('startsWithTag: the first character other than white space, as trimStart sees it', () => {
    const judge = (text: string) => startsWithTag(Buffer.from(text, 'utf8'))
    expect([judge('<html>'), judge(' \r\n\t<!DOCTYPE html>'), judge('\uFEFF<html>'), judge('\u00a0\u2003 <p>')]).toEqual([true, true, true, true])
    expect([judge(''), judge('   '), judge('{"a": "<b>"}'), judge(' [1]'), judge('\u00e9<'), judge(`${' '.repeat(600)}<html>`)]).toEqual([false, false, false, false, false, false])
  })

  it('parses Retry-After seconds and dates, capped at 60 s', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('2', now)).toBe(2000)
    expect(parseRetryAfter('0', now)).toBe(0)
    expect(parseRetryAfter('3600', now)).toBe(60_000)
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000)
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
  })

  it('backs off exponentially with full jitter up to the cap', () => {
    expect([1, 2, 3, 4, 8].map((retry) => backoffDelay(retry, 200, 10_000, () => 1))).toEqual([200, 400, 800, 1600, 10_000])
    expect(backoffDelay(3, 200, 10_000, () => 0)).toBe(0)
    expect(backoffDelay(2, 200, 10_000, () => 0.5)).toBe(200)
  })

  it('normalizes the API prefix', () => {
    expect(['/~api', '~api', '/~api/', '//api//', '', '/'].map(normalizeApiPrefix)).toEqual(['/~api', '/~api', '/~api', '/api', '', ''])
  })

  it('makes server text one safe line', () => {
    expect(oneLine('a\n\tb\u0007 c\u2066')).toBe('a b\\x07 c\\u2066')
    expect(oneLine('abcdef', 4)).toBe('abc…')
  })

  it('names the permission a 403 means', () => {
    expect(permissionNeeded('/settings/issue')).toBe('administrator rights (the global issue setting is admin-only)')
    expect(permissionNeeded('/roles')).toBe('administrator rights (GET /roles is admin-only)')
    expect(permissionNeeded('/projects/12/setting')).toBe('the manage-project permission on project 12 or one of its ancestors')
  })
})

describe('interruption', () => {
  it('an abort cancels the request in flight and the wait before a retry; nothing new starts', async () => {
    const controller = new AbortController()
    server.override('GET /projects/*', {delayMs: 10_000})
    const client = clientFor({signal: controller.signal})
    const started = Date.now()
    const pending = failure(client.getJson('/projects/1'))
    setTimeout(() => controller.abort(), 100)
    expect(await pending).toEqual({kind: 'interrupted', message: 'GET /~api/projects/1: interrupted', path: '/~api/projects/1'})
    expect(Date.now() - started).toBeLessThan(5_000)
    const before = server.requests.length
    expect((await failure(client.getJson('/projects/2'))).kind).toBe('interrupted')
    expect(server.requests.length).toBe(before)
    server.reset()

    const waiting = new AbortController()
    server.override('GET /roles', {status: 503, text: 'busy', headers: {'retry-after': '30'}})
    const retrying = clientFor({signal: waiting.signal})
    const t0 = Date.now()
    const outcome = failure(retrying.getJson('/roles', {offset: 0, count: 100}))
    setTimeout(() => waiting.abort(), 200)
    expect((await outcome).kind).toBe('interrupted')
    expect(Date.now() - t0).toBeLessThan(5_000)
    server.reset()
  })
})

describe('interruption during a body', () => {
  it('an abort cancels a request whose body stalls after the headers', async () => {
    const controller = new AbortController()
    server.setHandler('GET /projects/1', (_req, res) => {
      res.writeHead(200, {'content-type': 'application/json', 'content-length': '100'})
      res.write('[{"id"')
    })
    const pending = failure(clientFor({signal: controller.signal}).getJson('/projects/1'))
    setTimeout(() => controller.abort(), 100)
    expect(await pending).toEqual({kind: 'interrupted', message: 'GET /~api/projects/1: interrupted', path: '/~api/projects/1'})
  })
})

describe('prefix probe (no apiPrefix given)', () => {
  const webPage = '<!DOCTYPE html>\n<html><body>OneDev</body></html>'

  it('finds /~api when /api answers an HTML page: one probe however many requests start at once, then /~api for all', async () => {
    const found: unknown[] = []
    const client = clientFor({apiPrefix: undefined, onPrefixFound: (probe) => found.push(probe)})
    expect(client.apiPrefix).toBe('/api')
    const [paged, project, setting] = await Promise.all([client.paged('/roles'), client.getJson('/projects/1'), client.getJson('/projects/1/setting')])
    expect(paged).toEqual(roles)
    expect(project).toMatchObject({id: 1, path: 'acme'})
    expect(setting).toEqual({branchProtections: []})
    expect(found).toEqual([{tried: '/api', answered: 'an HTML page', using: '/~api'}])
    expect(client.apiPrefix).toBe('/~api')
    const paths = server.requests.map((r) => r.path)
    // The probe is the first request, tried twice; the others waited for it and went to /~api.
    expect(paths.slice(0, 2)).toEqual(['/api/roles', '/~api/roles'])
    expect(paths.filter((p) => p.startsWith('/api/'))).toEqual(['/api/roles'])
    expect(paths.slice(2).sort()).toEqual(['/~api/projects/1', '/~api/projects/1/setting', '/~api/roles', '/~api/roles'])
    // Later requests go straight to /~api.
    await client.getJson('/projects/1')
    expect(server.requests.at(-1)?.path).toBe('/~api/projects/1')
    expect(found).toHaveLength(1)
  })

  it('keeps /api, without a second try, when /api answers like the API (a server of the contract)', async () => {
    const contract = await startOneDevServer({prefix: '/api', projects: [{id: 1, path: 'acme'}]})
    try {
      const found: unknown[] = []
      const client = createClient({baseUrl: contract.url, user: contract.user, secret: contract.secret, onPrefixFound: (probe) => found.push(probe)})
      clients.push(client)
      await Promise.all([client.getJson('/projects/1'), client.paged('/projects')])
      expect(contract.requests.map((r) => r.path).sort()).toEqual(['/api/projects', '/api/projects/1'])
      expect(found).toEqual([])
      expect(client.apiPrefix).toBe('/api')
    } finally {
      await contract.close()
    }
  })

  it('does not probe on answers that mean the same under any prefix: 401 stays an error about the credentials', async () => {
    const proxied = await startOneDevServer({
      outside: (_request, response) => {
        response.writeHead(401, {'content-type': 'text/html', 'www-authenticate': 'Basic realm="proxy"'})
        response.end('<html><body>Authorization required</body></html>')
      },
    })
    try {
      const client = createClient({baseUrl: proxied.url, user: proxied.user, secret: proxied.secret, retries: 0})
      clients.push(client)
      const error = await failure(client.getJson('/projects/1'))
      expect(error.kind).toBe('auth')
      expect(error.path).toBe('/api/projects/1')
      expect(proxied.requests.map((r) => r.path)).toEqual(['/api/projects/1'])
    } finally {
      await proxied.close()
    }
  })

  it('an answer that tells nothing (503 after the retries) keeps /api without a second try; a later HTML page still suggests /~api', async () => {
    let answered = 0
    const busy = await startOneDevServer({
      outside: (_request, response) => {
        const status = answered++ === 0 ? 503 : 404
        response.writeHead(status, {'content-type': status === 503 ? 'text/plain' : 'text/html'})
        response.end(status === 503 ? 'busy' : webPage)
      },
    })
    try {
      const client = createClient({baseUrl: busy.url, user: busy.user, secret: busy.secret, retries: 0})
      clients.push(client)
      expect((await failure(client.getJson('/projects/1'))).status).toBe(503)
      expect(client.apiPrefix).toBe('/api')
      expect((await failure(client.getJson('/projects/1'))).message).toContain('current OneDev servers need --api-prefix /~api')
      expect(busy.requests.map((r) => r.path)).toEqual(['/api/projects/1', '/api/projects/1'])
    } finally {
      await busy.close()
    }
  })

  it('treats a redirect under /api (a web UI sending to its login page) like an HTML page', async () => {
    const redirecting = await startOneDevServer({
      projects: [{id: 1, path: 'acme'}],
      outside: (_request, response) => {
        response.writeHead(302, {location: '/~login', 'content-length': 0})
        response.end()
      },
    })
    try {
      const found: unknown[] = []
      const client = createClient({baseUrl: redirecting.url, user: redirecting.user, secret: redirecting.secret, onPrefixFound: (probe) => found.push(probe)})
      clients.push(client)
      expect(await client.getJson('/projects/1')).toMatchObject({id: 1})
      expect(found).toEqual([{tried: '/api', answered: 'a redirect', using: '/~api'}])
    } finally {
      await redirecting.close()
    }
  })

  it('an explicit prefix is never probed: /api against a /~api server fails as it always did', async () => {
    const found: unknown[] = []
    const client = clientFor({apiPrefix: '/api', onPrefixFound: (probe) => found.push(probe)})
    const errors = await Promise.all([failure(client.getJson('/projects/1')), failure(client.paged('/roles'))])
    expect(errors.map((e) => e.message)).toEqual([
      'GET /api/projects/1: the server answered an HTML page (status 404), not JSON; this is what a wrong API prefix gives: current OneDev servers need --api-prefix /~api',
      'GET /api/roles: the server answered an HTML page (status 404), not JSON; this is what a wrong API prefix gives: current OneDev servers need --api-prefix /~api',
    ])
    expect(server.requests.map((r) => r.path).sort()).toEqual(['/api/projects/1', '/api/roles'])
    expect(found).toEqual([])
  })

  it('when neither prefix answers like the API, one error names both tries and every request fails with it', async () => {
    // OneDev behind a path the URL does not include: both prefixes reach the web UI.
    const nested = await startOneDevServer({prefix: '/onedev/~api'})
    try {
      const client = createClient({baseUrl: nested.url, user: nested.user, secret: nested.secret})
      clients.push(client)
      const errors = await Promise.all([failure(client.paged('/roles')), failure(client.getJson('/projects/1')), failure(client.getJson('/projects/2'))])
      const expected = {
        kind: 'not-json',
        status: 404,
        path: '/api/roles',
        message:
          "GET /api/roles answered an HTML page (status 404), and GET /~api/roles answered an HTML page (status 404): neither is OneDev's REST interface; check --url (the server's base URL, e.g. https://onedev.example.com), or give the prefix with --api-prefix",
      }
      // The others were not sent to a server without the API: they fail with the same error, each with its path.
      expect(errors).toEqual([expected, {...expected, path: '/api/projects/1'}, {...expected, path: '/api/projects/2'}])
      expect(nested.requests.map((r) => r.path)).toEqual(['/api/roles', '/~api/roles'])
      expect(await failure(client.getJson('/projects/3'))).toEqual({...expected, path: '/api/projects/3'})
      expect(nested.requests).toHaveLength(2)
    } finally {
      await nested.close()
    }
  })

  it('a POST answered 200 with an HTML page did not reach the API: not-json, not success', async () => {
    const webUi = await startOneDevServer({
      outside: (_request, response) => {
        response.writeHead(200, {'content-type': 'text/html;charset=utf-8'})
        response.end(webPage)
      },
    })
    try {
      const client = createClient({baseUrl: webUi.url, apiPrefix: '/api', user: webUi.user, secret: webUi.secret})
      clients.push(client)
      const error = await failure(client.postJson('/settings/issue', {stateSpecs: []}))
      expect(error).toMatchObject({kind: 'not-json', status: 200, path: '/api/settings/issue'})
      expect(error.message).toContain('POST /api/settings/issue: the server answered an HTML page (status 200), not JSON')
    } finally {
      await webUi.close()
    }
  })
})
