/**
 * The server's version (GET /version/server) against loopback servers answering 14.1.0, 15.0.1 and
 * 16.5.6 as OneDev's VersionResource does (bare text under application/json), and one answering 404
 * (a OneDev before 10.2.0): the server shell executor with an empty job match judged as each version
 * does, the version in every report format and in the snapshot, the one notice when it is unknown;
 * and the authenticator in the shape OneDev's Jackson writes it (`@class`), judged by the LDAP rules.
 */
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {EMPTY_ACCESS, HARDENED_ADMIN, serverEnv} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {validateReportJson, validateSarif} from '../helpers/sarif-validate.js'
import {tempDir} from '../helpers/temp-dir.js'

/**
 * An enabled server shell executor with no job match, in the shape each release writes it: the items
 * of List<JobExecutor> carry `@type` (v16.5.6 rest/resource/SettingResource.java:120,
 * util/jackson/ObjectMapperProvider.java:73-122); fields in declaration order, JobExecutor's first.
 */
const SHELL_EXECUTOR: Record<string, Record<string, unknown>> = {
  // v14.1.0 model/support/administration/jobexecutor/JobExecutor.java:33-41 (enabled, name, jobMatch, htmlReportPublishEnabled,
  // sitePublishEnabled), plugin/executor/servershell/ServerShellExecutor.java:75 (concurrency, a String).
  '14.1.0': {'@type': 'ServerShellExecutor', enabled: true, name: 'shell', jobMatch: null, htmlReportPublishEnabled: false, sitePublishEnabled: false, concurrency: null},
  // v15.0.1 JobExecutor.java:37-45 (jobMatch moved last, protected), ServerShellExecutor.java:75.
  '15.0.1': {'@type': 'ServerShellExecutor', enabled: true, name: 'shell', htmlReportPublishEnabled: false, sitePublishEnabled: false, jobMatch: null, concurrency: null},
  // v16.5.6 JobExecutor.java:33-41, ServerShellExecutor.java:78 (concurrency, an Integer).
  '16.5.6': {'@type': 'ServerShellExecutor', enabled: true, name: 'shell', htmlReportPublishEnabled: false, sitePublishEnabled: false, jobMatch: null, concurrency: null},
}

/**
 * An LDAP authenticator over plain ldap:// that retrieves groups, as GET /settings/authenticator answers
 * it: `Authenticator` carries @JsonTypeInfo(use=Id.CLASS) (v16.5.6 model/support/administration/
 * authenticator/Authenticator.java:14; :14 at v14.1.0 and v15.0.1 too), so the type is `@class` with the
 * fully-qualified name; fields Authenticator.java:19-21, then plugin/authenticator/ldap/LdapAuthenticator.java:52-70
 * (v16.5.6; :50-68 at v14.1.0 and v15.0.1); `groupRetrieval` is the interface GroupRetrieval
 * (GroupRetrieval.java:8): default typing, `@type`.
 */
const LDAP_AUTHENTICATOR = {
  '@class': 'io.onedev.server.plugin.authenticator.ldap.LdapAuthenticator',
  defaultGroup: null,
  timeout: 300,
  ldapUrl: 'ldap://ldap.acme.example:389',
  authenticationRequired: true,
  managerDN: 'cn=onedev,dc=acme,dc=example',
  managerPassword: 'CANARY-ldap-manager-password-7f3a',
  userSearchBases: ['ou=people,dc=acme,dc=example'],
  userSearchFilter: '(&(uid={0})(objectclass=person))',
  userFullNameAttribute: 'displayName',
  userEmailAttribute: 'mail',
  userSshKeyAttribute: null,
  groupRetrieval: {'@type': 'GetGroupsUsingAttribute', userGroupsAttribute: 'memberOf', groupNameAttribute: 'cn'},
}

const PROJECT_SETTING = {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}, webHooks: [], contributedSettings: []}

/** A server of `version` (undefined: no /version/server, 404) with the shell executor and the LDAP authenticator. */
function startServer(version: string | undefined): Promise<OneDevServer> {
  return startOneDevServer({
    ...(version === undefined ? {} : {version}),
    projects: [{id: 1, path: 'app', name: 'app', parentId: null}],
    settings: {1: PROJECT_SETTING},
    repositories: {1: {defaultBranch: 'main'}},
    access: EMPTY_ACCESS,
    admin: {...HARDENED_ADMIN, '/settings/job-executors': [SHELL_EXECUTOR[version ?? '14.1.0']], '/settings/authenticator': LDAP_AUTHENTICATOR},
  })
}

const servers = new Map<string, OneDevServer>()
let dir: string
beforeAll(async () => {
  dir = await tempDir('oda-version')
  for (const version of ['14.1.0', '15.0.1', '16.5.6', 'none']) servers.set(version, await startServer(version === 'none' ? undefined : version))
})
afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.close()))
})

const scan = (version: string, args: string[]) => runCli(['scan', '--all-projects', ...args], {env: {...serverEnv(servers.get(version)!), ONEDEV_API_PREFIX: '/~api'}})

/** The server-scope findings: `severity rule subject`. */
const serverFindings = (report: any) => report.findings.filter((f: any) => f.document === 'server').map((f: any) => `${f.severity} ${f.ruleId} ${f.subject}`)

const LDAP_FINDINGS = ['high server/idp-admin-group LDAP authenticator', 'medium server/ldap-plaintext authenticator']

const UNKNOWN_NOTICE =
  "The server's OneDev version is unknown: the server does not offer GET /version/server (404), which OneDev has from 10.2.0 on. " +
  '1 judgement that depends on the version was made by the reading that exposes more: which jobs a server (or remote) shell executor with an empty job match takes: ' +
  'judged as OneDev 11.11.1 to 15.0.0 read it (11.11.1 to 15.0.0: it takes every job; 15.0.1 and later: it takes no job), for server shell executor "shell"'

describe('the server shell executor with an empty job match, judged as each version does', () => {
  it.each([
    // v14.1.0 job/DefaultJobService.java:507,528: no job match, no check: every job.
    ['14.1.0', ['critical server/shell-executor shell', ...LDAP_FINDINGS], 'which OneDev 14.1.0 reads as every job (11.11.1 to 15.0.0 do; from 15.0.1 it takes no job)'],
    // v15.0.1 ServerShellExecutor.java:108-113 and v16.5.6 :109-114: no job match, no job.
    ['15.0.1', LDAP_FINDINGS, null],
    ['16.5.6', LDAP_FINDINGS, null],
    // No version: the reading that exposes more, said in the finding and once in a notice.
    ['none', ['critical server/shell-executor shell', ...LDAP_FINDINGS], "and the server's version is unknown: judged as OneDev 11.11.1 to 15.0.0 reads it: every job (from 15.0.1 it takes no job)"],
  ])('OneDev %s', async (version, expected, shellMessage) => {
    const result = await scan(version, ['--format', 'json'])
    expect(result.code, result.stderr).toBe(1)
    const report = JSON.parse(result.stdout)
    expect(validateReportJson(report)).toEqual([])
    expect(report.complete).toBe(true)
    expect(report.server.version).toBe(version === 'none' ? null : version)
    expect(serverFindings(report)).toEqual(expected)
    const shell = report.findings.find((f: any) => f.ruleId === 'server/shell-executor')
    if (shellMessage === null) expect(shell).toBeUndefined()
    else expect(shell.message).toContain(shellMessage)
    const versionNotices = report.notices.filter((n: any) => /version/.test(n.message))
    expect(versionNotices).toEqual(version === 'none' ? [{kind: 'warning', message: UNKNOWN_NOTICE}] : [])
    // One request for the version, whatever the answer.
    expect(servers.get(version)!.requests.filter((r) => r.path === '/~api/version/server')).toHaveLength(1)
    servers.get(version)!.reset()
  })

  it('exit 0 where nothing reaches the threshold: 16.5.6 has no critical finding, an unknown version does', async () => {
    const [known, unknown] = await Promise.all([scan('16.5.6', ['--format', 'json', '--fail-on', 'critical']), scan('none', ['--format', 'json', '--fail-on', 'critical'])])
    expect(known.code, known.stderr).toBe(0)
    expect(unknown.code, unknown.stderr).toBe(1)
  })
})

describe('the version in every report format', () => {
  it.each([
    ['16.5.6', 'OneDev 16.5.6', '16.5.6'],
    ['none', 'OneDev version unknown', null],
  ])('%s', async (version, phrase, value) => {
    const [stylish, markdown, html, sarif] = await Promise.all(['stylish', 'markdown', 'html', 'sarif'].map((format) => scan(version, ['--format', format])))
    for (const result of [stylish, markdown, html, sarif]) expect(result.code, result.stderr).toBe(1)
    // stylish: where it says what was judged (the summary line), and the notice once when unknown.
    expect(stylish.stdout.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^✖ \\d+ findings \\(.*\\) in 1 project and 0 roles \\(${phrase}\\)`))
    expect(stylish.stdout.split(UNKNOWN_NOTICE).length - 1).toBe(version === 'none' ? 1 : 0)
    // markdown: beside the server.
    expect(markdown.stdout).toContain(`Server: ${servers.get(version)!.url} (${phrase}) ·`)
    expect(markdown.stdout.split(UNKNOWN_NOTICE).length - 1).toBe(version === 'none' ? 1 : 0)
    // HTML: among the facts of what was audited.
    expect(html.stdout).toContain(`<dt>OneDev version</dt><dd>${value ?? 'unknown'}</dd>`)
    // SARIF: the run's properties; the notice is one notification.
    const log = JSON.parse(sarif.stdout)
    expect(validateSarif(log)).toEqual([])
    expect(log.runs[0].properties).toEqual({serverVersion: value})
    expect(log.runs[0].invocations[0].toolExecutionNotifications.filter((n: any) => n.message.text === UNKNOWN_NOTICE)).toHaveLength(version === 'none' ? 1 : 0)
  })

  it('collect keeps it in the snapshot, and a scan of the snapshot judges by it', async () => {
    const results = await Promise.all(
      ['14.1.0', 'none'].map(async (version) => {
        const output = join(dir, `snapshot-${version}.json`)
        const collected = await runCli(['collect', '--all-projects', '--output', output], {env: serverEnv(servers.get(version)!)})
        expect(collected.code, collected.stderr).toBe(0)
        const snapshot = JSON.parse(await readFile(output, 'utf8'))
        const scanned = await runCli(['scan', '--snapshot', output, '--format', 'json'])
        return {snapshot, scanned}
      }),
    )
    const [known, unknown] = results
    expect(known!.snapshot.server.version).toBe('14.1.0')
    expect(unknown!.snapshot.server.version).toBeNull()
    expect(unknown!.snapshot.notEvaluated).toContainEqual({endpoint: '/version/server', status: 404, checks: expect.stringContaining('depend on the OneDev version')})
    const knownReport = JSON.parse(known!.scanned.stdout)
    expect(knownReport.server.version).toBe('14.1.0')
    expect(serverFindings(knownReport)).toContain('critical server/shell-executor shell')
    expect(knownReport.notices.filter((n: any) => /version/.test(n.message))).toEqual([])
    const unknownReport = JSON.parse(unknown!.scanned.stdout)
    expect(unknownReport.server.version).toBeNull()
    expect(unknownReport.notices.filter((n: any) => /version/.test(n.message))).toEqual([{kind: 'warning', message: UNKNOWN_NOTICE}])
  })
})
