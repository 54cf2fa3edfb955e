/**
 * OneDev's issue endpoints on a loopback test server (test/helpers/onedev-server.ts), storing issues
 * the way IssueResource does (server-core rest/resource/IssueResource.java, onedev-reference.md):
 *
 *   GET  /issues?query=&offset=&count=   the issues the query matches, as OneDev's Issue JSON. The
 *        query language is parsed for what it is: `"Field" is "v"`, `"Field" contains "v"`, `and`,
 *        `or`, parentheses; `Project is` matches the path (wildcards `*`, `**`), case-insensitively;
 *        `Title`/`Description contains` a case-insensitive substring (`*` any run). Anything else
 *        answers 400 `Malformed query`, so a test fails when the client sends something OneDev refuses.
 *        offset and count are required (406), no other parameter than query and withFields (406).
 *   POST /issues                          {projectId, title, description, confidential, fields}: 404 for an
 *        unknown project, 403 for one in `forbidden`, 406 `Undefined field: X`, then the fields a new
 *        issue prompts (promptUponIssueOpen, applicableProjects) get their specified default, and one that
 *        is still empty and not allowEmpty answers 406 `Invalid fields: X (value must not be empty)`.
 *        The new issue starts in the workflow's first state; the answer is its id as a JSON number.
 *   POST /issues/{id}/description         the raw body becomes the description (not JSON: OneDev's String parameter)
 *   POST /issues/{id}/state-transitions   {state, fields, comment}: through a ManualSpec whose from and to states
 *        allow it, of the project's setting, its ancestors' or the workflow, in that order (406 `No applicable
 *        manual transition spec found ...` otherwise)
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
}

export interface IssueStoreOptions {
  /** Projects by id, with their paths (the fixture projects; read at each request, so a test may rename one). */
  projects: ReadonlyArray<{id: number; path?: string; parentId?: number | null}>
  /** The issue setting the transitions and fields come from (what GET /settings/issue answers). */
  workflow: any
  /** Issues there already. */
  issues?: Array<Partial<StoredIssue> & {projectId: number}>
  /** Projects where every write answers 403 (a project the token may not write issues in). */
  forbidden?: number[]
  /** POST /issues answers after this long (a write in flight when the run is interrupted). */
  openDelayMs?: number
}

export interface IssueStore {
  readonly issues: StoredIssue[]
  /** The issue requests recorded (GET /issues and the POSTs under /issues), `METHOD /path`. */
  requests(): string[]
}

function send(response: ServerResponse, status: number, body: string, type = 'text/plain;charset=utf-8'): void {
  response.writeHead(status, {'content-type': type, 'content-length': Buffer.byteLength(body)})
  response.end(body)
}

type Criterion = (issue: StoredIssue) => boolean

/** The issue query subset notify may send, parsed like IssueQuery.g4; throws on anything else. */
export function parseIssueQuery(text: string, pathOf: (projectId: number) => string): Criterion {
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
    if (text.startsWith(expected, i) && (text[i + expected.length] === ' ' || text[i + expected.length] === '(')) {
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
    const field = quoted()
    ws()
    if (word('is')) {
      ws()
      const value = quoted()
      if (field === 'Project') return (issue) => pathPattern(value).test(pathOf(issue.projectId).toLowerCase())
      if (field === 'State') return (issue) => issue.state === value
      throw new Error(`Malformed query: "${field}" is not supported here`)
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
      if (!word(operator)) {
        i = at
        return left
      }
      const right = operand()
      const l = left
      left = (issue) => combine(l(issue), () => right(issue))
    }
  }
  const and = chain('and', () => primary(), (a, b) => a && b())
  const or: () => Criterion = chain('or', and, (a, b) => a || b())
  const criterion = or()
  ws()
  if (i !== text.length) throw new Error(`Malformed query: unexpected text at ${i}`)
  return criterion
}

/** The issue as OneDev's REST interface writes it (many-to-one members as `<name>Id`). */
function issueJson(issue: StoredIssue): Record<string, unknown> {
  return {
    id: issue.id,
    state: issue.state,
    stateOrdinal: 0,
    title: issue.title,
    description: issue.description,
    numberScopeId: issue.projectId,
    projectId: issue.projectId,
    submitterId: 1,
    submitDate: '2026-11-01T00:00:00.000+00:00',
    voteCount: 0,
    commentCount: 0,
    number: issue.number,
    confidential: issue.confidential,
    uuid: `uuid-${issue.id}`,
  }
}

export function installIssueStore(server: OneDevServer, options: IssueStoreOptions): IssueStore {
  const paths = {
    get: (id: number) => {
      const project = options.projects.find((candidate) => candidate.id === id)
      return project ? (project.path ?? String(project.id)) : undefined
    },
    has: (id: number) => options.projects.some((candidate) => candidate.id === id),
  }
  const issues: StoredIssue[] = (options.issues ?? []).map((issue, index) => ({
    id: 100 + index,
    number: index + 1,
    title: '',
    description: '',
    state: options.workflow.stateSpecs[0].name,
    confidential: true,
    fields: {},
    comments: [],
    ...issue,
  }))
  let nextId = 100 + issues.length
  const forbidden = new Set(options.forbidden ?? [])

  const authorized = (recorded: RecordedRequest, response: ServerResponse): boolean => {
    if (recorded.basic?.user === server.user && recorded.basic.secret === server.secret) return true
    send(response, 401, 'Invalid account or incorrect credentials')
    return false
  }
  const fieldSpecs = (): any[] => options.workflow.fieldSpecs ?? []

  const query = (_request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => {
    if (!authorized(recorded, response)) return
    const unexpected = Object.keys(recorded.query).filter((name) => !['query', 'withFields', 'offset', 'count'].includes(name))
    if (unexpected.length > 0) return send(response, 406, `Unexpected query params: [${unexpected.join(', ')}]`)
    if (!('offset' in recorded.query) || !('count' in recorded.query)) return send(response, 406, 'Missing query params: [offset, count]')
    let criterion: Criterion = () => true
    try {
      if (recorded.query.query !== undefined) criterion = parseIssueQuery(recorded.query.query, (id) => paths.get(id) ?? '')
    } catch (error) {
      return send(response, 400, (error as Error).message)
    }
    const offset = Number(recorded.query.offset)
    const count = Number(recorded.query.count)
    const found = issues.filter(criterion).slice(offset, offset + count)
    send(response, 200, JSON.stringify(found.map(issueJson), null, 2), 'application/json')
  }

  const open = async (_request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => {
    if (!authorized(recorded, response)) return
    if (options.openDelayMs) await new Promise((resolve) => setTimeout(resolve, options.openDelayMs))
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
    const fields: Record<string, string | string[]> = {...(body.fields ?? {})}
    for (const name of Object.keys(fields)) if (!fieldSpecs().some((spec) => spec.name === name)) return send(response, 406, `Undefined field: ${name}`)
    const invalid: string[] = []
    for (const spec of fieldSpecs()) {
      if (spec.promptUponIssueOpen === false || spec.name in fields) continue
      if (spec.applicableProjects && spec.applicableProjects !== paths.get(projectId) && spec.applicableProjects !== '**') continue
      const provider = spec.defaultValueProvider
      const value = provider?.defaultValues?.[0]?.value ?? provider?.value
      if (value !== undefined && value !== null && value !== '') fields[spec.name] = value
      else if (spec.allowEmpty !== true) invalid.push(`${spec.name} (value must not be empty)`)
    }
    if (invalid.length > 0) return send(response, 406, `Invalid fields: ${invalid.join(', ')}`)
    const id = nextId++
    const number = Math.max(0, ...issues.filter((issue) => issue.projectId === projectId).map((issue) => issue.number)) + 1
    issues.push({id, number, projectId, title: body.title, description: body.description ?? '', state: options.workflow.stateSpecs[0].name, confidential: body.confidential === true, fields, comments: []})
    send(response, 200, String(id), 'application/json')
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
    if (!authorized(recorded, response)) return
    const issue = issueOf(recorded, response)
    if (!issue) return
    issue.description = recorded.body
    send(response, 200, '')
  }

  const transit = (_request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => {
    if (!authorized(recorded, response)) return
    const issue = issueOf(recorded, response)
    if (!issue) return
    const body = JSON.parse(recorded.body)
    // Project#getHierarchyTransitionSpecs: the project's own, its ancestors', then the global ones.
    const hierarchy: any[] = []
    for (let project: any = options.projects.find((p) => p.id === issue.projectId); project; project = options.projects.find((p) => p.id === project.parentId)) {
      hierarchy.push(...((server.settings[project.id] as any)?.issueSetting?.transitionSpecs ?? []))
    }
    const manual = [...hierarchy, ...(options.workflow.transitionSpecs ?? [])].find(
      (spec: any) =>
        spec['@type'] === 'ManualSpec' &&
        (!spec.fromStates?.length || spec.fromStates.includes(issue.state)) &&
        (!spec.toStates?.length || spec.toStates.includes(body.state)),
    )
    if (!manual || !options.workflow.stateSpecs.some((state: any) => state.name === body.state)) {
      return send(response, 406, `No applicable manual transition spec found for current user (issue: #${issue.number}, from state: ${issue.state}, to state: ${body.state})`)
    }
    issue.state = body.state
    Object.assign(issue.fields, body.fields ?? {})
    if (body.comment) issue.comments.push(body.comment)
    send(response, 200, '')
  }

  server.setHandler('GET /issues', query)
  server.setHandler('POST /issues', open)
  server.setHandler('POST /issues/*/description', describe)
  server.setHandler('POST /issues/*/state-transitions', transit)

  return {
    issues,
    requests: () => server.requests.filter((r) => /\/issues(\/|$)/.test(r.path)).map((r) => `${r.method} ${r.path.slice(server.prefix.length)}`),
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
