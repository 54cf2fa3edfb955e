/**
 * Collecting server data from a loopback server with chosen data sources, and judging it with the
 * built-in server rules: what the data-source tests (test/api/admin-data.test.ts,
 * agent-mail-data.test.ts) share. `serverDataCollector` registers the cleanup of what it starts.
 */
import {afterEach, expect} from 'vitest'

import {createClient} from '../../src/api/client.js'
import {collectModel} from '../../src/api/collect.js'
import type {ServerFetcher} from '../../src/api/optional.js'
import type {ApiClient} from '../../src/api/types.js'
import {evaluate} from '../../src/engine/evaluate.js'
import type {AuditModel} from '../../src/model/types.js'
import {builtinRules} from '../../rules/index.js'
import {type OneDevServer, startOneDevServer} from './onedev-server.js'
import {DEFAULT_SETTINGS} from './rule-tester.js'

export type CollectServerData = (admin: Record<string, unknown>, fetchers?: ServerFetcher[]) => Promise<{model: AuditModel; server: OneDevServer}>

/** A function that starts a server answering `admin` and collects with `fetchers` (by default `defaults`); closed after each test. */
export function serverDataCollector(defaults: ServerFetcher[]): CollectServerData {
  const started: OneDevServer[] = []
  const clients: ApiClient[] = []
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()))
    await Promise.all(started.splice(0).map((server) => server.close()))
  })
  return async (admin, fetchers = defaults) => {
    const server = await startOneDevServer({admin})
    started.push(server)
    const client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret, retryBaseDelayMs: 1, retryMaxDelayMs: 2})
    clients.push(client)
    const model = await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: [], serverFetchers: fetchers})
    return {model, server}
  }
}

/** rule id → `severity subject`, for the built-in server rules (or those `only` names). */
export function serverFindings(model: AuditModel, only?: readonly string[]): Record<string, string[]> {
  const rules = builtinRules.filter((rule) => rule.meta.scope === 'server' && (only === undefined || only.includes(rule.meta.id)))
  const {findings, errors} = evaluate(model, rules.map((rule) => ({rule, options: rule.meta.defaultOptions ?? {}})), DEFAULT_SETTINGS)
  expect(errors).toEqual([])
  const out: Record<string, string[]> = {}
  for (const finding of findings) (out[finding.ruleId] ??= []).push(`${finding.severity} ${finding.subject}`)
  return out
}
