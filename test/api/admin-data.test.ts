/**
 * The server hardening data source (src/api/admin-data.ts) against the loopback server: what it
 * reads, what it never reads, 204 and 404 answers, older payload shapes, and that what it stores is
 * redacted.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {fetchServerHardening} from '../../src/api/admin-data.js'
import {createClient} from '../../src/api/client.js'
import {collectModel} from '../../src/api/collect.js'
import type {ApiClient} from '../../src/api/types.js'
import {authenticatorOf, jobExecutorsOf, ssoProvidersOf} from '../../src/model/admin-data.js'
import {expectNoCanary, FIXTURES_DIR} from '../helpers/canaries.js'
import {serverDataCollector, serverFindings} from '../helpers/server-data.js'

const CURRENT: Record<string, unknown> = JSON.parse(readFileSync(join(FIXTURES_DIR, 'server', 'admin-current.json'), 'utf8'))
const LEGACY: Record<string, Record<string, unknown>> = JSON.parse(readFileSync(join(FIXTURES_DIR, 'server', 'admin-legacy.json'), 'utf8'))

const collect = serverDataCollector([fetchServerHardening])

const without = (data: Record<string, unknown>, drop: (path: string) => boolean) => Object.fromEntries(Object.entries(data).filter(([path]) => !drop(path)))

describe('server hardening data', () => {
  it('reads every endpoint once, never the SSH key or the mail service (mail-data.ts reads that), and stores only redacted payloads', async () => {
    // Two sources asking for the same paths (as the access data source does for /settings/security, /users, /groups) share each request.
    const {model, server} = await collect(CURRENT, [fetchServerHardening, fetchServerHardening])
    expect(model.errors).toEqual([])
    expect(model.notEvaluated).toEqual([])
    const paths = server.requests.map((r) => r.path.replace('/~api', '')).filter((p) => p !== '/roles')
    expect(paths.filter((p) => /settings\/(ssh|mail)/.test(p))).toEqual([])
    expect(new Set(paths).size).toBe(paths.length)
    expect(new Set(paths)).toEqual(
      new Set([
        '/settings/job-executors', '/settings/groovy-scripts', '/settings/system', '/settings/security', '/settings/authenticator', '/sso-providers',
        '/users', '/users/1/access-tokens', '/users/5/access-tokens', '/users/6/access-tokens', '/users/7/access-tokens', '/users/8/access-tokens',
        '/groups', '/groups/1/memberships',
      ]),
    )
    expect(Object.keys(model.serverData ?? {})).toContain('users/6/access-tokens')
    expectNoCanary(JSON.stringify(model.serverData))
    const token = (model.serverData?.['users/6/access-tokens'] as any[])[0]
    expect(token).toMatchObject({name: 'deploy', ownerId: 6, value: '<redacted>', hasOwnerPermissions: false, expireDate: null})
    expect((model.serverData?.['settings/groovy-scripts'] as any[])[0].content).toBe('<redacted>')
    expect(serverFindings(model)).toEqual({
      'server/shell-executor': ['critical shell'],
      'server/docker-socket': ['critical docker'],
      'server/docker-privileged-options': ['high agents'],
      'server/kubernetes-cluster-role': ['high k8s'],
      'server/remote-shell-executor-broad': ['high builders'],
      'server/untrusted-html-publish': ['high docker'],
      'server/idp-admin-group': ['high LDAP authenticator', 'high SSO provider okta'],
      'server/idp-default-group-privileged': ['high SSO provider github'],
      'server/token-no-expiry': ['high alice/laptop', 'medium ci-bot/deploy'],
      'server/cors-credentials': ['medium http://legacy.acme.example', 'medium https://tools.partner.example', 'medium null'],
      'server/groovy-script-unrestricted': ['medium deploy'],
      'server/ldap-plaintext': ['medium authenticator'],
      'server/no-password-policy': ['low password policy'],
      'server/plain-http-url': ['low http://onedev.acme.example'],
    })
  })

  it('an empty executor list and no authenticator (204)', async () => {
    const {model} = await collect({...CURRENT, '/settings/job-executors': [], '/settings/authenticator': null})
    expect(model.notEvaluated).toEqual([])
    expect(model.serverData?.['settings/authenticator']).toBeNull()
    expect(authenticatorOf(model)).toBeNull()
    expect(jobExecutorsOf(model)).toEqual([])
    const found = serverFindings(model)
    // This collection asks no version (fetchServerHardening alone): judged as up to 11.11.0, where a shell executor may be discovered.
    expect(found['server/no-executor']).toEqual(['high job executors'])
    expect(found['server/ldap-plaintext']).toBeUndefined()
    expect(found['server/idp-admin-group']).toEqual(['high SSO provider okta'])
  })

  it('a security setting with a password policy is read whole: the policy is kept and the other security checks still run', async () => {
    const policy = {minLength: 12, mustContainUppercase: true, mustContainLowercase: true, mustContainNumber: true, mustContainSpecial: false}
    const security = {...(CURRENT['/settings/security'] as object), passwordPolicy: policy}
    const {model} = await collect({...CURRENT, '/settings/security': security})
    expect(model.notEvaluated).toEqual([])
    expect((model.serverData?.['settings/security'] as any).passwordPolicy).toEqual(policy)
    const found = serverFindings(model)
    expect(found['server/no-password-policy']).toBeUndefined()
    expect(found['server/cors-credentials']).toEqual(['medium http://legacy.acme.example', 'medium https://tools.partner.example', 'medium null'])
  })

  const ENDPOINTS: Array<[string, (path: string) => boolean, string, string[]]> = [
    ['/settings/job-executors', (p) => p === '/settings/job-executors', '/settings/job-executors', ['server/shell-executor', 'server/docker-socket', 'server/docker-privileged-options', 'server/kubernetes-cluster-role', 'server/remote-shell-executor-broad', 'server/untrusted-html-publish']],
    ['/settings/groovy-scripts', (p) => p === '/settings/groovy-scripts', '/settings/groovy-scripts', ['server/groovy-script-unrestricted']],
    ['/settings/system', (p) => p === '/settings/system', '/settings/system', ['server/plain-http-url']],
    ['/settings/security', (p) => p === '/settings/security', '/settings/security', ['server/cors-credentials', 'server/no-password-policy']],
    ['/settings/authenticator', (p) => p === '/settings/authenticator', '/settings/authenticator', ['server/ldap-plaintext']],
    ['/sso-providers', (p) => p === '/sso-providers', '/sso-providers or /settings/sso-connectors', []],
    ['/users/{id}/access-tokens', (p) => p.endsWith('/access-tokens'), '/users/{id}/access-tokens', ['server/token-no-expiry']],
    // Without the listing, root's and the administrators' tokens are still read.
    ['/users', (p) => p === '/users', '/users', []],
    ['/groups', (p) => p === '/groups', '/groups', []],
  ]
  for (const [name, drop, endpoint, silenced] of ENDPOINTS) {
    it(`404 on ${name}: not evaluated, once, no error, and its checks stay silent`, async () => {
      const {model, server} = await collect(without(CURRENT, drop))
      expect(model.errors).toEqual([])
      expect(model.notEvaluated).toEqual([{endpoint, status: 404, checks: expect.stringMatching(/checks/)}])
      // An endpoint found missing is not asked again (one request per user at most, none after the 404 was known).
      if (name === '/users/{id}/access-tokens') expect(server.requests.filter((r) => r.path.endsWith('/access-tokens')).length).toBeLessThanOrEqual(5)
      const found = serverFindings(model)
      for (const ruleId of silenced) expect(found[ruleId], ruleId).toBeUndefined()
    })
  }

  it('without the users listing: root\'s and the administrators\' tokens, their owners named by id', async () => {
    const {model, server} = await collect(without(CURRENT, (p) => p === '/users'))
    expect(server.requests.filter((r) => r.path.endsWith('/access-tokens')).map((r) => r.path)).toEqual(['/~api/users/1/access-tokens', '/~api/users/5/access-tokens'])
    expect(serverFindings(model)['server/token-no-expiry']).toEqual(['high user #5/laptop'])
  })

  it('servers up to 12.0: SSO connectors when /sso-providers is missing, with no notice', async () => {
    const {model} = await collect({...without(CURRENT, (p) => p === '/sso-providers'), '/settings/sso-connectors': LEGACY['v8.0.4']!['/settings/sso-connectors']})
    expect(model.notEvaluated).toEqual([])
    expect(ssoProvidersOf(model)?.map((p) => [p.name, p.groupsClaim])).toEqual([['keycloak', 'groups']])
    expectNoCanary(JSON.stringify(model.serverData))
  })

  it('OneDev 8.0.4 shapes: jobAuthorization, a null authenticator, SSO connectors', async () => {
    const {model} = await collect(LEGACY['v8.0.4']!)
    expectNoCanary(JSON.stringify(model.serverData))
    expect(jobExecutorsOf(model)?.map((e) => [e.name, e.jobMatchKey, e.jobMatch])).toEqual([
      ['shell', 'jobAuthorization', null],
      ['docker', 'jobAuthorization', '"Project" is "app" and on branch "main"'],
    ])
    // Groups, users and tokens are not offered here: only what the payloads say is judged.
    expect(serverFindings(model)).toEqual({
      'server/shell-executor': ['critical shell'],
      'server/groovy-script-unrestricted': ['medium notify'],
    })
  })

  it('OneDev 11.6 shapes: jobRequirement, Active Directory over ldaps, connectors without a groups claim', async () => {
    const {model} = await collect(LEGACY['v11.6.16']!)
    expectNoCanary(JSON.stringify(model.serverData))
    expect(serverFindings(model)).toEqual({
      'server/shell-executor': ['high shell'],
      'server/docker-socket': ['high docker'],
    })
  })

  it('403 on an endpoint is an error naming it, not a notice', async () => {
    const {server} = await collect({})
    server.override('GET /settings/job-executors', {status: 403, text: 'Forbidden'})
    const client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret})
    const model = await collectModel(client, {server: {url: server.url, apiPrefix: '/~api'}, projects: [], serverFetchers: [fetchServerHardening]}).finally(() => client.close())
    expect(model.errors.map((e) => [e.kind, e.status])).toEqual([['forbidden', 403]])
    expect(model.errors[0]!.message).toContain('/settings/job-executors')
    expect(model.notEvaluated?.map((n) => n.endpoint)).not.toContain('/settings/job-executors')
  })
})
