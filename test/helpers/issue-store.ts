/**
 * OneDev's issue endpoints on a loopback test server (test/helpers/onedev-server.ts), storing issues
 * the way IssueResource does, at the versions the audit supports (`flavor`: ONEDEV_16, the default;
 * ONEDEV_12_0_8, ONEDEV_11, ONEDEV_8; each fact below carries its tag, file and line):
 *
 *   GET  /users/me                        the caller's account: UserData (12.0.0 and later) or the User
 *        entity (8.x to 11.x), both with `id`
 *   GET  /version/server                  the version as a bare string (10.2.0 and later); 8.x has no such
 *        resource (404 with no body)
 *   GET  /issues?query=&offset=&count=   the issues the query matches, as OneDev's Issue JSON (many-to-one
 *        members as `<name>Id`: `projectId`, `submitterId`). The query language is parsed for what it is:
 *        `"Field" is "v"`, `"Field" contains "v"`, `submitted by me`, `and`, `or`, parentheses, then
 *        `order by "Field" [asc|desc]`; `Project is` matches the path (wildcards `*`, `**`),
 *        case-insensitively; `Title`/`Description contains` a case-insensitive substring (`*` any run);
 *        another `"Field" is` compares a custom field's value. Anything else answers 400 `Malformed
 *        query`, so a test fails when the client sends something OneDev refuses. Without an order, the
 *        newest activity first (opening, a description, a transition count as activity). offset and
 *        count are required (406), no other parameter than query and withFields (406).
 *   POST /issues                          {projectId, title, description, confidential, fields}: the
 *        submitter is the caller's account. 404 for an unknown project, 403 for one in `forbidden`.
 *        Current servers (10.0.0 on): a field value is a string or a list; 406 `Undefined field: X`,
 *        then the fields a new issue prompts (promptUponIssueOpen, applicableProjects) get their
 *        specified default, and one that is still empty and not allowEmpty answers 406 `Invalid
 *        fields: X (value must not be empty)`. 8.x: `fields` is a Map<String, String>: a list answers
 *        400 (Jackson cannot read it as a string), a field the workflow lacks is dropped, and each
 *        entry is stored as the one value it is. The new issue starts in the workflow's first state;
 *        the answer is its id as a JSON number.
 *   POST /issues/{id}/description         the raw body becomes the description (not JSON: OneDev's String parameter)
 *   POST /issues/{id}/state-transitions   {state, fields, comment}: through a ManualSpec whose from and to
 *        states allow it and whose applicable-issues query matches, of the project's setting, its
 *        ancestors' or the workflow, in that order. None: 406 `No applicable manual transition spec
 *        found ...` (12.0.9 on), 400 with the same text (12.0.5 to 12.0.8), 400 `No applicable
 *        transition spec for: A->B` (10.0.0 to 12.0.4); 8.x checks no transition at all.
 * Credentials are checked as the server's own routes check them. `store.issues` is what is stored.
 */
import type {IncomingMessage, ServerResponse} from 'node:http'

import type {OneDevServer, RecordedRequest} from './onedev-server.js'

export interface StoredIssue {
  id: number
  number: number
  projectId: number
  title: string
  description: string
  state: string
  confidential: boolean
  fields: Record<string, string | string[]>
  /** Comments of the transitions it went through. */
  comments: string[]
  /** The account that opened it (notify's account unless a test says otherwise). */
  submitterId: number
  /** When it was last active (a logical clock: opening, a description, a transition). */
  lastActivity: number
}

/** An account of the server: notify's (the credentials of the fixture server) or another. */
export interface Account {
  id: number
  name: string
}

/** How one OneDev version answers the issue endpoints (see the module comment). */
export interface IssueServerFlavor {
  /** What GET /version/server answers; null: the resource does not exist (8.x, 10.0.0 to 10.1.6). */
  version: string | null
  /** `fields` of a new issue and of a transition: one string per field (8.x) or a string or a list. */
  fields: 'string' | 'string-or-list'
  /** How a transition no manual spec allows is answered; null: transitions are not checked (8.x). */
  noTransition: ((issue: StoredIssue, reference: string, to: string) => {status: number; text: string}) | null
  /** The account as GET /users/me answers it. */
  me: (account: Account) => Record<string, unknown>
}

/**
 * 16.5.6: fields a string or a list (v16.5.6 server-core/src/main/java/io/onedev/server/rest/resource/IssueResource.java:543,618);
 * no transition → 406 (:469-474); /users/me → UserData (UserResource.java:134-141, built at :109-121);
 * /version/server → the bare version (VersionResource.java:18-23).
 */
export const ONEDEV_16: IssueServerFlavor = {
  version: '16.5.6',
  fields: 'string-or-list',
  noTransition: (issue, reference, to) => ({status: 406, text: `No applicable manual transition spec found for current user (issue: ${reference}, from state: ${issue.state}, to state: ${to})`}),
  me: (account) => ({id: account.id, disabled: false, type: 'ORDINARY', name: account.name, fullName: null, notifyOwnEvents: false}),
}

/**
 * 12.0.8 (12.0.5 to 12.0.8): no transition → 400 with the text 12.0.9 answers with 406
 * (v12.0.8 server-core/src/main/java/io/onedev/server/model/support/administration/GlobalIssueSetting.java:757-769,
 * InvalidParamsException extends BadRequestException: v12.0.8 server-core/src/main/java/io/onedev/server/rest/InvalidParamsException.java:5);
 * /users/me → UserData (v12.0.0 UserResource.java:124-130).
 */
export const ONEDEV_12_0_8: IssueServerFlavor = {
  ...ONEDEV_16,
  version: '12.0.8',
  noTransition: (issue, reference, to) => ({status: 400, text: `No applicable manual transition spec found for current user (issue: ${reference}, from state: ${issue.state}, to state: ${to})`}),
}

/**
 * 11.11.4 (10.0.0 to 12.0.4 answer the same): no transition → 400 `No applicable transition spec for: A->B`
 * (v11.11.4 server-core/src/main/java/io/onedev/server/rest/resource/IssueResource.java:374-375; v10.0.0 :363-364);
 * /users/me → BasicSetting, without id (v11.11.4 UserResource.java:111-118, built at :89-98).
 */
export const ONEDEV_11: IssueServerFlavor = {
  ...ONEDEV_16,
  version: '11.11.4',
  noTransition: (issue, _reference, to) => ({status: 400, text: `No applicable transition spec for: ${issue.state}->${to}`}),
  me: (account) => ({disabled: false, serviceAccount: false, name: account.name, fullName: null, notifyOwnEvents: false}),
}

/**
 * 8.x (8.0.0 to 8.6.13): `fields` a Map<String, String>, each entry stored as one value, unknown names
 * dropped (v8.0.0 server-core/src/main/java/io/onedev/server/rest/IssueResource.java:236-247,394,455); a
 * list cannot be read as a string: 400 (Jersey's Jackson exception mappers, registered at v8.0.0
 * server-core/src/main/java/io/onedev/server/rest/jersey/JerseyApplication.java:35); no transition check
 * (IssueResource.java:337-345); /users/me → the User entity (UserResource.java:97-104; User.java:87-100);
 * no /version/server.
 */
export const ONEDEV_8: IssueServerFlavor = {
  version: null,
  fields: 'string',
  noTransition: null,
  me: (account) => ({id: account.id, name: account.name, fullName: null, twoFactorAuthentication: null}),
}

export interface IssueStoreOptions {
  /** Projects by id, with their paths (the fixture projects; read at each request, so a test may rename one). */
  projects: ReadonlyArray<{id: number; path?: string; parentId?: number | null}>
  /** The issue setting the transitions and fields come from (what GET /settings/issue answers). */
  workflow: any
  /** Issues there already, oldest first (their numbers, ids and activity in that order unless given). */
  issues?: Array<Partial<StoredIssue> & {projectId: number}>
  /** Projects where every write answers 403 (a project the token may not write issues in). */
  forbidden?: number[]
  /** POST /issues answers after this long (a write in flight when the run is interrupted). */
  openDelayMs?: number
  /**
   * POST /issues waits until this many are waiting (at most 30 s): slow POSTs that overlap, as two
   * runs at once have both read the issues (and found none) before either has opened one.
   */
  openTogether?: number
  /** The OneDev version answering (default ONEDEV_16). */
  flavor?: IssueServerFlavor
  /** notify's account: the fixture server's credentials (default id 1). */
  account?: Account
}

export interface IssueStore {
  readonly issues: StoredIssue[]
  /** The issue requests recorded (GET /issues and the POSTs under /issues), `METHOD /path`. */
  requests(): string[]
  /** Stores an issue opened by someone (another account unless `submitterId` says otherwise), as the newest. */
  add(issue: Partial<StoredIssue> & {projectId: number}): StoredIssue
}

/** Another account: a project member who may open issues. */
export const MEMBER: Account = {id: 7, name: 'member'}

function send(response: ServerResponse, status: number, body: string, type = 'text/plain;charset=utf-8'): void {
  response.writeHead(status, {'content-type': type, 'content-length': Buffer.byteLength(body)})
  response.end(body)
}

type Criterion = (issue: StoredIssue, submitter: number) => boolean

/** `order by "Field" asc|desc`: the fields notify may sort by (Issue.SORT_FIELDS: "Number", "Submit Date"). */
export interface Sort {
  field: 'Number' | 'Submit Date'
  ascending: boolean
}

/** The issue query subset notify may send, parsed like IssueQuery.g4 (v16.5.6 :3-23); throws on anything else. */
export function parseIssueQueryText(text: string, pathOf: (projectId: number) => string): {criterion: Criterion; sort: Sort | null} {
  let i = 0
  const ws = () => {
    while (text[i] === ' ') i++
  }
  const quoted = (): string => {
    if (text[i] !== '"') throw new Error(`Malformed query: expected a quoted value at ${i}`)
    let value = ''
    i++
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++
      value += text[i]
      i++
    }
    if (text[i] !== '"' || value === '') throw new Error('Malformed query: unterminated or empty quote')
    i++
    return value
  }
  const word = (expected: string): boolean => {
    if (text.startsWith(expected, i) && (i + expected.length === text.length || text[i + expected.length] === ' ' || text[i + expected.length] === '(')) {
      i += expected.length
      return true
    }
    return false
  }
  const like = (pattern: string) => new RegExp(pattern.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*'))
  const pathPattern = (pattern: string) =>
    new RegExp(`^${pattern.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*')}$`)
  const primary = (): Criterion => {
    ws()
    if (text[i] === '(') {
      i++
      const inner = or()
      ws()
      if (text[i] !== ')') throw new Error('Malformed query: expected )')
      i++
      return inner
    }
    // SubmittedByMeCriteria: the caller's account (v16.5.6 server-core/src/main/java/io/onedev/server/search/entity/issue/SubmittedByMeCriteria.java:24-30).
    if (word('submitted by me')) return (issue, submitter) => issue.submitterId === submitter
    const field = quoted()
    ws()
    if (word('is')) {
      ws()
      const value = quoted()
      if (field === 'Project') return (issue) => pathPattern(value).test(pathOf(issue.projectId).toLowerCase())
      if (field === 'State') return (issue) => issue.state === value
      if (['Title', 'Description', 'Number'].includes(field)) throw new Error(`Malformed query: "${field}" is not supported here`)
      // A custom field (an applicable-issues query of a transition).
      return (issue) => [issue.fields[field]].flat().includes(value)
    }
    if (word('contains')) {
      ws()
      const value = quoted()
      if (field === 'Title') return (issue) => like(value).test(issue.title.toLowerCase())
      if (field === 'Description') return (issue) => like(value).test(issue.description.toLowerCase())
      throw new Error(`Malformed query: "${field}" contains is not supported here`)
    }
    throw new Error(`Malformed query: unexpected text at ${i}`)
  }
  /** `operand (op operand)*`, left to right: `and` binds tighter than `or`, as in IssueQuery.g4. */
  const chain = (operator: 'and' | 'or', operand: () => Criterion, combine: (a: boolean, b: () => boolean) => boolean) => (): Criterion => {
    let left = operand()
    for (;;) {
      const at = i
      ws()
      if (text.startsWith('order by', i) || !word(operator)) {
        i = at
        return left
      }
      const right = operand()
      const l = left
      left = (issue, submitter) => combine(l(issue, submitter), () => right(issue, submitter))
    }
  }
  const and = chain('and', () => primary(), (a, b) => a && b())
  const or: () => Criterion = chain('or', and, (a, b) => a || b())
  ws()
  const criterion: Criterion = text.startsWith('order by', i) ? () => true : or()
  ws()
  let sort: Sort | null = null
  if (word('order by')) {
    ws()
    const field = quoted()
    if (field !== 'Number' && field !== 'Submit Date') throw new Error(`Malformed query: cannot order by "${field}" here`)
    ws()
    // Without a direction, 16.x sorts "Submit Date" newest first and 8.x ascending (v16.5.6 IssueQuery.java:539-548): the store refuses the ambiguity.
    if (word('asc')) sort = {field, ascending: true}
    else if (word('desc')) sort = {field, ascending: false}
    else throw new Error('Malformed query: an order without direction means different things on different versions')
    ws()
  }
  if (i !== text.length) throw new Error(`Malformed query: unexpected text at ${i}`)
  return {criterion, sort}
}

/** The criterion of a query (parseIssueQueryText without its order), for an issue of notify's account (id 1). */
export function parseIssueQuery(text: string, pathOf: (projectId: number) => string): (issue: Omit<StoredIssue, 'submitterId' | 'lastActivity'> & Partial<StoredIssue>) => boolean {
  const {criterion} = parseIssueQueryText(text, pathOf)
  return (issue) => criterion({submitterId: 1, lastActivity: 0, ...issue}, 1)
}

/**
 * The issue as OneDev's REST interface writes it (many-to-one members as `<name>Id`: v16.5.6
 * server-core/src/main/java/io/onedev/server/util/jackson/hibernate/HibernateAnnotationIntrospector.java:22-23;
 * `submitterId` from Issue.submitter, v16.5.6 server-core/src/main/java/io/onedev/server/model/Issue.java:332-334).
 */
function issueJson(issue: StoredIssue): Record<string, unknown> {
  return {
    id: issue.id,
    state: issue.state,
    stateOrdinal: 0,
    title: issue.title,
    description: issue.description,
    numberScopeId: issue.projectId,
    projectId: issue.projectId,
    submitterId: issue.submitterId,
    submitDate: '2026-11-01T00:00:00.000+00:00',
    voteCount: 0,
    commentCount: 0,
    number: issue.number,
    confidential: issue.confidential,
    uuid: `uuid-${issue.id}`,
  }
}

export function installIssueStore(server: OneDevServer, options: IssueStoreOptions): IssueStore {
  const flavor = options.flavor ?? ONEDEV_16
  const account = options.account ?? {id: 1, name: server.user}
  const paths = {
    get: (id: number) => {
      const project = options.projects.find((candidate) => candidate.id === id)
      return project ? (project.path ?? String(project.id)) : undefined
    },
    has: (id: number) => options.projects.some((candidate) => candidate.id === id),
  }
  let clock = 0
  const issues: StoredIssue[] = []
  let nextId = 100
  const nextNumber = (projectId: number) => Math.max(0, ...issues.filter((issue) => issue.projectId === projectId).map((issue) => issue.number)) + 1
  const store = (issue: Partial<StoredIssue> & {projectId: number}, submitterId: number): StoredIssue => {
    const stored: StoredIssue = {
      id: nextId++,
      number: nextNumber(issue.projectId),
      title: '',
      description: '',
      state: options.workflow.stateSpecs[0].name,
      confidential: true,
      fields: {},
      comments: [],
      submitterId,
      lastActivity: ++clock,
      ...issue,
    }
    issues.push(stored)
    return stored
  }
  for (const issue of options.issues ?? []) store(issue, account.id)
  const touch = (issue: StoredIssue) => (issue.lastActivity = ++clock)
  const forbidden = new Set(options.forbidden ?? [])
  let waiting: Array<() => void> = []
  const together = (count: number) =>
    new Promise<void>((resolve) => {
      waiting.push(resolve)
      setTimeout(resolve, 30_000).unref()
      if (waiting.length >= count) {
        for (const release of waiting) release()
        waiting = []
      }
    })

  /** The caller's account: notify's credentials (the fixture server's); anything else answers 401. */
  const caller = (recorded: RecordedRequest, response: ServerResponse): Account | null => {
    if (recorded.basic?.user === server.user && recorded.basic.secret === server.secret) return account
    send(response, 401, 'Invalid account or incorrect credentials')
    return null
  }
  const fieldSpecs = (): any[] => options.workflow.fieldSpecs ?? []
  const reference = (issue: StoredIssue) => `${paths.get(issue.projectId)}#${issue.number}`

  /** `fields` as the flavor reads it: an error answer, or the values. */
  const readFields = (raw: unknown): {error: [number, string]} | {fields: Record<string, string | string[]>} => {
    const fields = (raw ?? {}) as Record<string, unknown>
    if (flavor.fields === 'string') {
      const list = Object.entries(fields).find(([, value]) => typeof value !== 'string')
      if (list) return {error: [400, `Cannot deserialize value of type \`java.lang.String\` from Array value (token \`JsonToken.START_ARRAY\`) (through reference chain: fields["${list[0]}"])`]}
      // Unknown names are dropped (v8.0.0 IssueResource.java:237-238).
      return {fields: Object.fromEntries(Object.entries(fields).filter(([name]) => fieldSpecs().some((spec) => spec.name === name))) as Record<string, string>}
    }
    for (const name of Object.keys(fields)) if (!fieldSpecs().some((spec) => spec.name === name)) return {error: [406, `Undefined field: ${name}`]}
    return {fields: fields as Record<string, string | string[]>}
  }

  const me = (_request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => {
    const who = caller(recorded, response)
    if (who) send(response, 200, JSON.stringify(flavor.me(who), null, 2), 'application/json')
  }

  const version = (_request: IncomingMessage, response: ServerResponse) => {
    if (flavor.version === null) return send(response, 404, '')
    send(response, 200, flavor.version, 'application/json')
  }

  const query = (_request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => {
    const who = caller(recorded, response)
    if (!who) return
    const unexpected = Object.keys(recorded.query).filter((name) => !['query', 'withFields', 'offset', 'count'].includes(name))
    if (unexpected.length > 0) return send(response, 406, `Unexpected query params: [${unexpected.join(', ')}]`)
    if (!('offset' in recorded.query) || !('count' in recorded.query)) return send(response, 406, 'Missing query params: [offset, count]')
    let parsed: ReturnType<typeof parseIssueQueryText> = {criterion: () => true, sort: null}
    try {
      if (recorded.query.query !== undefined) parsed = parseIssueQueryText(recorded.query.query, (id) => paths.get(id) ?? '')
    } catch (error) {
      return send(response, 400, (error as Error).message)
    }
    const offset = Number(recorded.query.offset)
    const count = Number(recorded.query.count)
    if (count > 100) return send(response, 406, 'Count should not be greater than 100')
    const {sort} = parsed
    // The query's order, then the newest activity first (v16.5.6 server-core/src/main/java/io/onedev/server/service/impl/DefaultIssueService.java:329-355).
    const ordered = issues
      .filter((issue) => parsed.criterion(issue, who.id))
      .sort((a, b) => (sort === null ? 0 : (sort.ascending ? 1 : -1) * (sort.field === 'Number' ? a.number - b.number : a.id - b.id)) || b.lastActivity - a.lastActivity)
    send(response, 200, JSON.stringify(ordered.slice(offset, offset + count).map(issueJson), null, 2), 'application/json')
  }

  const open = async (_request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => {
    const who = caller(recorded, response)
    if (!who) return
    if (options.openDelayMs) await new Promise((resolve) => setTimeout(resolve, options.openDelayMs))
    if (options.openTogether) await together(options.openTogether)
    let body: any
    try {
      body = JSON.parse(recorded.body)
    } catch {
      return send(response, 400, 'Invalid JSON body')
    }
    const projectId = body.projectId
    if (!paths.has(projectId)) return send(response, 404, `No row with the given identifier exists: [io.onedev.server.model.Project#${projectId}]`)
    if (forbidden.has(projectId)) return send(response, 403, 'Not authorized')
    if (typeof body.title !== 'string') return send(response, 400, 'title: must not be null')
    const read = readFields(body.fields)
    if ('error' in read) return send(response, ...read.error)
    const fields = {...read.fields}
    const invalid: string[] = []
    // 8.x opens the issue with what it is given (no prompted field is checked).
    for (const spec of flavor.fields === 'string' ? [] : fieldSpecs()) {
      if (spec.promptUponIssueOpen === false || spec.name in fields) continue
      if (spec.applicableProjects && spec.applicableProjects !== paths.get(projectId) && spec.applicableProjects !== '**') continue
      const provider = spec.defaultValueProvider
      const value = provider?.defaultValues?.[0]?.value ?? provider?.value
      if (value !== undefined && value !== null && value !== '') fields[spec.name] = value
      else if (spec.allowEmpty !== true) invalid.push(`${spec.name} (value must not be empty)`)
    }
    if (invalid.length > 0) return send(response, 406, `Invalid fields: ${invalid.join(', ')}`)
    const stored = store({projectId, title: body.title, description: body.description ?? '', confidential: body.confidential === true, fields}, who.id)
    send(response, 200, String(stored.id), 'application/json')
  }

  const issueOf = (recorded: RecordedRequest, response: ServerResponse): StoredIssue | null => {
    const id = Number(/\/issues\/(\d+)\//.exec(recorded.path)?.[1])
    const issue = issues.find((candidate) => candidate.id === id)
    if (!issue) {
      send(response, 404, `No row with the given identifier exists: [io.onedev.server.model.Issue#${id}]`)
      return null
    }
    if (forbidden.has(issue.projectId)) {
      send(response, 403, 'Not authorized')
      return null
    }
    return issue
  }

  const describe = (_request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => {
    if (!caller(recorded, response)) return
    const issue = issueOf(recorded, response)
    if (!issue) return
    issue.description = recorded.body
    touch(issue)
    send(response, 200, '')
  }

  const transit = (_request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => {
    const who = caller(recorded, response)
    if (!who) return
    const issue = issueOf(recorded, response)
    if (!issue) return
    const body = JSON.parse(recorded.body)
    const read = readFields(body.fields)
    if ('error' in read) return send(response, ...read.error)
    if (flavor.noTransition !== null) {
      // Project#getHierarchyTransitionSpecs: the project's own, its ancestors', then the global ones.
      const hierarchy: any[] = []
      for (let project: any = options.projects.find((p) => p.id === issue.projectId); project; project = options.projects.find((p) => p.id === project.parentId)) {
        hierarchy.push(...((server.settings[project.id] as any)?.issueSetting?.transitionSpecs ?? []))
      }
      // ManualSpec#canTransit: its states, then its applicable-issues query (v16.5.6 ManualSpec.java; v11.7.0 :101-111).
      const manual = [...hierarchy, ...(options.workflow.transitionSpecs ?? [])].find(
        (spec: any) =>
          spec['@type'] === 'ManualSpec' &&
          (!spec.fromStates?.length || spec.fromStates.includes(issue.state)) &&
          (!spec.toStates?.length || spec.toStates.includes(body.state)) &&
          (!spec.issueQuery || parseIssueQueryText(spec.issueQuery, (id) => paths.get(id) ?? '').criterion(issue, who.id)),
      )
      if (!manual || !options.workflow.stateSpecs.some((state: any) => state.name === body.state)) {
        const refusal = flavor.noTransition(issue, reference(issue), body.state)
        return send(response, refusal.status, refusal.text)
      }
    }
    issue.state = body.state
    Object.assign(issue.fields, read.fields)
    if (body.comment) issue.comments.push(body.comment)
    touch(issue)
    send(response, 200, '')
  }

  server.setHandler('GET /users/me', me)
  server.setHandler('GET /version/server', version)
  server.setHandler('GET /issues', query)
  server.setHandler('POST /issues', open)
  server.setHandler('POST /issues/*/description', describe)
  server.setHandler('POST /issues/*/state-transitions', transit)

  return {
    issues,
    requests: () => server.requests.filter((r) => /\/issues(\/|$)/.test(r.path)).map((r) => `${r.method} ${r.path.slice(server.prefix.length)}`),
    add: (issue) => store(issue, issue.submitterId ?? MEMBER.id),
  }
}

/** A workflow like OneDev's default: Open, In Progress, Closed; a manual transition from any state to any state by Code Writers. */
export const DEFAULT_WORKFLOW = {
  stateSpecs: [
    {name: 'Open', color: '#2095F2'},
    {name: 'In Progress', color: '#FFA700'},
    {name: 'Closed', color: '#1BC5BD'},
  ],
  transitionSpecs: [
    {'@type': 'BranchUpdatedSpec', fromStates: [], toState: 'Closed', branches: 'main', issueQuery: 'fixed in current commit', removeFields: []},
    {'@type': 'ManualSpec', fromStates: [], toStates: [], authorizedRoles: ['Code Writer', '<Issue Submitter>'], promptFields: [], removeFields: [], issueQuery: null},
  ],
  fieldSpecs: [
    {
      '@type': 'ChoiceField',
      name: 'Type',
      allowMultiple: false,
      allowEmpty: false,
      promptUponIssueOpen: true,
      choiceProvider: {'@type': 'SpecifiedChoices', choices: [{value: 'Bug'}, {value: 'Task'}]},
      defaultValueProvider: {'@type': 'SpecifiedDefaultValue', defaultValues: [{value: 'Task', applicableProjects: null}]},
    },
    {'@type': 'UserChoiceField', name: 'Assignees', allowMultiple: true, allowEmpty: true, promptUponIssueOpen: true},
  ],
  boardSpecs: [],
  listFields: ['State', 'Type'],
  listLinks: [],
  namedQueries: [],
  issueTemplates: [],
  reconciled: true,
}

/**
 * The issue workflow of an 8.x server as GET /settings/issue writes it (v8.0.0
 * server-core/src/main/java/io/onedev/server/model/support/administration/GlobalIssueSetting.java:59-75):
 * legacy transitions, a `TransitionSpec` with one `toState` and a `trigger` (TransitionSpec.java:41-47;
 * the abstract TransitionTrigger typed `@type` by its simple name, TransitionTrigger.java:18 `issueQuery`;
 * PressButtonTrigger.java:42-46), and fields (InputSpec.java:62-70, FieldSpec.java:44-48, ChoiceField.java:25-29,
 * UserChoiceField.java:25-29; SpecifiedChoices.java:34 with Choice.java:19-23; the choice SpecifiedDefaultValue
 * :20 with DefaultValue.java:22-24; StateSpec.java:15-19).
 */
export const ONEDEV_8_WORKFLOW = {
  stateSpecs: [
    {name: 'Open', description: null, color: '#f0ad4e'},
    {name: 'Closed', description: null, color: '#5cb85c'},
  ],
  transitionSpecs: [
    {fromStates: ['Open'], toState: 'Closed', trigger: {'@type': 'PressButtonTrigger', issueQuery: null, buttonLabel: 'Close', authorizedRoles: ['Code Writer'], promptFields: []}, removeFields: []},
    {fromStates: ['Closed'], toState: 'Open', trigger: {'@type': 'PressButtonTrigger', issueQuery: null, buttonLabel: 'Reopen', authorizedRoles: ['Code Writer'], promptFields: []}, removeFields: []},
  ],
  fieldSpecs: [
    {
      '@type': 'ChoiceField',
      name: 'Type',
      description: null,
      allowMultiple: false,
      allowEmpty: false,
      showCondition: null,
      nameOfEmptyValue: null,
      promptUponIssueOpen: true,
      applicableProjects: null,
      choiceProvider: {'@type': 'SpecifiedChoices', choices: [{value: 'Bug', color: '#d9534f', applicableProjects: null}, {value: 'Task', color: '#0d87e9', applicableProjects: null}]},
      defaultValueProvider: {'@type': 'SpecifiedDefaultValue', defaultValues: [{value: 'Task', applicableProjects: null}]},
      defaultMultiValueProvider: null,
    },
    {
      '@type': 'UserChoiceField',
      name: 'Assignees',
      description: null,
      allowMultiple: true,
      allowEmpty: true,
      showCondition: null,
      nameOfEmptyValue: 'Not assigned',
      promptUponIssueOpen: true,
      applicableProjects: null,
      choiceProvider: {'@type': 'AllUsers'},
      defaultValueProvider: null,
      defaultMultiValueProvider: null,
    },
  ],
  boardSpecs: [],
  listFields: ['Type'],
  listLinks: [],
  namedQueries: [],
  issueTemplates: [],
  reconciled: true,
}
