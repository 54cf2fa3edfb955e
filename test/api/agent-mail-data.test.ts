/**
 * The agent and mail data sources (src/api/agent-data.ts, mail-data.ts) against the loopback server,
 * in the shapes OneDev writes at 16.x and at the oldest release with each endpoint (8.0: agents,
 * tokens, `/settings/mail`, the service desk; 15.1.7: AI settings in the users listing): what they
 * ask (a handful of requests, none per project), what a 404 or 204 means, that what they store is
 * redacted (no token value, password, client secret, refresh token or API key), and what the rules
 * built on them find.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {fetchServerAccess} from '../../src/api/access-data.js'
import {fetchServerHardening} from '../../src/api/admin-data.js'
import {fetchAgents} from '../../src/api/agent-data.js'
import {SERVER_FETCHERS} from '../../src/api/data-sources.js'
import {fetchMail} from '../../src/api/mail-data.js'
import {unreadData, whyNotJudged} from '../../src/engine/availability.js'
import {coverageOf} from '../../src/engine/coverage.js'
import {agentsOf, agentTokensOf} from '../../src/model/agent-data.js'
import {mailServiceOf, serviceDeskOf} from '../../src/model/mail-data.js'
import type {AuditModel} from '../../src/model/types.js'
import {builtinRules as BUILTIN_RULES} from '../../rules/index.js'
import {canary, expectNoCanary, FIXTURES_DIR} from '../helpers/canaries.js'
import type {OneDevServer} from '../helpers/onedev-server.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'
import {serverDataCollector, serverFindings} from '../helpers/server-data.js'
import {agent16, agentToken, aiUser14, aiUser16, gmailConnector16, office365Connector16, otherMailSetting8, smtpImapConnector16} from '../helpers/server-payloads.js'

const CURRENT: Record<string, unknown> = JSON.parse(readFileSync(join(FIXTURES_DIR, 'server', 'admin-current.json'), 'utf8'))
const LEGACY: Record<string, Record<string, unknown>> = JSON.parse(readFileSync(join(FIXTURES_DIR, 'server', 'admin-legacy.json'), 'utf8'))
const NEW_RULES = ['server/agent-token-unused', 'server/mail-plaintext', 'server/service-desk-open', 'server/ai-entitled-to-all', 'server/idp-default-group-privileged']

const collect = serverDataCollector([fetchAgents, fetchMail])

/** The requests of the data sources (without the contract's role listing), as the server saw them. */
const requested = (server: OneDevServer) =>
  server.requests.map((r) => r.path.replace('/~api', '') + (Object.keys(r.query).length > 0 ? `?${new URLSearchParams(r.query)}` : '')).filter((p) => !p.startsWith('/roles'))

const findings = (model: AuditModel) => serverFindings(model, NEW_RULES)

/** rule id → why it was not judged (only the rules that were not). */
function notJudged(model: AuditModel): Record<string, string> {
  const unread = unreadData(model, DEFAULT_SETTINGS, model.errors)
  const out: Record<string, string> = {}
  for (const rule of BUILTIN_RULES.filter((r) => NEW_RULES.includes(r.meta.id))) {
    const why = whyNotJudged(rule.meta, unread, model.serverData)
    if (why !== undefined) out[rule.meta.id] = why
  }
  return out
}

describe('agents, agent tokens, the mail service and the service desk', () => {
  it('16.x: four requests, none per project; stored redacted; the unused token, the IMAP in clear and the open service desk found', async () => {
    const {model, server} = await collect(CURRENT)
    expect(model.errors).toEqual([])
    expect(model.notEvaluated).toEqual([])
    expect(requested(server).sort()).toEqual(['/agent-tokens?offset=0&count=100', '/agents?offset=0&count=100', '/settings/mail-service', '/settings/service-desk'])
    expect(requested(server).filter((p) => p.startsWith('/settings/ssh'))).toEqual([])
    const stored = JSON.stringify(model.serverData)
    expectNoCanary(stored)
    expect(model.serverData?.['agent-tokens']).toEqual([{id: 1, value: '<redacted>'}, {id: 2, value: '<redacted>'}])
    // The agent's token id is kept: it is no secret, and the check joins on it.
    expect((model.serverData?.['agents'] as any[])[0]).toMatchObject({id: 7, tokenId: 1, name: 'builder-1'})
    expect(model.serverData?.['settings/mail-service']).toMatchObject({smtpPassword: '<redacted>', inboxPollSetting: {imapPassword: '<redacted>'}})
    expect(agentTokensOf(model)?.map((t) => t.id)).toEqual([1, 2])
    expect(agentsOf(model)?.map((a) => [a.name, a.tokenId])).toEqual([['builder-1', 1]])
    expect(mailServiceOf(model)).toMatchObject({smtp: {host: 'mail.acme.example', sslType: 'SmtpExplicitSsl'}, imap: {host: 'imap.acme.example', sslType: 'ImapWithoutSsl'}})
    expect(serviceDeskOf(model)?.entries.map((e) => [e.applicableProjects, e.confidential])).toEqual([['acme/app', true], [null, false]])
    expect(findings(model)).toEqual({
      'server/agent-token-unused': ['medium agent token #2'],
      'server/mail-plaintext': ['medium IMAP imap.acme.example'],
      'server/service-desk-open': ['medium service desk entry for any project'],
    })
  })

  it('the safe twins: every token in use, SMTP and IMAP over TLS, a service desk for one project with confidential issues', async () => {
    const {model} = await collect({
      '/agent-tokens': [agentToken(1, 'a'), agentToken(2, 'b')],
      '/agents': [agent16(7, 1, 'builder-1'), agent16(8, 2, 'builder-2')],
      '/settings/mail-service': smtpImapConnector16('SmtpImplicitSsl', 'ImapImplicitSsl', {smtpPassword: 'x', imapPassword: 'y'}),
      '/settings/service-desk': {issueCreationSettings: [{applicableProjects: 'support', confidential: true, issueFields: []}]},
    })
    expect(model.notEvaluated).toEqual([])
    expect(findings(model)).toEqual({})
    expect(Object.keys(notJudged(model)).filter((id) => ['server/agent-token-unused', 'server/mail-plaintext', 'server/service-desk-open'].includes(id))).toEqual([])
  })

  it('204 on the mail service and the service desk: none configured, not enabled; judged, nothing found', async () => {
    const {model} = await collect({...CURRENT, '/settings/mail-service': null, '/settings/service-desk': null})
    expect(model.notEvaluated).toEqual([])
    expect(model.serverData?.['settings/mail-service']).toBeNull()
    expect(mailServiceOf(model)).toBeNull()
    expect(serviceDeskOf(model)).toBeNull()
    expect(findings(model)).toEqual({'server/agent-token-unused': ['medium agent token #2']})
    expect(notJudged(model)['server/mail-plaintext']).toBeUndefined()
  })

  it('Gmail and Office 365: their OAuth client secret and refresh token are stored redacted, and nothing is in clear', async () => {
    for (const connector of [gmailConnector16(canary('gmail-client-secret'), canary('gmail-refresh-token')), office365Connector16(canary('o365-client-secret'), canary('o365-refresh-token'))]) {
      const {model} = await collect({'/settings/mail-service': connector}, [fetchMail])
      expectNoCanary(JSON.stringify(model.serverData))
      expect(model.serverData?.['settings/mail-service']).toMatchObject({clientSecret: '<redacted>', refreshToken: '<redacted>'})
      expect(mailServiceOf(model)).toMatchObject({smtp: null, imap: null})
    }
  })

  it('OneDev 8.0 shapes: /settings/mail after /settings/mail-service answers 404, with no notice; StartTLS off and an open service desk found', async () => {
    const {model, server} = await collect(LEGACY['v8.0.4']!)
    expect(model.errors).toEqual([])
    expect(model.notEvaluated).toEqual([])
    // The fallback is asked only once the first name answered 404.
    expect(requested(server).filter((p) => p.startsWith('/settings/mail'))).toEqual(['/settings/mail-service', '/settings/mail'])
    expect(Object.keys(model.serverData ?? {})).toContain('settings/mail')
    expectNoCanary(JSON.stringify(model.serverData))
    // The temporal agent uses the only token.
    expect(findings(model)).toEqual({
      'server/mail-plaintext': ['medium SMTP mail.acme.example'],
      'server/service-desk-open': ['medium service desk entry for any project'],
    })
  })

  it('OneDev 11.6 shapes: SmtpImapMailService without SSL, a service desk for one project, an unused token', async () => {
    const {model} = await collect(LEGACY['v11.6.16']!)
    expectNoCanary(JSON.stringify(model.serverData))
    expect(findings(model)).toEqual({
      'server/agent-token-unused': ['medium agent token #2'],
      'server/mail-plaintext': ['medium SMTP mail.acme.example'],
    })
  })

  it('404 on every endpoint: each not evaluated once, under its names; the rules are not judged, never passed', async () => {
    const {model, server} = await collect({})
    expect(model.errors).toEqual([])
    expect(model.notEvaluated?.map((n) => [n.endpoint, n.status])).toEqual([
      ['/agent-tokens', 404],
      ['/agents', 404],
      ['/settings/mail-service or /settings/mail', 404],
      ['/settings/service-desk', 404],
    ])
    expect(requested(server).sort()).toEqual(['/agent-tokens?offset=0&count=100', '/agents?offset=0&count=100', '/settings/mail', '/settings/mail-service', '/settings/service-desk'])
    expect(findings(model)).toEqual({})
    expect(notJudged(model)).toMatchObject({
      'server/agent-token-unused': 'GET /agent-tokens: the server does not offer it (404)',
      'server/mail-plaintext': 'GET /settings/mail-service or /settings/mail: the server does not offer it (404)',
      'server/service-desk-open': 'GET /settings/service-desk: the server does not offer it (404)',
    })
    expect(coverageOf(model, DEFAULT_SETTINGS).notices.map((n) => n.message)).toEqual([
      'GET /agent-tokens: the server does not offer it (404), so agent token checks (server/agent-token-unused) were not evaluated',
      'GET /agents: the server does not offer it (404), so agent token checks (server/agent-token-unused) were not evaluated',
      'GET /settings/mail-service or /settings/mail: the server does not offer it (404), so mail transport checks (server/mail-plaintext) were not evaluated',
      'GET /settings/service-desk: the server does not offer it (404), so service desk checks (server/service-desk-open) were not evaluated',
    ])
  })

  it('a service desk entry of another shape makes the whole setting unreadable: not evaluated, nothing passes by the order of what is left', async () => {
    const desk = {issueCreationSettings: [{applicableProjects: 7, confidential: true}, {applicableProjects: null, confidential: false}]}
    const {model} = await collect({...CURRENT, '/settings/service-desk': desk}, [fetchMail])
    expect(serviceDeskOf(model)).toBeUndefined()
    expect(notJudged(model)['server/service-desk-open']).toBe('GET /settings/service-desk: its answer has a shape the audit does not know')
  })
})

describe('AI users (GET /users, read for the access model)', () => {
  const ADMIN = {id: 1, disabled: false, type: 'ORDINARY', name: 'admin', fullName: null, notifyOwnEvents: false, aiSetting: null}

  it('16.x: the enabled AI user entitled to all is found; its API key is stored redacted', async () => {
    const {model} = await collect({'/users': [ADMIN, aiUser16(7, 'assistant', true, canary('ai-key-entitled')), aiUser16(8, 'reviewer', false, canary('ai-key-limited'))]}, [fetchServerAccess])
    expectNoCanary(JSON.stringify(model.serverData))
    expect(findings(model)).toEqual({'server/ai-entitled-to-all': ['medium AI user assistant']})
    expect(notJudged(model)['server/ai-entitled-to-all']).toBeUndefined()
  })

  it('13.1.3 – 15.1.6: AI users listed without their settings: not evaluated, with a notice; no AI user: judged', async () => {
    const {model} = await collect({'/users': [ADMIN, aiUser14(7, 'assistant'), aiUser14(8, 'reviewer')]}, [fetchServerAccess])
    expect(findings(model)).toEqual({})
    expect(notJudged(model)['server/ai-entitled-to-all']).toBe('GET /users#/aiSetting: 2 AI users come without it (only OneDev 15.1.7 and later send it)')
    expect(coverageOf(model, DEFAULT_SETTINGS).notices.map((n) => n.message)).toContain(
      'GET /users: 2 AI users come without aiSetting (only OneDev 15.1.7 and later send it), so AI entitlement checks (server/ai-entitled-to-all) were not evaluated',
    )
    const {model: noAi} = await collect({'/users': [ADMIN]}, [fetchServerAccess])
    expect(notJudged(noAi)['server/ai-entitled-to-all']).toBeUndefined()
  })
})

describe('the data sources the CLI reads', () => {
  it('read the agents, the tokens, the mail service and the service desk once each, and never /settings/ssh', async () => {
    const {model, server} = await collect(CURRENT, [...SERVER_FETCHERS])
    const paths = requested(server).map((p) => p.replace(/\?.*$/, ''))
    for (const path of ['/agent-tokens', '/agents', '/settings/mail-service', '/settings/service-desk']) expect(paths.filter((p) => p === path), path).toHaveLength(1)
    expect(paths.filter((p) => p.startsWith('/settings/ssh'))).toEqual([])
    expectNoCanary(JSON.stringify(model.serverData))
  })
})

it('fetchServerHardening alone reads none of them', async () => {
  const {server} = await collect(CURRENT, [fetchServerHardening])
  expect(requested(server).filter((p) => /^\/(agent|settings\/(mail|service-desk))/.test(p))).toEqual([])
})
