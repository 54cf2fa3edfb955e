/**
 * Which agent tokens no agent uses, as OneDev's own "Available Agent Tokens" list decides: every
 * token no agent row references (v16.5.6 server-core/src/main/java/io/onedev/server/service/impl/DefaultAgentTokenService.java:42-47;
 * v8.0.0 server-core/src/main/java/io/onedev/server/entitymanager/impl/DefaultAgentTokenManager.java:37-39).
 * Such a token still connects an agent: any machine presenting it registers as a new agent and is
 * handed jobs (v16.5.6 server-core/src/main/java/io/onedev/server/service/impl/DefaultAgentService.java:180-184:
 * a token no agent has creates one; v8.0.0 server-core/src/main/java/io/onedev/server/entitymanager/impl/DefaultAgentManager.java:180-194).
 * On 8.x a temporal agent's row is deleted when it disconnects (v8.0.0 DefaultAgentManager.java:235-245),
 * so its token counts as unused while it is offline, in OneDev's list as here.
 */
import type {Agent, AgentToken} from '../model/agent-data.js'

/** The tokens no agent references, in the server's order. */
export function unusedAgentTokens(tokens: readonly AgentToken[], agents: readonly Pick<Agent, 'tokenId'>[]): AgentToken[] {
  const used = new Set(agents.flatMap((agent) => (agent.tokenId === null ? [] : [agent.tokenId])))
  return tokens.filter((token) => !used.has(token.id))
}
