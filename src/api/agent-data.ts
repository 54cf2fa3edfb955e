/**
 * Build agents and their tokens (issue 34): `GET /agent-tokens` and `GET /agents`, admin only, paged
 * with offset and count (v8.0.0 server-core/src/main/java/io/onedev/server/rest/AgentTokenResource.java:64-82,
 * AgentResource.java:65-85; v16.5.6 server-core/src/main/java/io/onedev/server/rest/resource/AgentTokenResource.java:70-87,
 * AgentResource.java:67-79). Two requests per hundred tokens and agents, none per project. Optional:
 * a server that does not offer one makes the check that needs it not evaluated. A token's value is
 * a live credential (whoever holds it connects an agent): it is redacted as it arrives and never
 * stored (src/model/redact.ts); the typed views are in src/model/agent-data.ts.
 */
import {HARDENING_ENDPOINTS} from '../model/endpoints.js'
import type {OptionalFetch} from './optional.js'

const CHECKS = 'agent token checks (server/agent-token-unused)'

export const AGENT_TOKENS = {endpoint: HARDENING_ENDPOINTS.agentTokens, checks: CHECKS, paged: true}
export const AGENTS = {endpoint: HARDENING_ENDPOINTS.agents, checks: CHECKS, paged: true}

/** The agent tokens, and the agents that use them. */
export async function fetchAgents(fetch: OptionalFetch): Promise<void> {
  await Promise.all([fetch.get(AGENT_TOKENS.endpoint, AGENT_TOKENS), fetch.get(AGENTS.endpoint, AGENTS)])
}
