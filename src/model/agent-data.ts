/**
 * Typed views of the build agents and their tokens in the server data document (model.serverData,
 * redacted at ingest: a token's `value` never reaches it). Read by src/api/agent-data.ts.
 *
 * What OneDev answers (the same from v8.0.0 to v16.5.6, admin only, paged with offset and count ≤ 100):
 * - `GET /agent-tokens` → `[{id, value}]` (v16.5.6 server-core/src/main/java/io/onedev/server/model/AgentToken.java:22-25;
 *   v8.0.0 the same class, whose `agents` list is @OneToMany and not written);
 * - `GET /agents` → `[{id, tokenId, name, ipAddress, osName, osVersion, osArch, cpuCount, paused, online}]`
 *   (v16.5.6 server-core/src/main/java/io/onedev/server/model/Agent.java:102-136, `online` from `isOnline` :225-235);
 *   v8.x writes `cpus`, `temporal` and `lastUsedDate` instead of `cpuCount` and `online` (v8.0.0 Agent.java:68-101).
 *
 * A token is in use when an agent row references it (`tokenId`), as OneDev's own "Available Agent
 * Tokens" list decides (v16.5.6 server-core/src/main/java/io/onedev/server/service/impl/DefaultAgentTokenService.java:42-47;
 * v8.0.0 server-core/src/main/java/io/onedev/server/entitymanager/impl/DefaultAgentTokenManager.java:37-39).
 */
import type {z} from 'zod'

import * as checks from './payload-checks.js'
import {parser, storedItems} from './parser.js'
import type * as S from './server-schemas.js'
import type {AuditModel} from './types.js'

export const AGENTS_KEY = 'agents'
export const AGENT_TOKENS_KEY = 'agent-tokens'

type Model = Pick<AuditModel, 'serverData'>

export interface AgentToken {
  /** `/agent-tokens/<index>`. */
  pointer: string
  /** The token's id: its only name (OneDev shows tokens by value, which the audit never keeps). */
  id: number
}

export interface Agent {
  /** `/agents/<index>`. */
  pointer: string
  name: string
  /** The token it connects with; null when the payload has none. */
  tokenId: number | null
  /** v8.x: a temporal agent's row is deleted when it disconnects (v8.0.0 server-core/src/main/java/io/onedev/server/entitymanager/impl/DefaultAgentManager.java:235-245). */
  temporal: boolean
}

const TokenSchema = parser<z.infer<typeof S.AgentTokenSchema>>(checks.isAgentToken)
const AgentSchema = parser<z.infer<typeof S.AgentSchema>>(checks.isAgent)

/** GET /agent-tokens, in the server's order; undefined when not read. */
export function agentTokensOf(model: Model): AgentToken[] | undefined {
  return storedItems(model.serverData, AGENT_TOKENS_KEY, TokenSchema)?.map(({item, pointer}) => ({pointer, id: item.id}))
}

/** GET /agents, in the server's order; undefined when not read. */
export function agentsOf(model: Model): Agent[] | undefined {
  return storedItems(model.serverData, AGENTS_KEY, AgentSchema)?.map(({item, index, pointer}) => ({
    pointer,
    name: item.name ?? `#${item.id ?? index + 1}`,
    tokenId: item.tokenId ?? null,
    temporal: item.temporal ?? false,
  }))
}
