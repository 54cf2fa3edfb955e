/**
 * Issues as `onedev-audit notify` reads them (GET {prefix}/issues: OneDev's `Issue` as JSON, its
 * many-to-one members as `<name>Id`), and the marker notify keeps in the description of its own
 * issue: which audit target the issue is for and a digest of the findings it describes, so a run
 * finds its issue again and tells whether the findings changed without comparing any text.
 *
 * Every string here comes from the server and is hostile: nothing is printed from it but the issue
 * number and state, escaped by whoever prints them.
 *
 * Whose an issue is: `submitterId`, the id of the account that opened it (OneDev writes every
 * many-to-one member as `<name>Id`: v8.0.0 server-core/src/main/java/io/onedev/server/util/jackson/hibernate/HibernateAnnotationIntrospector.java:36,
 * `Issue.submitter` at v8.0.0 server-core/src/main/java/io/onedev/server/model/Issue.java:239-241 and
 * v16.5.6 :332-334; IssueResource sets it to the caller's account: v8.0.0
 * server-core/src/main/java/io/onedev/server/rest/IssueResource.java:223, v16.5.6
 * server-core/src/main/java/io/onedev/server/rest/resource/IssueResource.java:337).
 */
import {isObject} from '../util/json.js'

export interface ServerIssue {
  id: number
  /** The number people see (`#12`); null when the answer had none. */
  number: number | null
  projectId: number | null
  title: string
  /** '' when the issue has none. */
  description: string
  state: string
  confidential: boolean
  /** The account that opened it; null when the answer had none (then it is nobody's we know). */
  submitterId: number | null
}

/** What an issue of notify is for: one audited project, or the server-wide findings. */
export type NotifyScope = {kind: 'project'; id: number} | {kind: 'server'}

export interface NotifyMarker {
  scope: NotifyScope
  /** `sha256:<hex>` of the findings described, or `none` (the issue says none is left). */
  findings: string
}

const MARKER = /<!-- onedev-audit:notify (project=(\d{1,15})|server) findings=(none|sha256:[0-9a-f]{64}) -->/

/**
 * The titles of notify's issues: constant, so a run finds its issue again by title when someone
 * removed the marker, and with no server string in them.
 */
export const ISSUE_TITLES: Readonly<Record<NotifyScope['kind'], string>> = {
  project: "onedev-audit: security findings in this project's settings",
  server: "onedev-audit: security findings in the server's settings",
}

/** What every title of notify contains (the issue query asks for it). */
export const TITLE_PREFIX = 'onedev-audit: security findings'

/** The text notify searches for in descriptions (a prefix of every marker). */
export const MARKER_PREFIX = 'onedev-audit:notify'

/** The marker as an HTML comment: kept in the description's source, left out of the page OneDev renders. */
export function formatMarker(marker: NotifyMarker): string {
  const scope = marker.scope.kind === 'project' ? `project=${marker.scope.id}` : 'server'
  return `<!-- ${MARKER_PREFIX} ${scope} findings=${marker.findings} -->`
}

/** The first marker in a description, or null. */
export function parseMarker(description: string): NotifyMarker | null {
  const match = MARKER.exec(description)
  if (!match) return null
  const scope: NotifyScope = match[2] === undefined ? {kind: 'server'} : {kind: 'project', id: Number(match[2])}
  return {scope, findings: match[3]!}
}

export function sameScope(a: NotifyScope, b: NotifyScope): boolean {
  return a.kind === 'server' ? b.kind === 'server' : b.kind === 'project' && a.id === b.id
}

const integer = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null)

/** One item of the issue listing; null when it has no id. */
export function parseIssue(item: unknown): ServerIssue | null {
  if (!isObject(item)) return null
  const id = integer(item['id'])
  if (id === null) return null
  return {
    id,
    number: integer(item['number']),
    projectId: integer(item['projectId']),
    title: typeof item['title'] === 'string' ? item['title'] : '',
    description: typeof item['description'] === 'string' ? item['description'] : '',
    state: typeof item['state'] === 'string' ? item['state'] : '',
    confidential: item['confidential'] === true,
    submitterId: integer(item['submitterId']),
  }
}

/**
 * The id in an account as `GET /users/me` answers it: the User entity (8.0.0 to 11.7.x) or UserData
 * (12.0.0 and later), both with `id`; null for the answers without one (ProfileData, 11.8.0 to 11.9.x;
 * BasicSetting, 11.10.0 to 11.11.4: v11.11.4 server-core/src/main/java/io/onedev/server/rest/resource/UserResource.java:89-98,580-596).
 */
export function parseAccountId(payload: unknown): number | null {
  return isObject(payload) ? integer(payload['id']) : null
}

/** The issue listing: its issues, and how many items were not issues (no id). null when it is not a list. */
export function parseIssueList(payload: unknown): {issues: ServerIssue[]; invalid: number} | null {
  if (!Array.isArray(payload)) return null
  const issues: ServerIssue[] = []
  let invalid = 0
  for (const item of payload) {
    const issue = parseIssue(item)
    if (issue) issues.push(issue)
    else invalid++
  }
  return {issues, invalid}
}

/** The id POST /issues answers (a JSON number, or the number as text); null when it is not one. */
export function parseCreatedId(text: string): number | null {
  const trimmed = text.trim()
  if (!/^\d{1,15}$/.test(trimmed)) return null
  return Number(trimmed)
}
