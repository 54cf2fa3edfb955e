/**
 * The reports OneDev's own steps read (docs/inside-onedev.md), written by the CLI for a server that
 * sends hostile names, then read back the way OneDev reads them (the JDK's XML parser, OneDev's
 * attributes and conversions: test/helpers/OneDevReports.java) and held against the JSON report of
 * the same snapshot.
 */
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {CHECKSTYLE_SEVERITY} from '../../src/report/checkstyle.js'
import type {AuditReport, ComplianceControl} from '../../src/types/report-types.js'
import type {DiffReport} from '../../src/diff/diff-types.js'
import {escapeControl} from '../../src/util/escape.js'
import {expectNoCanary} from '../helpers/canaries.js'
import {runCli} from '../helpers/cli.js'
import {EMPTY_SETTING, fixture, FIXTURE_PROJECTS, FIXTURE_REPOSITORIES, PARENT_SETTING, serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import type {OneDevServer} from '../helpers/onedev-server.js'
import {readCheckstyleAsOneDev, readJunitAsOneDev, type OneDevSuite} from '../helpers/onedev-reports.js'
import {tempDir} from '../helpers/temp-dir.js'

/** Markup, entities, a DOCTYPE, control and bidi characters, and the characters XML 1.0 forbids. */
const HOSTILE = `</file><error line="1"/>]]>"'&amp;\u0000\u0007\u001b[2J\u202e\ufffe\uffff<!DOCTYPE x>`
/** Git ref names cannot hold control characters (the audit refuses such a default branch): markup only. */
const HOSTILE_BRANCH = `</file><error line="1"/>]]>"'&amp;<!DOCTYPE x>`
const HOSTILE_PROJECT = {id: 5, path: `acme/${HOSTILE}`, name: HOSTILE, parentId: 1}

const hostileSetting = {
  ...EMPTY_SETTING,
  branchProtections: [{enabled: true, branches: HOSTILE_BRANCH, userMatch: 'anyone', preventForcedPush: false, preventDeletion: false, preventCreation: true, commitSignatureRequired: false, reviewRequirement: null, jobNames: [], fileProtections: []}],
  buildSetting: {jobSecrets: [{name: HOSTILE, value: 'CANARY-hostile-secret-7f3a', authorization: null}]},
}

let server: OneDevServer
let work: string
let json: AuditReport

beforeAll(async () => {
  server = await startFixtureServer({
    projects: [...FIXTURE_PROJECTS, HOSTILE_PROJECT],
    settings: {1: PARENT_SETTING, 2: fixture('current/setting-full.json'), 3: fixture('legacy/setting-full.json'), 4: EMPTY_SETTING, 5: hostileSetting},
    repositories: {...FIXTURE_REPOSITORIES, 5: {defaultBranch: HOSTILE_BRANCH, branches: [HOSTILE_BRANCH], tags: []}},
  })
  work = await tempDir('oda-onedev-reports')
  const collected = await runCli(['collect', '--all-projects', '--output-dir', 'onedev'], {env: serverEnv(server), cwd: work})
  expect(collected.code, collected.stderr).toBe(0)
  const scanned = await runCli(['scan', '--snapshot', 'onedev', '--format', 'json', '--output', 'report.json', '--fail-on', 'none'], {cwd: work})
  expect(scanned.code, scanned.stderr).toBe(0)
  json = JSON.parse(await readFile(join(work, 'report.json'), 'utf8'))
  expect(json.findings.some((f) => f.project?.id === HOSTILE_PROJECT.id)).toBe(true)
}, 120_000)

afterAll(async () => {
  await server.close()
})

/** `3 of access/direct-push, error` → count, for comparing the problems with the findings as multisets. */
function tally(items: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>()
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1)
  return counts
}

describe('scan --format checkstyle', () => {
  it('an incomplete snapshot: OneDev shows first, on line 1 of its index, a HIGH problem saying the audit is incomplete', async () => {
    // The same folder collected while one project's setting answered 500.
    server.override('GET /projects/3/setting', {status: 500, text: 'Internal Server Error'})
    try {
      const collected = await runCli(['collect', '--all-projects', '--output-dir', 'partial', '--retries', '0'], {env: serverEnv(server), cwd: work})
      expect(collected.code).toBe(2)
    } finally {
      server.reset()
    }
    const result = await runCli(['scan', '--snapshot', 'partial', '--format', 'checkstyle', '--output', 'partial.xml', '--fail-on', 'none'], {cwd: work})
    expect(result.code).toBe(2)
    const {problems, unresolved} = await readCheckstyleAsOneDev(join(work, 'partial.xml'), work)
    expect(unresolved).toEqual([])
    const flagged = problems.filter((p) => p.message.startsWith('onedev-audit/audit-incomplete: '))
    expect(flagged).toEqual([expect.objectContaining({file: 'partial/snapshot.json', line: 1, severity: 'HIGH'})])
    expect(flagged[0]!.message).toMatch(/^onedev-audit\/audit-incomplete: Audit incomplete: 1 error: Judged 4 projects \(1 with an empty repository; 1 more could not be read\) and \d+ roles: \d+ findings \(.*\)\. What it could not judge is not among these problems \(the errors are in the scan's output\)$/)
  })

  it('OneDev resolves every file and shows one problem per finding, at its member, with our severities, escaped', async () => {
    const result = await runCli(['scan', '--snapshot', 'onedev', '--format', 'checkstyle', '--output', 'checkstyle.xml', '--fail-on', 'none'], {cwd: work})
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/^onedev-audit: wrote checkstyle report to checkstyle\.xml: \d+ findings, 0 errors$/m)
    const text = await readFile(join(work, 'checkstyle.xml'), 'utf8')
    expectNoCanary(text)
    const {problems, unresolved} = await readCheckstyleAsOneDev(join(work, 'checkstyle.xml'), work)
    expect(unresolved).toEqual([])
    expect(problems).toHaveLength(json.findings.length)
    const severityName = {error: 'HIGH', warning: 'MEDIUM', info: 'LOW'} as const
    // Rule, severity and message of each problem: those of a finding of the JSON report, once each.
    expect(tally(problems.map((p) => `${p.severity} ${p.message}`))).toEqual(
      tally(
        json.findings.map((f) => {
          const context = [f.project ? `project ${f.project.path}` : '', f.role ? `role ${f.role.name}` : ''].filter(Boolean).join(', ')
          // Shown as escapes as in every format, and U+FFFE, U+FFFF too: XML 1.0 does not allow them.
          const message = escapeControl(context ? `${f.message} (${context})` : f.message).replace(/[\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
          return `${severityName[CHECKSTYLE_SEVERITY[f.severity]]} ${f.ruleId}: ${message}`
        }),
      ),
    )
    // The hostile names arrive as text, their control characters as escapes.
    expect(problems.some((p) => p.message.includes('</file><error line="1"/>]]>"\'&amp;\\x00\\x07\\x1b[2J\\u202e\\ufffe\\uffff<!DOCTYPE x>'))).toBe(true)
    for (const p of problems) expect(p.message).not.toMatch(/[\u0000-\u001f\u202e\ufffe\uffff]/)
    // Each problem sits on a line of the committed file, at the column where its member starts.
    const files = new Map<string, string[]>()
    for (const p of problems) {
      if (!files.has(p.file)) files.set(p.file, (await readFile(join(work, p.file), 'utf8')).split('\n'))
      const line = files.get(p.file)![p.line - 1]!
      expect(line.slice(0, p.column! - 1).trim(), `${p.file}:${p.line}:${p.column}`).toBe('')
      expect(line.charAt(p.column! - 1), `${p.file}:${p.line}:${p.column}`).toMatch(/["{[]/)
    }
    expect([...files.keys()].every((file) => file.startsWith('onedev/'))).toBe(true)
    expect(files.has('onedev/roles.json') && files.has('onedev/server.json')).toBe(true)
  })

  it('names the files from the working directory, as OneDev resolves them', async () => {
    const result = await runCli(['scan', '--snapshot', join(work, 'onedev'), '--format', 'checkstyle', '--fail-on', 'none'], {cwd: join(work, 'onedev')})
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('<file name="roles.json">')
    expect(result.stdout).toContain('<file name="projects/acme/app.json">')
  })

  it('a live scan or a one-file snapshot has no files to show problems on: one line, exit 2, no request', async () => {
    server.reset()
    const live = await runCli(['scan', '--all-projects', '--format', 'checkstyle'], {env: serverEnv(server), cwd: work})
    expect(live.code).toBe(2)
    expect(live.stdout).toBe('')
    expect(live.stderr).toBe(
      "onedev-audit: error: --format checkstyle shows findings on the lines of a snapshot folder's files, and a live scan has none: write one with `onedev-audit collect --output-dir onedev`, commit it, and run `onedev-audit scan --snapshot onedev --format checkstyle`\n",
    )
    expect(server.requests).toEqual([])
    const file = await runCli(['scan', '--snapshot', 'onedev/snapshot.json', '--format', 'checkstyle'], {cwd: work})
    expect(file.code).toBe(2)
    expect(file.stderr).toMatch(/^onedev-audit: error: --format checkstyle .* --snapshot onedev\/snapshot\.json is a single file: .*\n$/)
  })
})

/** OneDev's status of a control's case, from the JSON report's status. */
function expectedStatus(control: ComplianceControl): string {
  if (control.status === 'fail') return 'NOT_PASSED'
  return control.status === 'pass' && control.suppressed === 0 ? 'PASSED' : 'NOT_RUN'
}

function expectCountsMatch(suites: OneDevSuite[]): void {
  for (const suite of suites) {
    expect(suite.tests, suite.name).toBe(suite.cases.length)
    expect(suite.failures + suite.errors, suite.name).toBe(suite.cases.filter((c) => c.status === 'NOT_PASSED').length)
    expect(suite.skipped, suite.name).toBe(suite.cases.filter((c) => c.status === 'NOT_RUN').length)
    expect(new Set(suite.cases.map((c) => c.name)).size, suite.name).toBe(suite.cases.length)
  }
}

describe('scan --format junit', () => {
  it('OneDev reads a case per control and per enabled rule with the JSON report\'s statuses, from a snapshot and live, under the same names', async () => {
    const fromSnapshot = await runCli(['scan', '--snapshot', 'onedev', '--format', 'junit', '--output', 'junit.xml', '--fail-on', 'none'], {cwd: work})
    expect(fromSnapshot.code, fromSnapshot.stderr).toBe(0)
    const live = await runCli(['scan', '--all-projects', '--format', 'junit', '--output', 'junit-live.xml', '--fail-on', 'none'], {env: serverEnv(server), cwd: work})
    expect(live.code, live.stderr).toBe(0)
    const [report, liveReport] = await Promise.all([readJunitAsOneDev(join(work, 'junit.xml')), readJunitAsOneDev(join(work, 'junit-live.xml'))])
    expectNoCanary(await readFile(join(work, 'junit.xml'), 'utf8'))
    expectCountsMatch(report.suites)
    expect(report.suites.map((s) => s.name)).toEqual([...json.compliance!.map((f) => f.label), 'rules', 'audit'])
    for (const framework of json.compliance!) {
      const suite = report.suites.find((s) => s.name === framework.label)!
      expect(suite.cases.map((c) => [c.name, c.status])).toEqual(framework.controls.map((control) => [`${control.id} ${control.title}`, expectedStatus(control)]))
      // A failing control lists each of its findings once.
      for (const [index, control] of framework.controls.entries()) {
        if (control.status === 'fail') expect(suite.cases[index]!.text!.match(/^ {2}\S+ +.*\[[^\]]+\]$/gm), control.id).toHaveLength(control.findings)
      }
    }
    const rules = report.suites.find((s) => s.name === 'rules')!
    expect(rules.cases).toHaveLength(json.summary.rules)
    const failing = tally(json.findings.map((f) => f.ruleId))
    expect(new Set(rules.cases.filter((c) => c.status === 'NOT_PASSED').map((c) => c.name))).toEqual(new Set(failing.keys()))
    for (const c of rules.cases.filter((c) => c.status === 'NOT_PASSED')) expect(c.text!.split('\n')[0], c.name).toMatch(new RegExp(`^${failing.get(c.name)} findings? \\(`))
    expect(report.suites.at(-1)!.cases).toEqual([{name: 'complete', status: 'PASSED', error: false, text: null}])
    // A case's history in OneDev follows its suite and name: the live scan of the same server has the same ones.
    expect(liveReport.suites.map((s) => [s.name, s.cases.map((c) => c.name)])).toEqual(report.suites.map((s) => [s.name, s.cases.map((c) => c.name)]))
    expect(liveReport.suites.map((s) => s.cases.map((c) => c.status))).toEqual(report.suites.map((s) => s.cases.map((c) => c.status)))
  }, 60_000)
})

describe('diff --format junit', () => {
  it('one failed case per weakening, as many as the JSON diff counts', async () => {
    const before = server.settings[2] as Record<string, any>
    const weakened = structuredClone(before)
    for (const protection of weakened.branchProtections) protection.preventForcedPush = false
    ;(server.settings as Record<number, unknown>)[2] = weakened
    try {
      const collected = await runCli(['collect', '--all-projects', '--output-dir', 'tonight'], {env: serverEnv(server), cwd: work})
      expect(collected.code, collected.stderr).toBe(0)
    } finally {
      ;(server.settings as Record<number, unknown>)[2] = before
    }
    const junit = await runCli(['diff', 'onedev', 'tonight', '--format', 'junit', '--output', 'drift.xml', '--fail-on', 'none'], {cwd: work})
    expect(junit.code, junit.stderr).toBe(0)
    const jsonDiff = await runCli(['diff', 'onedev', 'tonight', '--format', 'json', '--fail-on', 'none'], {cwd: work})
    const diff: DiffReport = JSON.parse(jsonDiff.stdout)
    expect(diff.summary.weakened).toBeGreaterThan(0)
    const report = await readJunitAsOneDev(join(work, 'drift.xml'))
    expectCountsMatch(report.suites)
    const [weakenedSuite, audit] = report.suites
    expect(weakenedSuite!.name).toBe('weakened')
    expect(weakenedSuite!.cases).toHaveLength(diff.summary.weakened)
    expect(weakenedSuite!.cases.every((c) => c.status === 'NOT_PASSED' && !c.error)).toBe(true)
    expect(weakenedSuite!.cases.map((c) => c.name)).toContain('acme/app: branch-protection/force-push-allowed master')
    expect(audit!.cases).toEqual([{name: 'complete', status: 'PASSED', error: false, text: null}])
  }, 60_000)
})
