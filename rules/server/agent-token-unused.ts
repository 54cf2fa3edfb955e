/**
 * Agent tokens no agent uses: each lets whoever holds it connect a machine of their own as a build
 * agent, which is then handed jobs and their secrets (src/onedev/agents.ts).
 */
import {defineRule} from '../../src/engine/rule.js'
import {agentsOf, agentTokensOf} from '../../src/model/agent-data.js'
import {unusedAgentTokens} from '../../src/onedev/agents.js'

export default defineRule({
  meta: {
    id: 'server/agent-token-unused',
    shortDescription: 'An agent token no agent uses can still connect a new agent',
    fullDescription:
      'Reports agent tokens that no agent uses (`GET /agent-tokens` against the `tokenId` of every agent of `GET /agents`): the tokens OneDev lists as ' +
      'available under Administration > Agents > Tokens. Any machine that presents one registers as a new agent, and the remote executors whose agent ' +
      'query it satisfies send it jobs, with the job secrets those jobs may read.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'OneDev generates an agent token for each agent that is added (the docker command or the agent package carries it) and keeps every token',
      'until it is deleted. A token no agent uses yet, or one left over from an agent that was removed, still works: whoever finds it in a shell',
      'history, a CI variable or an old docker-compose file starts an agent with it, and OneDev hands that machine the jobs of the remote executors',
      'whose agent query it satisfies (an empty query takes any agent), with the secrets those jobs may read.',
      '',
      'On OneDev 8.x a *temporal* agent (run in a Docker swarm) is deleted when it disconnects, so its token shows as unused while it is',
      'offline, in OneDev\'s own list as here.',
      '',
      '## Fix',
      'In OneDev open *Administration → Agents*, click *Tokens*: the list *Available Agent Tokens* holds exactly the tokens no agent uses.',
      'Delete the ones no agent is about to use (*Delete All* removes every one), and generate a token only when an agent is added.',
      '',
      '## In OneDev\'s source',
      '- v16.5.6 `server-core/src/main/java/io/onedev/server/rest/resource/AgentTokenResource.java:70-87` (`GET /agent-tokens`), `AgentResource.java:67-79` (`GET /agents`);',
      '  v8.0.0 `server-core/src/main/java/io/onedev/server/rest/AgentTokenResource.java:64-82`, `AgentResource.java:65-85`.',
      '- The token an agent uses is `Agent.token`, written `tokenId` (v16.5.6 `server-core/src/main/java/io/onedev/server/model/Agent.java:102-104`).',
      '- Unused tokens: v16.5.6 `server-core/src/main/java/io/onedev/server/service/impl/DefaultAgentTokenService.java:42-47`; a token no agent has creates one:',
      '  `DefaultAgentService.java:180-184`; temporal agents of 8.x: v8.0.0 `server-core/src/main/java/io/onedev/server/entitymanager/impl/DefaultAgentManager.java:235-245`.',
      '',
      '## Example',
      '```json',
      '// GET /agent-tokens: [{"id": 1, "value": "…"}, {"id": 2, "value": "…"}]',
      '// GET /agents:       [{"id": 7, "tokenId": 1, "name": "builder-1", …}]',
      '// → token #2 is reported; token #1 is in use by builder-1',
      '```',
    ].join('\n'),
    tags: ['server', 'ci', 'agents', 'credentials'],
    scope: 'server',
    requires: ['/agent-tokens', '/agents'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const tokens = agentTokensOf(context.model)
    const agents = agentsOf(context.model)
    if (!tokens || !agents) return []
    return unusedAgentTokens(tokens, agents).map((token) => ({
      subject: `agent token #${token.id}`,
      message:
        `Agent token #${token.id} is used by no agent, but still connects one: whoever holds it can register a machine of their own as an agent and be sent jobs and their secrets. ` +
        'Delete it in Administration > Agents > Tokens unless an agent is about to use it.',
      pointer: token.pointer,
      key: String(token.id),
    }))
  },
})
