/**
 * The API prefix of the HTTP client: the one given, or the one the first request finds
 * (ClientOptions.apiPrefix): the contract's `/api` first, then, when it answers a web page, the
 * `/~api` of current servers; one probe, however many requests start at once.
 */
import type {AuditError} from '../model/types.js'
import {oneLine} from '../util/escape.js'
import {type Answer, isHtml} from './client-answer.js'
import type {Exchange} from './client-attempt.js'
import type {Sender, Sent} from './client-retry.js'
import type {SecretMask} from './client-secret.js'
import {ApiError, type ClientOptions, failureReason} from './types.js'

/** The contract's prefix: tried first when none is given. */
export const CONTRACT_API_PREFIX = '/api'
/** Where every current OneDev server answers (onedev-reference.md §1.1): tried when the contract's gives a web page. */
export const CURRENT_API_PREFIX = '/~api'

/** `~api/` → `/~api`, `` → ``, `//api//` → `/api`. */
export function normalizeApiPrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+/, '').replace(/\/+$/, '')
  return trimmed === '' ? '' : `/${trimmed}`
}

/**
 * A web page where the API should answer: an HTML page, or a redirect (as to a login page); the API
 * never answers either. Answers that mean the same under any prefix (401 and 403 are about the
 * credentials; 429 and 5xx about the server's state) are not judged.
 */
function webPage(answer: Answer): string | undefined {
  if (answer.status >= 500 || [204, 401, 403, 429].includes(answer.status)) return undefined
  if (isHtml(answer, !/\bjson\b/i.test(answer.contentType))) return 'an HTML page'
  return answer.status >= 300 && answer.status < 400 ? 'a redirect' : undefined
}

/** Where requests go: the prefix, probed by the first request when none was given. */
export class ApiPrefix {
  /** The prefix requests go to: the given one, or what the probe settled on (`/api` until it does). */
  current: string
  private readonly probing: boolean
  // The prefix probe (ClientOptions.apiPrefix): 'idle' until the first request, which probes;
  // requests started meanwhile wait for `probed`. `noApi` is the error of a probe that found neither.
  private probeState: 'idle' | 'running' | 'settled'
  private probed: Promise<void> = Promise.resolve()
  private noApi: AuditError | undefined
  /**
   * The probe judged /api on an answer that tells (not a connection failure, 429 or 5xx). Without one,
   * the run stays on /api without a second try, and an HTML page later still suggests /~api.
   */
  private probeJudged = false

  constructor(
    private readonly options: Pick<ClientOptions, 'apiPrefix' | 'onPrefixFound'>,
    private readonly sender: Sender,
    private readonly mask: SecretMask,
  ) {
    this.probing = options.apiPrefix === undefined
    this.current = normalizeApiPrefix(options.apiPrefix ?? CONTRACT_API_PREFIX)
    this.probeState = this.probing ? 'idle' : 'settled'
  }

  /** `path` under `under` (the current prefix by default). */
  fullPath(path: string, under = this.current): string {
    return under + (path.startsWith('/') ? path : `/${path}`)
  }

  /**
   * Every request goes through here. Without a given prefix, the first one probes it (see
   * ClientOptions.apiPrefix) and the others wait for the outcome: one probe, however many start at once.
   */
  exchange(request: Exchange): Promise<Sent> {
    return this.probeState === 'settled' && this.noApi === undefined ? this.sender.send(request, this.fullPath(request.path)) : this.exchangeWhileProbing(request)
  }

  /** What an HTML page where the API should answer suggests, as far as the prefix goes. */
  htmlPageHint(): string {
    // After a probe judged /api to be the API, this page is something else (a login page, a proxy).
    // A given prefix that is neither of OneDev's is probably the mistake: say where OneDev answers.
    const prefix = this.current
    return prefix === CONTRACT_API_PREFIX && !(this.probing && this.probeJudged)
      ? 'this is what a wrong API prefix gives: current OneDev servers need --api-prefix /~api'
      : !this.probing && prefix !== CURRENT_API_PREFIX
        ? `nothing answers like the API under the given prefix "${oneLine(prefix, 100)}": current OneDev servers answer under ${CURRENT_API_PREFIX} and the contract under ${CONTRACT_API_PREFIX}; leave out --api-prefix and ONEDEV_API_PREFIX and the audit finds it`
        : 'check the server URL and --api-prefix (a login page or a proxy may be answering instead of the API)'
  }

  private async exchangeWhileProbing(request: Exchange): Promise<Sent> {
    if (this.probeState === 'idle') {
      this.probeState = 'running'
      let settle = () => {}
      this.probed = new Promise<void>((resolve) => (settle = resolve))
      try {
        return await this.probe(request)
      } finally {
        this.probeState = 'settled'
        settle()
      }
    }
    if (this.probeState === 'running') await this.probed
    // Not sent: the probe found no API. The error is the probe's, with this request's path.
    if (this.noApi) throw this.mask.fail({...this.noApi, path: this.fullPath(request.path)})
    return this.sender.send(request, this.fullPath(request.path))
  }

  /** Sends under the contract's prefix; on a web page, once more under the current servers' one. */
  private async probe(request: Exchange): Promise<Sent> {
    const tried = this.current
    const first = await this.sender.send(request, this.fullPath(request.path, tried))
    this.probeJudged = first.answer.status < 500 && first.answer.status !== 429
    const firstPage = webPage(first.answer)
    if (firstPage === undefined) return first
    const firstTry = `${request.method} ${first.path} answered ${firstPage} (status ${first.answer.status})`
    const alternative = CURRENT_API_PREFIX
    const at = this.fullPath(request.path, alternative)
    let second: Sent
    try {
      second = await this.sender.send(request, at)
    } catch (error) {
      if (error instanceof ApiError && error.error.kind === 'interrupted') throw error
      const reason = error instanceof ApiError ? failureReason(error.error) : 'request failed'
      throw this.mask.fail((this.noApi = this.neitherError(first, `${firstTry}, and ${request.method} ${at} failed: ${reason}`)))
    }
    const secondPage = webPage(second.answer)
    if (secondPage !== undefined) {
      throw this.mask.fail((this.noApi = this.neitherError(first, `${firstTry}, and ${request.method} ${at} answered ${secondPage} (status ${second.answer.status})`)))
    }
    this.current = alternative
    this.options.onPrefixFound?.({tried, answered: firstPage, using: alternative})
    return second
  }

  private neitherError(first: Sent, tries: string): AuditError {
    return {
      kind: 'not-json',
      message: `${tries}: neither is OneDev's REST interface; check --url (the server's base URL, e.g. https://onedev.example.com), or give the prefix with --api-prefix`,
      path: first.path,
      status: first.answer.status,
    }
  }
}
