import rule from '../../../rules/server/agent-token-unused.js'
import {ruleTester} from '../../helpers/rule-tester.js'
import {agent16, agent8, agentToken} from '../../helpers/server-payloads.js'
import {serverModel} from './helpers.js'

ruleTester(rule, {
  valid: [
    {name: 'an agent token in use (16.x)', model: serverModel({'/agent-tokens': [agentToken(1, 'a1b2c3d4-0000-4000-8000-000000000001')], '/agents': [agent16(7, 1, 'builder-1')]})},
    {name: 'no token at all', model: serverModel({'/agent-tokens': [], '/agents': []})},
    {name: 'tokens read, agents not read: nothing judged', model: serverModel({'/agent-tokens': [agentToken(1, 'x')]})},
    {name: 'agents read, tokens not read', model: serverModel({'/agents': [agent16(7, 1, 'builder-1')]})},
    {name: 'two agents on one token (8.0.x: Agent.token is @ManyToOne)', model: serverModel({'/agent-tokens': [agentToken(3, 'x')], '/agents': [agent8(1, 3, 'a'), agent8(2, 3, 'b')]})},
  ],
  invalid: [
    {
      name: '16.x: the token no agent uses, named by its id, once',
      model: serverModel({
        '/agent-tokens': [agentToken(1, 'a1b2c3d4-0000-4000-8000-000000000001'), agentToken(2, 'a1b2c3d4-0000-4000-8000-000000000002')],
        '/agents': [agent16(7, 1, 'builder-1')],
      }),
      findings: [{subject: 'agent token #2', severity: 'medium', pointer: '/agent-tokens/1', messageIncludes: ['used by no agent', 'Administration > Agents > Tokens']}],
    },
    {
      name: '8.0.0: a token of no agent, the other used by a temporal agent',
      model: serverModel({'/agent-tokens': [agentToken(4, 'x'), agentToken(5, 'y')], '/agents': [agent8(1, 5, 'swarm-1', true)]}),
      findings: [{subject: 'agent token #4', pointer: '/agent-tokens/0'}],
    },
  ],
})
