/**
 * The requests an ApiClient makes (getJson, getText, postText), each sent under the API prefix
 * (client-prefix.ts) and judged on its answer (client-answer.ts): what a success must be (a 200 of
 * JSON or text, not a web page; a 204 where it means nothing), and the error of anything else.
 */
import {MAX_SERVER_DEPTH, nestedDeeper} from '../util/json.js'
import {type AnswerErrors, isHtml} from './client-answer.js'
import type {ApiPrefix} from './client-prefix.js'
import type {SecretMask} from './client-secret.js'
import {type Query, type Schedule, tooDeepError} from './types.js'

export class Requests {
  constructor(
    private readonly prefix: ApiPrefix,
    private readonly errors: AnswerErrors,
    private readonly mask: SecretMask,
    private readonly maxBodyBytes: number,
  ) {}

  async getJson(path: string, query?: Query, schedule?: Schedule): Promise<unknown> {
    return (await this.getJsonSized(path, query, schedule)).value
  }

  /**
   * getJson, with the size of the body it parsed. The slot `schedule` gives is held until the answer
   * is read and its status judged, not while it is decoded and parsed.
   */
  async getJsonSized(path: string, query?: Query, schedule: Schedule = (request) => request()): Promise<{value: unknown; bytes: number}> {
    const {answer, path: at} = await schedule(async () => {
      const exchanged = await this.prefix.exchange({method: 'GET', path, query, limit: this.maxBodyBytes})
      if (exchanged.answer.status !== 200) throw this.errors.failedAnswer('GET', exchanged.path, exchanged.answer, path)
      if (isHtml(exchanged.answer, true)) throw this.mask.fail(this.errors.htmlError('GET', exchanged.path, exchanged.answer))
      return exchanged
    })
    const text = this.errors.textOf('GET', at, answer)
    let value: unknown
    try {
      // An empty or blank body is no JSON either: JSON.parse refuses it.
      value = JSON.parse(text)
    } catch {
      throw this.mask.fail({
        kind: 'not-json',
        message: `GET ${at}: status 200 but the body is not valid JSON (truncated, or not an API answer)`,
        path: at,
        status: 200,
      })
    }
    if (nestedDeeper(value, MAX_SERVER_DEPTH)) throw this.mask.fail(tooDeepError('GET', at, 200, MAX_SERVER_DEPTH))
    return {value, bytes: answer.body.length}
  }

  async getText(path: string, query?: Query, mask?: readonly string[]): Promise<string | null> {
    const {answer, path: at} = await this.prefix.exchange({method: 'GET', path, query, limit: this.maxBodyBytes})
    if (answer.status === 204) return null
    if (answer.status !== 200) throw this.errors.failedAnswer('GET', at, answer, path, mask)
    if (isHtml(answer, false)) throw this.mask.fail(this.errors.htmlError('GET', at, answer))
    return this.errors.textOf('GET', at, answer)
  }

  /** POSTs `body` as it is (JSON text, or a raw string a resource takes whole) and returns the answer's text. */
  async postText(path: string, body: string, mask?: readonly string[]): Promise<string> {
    const {answer, path: at} = await this.prefix.exchange({method: 'POST', path, body, limit: this.maxBodyBytes})
    if (answer.status !== 200 && answer.status !== 204) throw this.errors.failedAnswer('POST', at, answer, path, mask)
    // A web page answering 200 (a wrong prefix reaching the web UI) did not take the body.
    if (answer.status === 200 && isHtml(answer, false)) throw this.mask.fail(this.errors.htmlError('POST', at, answer))
    return answer.body.length === 0 ? '' : this.errors.textOf('POST', at, answer)
  }

  async postJson(path: string, body: unknown, mask?: readonly string[]): Promise<void> {
    await this.postText(path, JSON.stringify(body), mask)
  }
}
