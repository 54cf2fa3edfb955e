/**
 * What the audit read from the server but cannot understand. A setting that is not of the shape the
 * audit knows is unreadable, and the checks that need it are not evaluated. A listing can also have
 * items of another shape: those items are left out, and the rest is judged. The views in
 * access-data.ts, admin-data.ts, agent-data.ts and mail-data.ts use the same checks; this module finds what they would drop
 * silently, so that the report says so and nothing passes by default.
 */
import {SECURITY_KEY, GROUPS_KEY, USERS_KEY} from './access-data.js'
import {AUTHENTICATOR_KEY, GROOVY_SCRIPTS_KEY, JOB_EXECUTORS_KEY, SSO_CONNECTORS_KEY, SSO_PROVIDERS_KEY, SYSTEM_KEY} from './admin-data.js'
import {AGENT_TOKENS_KEY, AGENTS_KEY} from './agent-data.js'
import {MAIL_KEY, MAIL_SERVICE_KEY, SERVICE_DESK_KEY} from './mail-data.js'
import * as checks from './payload-checks.js'
import {hasOwn} from './parser.js'
import {typedCheck} from './polymorphic.js'
import type {ServerData} from './types.js'

type Check = (value: unknown) => boolean

interface Shape {
  /** A whole setting (`object`; `object-or-null`: null is the server's "none"), or a listing of items. */
  kind: 'object' | 'object-or-null' | 'list'
  check: Check
}

const EXACT: Record<string, Shape> = {
  [SECURITY_KEY]: {kind: 'object', check: checks.isSecurity},
  [SYSTEM_KEY]: {kind: 'object', check: checks.isSystem},
  [AUTHENTICATOR_KEY]: {kind: 'object-or-null', check: typedCheck(checks.isAuthenticator)},
  [JOB_EXECUTORS_KEY]: {kind: 'list', check: typedCheck(checks.isExecutor)},
  [GROOVY_SCRIPTS_KEY]: {kind: 'list', check: checks.isGroovy},
  [SSO_PROVIDERS_KEY]: {kind: 'list', check: checks.isProvider},
  [SSO_CONNECTORS_KEY]: {kind: 'list', check: checks.isConnector},
  [GROUPS_KEY]: {kind: 'list', check: checks.isGroup},
  [USERS_KEY]: {kind: 'list', check: checks.isUser},
  [AGENTS_KEY]: {kind: 'list', check: checks.isAgent},
  [AGENT_TOKENS_KEY]: {kind: 'list', check: checks.isAgentToken},
  [MAIL_SERVICE_KEY]: {kind: 'object-or-null', check: checks.isMail},
  [MAIL_KEY]: {kind: 'object-or-null', check: checks.isMail},
  [SERVICE_DESK_KEY]: {kind: 'object-or-null', check: checks.isServiceDesk},
}

const PATTERNS: Array<{key: RegExp; shape: Shape}> = [
  {key: /^users\/\d+$/, shape: {kind: 'object', check: checks.isUser}},
  {key: /^users\/\d+\/access-tokens$/, shape: {kind: 'list', check: checks.isToken}},
  {key: /^groups\/\d+\/memberships$/, shape: {kind: 'list', check: checks.isMembership}},
  {key: /^(groups|users|access-tokens)\/\d+\/authorizations$/, shape: {kind: 'list', check: checks.isAuthorization}},
  {key: /^projects\/\d+\/(base|group|user)-authorizations$/, shape: {kind: 'list', check: checks.isAuthorization}},
]

export interface UnreadableServerData {
  /** The document's key, which is also its path under the API prefix (`settings/security`). */
  key: string
  /** `whole`: nothing of it could be read. `items`: `unreadable` of its `total` items were left out. */
  extent: 'whole' | 'items'
  unreadable: number
  total: number
}

function shapeOf(key: string): Shape | undefined {
  return hasOwn(EXACT, key) ? EXACT[key] : PATTERNS.find((pattern) => pattern.key.test(key))?.shape
}

/** Each document of the server data that cannot be read whole, or has items that cannot be read, by key. */
export function unreadableServerData(data: ServerData | undefined): UnreadableServerData[] {
  if (!data) return []
  const found: UnreadableServerData[] = []
  for (const key of Object.keys(data).sort()) {
    const shape = shapeOf(key)
    if (!shape) continue
    const value = data[key]
    if (shape.kind !== 'list') {
      const readable = (shape.kind === 'object-or-null' && value === null) || shape.check(value)
      if (!readable) found.push({key, extent: 'whole', unreadable: 1, total: 1})
      continue
    }
    if (!Array.isArray(value)) {
      found.push({key, extent: 'whole', unreadable: 1, total: 1})
      continue
    }
    const unreadable = value.filter((item) => !shape.check(item)).length
    if (unreadable > 0) found.push({key, extent: unreadable === value.length ? 'whole' : 'items', unreadable, total: value.length})
  }
  return found
}
