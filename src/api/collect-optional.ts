/**
 * The optional data sources of a collection (the fetchers data-sources.ts lists, optional.ts's
 * interface): what they ask for through OptionalFetch.get is read here, once per path whichever
 * source asks, and lands, redacted, in one server data document keyed by path. An endpoint the
 * server does not offer (its verdict: optional.ts, EndpointVerdict) is recorded once as not
 * evaluated, never as passed; a miss when it answered for other subjects, and any other failure,
 * is the error of what it was asked for. Server-wide requests go before projects not started yet
 * (projects judged on arrival wait for that data).
 */
import type {ProjectRef} from '../model/ingest.js'
import {redactServerPayload} from '../model/redact.js'
import {bareText} from '../model/server-version.js'
import type {ServerData} from '../model/types.js'
import {MAX_SERVER_DEPTH, nestedDeeper} from '../util/json.js'
import type {CollectionContext} from './collect-context.js'
import {Group} from './collect-errors.js'
import {SKIPPED} from './collect-requests.js'
import {type AskAnotherSubject, type EndpointVerdict, NO_OTHER_SUBJECT, type OptionalFetch, type OptionalGet} from './optional.js'
import {ApiError, tooDeepError} from './types.js'

/** A JSON body read as text (so that 204 is told apart); an ApiError naming the path when it is not JSON. */
function parseOptionalJson(text: string, path: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ApiError({kind: 'not-json', message: `GET ${path}: the answer is not valid JSON`, path})
  }
  if (nestedDeeper(value, MAX_SERVER_DEPTH)) throw new ApiError(tooDeepError('GET', path, 200, MAX_SERVER_DEPTH))
  return value
}

const requestKey = (path: string, spec: OptionalGet) => `${spec.paged ? 'paged' : 'get'} ${path}`

export class OptionalData {
  /** The payloads, redacted, by path without its leading slash. */
  readonly serverData: ServerData = {}
  /** State the fetchers of this collection share (e.g. one users listing for every project). */
  private readonly shared = new Map<string, unknown>()
  /** Two data sources asking for the same path (e.g. /settings/security) share one request. */
  private readonly optionalRequests = new Map<string, Promise<unknown>>()

  constructor(private readonly collection: CollectionContext) {}

  /** What a fetcher asks through: its failures are recorded in `group`, with `project` when it reads one project's data. */
  fetchFor(group: Group, project?: ProjectRef): OptionalFetch {
    return {
      shared: this.shared,
      get: (path: string, spec: OptionalGet): Promise<unknown> => {
        const key = requestKey(path, spec)
        let pending = this.optionalRequests.get(key)
        if (!pending) {
          pending = this.read(path, spec, group, project)
          this.optionalRequests.set(key, pending)
        }
        return pending
      },
    }
  }

  /** The payload at `path`, or at the first of its fallbacks the server offers; undefined when none is offered (recorded as not evaluated) or the request failed (recorded as an error). */
  private async read(path: string, spec: OptionalGet, group: Group, project: ProjectRef | undefined): Promise<unknown> {
    // With fallbacks, the endpoint is recorded (and known) under all its names at once.
    const endpoint = [spec.endpoint, ...(spec.fallbacks ?? []).map((fallback) => fallback.endpoint)].join(' or ')
    // Only a per-project endpoint has other subjects the collection can name (audited projects).
    const askAnother = spec.fallbacks === undefined && spec.endpoint.startsWith('/projects/{id}/') ? this.askProjectEndpointOfAnother(spec) : NO_OTHER_SUBJECT
    const candidates = [{path, endpoint: spec.endpoint}, ...(spec.fallbacks ?? [])]
    let asked = path
    try {
      for (const candidate of candidates) {
        asked = candidate.path
        const answer = await this.request(asked, spec, this.collection.requests.verdictOf(candidate.endpoint, askAnother), group === Group.Server)
        if (answer !== 'not offered') return answer.value
      }
      this.collection.notEvaluated.add({endpoint, status: this.collection.requests.verdictOf(candidates.at(-1)!.endpoint, askAnother).status, checks: spec.checks})
    } catch (error) {
      this.collection.errors.recordFailure(group, error, `reading ${asked} failed`, project)
    }
    return undefined
  }

  /**
   * One GET of an optional endpoint: the redacted payload, or `not offered` (its verdict). Other
   * failures throw, and so does a miss for an endpoint that answered other requests: the failure of
   * what it was asked for (a group, a user or a project deleted during the audit).
   * `followUp`: the server-wide data goes before projects not started yet (projects judged on arrival wait for it).
   */
  private async request(path: string, spec: OptionalGet, verdict: EndpointVerdict, followUp: boolean): Promise<{value: unknown} | 'not offered'> {
    const read = (text: string | null) => (text === null ? null : spec.text ? bareText(text) : parseOptionalJson(text, path))
    const client = this.collection.client
    const answer = await this.collection.requests.askEndpoint(verdict, path, () => (spec.paged ? client.paged(path) : client.getText(path).then(read)), followUp)
    if (answer === SKIPPED) return 'not offered'
    if ('miss' in answer) {
      if ((await verdict.settled()) === 'not offered') return 'not offered'
      throw answer.miss
    }
    const key = path.replace(/^\/+/, '')
    const redacted = redactServerPayload(key, answer.value, true)
    this.serverData[key] = redacted
    return {value: redacted}
  }

  /**
   * After a miss of a per-project endpoint (`/projects/{id}/...`): the same endpoint for an audited
   * project that has not asked it yet, as its own request (its fetchers share it later).
   */
  private askProjectEndpointOfAnother(spec: OptionalGet): AskAnotherSubject {
    const pathOf = (id: number) => spec.endpoint.replace('{id}', String(id))
    return () =>
      this.collection.facts.askAnotherAudited(
        (id) => !this.collection.requests.verdict(spec.endpoint)?.hasAsked(pathOf(id)),
        (id) => this.fetchFor(Group.Project, {id, path: this.collection.facts.known.get(id)?.path ?? String(id)}).get(pathOf(id), spec),
      )
  }
}
