import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {closedPort} from '../helpers/onedev-server.js'
import {validateReportJson, validateSarif} from '../helpers/sarif-validate.js'
import {tempDir} from '../helpers/temp-dir.js'

// The bundled example snapshot: no server needed.
const SNAPSHOT = 'examples/snapshot.json'
let dir: string

beforeAll(async () => {
  dir = await tempDir('oda-baseline')
})

async function scanJson(args: string[]) {
  const result = await runCli(['scan', '--snapshot', SNAPSHOT, '--format', 'json', ...args])
  return {...result, report: JSON.parse(result.stdout)}
}

describe('suppressions from the configuration', () => {
  it('leaves suppressed findings out of SARIF, keeps them in JSON with the reason, and reports expired and unused ones', async () => {
    const config = join(dir, 'suppress.config.json')
    await writeFile(
      config,
      JSON.stringify({
        suppressions: [
          {rule: 'job-secret/broad-branches', project: 'acme/**', subject: 'npm-token', justification: 'rotated weekly, SEC-12'},
          {rule: 'notification/insecure-webhook', justification: 'was accepted until the migration', expires: '2020-01-01'},
          {rule: 'webhook/missing-secret', project: 'nowhere/**', justification: 'left over'},
        ],
      }),
    )
    const {code, report, stderr} = await scanJson(['--config', config, '--fail-on', 'none'])
    expect(code).toBe(0)
    expect(validateReportJson(report)).toEqual([])
    expect(report.suppressed).toEqual([
      {finding: expect.objectContaining({ruleId: 'job-secret/broad-branches', subject: 'npm-token', project: {id: 2, path: 'acme/app'}}), reason: {kind: 'suppression', justification: 'rotated weekly, SEC-12'}},
    ])
    expect(report.findings.some((f: any) => f.ruleId === 'job-secret/broad-branches' && f.project?.path === 'acme/app' && f.subject === 'npm-token')).toBe(false)
    // The expired suppression no longer suppresses.
    expect(report.findings.some((f: any) => f.ruleId === 'notification/insecure-webhook')).toBe(true)
    expect(report.notices).toEqual([
      {kind: 'suppression-expired', message: 'suppression #2 (rule notification/insecure-webhook) expired on 2020-01-01: its findings are reported again'},
      {kind: 'suppression-unused', message: 'suppression #3 (rule webhook/missing-secret, project nowhere/**) matched no finding: remove it if the problem is fixed'},
    ])
    expect(stderr).toContain('onedev-audit: suppression-expired: suppression #2')

    const sarifOut = join(dir, 'suppressed.sarif')
    const sarif = await runCli(['scan', '--snapshot', SNAPSHOT, '--config', config, '--format', 'sarif', '--output', sarifOut, '--fail-on', 'none'])
    expect(sarif.code).toBe(0)
    const log = JSON.parse(await readFile(sarifOut, 'utf8'))
    expect(validateSarif(log)).toEqual([])
    const fingerprint = report.suppressed[0].finding.fingerprint
    expect(log.runs[0].results.some((r: any) => Object.values(r.partialFingerprints).includes(fingerprint))).toBe(false)
    expect(log.runs[0].results).toHaveLength(report.findings.length)
  })
})

describe('baseline', () => {
  it('--update-baseline writes every finding and exits 0; --baseline then reports only new ones and exits 0', async () => {
    const baseline = join(dir, 'onedev-audit.baseline.json')
    const first = await scanJson(['--update-baseline', baseline])
    expect(first.code).toBe(0)
    expect(first.stderr).toBe(`onedev-audit: wrote baseline ${baseline} (${first.report.findings.length} findings)\n`)
    const written = JSON.parse(await readFile(baseline, 'utf8'))
    expect(written.baselineVersion).toBe(2)
    expect(written.findings.map((f: any) => f.fingerprint).sort()).toEqual(first.report.findings.map((f: any) => f.fingerprint).sort())

    const second = await scanJson(['--baseline', baseline])
    expect(second.code).toBe(0)
    expect(second.report.findings).toEqual([])
    expect(second.report.suppressed).toHaveLength(first.report.findings.length)
    expect(second.report.suppressed.every((s: any) => s.reason.kind === 'baseline')).toBe(true)

    // A finding the baseline does not know is reported: drop one entry from the baseline.
    const dropped = written.findings.find((f: any) => f.ruleId === 'job-secret/broad-branches')
    await writeFile(baseline, JSON.stringify({...written, findings: written.findings.filter((f: any) => f !== dropped)}))
    const third = await scanJson(['--baseline', baseline])
    expect(third.code).toBe(1)
    expect(third.report.findings.map((f: any) => f.fingerprint)).toEqual([dropped.fingerprint])
  })

  it('against a baseline, the verdict says "new" and counts the known findings apart, never "No findings" or "suppressed"', async () => {
    const baseline = join(dir, 'known.baseline.json')
    const first = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--update-baseline', baseline])
    expect(first.code).toBe(0)
    const known = JSON.parse(await readFile(baseline, 'utf8')).findings.length
    const console = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--baseline', baseline])
    expect(console.code).toBe(0)
    expect(console.stdout.trimEnd().split('\n').at(-1)).toBe(`✔ No new findings in 4 projects (1 with an empty repository) and 10 roles (OneDev 16.5.6), ${known} already in the baseline`)
    const markdown = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--baseline', baseline, '--format', 'markdown'])
    expect(markdown.stdout).toContain(`✔ **No new findings** in 4 projects (1 with an empty repository) and 10 roles (${known} already in the baseline).`)
    expect(console.stdout + markdown.stdout).not.toMatch(/No findings|suppressed/)
  })

  it('--update-baseline of an incomplete audit still exits 2', async () => {
    const snapshot = JSON.parse(await readFile(SNAPSHOT, 'utf8'))
    snapshot.projects[1].setting.branchProtections[0].enabled = 'yes'
    const broken = join(dir, 'incomplete.snapshot.json')
    await writeFile(broken, JSON.stringify(snapshot))
    const result = await runCli(['scan', '--snapshot', broken, '--format', 'json', '--update-baseline', join(dir, 'incomplete.baseline.json')])
    expect(result.code).toBe(2)
    expect(JSON.parse(result.stdout).complete).toBe(false)
  })

  it('--update-baseline of an incomplete audit drops no entry of the baseline there (what it could not judge stays known); a complete one writes exactly its findings', async () => {
    const baseline = join(dir, 'kept.baseline.json')
    expect((await runCli(['scan', '--snapshot', SNAPSHOT, '--fail-on', 'none', '--update-baseline', baseline])).code).toBe(0)
    const full = JSON.parse(await readFile(baseline, 'utf8')).findings as Array<{fingerprint: string; project: string | null}>
    expect(full.filter((f) => f.project === 'acme/app').length).toBeGreaterThan(5)

    // An unreachable server: nothing judged, nothing dropped.
    const refused = await runCli(['scan', '--all-projects', '--retries', '0', '--update-baseline', baseline], {env: {ONEDEV_URL: `http://127.0.0.1:${await closedPort()}`, ONEDEV_TOKEN: 'x'}})
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`onedev-audit: wrote baseline ${baseline} (0 findings, and ${full.length} kept from the baseline there: the audit is incomplete, so what it could not judge stays known)\n`)
    expect(JSON.parse(await readFile(baseline, 'utf8')).findings).toEqual(full)

    // acme/app's setting cannot be read: its entries stay, the others are this run's.
    const snapshot = JSON.parse(await readFile(SNAPSHOT, 'utf8'))
    snapshot.projects[1].setting.branchProtections[0].enabled = 'yes'
    const broken = join(dir, 'kept.snapshot.json')
    await writeFile(broken, JSON.stringify(snapshot))
    expect((await runCli(['scan', '--snapshot', broken, '--fail-on', 'none', '--update-baseline', baseline])).code).toBe(2)
    expect(new Set(JSON.parse(await readFile(baseline, 'utf8')).findings.map((f: {fingerprint: string}) => f.fingerprint))).toEqual(new Set(full.map((f) => f.fingerprint)))

    // Complete again, with a finding fixed: exactly this run's findings.
    snapshot.projects[1].setting.branchProtections[0].enabled = true
    snapshot.projects[1].setting.webHooks = []
    await writeFile(broken, JSON.stringify(snapshot))
    const fixed = await runCli(['scan', '--snapshot', broken, '--format', 'json', '--fail-on', 'none', '--update-baseline', baseline])
    expect(fixed.code).toBe(0)
    const now = JSON.parse(await readFile(baseline, 'utf8')).findings.map((f: {fingerprint: string}) => f.fingerprint).sort()
    expect(now).toEqual([...new Set(JSON.parse(fixed.stdout).findings.map((f: {fingerprint: string}) => f.fingerprint))].sort())
    expect(now.length).toBeLessThan(full.length)
  })

  it('a server listing the same items in another order, with a new web hook first, has only the new hook\'s findings reported', async () => {
    const snapshot = JSON.parse(await readFile(SNAPSHOT, 'utf8'))
    const before = join(dir, 'before.snapshot.json')
    await writeFile(before, JSON.stringify(snapshot))
    const baseline = join(dir, 'reordered.baseline.json')
    expect((await runCli(['scan', '--snapshot', before, '--update-baseline', baseline, '--fail-on', 'none'])).code).toBe(0)

    for (const project of snapshot.projects) {
      const setting = project.setting
      if (!setting) continue
      if (Array.isArray(setting.webHooks)) setting.webHooks = [{postUrl: 'http://new-hook.example.net/x', eventTypes: ['BUILD'], secret: null, headers: []}, ...setting.webHooks.reverse()]
      if (Array.isArray(setting.buildSetting?.jobSecrets)) setting.buildSetting.jobSecrets.reverse()
      for (const entry of Array.isArray(setting.contributedSettings) ? setting.contributedSettings : []) entry.notifications?.reverse()
    }
    snapshot.roles.reverse()
    for (const role of snapshot.roles) role.jobPrivileges?.reverse()
    const after = join(dir, 'after.snapshot.json')
    await writeFile(after, JSON.stringify(snapshot))
    const result = await runCli(['scan', '--snapshot', after, '--baseline', baseline, '--format', 'json'])
    expect(result.code).toBe(1)
    const findings = JSON.parse(result.stdout).findings
    expect(findings.length).toBeGreaterThan(0)
    expect(findings.map((f: any) => f.subject).filter((s: string) => s !== 'new-hook.example.net')).toEqual([])
  })

  it('a baseline of an older onedev-audit (fingerprints by position) is refused in one line, exit 2', async () => {
    // Version 1 named many list items by their position: matching its fingerprints would report them all as new.
    const old = join(dir, 'v1.baseline.json')
    const entry = {fingerprint: '0123456789abcdef0123456789abcdef', ruleId: 'webhook/missing-secret', project: 'acme/app', subject: 'ci.example.com'}
    await writeFile(old, JSON.stringify({baselineVersion: 1, findings: [entry]}, null, 2) + '\n')
    const result = await runCli(['scan', '--snapshot', SNAPSHOT, '--baseline', old, '--format', 'json'])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`onedev-audit: error: baseline ${old} was written by an older onedev-audit whose fingerprints are no longer valid: regenerate it with --update-baseline\n`)
  })

  it('a broken baseline is a one-line error naming the file, exit 2', async () => {
    const broken = join(dir, 'broken.baseline.json')
    await writeFile(broken, '{"baselineVersion": 1, "findings": [}')
    const result = await runCli(['scan', '--snapshot', SNAPSHOT, '--baseline', broken])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`onedev-audit: error: ${broken}:1:37: invalid JSON: unexpected character\n`)
  })
})

describe('baseline read before collecting', () => {
  it('a broken baseline fails before any request to the server', async () => {
    const {startFixtureServer, serverEnv} = await import('../helpers/fixture-server.js')
    const server = await startFixtureServer()
    try {
      const broken = join(dir, 'broken-live.baseline.json')
      await writeFile(broken, '{"baselineVersion": 3, "findings": []}')
      const result = await runCli(['scan', '--all-projects', '--baseline', broken], {env: serverEnv(server)})
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(/^onedev-audit: error: .*broken-live\.baseline\.json: \/baselineVersion: /)
      expect(server.requests).toEqual([])
    } finally {
      await server.close()
    }
  })
})
