/**
 * What the parts of one collection share (collect.ts makes it once per collection): the client, the
 * requests' limiter and endpoint verdicts, the error log, the projects known and audited, and the
 * endpoints found not offered.
 */
import type {CollectionErrors} from './collect-errors.js'
import type {ProjectFacts} from './collect-listings.js'
import type {CollectionRequests} from './collect-requests.js'
import type {NotEvaluatedLog} from './optional.js'
import type {ApiClient} from './types.js'

export interface CollectionContext {
  readonly client: ApiClient
  readonly requests: CollectionRequests
  readonly errors: CollectionErrors
  readonly facts: ProjectFacts
  readonly notEvaluated: NotEvaluatedLog
}
