/**
 * How a collection sends its requests. Every request takes a slot of one limiter: at most
 * `concurrency` in flight, whatever asks; the pages of the listings go first (they feed the rest).
 * Once the collection stopped (401, Ctrl-C), queued requests are not sent: they fail as
 * `interrupted`, which is never recorded on its own. What a failure teaches (credentials refused, an
 * endpoint the server lacks) is learnt inside the slot, before the next queued request starts.
 *
 * Endpoints outside the contract (repository, access and administration endpoints): whether the
 * server offers each is learnt from its own answers, one verdict per endpoint template (optional.ts,
 * EndpointVerdict); a request waiting for that verdict holds no slot (askEndpoint).
 */
import {createLimiter, type Limiter} from '../util/limit.js'
import {type AskAnotherSubject, EndpointVerdict} from './optional.js'
import {ApiError, type ApiClient, type Schedule} from './types.js'

/** A request not sent: its endpoint is known not to be offered. */
export const SKIPPED = Symbol('skipped')
/** A request that found another one had taken its turn while it waited for a slot: it waits again. */
const AGAIN = Symbol('again')

/** What a request for an endpoint whose offer is being learnt (EndpointVerdict) comes to. */
export type EndpointAnswer<T> = {value: T} | {miss: ApiError} | typeof SKIPPED

export class CollectionRequests {
  /** The collection stopped (credentials refused, interrupted): nothing new is sent. */
  stopped = false
  private readonly limit: Limiter
  private readonly verdicts = new Map<string, EndpointVerdict>()

  constructor(
    private readonly client: ApiClient,
    concurrency: number,
  ) {
    this.limit = createLimiter(concurrency)
  }

  stop(): void {
    this.stopped = true
  }

  /** Runs `request` unless the collection stopped (then it fails as `interrupted`, unsent); a 401 stops the collection. */
  send<T>(request: () => Promise<T>): Promise<T> {
    if (this.stopped) return Promise.reject(new ApiError({kind: 'interrupted', message: 'not sent: the collection stopped'}))
    return request().catch((error: unknown) => {
      if (error instanceof ApiError && error.error.kind === 'auth') this.stopped = true
      throw error
    })
  }

  /** GET's parsed JSON; the slot is held until the answer is read, not while its body is parsed (getJson's schedule). */
  get(path: string): Promise<unknown> {
    return this.client.getJson(path, undefined, (request) => this.limit(() => this.send(request)))
  }

  /** Listing pages go before every queued project request: the listing feeds the pipeline. */
  readonly listingPage: Schedule = (request) => this.limit(() => this.send(request), {priority: true})

  /** The verdict of an endpoint template, made on its first use. */
  verdictOf(endpoint: string, askAnotherSubject: AskAnotherSubject): EndpointVerdict {
    let verdict = this.verdicts.get(endpoint)
    if (!verdict) this.verdicts.set(endpoint, (verdict = new EndpointVerdict(endpoint, askAnotherSubject)))
    return verdict
  }

  /** The verdict of an endpoint template, when it was asked. */
  verdict(endpoint: string): EndpointVerdict | undefined {
    return this.verdicts.get(endpoint)
  }

  /**
   * One request for an endpoint whose offer is being learnt: its value; SKIPPED when the endpoint is
   * known not to be offered; or the miss (a no-resource answer), for the caller to judge once the
   * verdict is known (`verdict.settled()`, awaited outside the slot). Other failures throw.
   */
  async askEndpoint<T>(verdict: EndpointVerdict, path: string, request: () => Promise<T>, followUp: boolean): Promise<EndpointAnswer<T>> {
    // Known not to be offered: not even a slot of the limiter (thousands of projects may ask).
    if (!verdict.ask(path)) return SKIPPED
    for (;;) {
      // While a miss is unexplained, the requests after it wait for their turn here, holding no slot.
      await verdict.turn()
      const answer = await this.limit(async (): Promise<EndpointAnswer<T> | typeof AGAIN> => {
        const admission = verdict.admit()
        if (admission === 'skip') return SKIPPED
        if (admission === 'wait') return AGAIN
        try {
          const value = await this.send(request)
          verdict.answered()
          return {value}
        } catch (error) {
          if (error instanceof ApiError && error.noResource) {
            verdict.missed(error.error.status ?? 404)
            return {miss: error}
          }
          verdict.failed()
          throw error
        }
      }, {followUp})
      if (answer !== AGAIN) return answer
    }
  }
}
