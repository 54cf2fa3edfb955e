/**
 * Notices on an older server that speaks only the contract (no repository, access or administration
 * endpoint): the JSON and SARIF reports keep every notice; stylish, markdown and stderr group the
 * not-evaluated ones by family of checks, and --verbose lists them one by one. Nothing not evaluated
 * looks passed: the summary line says some checks were not evaluated.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {EMPTY_SETTING, serverEnv} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {validateReportJson, validateSarif} from '../helpers/sarif-validate.js'

/** Every notice of the scan, in the JSON report's order. */
const NOTICES = [
  'GET /repositories/{id}/default-branch: the server does not offer it (404), so the default branches of 2 of 2 projects are unknown: their branch protections were judged for "main" instead',
  'GET /repositories/{id}/tags: the server does not offer it (404), so the tags of 2 of 2 projects are unknown: their tag protections were judged for "v1.0.0" instead of the tags that exist',
  'GET /agent-tokens: the server does not offer it (404), so agent token checks (server/agent-token-unused) were not evaluated',
  'GET /agents: the server does not offer it (404), so agent token checks (server/agent-token-unused) were not evaluated',
  'GET /groups: the server does not offer it (404), so group, administrator and two-factor checks were not evaluated',
  'GET /projects/{id}/base-authorizations: the server does not offer it (404), so base roles of every logged-in user (and anonymous users) were not evaluated',
  'GET /projects/{id}/group-authorizations: the server does not offer it (404), so roles granted to groups were not evaluated',
  'GET /projects/{id}/user-authorizations: the server does not offer it (404), so roles granted to users were not evaluated',
  'GET /settings/authenticator: the server does not offer it (404), so LDAP checks (server/ldap-plaintext, server/idp-admin-group) were not evaluated',
  'GET /settings/groovy-scripts: the server does not offer it (404), so groovy script checks (server/groovy-script-unrestricted) were not evaluated',
  'GET /settings/job-executors: the server does not offer it (404), so job executor checks (server/shell-executor, server/docker-socket, server/no-executor) were not evaluated',
  'GET /settings/mail-service or /settings/mail: the server does not offer it (404), so mail transport checks (server/mail-plaintext) were not evaluated',
  'GET /settings/security: the server does not offer it (404), so anonymous access, sign-up, default group and two-factor checks were not evaluated',
  'GET /settings/service-desk: the server does not offer it (404), so service desk checks (server/service-desk-open) were not evaluated',
  "GET /settings/system: the server does not offer it (404), so server URL checks (server/plain-http-url, the server's own domain for server/cors-credentials) were not evaluated",
  'GET /sso-providers or /settings/sso-connectors: the server does not offer it (404), so SSO group sync checks (server/idp-admin-group) were not evaluated',
  'GET /users: the server does not offer it (404), so administrator, two-factor and user checks were not evaluated',
  'GET /users/{id}/access-tokens: the server does not offer it (404), so access token checks (server/token-no-expiry) were not evaluated',
]

const GROUP = 'some checks were not evaluated, so none of them passed (--verbose lists the 18 notices one by one, as the JSON report does):'
const FAMILIES = [
  'branches and tags: 2 endpoints the server does not offer (branch protections judged for "main", tag protections judged for "v1.0.0")',
  'access model: 6 endpoints the server does not offer',
  'server hardening: 13 endpoints the server does not offer',
]
/**
 * The compliance line of each framework, then the summary. No OSPS control passes: OSPS-AC-04.02's one
 * rule judges action authorizations, which these current settings do not have (OneDev 8.0.4 and earlier).
 */
const SUMMARY = [
  'CIS SSCS v1.0: 1 pass, 5 fail, 0 exception, 10 not evaluated, 97 manual',
  'OSPS Baseline v2026.02.19: 0 pass, 0 fail, 0 exception, 10 not evaluated, 54 manual',
  '✖ 4 findings (0 critical, 4 high, 0 medium, 0 low, 0 info) in 2 projects and 0 roles (OneDev version unknown), some checks not evaluated',
]

let server: OneDevServer

beforeAll(async () => {
  const projects = [
    {id: 1, path: 'app/one', parentId: null},
    {id: 2, path: 'app/two', parentId: null},
  ]
  server = await startOneDevServer({prefix: '/api', projects, settings: {1: EMPTY_SETTING, 2: EMPTY_SETTING}, roles: []})
})
afterAll(async () => {
  await server.close()
})

const scan = (...args: string[]) => runCli(['scan', '--all-projects', '--concurrency', '1', ...args], {env: serverEnv(server)})

/** The lines of a report from its first notice to its end. */
function tail(text: string, first: string): string[] {
  const lines = text.trimEnd().split('\n')
  return lines.slice(lines.findIndex((line) => line.startsWith(first)))
}

describe('notices of a server that speaks only the contract', () => {
  it('the JSON and SARIF reports keep every notice', async () => {
    const [json, sarif] = await Promise.all([scan('--format', 'json'), scan('--format', 'sarif')])
    const report = JSON.parse(json.stdout)
    expect(validateReportJson(report)).toEqual([])
    expect(report.notices).toEqual(NOTICES.map((message) => ({kind: 'not-evaluated', message})))
    const log = JSON.parse(sarif.stdout)
    expect(validateSarif(log)).toEqual([])
    expect(log.runs[0].invocations[0].toolExecutionNotifications.map((n: any) => n.message.text)).toEqual(NOTICES)
    // Beside a JSON report, stderr says it grouped, on one line.
    expect(json.stderr).toBe(`onedev-audit: not-evaluated: ${GROUP} ${FAMILIES.join('; ')}\n`)
  })

  it('stylish groups them by family of checks, and the summary says some checks were not evaluated', async () => {
    const result = await scan()
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('')
    expect(tail(result.stdout, 'notice')).toEqual([`notice  ${GROUP}`, ...FAMILIES.map((family) => `          ${family}`), '', ...SUMMARY])
  })

  it('stylish --verbose lists every notice', async () => {
    const result = await scan('--verbose')
    expect(tail(result.stdout, 'notice')).toEqual([...NOTICES.map((message) => `notice  ${message}`), '', ...SUMMARY])
  })

  it('markdown groups them the same way, and --verbose lists every notice', async () => {
    const [grouped, verbose] = await Promise.all([scan('--format', 'markdown'), scan('--format', 'markdown', '--verbose')])
    expect(grouped.stdout).toContain('✖ **4 findings** in 2 projects and 0 roles (some checks not evaluated).\n')
    // markdown escapes what could read as markup (`*`, `>`, `_`): none of these lines has any.
    expect(tail(grouped.stdout, '## Notices')).toEqual(['## Notices', '', `- ${GROUP}`, ...FAMILIES.map((family) => `  - ${family}`)])
    expect(tail(verbose.stdout, '## Notices')).toEqual(['## Notices', '', ...NOTICES.map((message) => `- ${message}`)])
    expect(verbose.stderr.split('\n').filter(Boolean)).toEqual(NOTICES.map((message) => `onedev-audit: not-evaluated: ${message}`))
  })
})
