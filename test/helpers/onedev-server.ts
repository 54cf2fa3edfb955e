/**
 * A fake OneDev REST server for tests: a real node:http server on 127.0.0.1 (port 0).
 *
 *   const server = await startOneDevServer({roles, projects, settings})
 *   const client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret})
 *   ...
 *   await server.close()
 *
 * Routes (under `prefix`, default `/~api`), answering like a current server (onedev-reference.md §1):
 *   GET  /roles?name=&offset=&count=     paged fixture roles (name: case-insensitive substring)
 *   GET  /projects?query=&offset=&count= paged fixture projects (`query` is accepted and ignored)
 *   GET  /projects/{id}                  one project (404 text/plain when unknown)
 *   GET  /projects/{id}/setting          `settings[id]` (404 when absent)
 *   POST /projects/{id}/setting          stores the posted JSON as `settings[id]` (through `storeSetting`
 *        when given: a server that drops or changes what it is sent); 200 with an empty body, 404 when
 *        the project has no setting, 400 when the body is not JSON. `server.settings` holds what is stored.
 *   GET  /settings/issue, POST /settings/issue (stores the posted JSON; 200 with an empty body)
 *   GET  /repositories/{id}/default-branch, /branches, /tags   from `repositories[id]` (onedev-access-reference.md §1):
 *        the bare branch name under application/json (a JSON string with `jsonString`), 204 when
 *        `defaultBranch` is null; 404 `HTTP 404 Not Found` for every /repositories path when the option
 *        is absent (a server that speaks only the contract)
 *   GET  /settings/security, /groups (paged), /groups/{id}/memberships, /groups/{id}/authorizations,
 *        /users (paged), /users/{id}, /projects/{id}/base-authorizations, /group-authorizations,
 *        /user-authorizations   from `access` (onedev-access-reference.md §3–§5); each answers 404
 *        `HTTP 404 Not Found` when its part of `access` is absent (a server that does not offer it).
 *        /users/{id} falls back to the item of `users` with that id; per-project lists default to [].
 *   GET  /version/server                 `version`, as OneDev's VersionResource answers it (a Java String under
 *        application/json, which Jersey writes unquoted: `16.5.6`; VersionResource.java:18-23 at v16.5.6,
 *        first at v10.2.0); 404 `HTTP 404 Not Found` when `version` is absent (a OneDev before 10.2.0)
 *   GET  any path in `admin` (administration endpoints outside the contract, onedev-access-reference.md
 *        §3, §5: `/settings/job-executors`, `/users`, `/users/6/access-tokens`, ...): its payload, 204
 *        for null; the listings `/users`, `/groups`, `/agents`, `/agent-tokens` are paged
 * Any other path answers 404 `HTTP 404 Not Found`, whatever its query (the query check runs after matching).
 * Paging: offset and count are required (406 `Missing query params: [...]`), count > 100 → 406,
 * any unknown query parameter → 406 `Unexpected query params: [...]`.
 * Credentials: HTTP Basic `user:secret` (defaults `auditor` / `s3cr3t-token-value`); none → 401
 * `Not authenticated` with WWW-Authenticate, wrong → 401 `Invalid account or incorrect credentials`.
 * Set `credentials: null` to accept anything. JSON is pretty-printed like the server's.
 * Outside the prefix the server answers like OneDev's web UI: 404 with an HTML page (`outside`
 * replaces that answer, e.g. a redirect to a login page).
 *
 * Fault injection, per route: `server.override(route, fault)` where route is `METHOD /path` without
 * the prefix and `*` matches one path segment (`GET /projects/*\/setting`). See `Fault`.
 * `server.setHandler(route, handler)` replaces a route's answer entirely. `null` removes either.
 *
 * Observation: `server.requests` (every request: method, path, query, authorization, body),
 * `server.maxInFlight` (the most requests being answered at once). `server.reset()` clears the
 * recorded requests, maxInFlight, overrides and handlers (fixtures stay).
 */
import {Buffer} from 'node:buffer'
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import {type AddressInfo, createServer as createNetServer} from 'node:net'

export interface RecordedRequest {
  method: string
  /** Path with the prefix, without the query. */
  path: string
  query: Record<string, string>
  /** The raw Authorization header, if any. */
  authorization: string | undefined
  /** Decoded Basic credentials, or null when there was no Basic header. */
  basic: {user: string; secret: string} | null
  body: string
}

export interface FixtureProject {
  id: number
  path?: string
  name?: string
  parentId?: number | null
  [key: string]: unknown
}

export interface FixtureRepository {
  /** null: not initialized (204). */
  defaultBranch: string | null
  branches?: string[]
  tags?: string[]
  /** Send the default branch as a JSON string (`"main"`) instead of the bare name current servers send. */
  jsonString?: boolean
}

export interface FixtureAccess {
  security?: unknown
  groups?: unknown[]
  /** By group id (absent group: []). */
  memberships?: Record<number, unknown[]>
  /** GET /groups/{id}/authorizations by group id (absent group: []). */
  groupAuthorizations?: Record<number, unknown[]>
  users?: unknown[]
  /** GET /users/{id} answers, by id (default: the item of `users` with that id, else 404). */
  usersById?: Record<number, unknown>
  /** Per project id (absent project: []). */
  baseAuthorizations?: Record<number, unknown[]>
  groupProjectAuthorizations?: Record<number, unknown[]>
  userProjectAuthorizations?: Record<number, unknown[]>
}

export interface Fault {
  /** Answer this status (with `text`, `html` or `json` as the body). */
  status?: number
  /** text/plain body. */
  text?: string
  /** text/html body. */
  html?: string
  /** JSON body instead of the fixture. */
  json?: unknown
  /** Extra headers, e.g. {'retry-after': '1'}. */
  headers?: Record<string, string>
  /** Wait this long before answering. */
  delayMs?: number
  /** Send only the first half of the JSON body (with a matching content-length): truncated JSON. */
  truncate?: boolean
  /** Close the connection mid-body, after the headers and a few bytes. */
  resetMidBody?: boolean
  /** Paging ignores offset: always the first page. */
  ignoreOffset?: boolean
  /** Answer the fault only this many times, then behave normally (e.g. 503 twice then 200). */
  times?: number
}

export type Handler = (request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => void | Promise<void>

export interface OneDevServerOptions {
  prefix?: string
  roles?: unknown[]
  projects?: FixtureProject[]
  /** Project setting payloads by project id. */
  settings?: Record<number, unknown>
  issueSetting?: unknown
  /** Repositories by project id; absent: the server has no /repositories endpoints (404). */
  repositories?: Record<number, FixtureRepository>
  /** Access data (security setting, groups, users, authorizations); each part absent: that endpoint answers 404. */
  access?: FixtureAccess
  /**
   * Administration endpoints by path without the prefix (`/settings/authenticator`: null → 204);
   * a path that is absent answers 404 like a server without that endpoint.
   */
  admin?: Record<string, unknown>
  /**
   * What GET /version/server answers (OneDev 10.2.0 and later), e.g. `16.5.6`; absent: 404, as a
   * server before 10.2.0 answers.
   */
  version?: string
  /** Accepted Basic credentials; null accepts any request. */
  credentials?: {user: string; secret: string} | null
  /** Answers every request outside the prefix (default: 404 with an HTML page, as the web UI does). */
  outside?: Handler
  /** What a POST of a project setting stores (default: the posted JSON as it is). */
  storeSetting?: (projectId: number, posted: unknown) => unknown
}

export interface OneDevServer {
  /** `http://127.0.0.1:<port>` (no prefix). */
  url: string
  prefix: string
  user: string
  secret: string
  requests: RecordedRequest[]
  readonly inFlight: number
  readonly maxInFlight: number
  /** Last POSTed issue setting (parsed). */
  readonly issueSetting: unknown
  /** The project settings as stored now (the fixtures, then what POSTs stored), by project id. */
  readonly settings: Record<number, unknown>
  override(route: string, fault: Fault | null): void
  setHandler(route: string, handler: Handler | null): void
  reset(): void
  close(): Promise<void>
}

const MAX_PAGE_SIZE = 100
/** Administration listings that page with offset and count (and accept their filters). */
const PAGED_ADMIN = /^\/(users|groups|agents|agent-tokens)$/
/** Paths the fixture server knows besides `admin` (a query on any other path gets 404, not 406). */
const KNOWN_PATH =
  /^\/(roles|projects(\/\d+(\/setting|\/(base|group|user)-authorizations)?)?|repositories\/\d+\/(default-branch|branches|tags)|settings\/(issue|security)|groups(\/\d+\/(memberships|authorizations))?|users(\/\d+)?)$/

function routeMatches(route: string, method: string, path: string): boolean {
  const [routeMethod, routePath] = route.split(' ')
  if (routeMethod !== method || routePath === undefined) return false
  const want = routePath.split('/')
  const got = path.split('/')
  return want.length === got.length && want.every((part, i) => part === '*' || part === got[i])
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2)
}

function sendText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, {'content-type': 'text/plain;charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers})
  response.end(text)
}

function sendJson(response: ServerResponse, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers})
  response.end(body)
}

function decodeBasic(header: string | undefined): {user: string; secret: string} | null {
  if (!header?.startsWith('Basic ')) return null
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0 ? null : {user: decoded.slice(0, colon), secret: decoded.slice(colon + 1)}
}

/** 406 for missing or unexpected query params, like ParamCheckFilter; null when fine. */
function checkParams(query: Record<string, string>, allowed: string[], required: string[]): string | null {
  const unexpected = Object.keys(query).filter((name) => !allowed.includes(name))
  if (unexpected.length > 0) return `Unexpected query params: [${unexpected.join(', ')}]`
  const missing = required.filter((name) => !(name in query))
  if (missing.length > 0) return `Missing query params: [${missing.join(', ')}]`
  return null
}

export async function startOneDevServer(options: OneDevServerOptions = {}): Promise<OneDevServer> {
  const prefix = options.prefix ?? '/~api'
  const credentials = options.credentials === undefined ? {user: 'auditor', secret: 's3cr3t-token-value'} : options.credentials
  const roles = options.roles ?? []
  const projects = options.projects ?? []
  const settings: Record<number, unknown> = {...(options.settings ?? {})}
  let issueSetting = options.issueSetting ?? {stateSpecs: []}
  const faults = new Map<string, Fault & {served: number}>()
  const handlers = new Map<string, Handler>()
  const requests: RecordedRequest[] = []
  let inFlight = 0
  let maxInFlight = 0

  function findFault(method: string, path: string): (Fault & {served: number}) | undefined {
    for (const [route, fault] of faults) {
      if (!routeMatches(route, method, path)) continue
      if (fault.times !== undefined && fault.served >= fault.times) continue
      return fault
    }
    return undefined
  }

  function page(items: unknown[], query: Record<string, string>, fault: Fault | undefined): {body?: string; error?: string} {
    const offset = Number(query.offset)
    const count = Number(query.count)
    if (!Number.isInteger(offset) || !Number.isInteger(count) || offset < 0 || count < 0) return {error: 'Invalid paging params'}
    if (count > MAX_PAGE_SIZE) return {error: `Count should not be greater than ${MAX_PAGE_SIZE}`}
    const start = fault?.ignoreOffset ? 0 : offset
    return {body: pretty(items.slice(start, start + count))}
  }

  function projectData(project: FixtureProject): Record<string, unknown> {
    return {parentId: null, name: project.path?.split('/').pop() ?? null, ...project}
  }

  async function answer(request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest): Promise<void> {
    const {method} = recorded
    if (!recorded.path.startsWith(`${prefix}/`)) {
      if (options.outside) return options.outside(request, response, recorded)
      const html = '<!DOCTYPE html>\n<html><head><title>OneDev</title></head><body>Page not found</body></html>'
      response.writeHead(404, {'content-type': 'text/html;charset=utf-8'})
      response.end(html)
      return
    }
    const path = recorded.path.slice(prefix.length)

    for (const [route, handler] of handlers) {
      if (routeMatches(route, method, path)) return handler(request, response, recorded)
    }

    if (credentials !== null) {
      if (recorded.basic === null) {
        return sendText(response, 401, 'Not authenticated', {'www-authenticate': 'Basic realm="OneDev"'})
      }
      if (recorded.basic.user !== credentials.user || recorded.basic.secret !== credentials.secret) {
        return sendText(response, 401, 'Invalid account or incorrect credentials')
      }
    }

    const fault = findFault(method, path)
    if (fault) {
      fault.served++
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
      if (response.destroyed) return
      if (fault.status !== undefined) {
        const headers = fault.headers ?? {}
        if (fault.html !== undefined) {
          response.writeHead(fault.status, {'content-type': 'text/html;charset=utf-8', ...headers})
          return void response.end(fault.html)
        }
        if (fault.json !== undefined) {
          response.writeHead(fault.status, {'content-type': 'application/json', ...headers})
          return void response.end(pretty(fault.json))
        }
        return sendText(response, fault.status, fault.text ?? '', headers)
      }
      if (fault.json !== undefined) return sendJson(response, pretty(fault.json), fault.headers)
    }

    const body = route(recorded, path, fault)
    if (body.status === 204) {
      response.writeHead(204)
      return void response.end()
    }
    if (body.status !== 200) return sendText(response, body.status, body.text)
    const json = body.text
    if (fault?.truncate) return sendJson(response, json.slice(0, Math.floor(json.length / 2)), fault.headers)
    if (fault?.resetMidBody) {
      response.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(json)})
      response.write(json.slice(0, 5))
      setTimeout(() => response.destroy(), 5)
      return
    }
    if (method === 'POST') {
      response.writeHead(200, {'content-length': 0})
      return void response.end()
    }
    return sendJson(response, json, fault?.headers)
  }

  function route(recorded: RecordedRequest, path: string, fault: Fault | undefined): {status: number; text: string} {
    const {method, query} = recorded
    if (method === 'GET' && path === '/roles') {
      const bad = checkParams(query, ['name', 'offset', 'count'], ['offset', 'count'])
      if (bad) return {status: 406, text: bad}
      const name = query.name?.toLowerCase()
      const matching = name
        ? roles.filter((role) => String((role as {name?: unknown}).name ?? '').toLowerCase().includes(name))
        : roles
      const result = page(matching, query, fault)
      return result.error ? {status: 406, text: result.error} : {status: 200, text: result.body ?? '[]'}
    }
    if (method === 'GET' && path === '/projects') {
      const bad = checkParams(query, ['query', 'offset', 'count'], ['offset', 'count'])
      if (bad) return {status: 406, text: bad}
      const result = page(projects.map(projectData), query, fault)
      return result.error ? {status: 406, text: result.error} : {status: 200, text: result.body ?? '[]'}
    }
    if (method === 'GET' && path === '/version/server' && options.version !== undefined) {
      if (Object.keys(query).length > 0) return {status: 406, text: `Unexpected query params: [${Object.keys(query).join(', ')}]`}
      return {status: 200, text: options.version}
    }
    const admin = options.admin
    if (method === 'GET' && admin && Object.prototype.hasOwnProperty.call(admin, path)) {
      const payload = admin[path]
      if (PAGED_ADMIN.test(path) && Array.isArray(payload)) {
        const bad = checkParams(query, ['term', 'name', 'query', 'offset', 'count'], ['offset', 'count'])
        if (bad) return {status: 406, text: bad}
        const result = page(payload, query, fault)
        return result.error ? {status: 406, text: result.error} : {status: 200, text: result.body ?? '[]'}
      }
      if (Object.keys(query).length > 0) return {status: 406, text: `Unexpected query params: [${Object.keys(query).join(', ')}]`}
      return payload === null ? {status: 204, text: ''} : {status: 200, text: pretty(payload)}
    }
    if (!KNOWN_PATH.test(path)) return {status: 404, text: 'HTTP 404 Not Found'}
    const access = options.access ?? {}
    const paged = (items: unknown[] | undefined) => {
      if (items === undefined) return {status: 404, text: 'HTTP 404 Not Found'}
      const bad = checkParams(query, ['name', 'term', 'offset', 'count'], ['offset', 'count'])
      if (bad) return {status: 406, text: bad}
      const result = page(items, query, fault)
      return result.error ? {status: 406, text: result.error} : {status: 200, text: result.body ?? '[]'}
    }
    if (method === 'GET' && path === '/groups') return paged(access.groups)
    if (method === 'GET' && path === '/users') return paged(access.users)
    if (Object.keys(query).length > 0) return {status: 406, text: `Unexpected query params: [${Object.keys(query).join(', ')}]`}
    if (method === 'GET' && path === '/settings/security') return access.security === undefined ? {status: 404, text: 'HTTP 404 Not Found'} : {status: 200, text: pretty(access.security)}
    const groupMatch = /^\/groups\/(\d+)\/(memberships|authorizations)$/.exec(path)
    if (method === 'GET' && groupMatch) {
      const map = groupMatch[2] === 'memberships' ? access.memberships : access.groupAuthorizations
      return map === undefined ? {status: 404, text: 'HTTP 404 Not Found'} : {status: 200, text: pretty(map[Number(groupMatch[1])] ?? [])}
    }
    const userMatch = /^\/users\/(\d+)$/.exec(path)
    if (method === 'GET' && userMatch) {
      if (access.users === undefined && access.usersById === undefined) return {status: 404, text: 'HTTP 404 Not Found'}
      const id = Number(userMatch[1])
      const user = access.usersById?.[id] ?? access.users?.find((u) => (u as {id?: unknown}).id === id)
      return user === undefined ? {status: 404, text: `No row with the given identifier exists: [io.onedev.server.model.User#${id}]`} : {status: 200, text: pretty(user)}
    }
    const authorizationMatch = /^\/projects\/(\d+)\/(base|group|user)-authorizations$/.exec(path)
    if (method === 'GET' && authorizationMatch) {
      const kind = authorizationMatch[2]
      const map = kind === 'base' ? access.baseAuthorizations : kind === 'group' ? access.groupProjectAuthorizations : access.userProjectAuthorizations
      return map === undefined ? {status: 404, text: 'HTTP 404 Not Found'} : {status: 200, text: pretty(map[Number(authorizationMatch[1])] ?? [])}
    }

    const projectMatch = /^\/projects\/(\d+)(\/setting)?$/.exec(path)
    if (method === 'POST' && projectMatch?.[2]) {
      const id = Number(projectMatch[1])
      if (!(id in settings)) return {status: 404, text: `No row with the given identifier exists: [io.onedev.server.model.Project#${id}]`}
      try {
        const posted: unknown = JSON.parse(recorded.body)
        settings[id] = options.storeSetting ? options.storeSetting(id, posted) : posted
        return {status: 200, text: ''}
      } catch {
        return {status: 400, text: 'Invalid JSON body'}
      }
    }
    if (method === 'GET' && projectMatch) {
      const id = Number(projectMatch[1])
      if (projectMatch[2]) {
        return id in settings
          ? {status: 200, text: pretty(settings[id])}
          : {status: 404, text: `No row with the given identifier exists: [io.onedev.server.model.Project#${id}]`}
      }
      const project = projects.find((candidate) => candidate.id === id)
      return project
        ? {status: 200, text: pretty(projectData(project))}
        : {status: 404, text: `No row with the given identifier exists: [io.onedev.server.model.Project#${id}]`}
    }
    const repositoryMatch = /^\/repositories\/(\d+)\/(default-branch|branches|tags)$/.exec(path)
    if (method === 'GET' && repositoryMatch && options.repositories) {
      const repository = options.repositories[Number(repositoryMatch[1])]
      if (!repository) return {status: 404, text: `No row with the given identifier exists: [io.onedev.server.model.Project#${repositoryMatch[1]}]`}
      if (repositoryMatch[2] === 'default-branch') {
        if (repository.defaultBranch === null) return {status: 204, text: ''}
        return {status: 200, text: repository.jsonString ? JSON.stringify(repository.defaultBranch) : repository.defaultBranch}
      }
      const names = repositoryMatch[2] === 'branches' ? (repository.branches ?? (repository.defaultBranch ? [repository.defaultBranch] : [])) : (repository.tags ?? [])
      return {status: 200, text: pretty(names)}
    }
    if (path === '/settings/issue' && method === 'GET') return {status: 200, text: pretty(issueSetting)}
    if (path === '/settings/issue' && method === 'POST') {
      try {
        issueSetting = JSON.parse(recorded.body)
        return {status: 200, text: ''}
      } catch {
        return {status: 400, text: 'Invalid JSON body'}
      }
    }
    return {status: 404, text: 'HTTP 404 Not Found'}
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1')
      const authorization = request.headers.authorization
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        authorization,
        basic: decodeBasic(authorization),
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(recorded)
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      let settled = false
      const done = (): void => {
        if (!settled) {
          settled = true
          inFlight--
        }
      }
      response.on('close', done)
      Promise.resolve(answer(request, response, recorded)).catch((error: unknown) => {
        if (!response.headersSent) sendText(response, 500, `test server error: ${String(error)}`)
        else response.destroy()
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    prefix,
    user: credentials?.user ?? 'anyone',
    secret: credentials?.secret ?? 'anything',
    requests,
    get inFlight() {
      return inFlight
    },
    get maxInFlight() {
      return maxInFlight
    },
    get issueSetting() {
      return issueSetting
    },
    settings,
    override(route, fault) {
      if (fault === null) faults.delete(route)
      else faults.set(route, {...fault, served: 0})
    },
    setHandler(route, handler) {
      if (handler === null) handlers.delete(route)
      else handlers.set(route, handler)
    },
    reset() {
      requests.length = 0
      faults.clear()
      handlers.clear()
      maxInFlight = inFlight
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

/** A loopback port nothing listens on: connections to it are refused. */
export async function closedPort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const {port} = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}
