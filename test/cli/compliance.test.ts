/**
 * Compliance through the CLI, against real loopback servers: the status of each control in the JSON
 * report (which validates against its schema), the console's line per framework, markdown's tables,
 * SARIF's control tags; --framework and --fail-on-control; and the statuses a user must be able to
 * trust: a control whose rule could not run is not evaluated (the two-factor control on a server
 * without /settings/security), a contract-only server never passes a server-hardening control, a
 * control whose only findings are suppressed is an exception, a baselined finding still fails its
 * control, a rule turned off leaves its controls not evaluated.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {fixture, FIXTURE_PROJECTS, HARDENED_ADMIN, PARENT_SETTING, serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {validateReportJson, validateSarif} from '../helpers/sarif-validate.js'
import {tempDir} from '../helpers/temp-dir.js'

interface Control {
  id: string
  status: string
  findings: number
  baselined: number
  suppressed: number
  projects: Array<{id: number; path: string}>
  rules: Array<{id: string; status: string; findings: number; baselined: number; suppressed: number; notEvaluated?: string}>
}

/** The JSON report of a scan, checked against the report schema. */
async function scanJson(server: OneDevServer, extra: string[] = [], cwd?: string): Promise<{code: number; report: any; stderr: string}> {
  const result = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none', ...extra], {env: serverEnv(server), ...(cwd ? {cwd} : {})})
  const report = JSON.parse(result.stdout)
  expect(validateReportJson(report)).toEqual([])
  return {code: result.code, report, stderr: result.stderr}
}

function control(report: any, framework: string, id: string): Control {
  const found = report.compliance.find((f: any) => f.framework === framework)?.controls.find((c: any) => c.id === id)
  if (!found) throw new Error(`no control ${framework} ${id} in the report`)
  return found
}

/** framework:id → status, for every control some rule judges. */
function statuses(report: any): Record<string, string> {
  return Object.fromEntries(report.compliance.flatMap((f: any) => f.controls.filter((c: any) => c.status !== 'manual').map((c: any) => [`${f.framework}:${c.id}`, c.status])))
}

let dir: string
let server: OneDevServer

beforeAll(async () => {
  dir = await tempDir('onedev-audit-compliance')
  server = await startFixtureServer()
})

afterAll(async () => {
  await server?.close()
})

describe('a server that does not offer /settings/security', () => {
  it('leaves the two-factor controls not evaluated, never passed, and says why', async () => {
    const access = fixture('access/access.json')
    delete access.security
    const noSecurity = await startFixtureServer({access})
    try {
      const {code, report} = await scanJson(noSecurity)
      expect(code).toBe(0)
      for (const [framework, id] of [['cis', '1.3.5'], ['osps', 'OSPS-AC-01.01']] as const) {
        const twoFactor = control(report, framework, id)
        expect(twoFactor.status).toBe('not-evaluated')
        expect(twoFactor.findings).toBe(0)
        expect(twoFactor.rules).toEqual([
          expect.objectContaining({id: 'server/two-factor-not-enforced', status: 'not-evaluated', findings: 0, notEvaluated: 'GET /settings/security: the server does not offer it (404)'}),
        ])
      }
      // Every control with a rule that reads the security setting, unless another of its rules found something.
      expect(control(report, 'cis', '1.3.6').status).toBe('not-evaluated')
      // With the setting, the same server fails them.
      const full = (await scanJson(server)).report
      expect([control(full, 'cis', '1.3.5').status, control(full, 'osps', 'OSPS-AC-01.01').status]).toEqual(['fail', 'fail'])
    } finally {
      await noSecurity.close()
    }
  }, 60_000)
})

describe('a contract-only server (no optional endpoint, no repository endpoint)', () => {
  it('passes no control that a server-hardening rule evidences; branch controls are not evaluated either', async () => {
    const contract = await startOneDevServer({roles: fixture('roles.json'), projects: FIXTURE_PROJECTS, settings: {1: PARENT_SETTING, 2: fixture('current/setting-full.json'), 3: fixture('legacy/setting-full.json'), 4: PARENT_SETTING}})
    try {
      const {code, report} = await scanJson(contract)
      expect(code).toBe(0)
      const serverRules = new Set((JSON.parse((await runCli(['rules', '--json'])).stdout) as Array<{id: string; scope: string}>).filter((r) => r.scope === 'server').map((r) => r.id))
      const hardening = report.compliance.flatMap((f: any) => f.controls.filter((c: any) => c.rules.some((r: any) => serverRules.has(r.id))).map((c: any) => `${f.framework}:${c.id} ${c.status}`))
      expect(hardening.length).toBeGreaterThan(5)
      expect(hardening.filter((line: string) => line.endsWith(' pass'))).toEqual([])
      expect(statuses(report)).toEqual({
        'cis:1.1.6': 'not-evaluated',
        'cis:1.1.9': 'not-evaluated',
        // Strict builds are judged on the branch the audit assumes is the default one: the protection requires "ci", not strictly.
        'cis:1.1.10': 'fail',
        'cis:1.1.12': 'not-evaluated',
        'cis:1.1.14': 'fail',
        'cis:1.1.16': 'not-evaluated',
        'cis:1.1.17': 'not-evaluated',
        'cis:1.3.3': 'not-evaluated',
        'cis:1.3.5': 'not-evaluated',
        'cis:1.3.6': 'not-evaluated',
        'cis:1.3.8': 'not-evaluated',
        'cis:2.1.5': 'not-evaluated',
        'cis:2.3.4': 'not-evaluated',
        'cis:2.3.5': 'fail',
        'cis:4.2.2': 'not-evaluated',
        'cis:4.3.4': 'fail',
        'osps:OSPS-AC-01.01': 'not-evaluated',
        'osps:OSPS-AC-02.01': 'not-evaluated',
        'osps:OSPS-AC-03.01': 'not-evaluated',
        'osps:OSPS-AC-03.02': 'not-evaluated',
        'osps:OSPS-AC-04.02': 'fail',
        'osps:OSPS-BR-01.03': 'fail',
        'osps:OSPS-BR-03.01': 'not-evaluated',
        'osps:OSPS-BR-03.02': 'not-evaluated',
        'osps:OSPS-QA-03.01': 'not-evaluated',
        'osps:OSPS-QA-07.01': 'not-evaluated',
      })
      expect(control(report, 'cis', '2.1.5').rules.map((r) => r.notEvaluated)).toEqual([
        'GET /settings/job-executors: the server does not offer it (404)',
        'GET /settings/job-executors: the server does not offer it (404)',
        'GET /settings/job-executors: the server does not offer it (404)',
        'GET /settings/groovy-scripts: the server does not offer it (404)',
        'GET /settings/job-executors: the server does not offer it (404)',
        'GET /settings/job-executors: the server does not offer it (404)',
        'GET /settings/job-executors: the server does not offer it (404)',
        'GET /agent-tokens: the server does not offer it (404)',
      ])
      // The collection records the repository endpoints it learnt are not offered (issue 18).
      expect(control(report, 'cis', '1.1.16').rules.map((r) => r.notEvaluated)).toEqual([
        'GET /repositories/{id}/default-branch: the server does not offer it (404)',
        'GET /repositories/{id}/default-branch: the server does not offer it (404)',
      ])
    } finally {
      await contract.close()
    }
  }, 60_000)
})

describe('a snapshot without the per-project authorizations (written before the audit read them, or edited)', () => {
  /** The example snapshot without the `projects/<id>/…-authorizations` answers `drop` picks. */
  async function withoutAnswers(name: string, drop: (key: string) => boolean): Promise<string> {
    const example = JSON.parse(await readFile('examples/snapshot.json', 'utf8')) as {serverData: Record<string, unknown>}
    const file = join(dir, `${name}.json`)
    await writeFile(file, JSON.stringify({...example, serverData: Object.fromEntries(Object.entries(example.serverData).filter(([key]) => !drop(key)))}))
    return file
  }
  const snapshotJson = async (file: string) => {
    const result = await runCli(['scan', '--snapshot', file, '--format', 'json', '--fail-on', 'none'])
    const report = JSON.parse(result.stdout)
    expect(validateReportJson(report)).toEqual([])
    return {code: result.code, report, stderr: result.stderr}
  }

  it('leaves the access rules not evaluated, never passed, and says so in a notice', async () => {
    const [full, stripped] = await Promise.all([snapshotJson('examples/snapshot.json'), snapshotJson(await withoutAnswers('no-authorizations', (key) => /^projects\/\d+\/(base|group|user)-authorizations$/.test(key)))])
    expect(full.report.notices).toEqual([])
    expect(control(full.report, 'osps', 'OSPS-AC-03.01').status).toBe('fail')
    // Only the controls whose findings all came from rules on the authorizations change (access/direct-push;
    // access/base-role-pack-write, the one rule of CIS 4.2.2); the others fail on other findings.
    expect(statuses(stripped.report)).toEqual({...statuses(full.report), 'osps:OSPS-AC-03.01': 'not-evaluated', 'cis:4.2.2': 'not-evaluated'})
    const missing = 'the audit has no answer for 4 of 4 projects (acme, acme/app, acme/empty, legacy/tool)'
    expect(control(stripped.report, 'osps', 'OSPS-AC-03.01').rules).toEqual([
      {id: 'access/direct-push', status: 'not-evaluated', findings: 0, baselined: 0, suppressed: 0, primaryBranchOnly: true, notEvaluated: `GET /projects/{id}/base-authorizations: ${missing}`},
      {id: 'branch-protection/unprotected-branch', status: 'pass', findings: 0, baselined: 0, suppressed: 0, primaryBranchOnly: true},
    ])
    expect(control(stripped.report, 'cis', '1.3.8').rules.find((r) => r.id === 'access/base-role-broad')).toMatchObject({status: 'not-evaluated', notEvaluated: `GET /projects/{id}/base-authorizations: ${missing}`})
    expect(stripped.report.notices).toEqual(
      [
        ['base', 'base roles of every logged-in user (and anonymous users)'],
        ['group', 'roles granted to groups'],
        ['user', 'roles granted to users'],
      ].map(([kind, checks]) => ({kind: 'not-evaluated', message: `GET /projects/{id}/${kind}-authorizations: ${missing}: the snapshot predates the endpoint or was edited, so ${checks} were not evaluated`})),
    )
    expect(stripped.code).toBe(full.code)
  }, 60_000)

  it('an ancestor without its answer counts: its projects inherit what it grants', async () => {
    const [full, {report}] = await Promise.all([snapshotJson('examples/snapshot.json'), snapshotJson(await withoutAnswers('no-parent-base', (key) => key === 'projects/1/base-authorizations'))])
    // What was found is still proof: every control the access rules evidence fails on their findings.
    expect(statuses(report)).toEqual(statuses(full.report))
    expect(report.notices).toEqual([
      {kind: 'not-evaluated', message: 'GET /projects/{id}/base-authorizations: the audit has no answer for 1 of 4 projects (acme): the snapshot predates the endpoint or was edited, so base roles of every logged-in user (and anonymous users) were not evaluated'},
    ])
  }, 60_000)
})

describe('suppressions, the baseline and the configuration', () => {
  it('a control whose only findings are suppressed is an exception, listing the justification; it does not fail', async () => {
    const before = (await scanJson(server)).report
    expect(control(before, 'cis', '1.3.3')).toMatchObject({status: 'fail', findings: 1, suppressed: 0})
    const config = join(dir, 'suppress.json')
    await writeFile(config, JSON.stringify({suppressions: [{rule: 'server/too-many-admins', justification: 'four administrators on purpose', expires: '2999-12-31'}]}))
    const {report} = await scanJson(server, ['--config', config])
    expect(control(report, 'cis', '1.3.3')).toMatchObject({status: 'exception', findings: 0, baselined: 0, suppressed: 1, projects: []})
    expect(control(report, 'cis', '1.3.3').rules).toEqual([{id: 'server/too-many-admins', status: 'exception', findings: 0, baselined: 0, suppressed: 1}])
    expect((control(report, 'cis', '1.3.3') as any).exceptions).toEqual([{rule: 'server/too-many-admins', justification: 'four administrators on purpose', expires: '2999-12-31', findings: 1}])
    expect(report.compliance[0].counts).toEqual({pass: 0, fail: 15, exception: 1, notEvaluated: 0, manual: 97})

    const stylish = await runCli(['scan', '--all-projects', '--fail-on', 'none', '--config', config], {env: serverEnv(server)})
    expect(stylish.stdout).toContain('\nCIS SSCS v1.0: 0 pass, 15 fail, 1 exception, 0 not evaluated, 97 manual\n')
    const markdown = (await runCli(['scan', '--all-projects', '--fail-on', 'none', '--config', config, '--format', 'markdown'], {env: serverEnv(server)})).stdout
    expect(markdown).toContain(
      '| 1.3.3 | Ensure minimum number of administrators are set for the organization | exception: "four administrators on purpose" (until 2999-12-31; 1 finding of server/too-many-admins) | 0 (1 suppressed) |',
    )
  }, 60_000)

  it('a baselined finding still fails its control: a baseline says "known", not "accepted"', async () => {
    const baseline = join(dir, 'baseline.json')
    await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none', '--update-baseline', baseline], {env: serverEnv(server)})
    const {report, code} = await scanJson(server, ['--baseline', baseline])
    expect(code).toBe(0)
    expect(report.findings).toEqual([])
    expect(report.compliance.map((f: any) => [f.framework, f.counts])).toEqual([
      ['cis', {pass: 0, fail: 16, exception: 0, notEvaluated: 0, manual: 97}],
      ['osps', {pass: 0, fail: 10, exception: 0, notEvaluated: 0, manual: 54}],
    ])
    expect(control(report, 'osps', 'OSPS-BR-01.03')).toMatchObject({status: 'fail', findings: 0, baselined: 15, suppressed: 0})
    const failing = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none', '--baseline', baseline, '--fail-on-control'], {env: serverEnv(server)})
    expect(failing.code).toBe(1)
  }, 60_000)

  it('the example snapshot with its own baseline: no control passes, and the console says so (issue 26)', async () => {
    const baseline = join(dir, 'example-baseline.json')
    await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--fail-on', 'none', '--update-baseline', baseline])
    const result = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--baseline', baseline])
    expect(result.code).toBe(0)
    expect(result.stdout.trimEnd().split('\n').slice(-3, -1)).toEqual([
      'CIS SSCS v1.0: 0 pass, 16 fail, 0 exception, 0 not evaluated, 97 manual',
      'OSPS Baseline v2026.02.19: 0 pass, 10 fail, 0 exception, 0 not evaluated, 54 manual',
    ])
  }, 60_000)

  it('a rule turned off leaves the controls it evidences not evaluated', async () => {
    const config = join(dir, 'off.json')
    await writeFile(config, JSON.stringify({rules: {'server/too-many-admins': 'off', 'server/plain-http-url': 'off'}}))
    const {report} = await scanJson(server, ['--config', config])
    expect(control(report, 'cis', '1.3.3')).toMatchObject({status: 'not-evaluated', findings: 0})
    expect(control(report, 'cis', '1.3.3').rules).toEqual([{id: 'server/too-many-admins', status: 'not-evaluated', findings: 0, baselined: 0, suppressed: 0, notEvaluated: 'turned off in the configuration'}])
    expect([control(report, 'osps', 'OSPS-BR-03.01').status, control(report, 'osps', 'OSPS-BR-03.02').status]).toEqual(['not-evaluated', 'not-evaluated'])
  }, 60_000)
})

describe('OSPS counts the primary branch only; CIS every judged branch', () => {
  it('findings on release branches fail CIS controls, not OSPS ones', async () => {
    // acme protects main only: with --branch 'release/**' its release/1.x is judged too, and is unprotected.
    const {report} = await scanJson(server, ['--branch', 'release/**'])
    expect(report.findings.filter((f: any) => f.ruleId === 'branch-protection/unprotected-branch').map((f: any) => [f.project.path, f.subject])).toEqual([['acme', 'release/1.x']])
    const cis = control(report, 'cis', '1.1.17')
    expect(cis.rules.map((r) => [r.id, r.status, r.findings])).toEqual([['branch-protection/deletion-allowed', 'fail', 1], ['branch-protection/unprotected-branch', 'fail', 1]])
    expect(cis.projects.map((p) => p.path)).toEqual(['acme', 'acme/app'])
    const osps = control(report, 'osps', 'OSPS-AC-03.02')
    expect(osps.rules.map((r) => [r.id, r.status, r.findings])).toEqual([['branch-protection/deletion-allowed', 'fail', 1], ['branch-protection/unprotected-branch', 'pass', 0]])
    expect(osps.projects.map((p) => p.path)).toEqual(['acme/app'])
  }, 60_000)
})

describe('--framework and --fail-on-control', () => {
  it('--framework osps shows the OSPS Baseline alone, in every format', async () => {
    const {report} = await scanJson(server, ['--framework', 'osps'])
    expect(report.compliance.map((f: any) => [f.framework, f.label, f.version])).toEqual([['osps', 'OSPS Baseline v2026.02.19', '2026.02.19']])
    const stylish = await runCli(['scan', '--all-projects', '--fail-on', 'none', '--framework', 'osps'], {env: serverEnv(server)})
    const lines = stylish.stdout.trimEnd().split('\n')
    expect(lines.at(-2)).toMatch(/^OSPS Baseline v2026\.02\.19: 0 pass, 10 fail, 0 exception, 0 not evaluated, 54 manual$/)
    expect(stylish.stdout).not.toContain('CIS SSCS')
    const sarifFile = join(dir, 'osps.sarif')
    await runCli(['scan', '--all-projects', '--fail-on', 'none', '--framework', 'osps', '--format', 'sarif', '--output', sarifFile], {env: serverEnv(server)})
    const sarif = JSON.parse(await readFile(sarifFile, 'utf8'))
    expect(validateSarif(sarif)).toEqual([])
    const tags = sarif.runs[0].tool.driver.rules.flatMap((r: any) => r.properties.tags)
    expect(tags.filter((t: string) => t.startsWith('CIS-'))).toEqual([])
    expect(sarif.runs[0].tool.driver.rules.find((r: any) => r.id === 'access/direct-push').properties.tags).toEqual(['security', 'access-control', 'branch-protection', 'OSPS-AC-03.01'])
  }, 60_000)

  it('both by default: the console prints a line per framework, markdown a table per framework, SARIF both tags', async () => {
    const stylish = await runCli(['scan', '--all-projects', '--fail-on', 'none'], {env: serverEnv(server)})
    const lines = stylish.stdout.trimEnd().split('\n')
    expect(lines.slice(-3, -1)).toEqual(['CIS SSCS v1.0: 0 pass, 16 fail, 0 exception, 0 not evaluated, 97 manual', 'OSPS Baseline v2026.02.19: 0 pass, 10 fail, 0 exception, 0 not evaluated, 54 manual'])
    const markdown = (await runCli(['scan', '--all-projects', '--fail-on', 'none', '--format', 'markdown'], {env: serverEnv(server)})).stdout
    expect(markdown).toContain('## Compliance\n\n### CIS SSCS v1.0\n\nCIS Software Supply Chain Security Guide 1.0: 0 pass, 16 fail, 0 exception, 0 not evaluated, 97 manual.\n\n| Control | Title | Status | Findings |')
    expect(markdown).toContain('| 1.1.16 | Ensure force push code to branches is denied | ✖ fail | 1 |')
    expect(markdown).toContain('### OSPS Baseline v2026.02.19')
    const sarif = JSON.parse((await runCli(['scan', '--all-projects', '--fail-on', 'none', '--format', 'sarif'], {env: serverEnv(server)})).stdout)
    expect(sarif.runs[0].tool.driver.rules.find((r: any) => r.id === 'branch-protection/unprotected-branch').properties.tags).toEqual([
      'security', 'branch-protection', 'CIS-1.1.9', 'CIS-1.1.10', 'CIS-1.1.12', 'CIS-1.1.16', 'CIS-1.1.17', 'OSPS-AC-03.01', 'OSPS-AC-03.02', 'OSPS-QA-03.01', 'OSPS-QA-07.01',
    ])
  }, 60_000)

  it('a framework that does not exist: exit 2, naming the choices', async () => {
    const result = await runCli(['scan', '--all-projects', '--framework', 'iso27001'], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('to be one of: cis, osps')
  })

  it('--fail-on-control exits 1 when a shown control fails, whatever --fail-on says; 0 when none fails; 2 stays 2', async () => {
    const failing = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none', '--fail-on-control'], {env: serverEnv(server)})
    expect(failing.code).toBe(1)
    expect((await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none'], {env: serverEnv(server)})).code).toBe(0)

    const hardened = await startOneDevServer(hardenedServer())
    try {
      const result = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none', '--fail-on-control'], {env: serverEnv(hardened)})
      const report = JSON.parse(result.stdout)
      expect(report.compliance.map((f: any) => [f.framework, f.counts])).toEqual([
        ['cis', {pass: 16, fail: 0, exception: 0, notEvaluated: 0, manual: 97}],
        ['osps', {pass: 9, fail: 0, exception: 0, notEvaluated: 1, manual: 54}],
      ])
      // A current server has no action authorizations (OneDev 8.0.4 and earlier): the one rule of OSPS-AC-04.02 has nothing to judge.
      expect(control(report, 'osps', 'OSPS-AC-04.02').rules).toEqual([
        expect.objectContaining({
          id: 'build/action-authorization-broad',
          status: 'not-evaluated',
          notEvaluated: "GET /projects/{id}/setting#/buildSetting/actionAuthorizations: no audited project's setting has it (only OneDev 8.0.4 and earlier send it): nothing to judge on this server",
        }),
      ])
      expect(result.code).toBe(0)
      // An incomplete audit is exit 2 whatever the controls say.
      hardened.override('GET /groups', {status: 403, text: 'Access denied'})
      const refused = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none', '--fail-on-control'], {env: serverEnv(hardened)})
      expect(refused.code).toBe(2)
      expect(control(JSON.parse(refused.stdout), 'cis', '1.3.3').rules[0]!.notEvaluated).toBe('GET /groups: the request failed (forbidden, HTTP 403)')
    } finally {
      await hardened.close()
    }
  }, 60_000)
})

describe('rules show', () => {
  it('names the controls a rule evidences in both frameworks, with their titles, and why one maps to none', async () => {
    const shown = await runCli(['rules', 'show', 'branch-protection/deletion-allowed'])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('CIS SSCS v1.0 ([mapping](https://github.com/onedev-audit/onedev-audit/blob/main/docs/compliance/cis-sscs-1.0.md)):\n\n- 1.1.17 Ensure branch deletions are denied\n')
    expect(shown.stdout).toContain('OSPS Baseline v2026.02.19 ([mapping](https://github.com/onedev-audit/onedev-audit/blob/main/docs/compliance/osps-baseline-2026-02-19.md)):\n\n- OSPS-AC-03.02 Protect the Primary Branch from Accidental Modification (findings on the default branch only)\n')
    const anonymous = await runCli(['rules', 'show', 'server/anonymous-access'])
    expect(anonymous.stdout).toContain('- none: The Baseline requires public read access to the code (OSPS-QA-01.01): anonymous access is never an OSPS failure.')
  })
})

/**
 * A server no rule that evidences a control finds anything on: one project with the strict
 * protection of main, no roles, no groups but an enforcing administrators group, a hardened
 * administration, every optional endpoint offered.
 */
function hardenedServer() {
  const admin = HARDENED_ADMIN
  return {
    projects: [{id: 1, path: 'acme', name: 'acme', parentId: null}],
    // Its protection of main requires "ci", strictly (CIS 1.1.10).
    settings: {1: {...PARENT_SETTING, branchProtections: [{...PARENT_SETTING.branchProtections[0], requireStrictBuilds: true}]}},
    roles: [],
    repositories: {1: {defaultBranch: 'main', branches: ['main'], tags: []}},
    access: {
      security: admin['/settings/security'],
      groups: admin['/groups'] as unknown[],
      users: admin['/users'] as unknown[],
      memberships: {1: [{id: 1, userId: 1, groupId: 1}]},
      groupAuthorizations: {},
      baseAuthorizations: {},
      groupProjectAuthorizations: {},
      userProjectAuthorizations: {},
    },
    admin: Object.fromEntries(Object.entries(admin).filter(([path]) => !/^\/(settings\/security|groups|users)$/.test(path))),
  }
}
