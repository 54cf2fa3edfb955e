/**
 * The HTML reports opened in a real browser (Debian's Chromium, test/helpers/browser.ts), as a person
 * opens them: written by the CLI from snapshots, loaded from their file:// URL. No request leaves the
 * page, nothing logs an error (a Content-Security-Policy violation would), hostile names stay text,
 * and the tables filter, sort and page to exactly the rows the JSON report says.
 */
import {execFile} from 'node:child_process'
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {promisify} from 'node:util'

import type {Browser} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {DiffReport} from '../../src/diff/diff-types.js'
import {textOf} from '../../src/report/chunks.js'
import {HTML_TABLE_ROWS, htmlChunks, topRisks} from '../../src/report/html.js'
import type {AuditReport, Finding, Severity} from '../../src/types/report-types.js'
import {launchChromium, openReport, screenshot, shownRows} from '../helpers/browser.js'
import {ROOT, runCli} from '../helpers/cli.js'
import {serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import {tempDir} from '../helpers/temp-dir.js'
import {finding, sampleInput} from './sample-input.js'

let dir: string
let launched: Promise<Browser> | undefined

/** The browser, started by the first test that needs it: without Chromium each test fails, saying how to install it. */
const browser = () => (launched ??= launchChromium())

beforeAll(async () => {
  dir = await tempDir('oda-html')
})
afterAll(async () => {
  await (await launched?.catch(() => undefined))?.close()
})

const IMG = '<img src=x onerror=window.pwned=1>'
const SCRIPT = '</script><script>window.pwned=2</script>'

/** The example snapshot with two projects renamed to markup, and a branch named like it. */
async function hostileSnapshot(): Promise<string> {
  const snapshot = JSON.parse(await readFile('examples/snapshot.json', 'utf8')) as {projects: {path: string; repository?: {defaultBranch?: string; branches?: string[]}}[]}
  for (const project of snapshot.projects) {
    if (project.path === 'acme/app') project.path = `acme/${IMG}`
    if (project.path === 'legacy/tool') project.path = `legacy/${SCRIPT}`
  }
  const file = join(dir, 'hostile.json')
  await writeFile(file, JSON.stringify(snapshot))
  return file
}

/** The report of `args` in HTML (a file) and the same as JSON. */
async function scanReports(args: string[], name: string): Promise<{file: string; json: AuditReport}> {
  const file = join(dir, `${name}.html`)
  const html = await runCli([...args, '--format', 'html', '--output', file, '--fail-on', 'none'])
  expect(html.code, html.stderr).toBe(0)
  const json = await runCli([...args, '--format', 'json', '--fail-on', 'none'])
  return {file, json: JSON.parse(json.stdout) as AuditReport}
}

const SEVERITY_ORDER: Severity[] = ['critical', 'high', 'medium', 'low', 'info']

/** Text as the page shows it: Markdown code spans as code, without their backticks (a lone backtick stays). */
function shown(text: string): string {
  const parts = text.split('`')
  return parts.map((part, i) => (i % 2 === 1 && i === parts.length - 1 ? `\`${part}` : part)).join('')
}

/** What the findings table shows of a finding: severity, rule, project (or roles, file, server), subject, message. */
function row(f: Finding): string[] {
  const where = f.project ? f.project.path : f.role ? 'roles' : (f.file ?? 'server')
  const subject = f.subject !== '' ? f.subject : (f.role?.name ?? '')
  return [f.severity, f.ruleId, where, subject, shown(f.source ? `${f.message} (inherited from ${f.source.path})` : f.message)]
}

/** The verdict's headline as the JSON report's summary gives it: `65 findings: 7 critical, 23 high, …`, no zeros. */
function headline(summary: AuditReport['summary']): string {
  const found = SEVERITY_ORDER.filter((s) => summary.bySeverity[s] > 0).map((s) => `${summary.bySeverity[s].toLocaleString('en')} ${s}`)
  return summary.findings === 0 ? 'No findings' : `${summary.findings.toLocaleString('en')} findings: ${found.join(', ')}`
}

/** The top risks of a JSON report's findings: each line's text, as the page shows it. */
const risks = (findings: Finding[]) => topRisks(findings).map(({finding}) => shown(finding.source ? `${finding.message} (inherited from ${finding.source.path})` : finding.message))
const FAIL_RED = 'rgb(159, 28, 28)'

/** The top of the page, in order: the header's badge, the verdict, the errors, the top risks, the findings (their tops, in pixels). */
async function topOrder(page: import('playwright-core').Page): Promise<string[]> {
  const ids = ['verdict', 'errors', 'top-risks', 'notices', 'about', 'findings']
  const tops = await page.evaluate((list) => list.flatMap((id) => {
    const node = (globalThis as any).document.getElementById(id) as {getBoundingClientRect(): {top: number}} | null
    return node ? [[id, node.getBoundingClientRect().top] as const] : []
  }), ids)
  return [...tops].sort((a, b) => a[1] - b[1]).map(([id]) => id)
}

const findingsSelect = (column: number) => `section[data-table="findings"] select[data-column="${column}"]`
const search = (table: string) => `section[data-table="${table}"] input[data-search]`

describe('the scan report in a browser', () => {
  it('the example: loads nothing, logs nothing, and filters, sorts and links to exactly the findings of the JSON report', async () => {
    const {file, json} = await scanReports(['scan', '--snapshot', 'examples/snapshot.json'], 'example')
    // Tall enough for the screenshot to show the summary and the first findings (docs/html-report.png is this one).
    const {page, requests, problems, context} = await openReport(await browser(), file, {height: 1500})
    try {
      expect(requests).toEqual([])
      expect(await page.locator('section[data-table="findings"] .controls').isVisible()).toBe(true)
      const all = json.findings.map(row)
      expect(await shownRows(page, 'findings')).toEqual(all)
      expect(await page.locator('section[data-table="findings"] .pager .count').textContent()).toBe(`Showing 1–${all.length} of ${all.length} findings`)
      // The top: how bad (in the red of the worst severity, never a green "Audit complete"), how complete, the top risks.
      const badge = page.locator('header .status')
      expect(await badge.textContent()).toBe(`${json.summary.bySeverity.critical} critical of ${json.summary.findings} findings`)
      expect(await badge.evaluate((e) => (globalThis as any).getComputedStyle(e).color as string)).toBe(FAIL_RED)
      expect(await page.locator('#verdict .headline').textContent()).toBe(headline(json.summary))
      expect(await page.locator('#verdict p.verdict').textContent()).toBe('Audit complete: judged 4 projects (1 with an empty repository) and 10 roles with 55 enabled rules.')
      expect(await page.locator('ol.risks .what').allTextContents()).toEqual(risks(json.findings))
      expect(await topOrder(page)).toEqual(['verdict', 'top-risks', 'about', 'findings'])
      // Code spans are code, in the top risks and in the rows the script renders.
      const quoted = json.findings.filter((f) => f.message.includes('`'))
      expect(quoted.length).toBeGreaterThan(3)
      expect(await page.locator('section[data-table="findings"] td.msg code').count()).toBeGreaterThanOrEqual(quoted.length)
      expect(await page.locator('ol.risks code').first().textContent()).toMatch(/^on branch "/)
      expect(await page.getByText('Audit complete', {exact: true}).count()).toBe(0)
      await screenshot(page, 'html-report-example.png')

      await page.selectOption(findingsSelect(0), {label: `critical (${json.summary.bySeverity.critical})`})
      expect(await shownRows(page, 'findings')).toEqual(all.filter((r) => r[0] === 'critical'))
      await page.selectOption(findingsSelect(0), '')

      await page.fill(search('findings'), 'NPM-token')
      const matching = all.filter((r) => r.some((cell) => cell.toLowerCase().includes('npm-token')))
      expect(matching.length).toBeGreaterThan(2)
      expect(matching.length).toBeLessThan(all.length)
      await expect.poll(() => shownRows(page, 'findings')).toEqual(matching)
      await page.fill(search('findings'), '')
      await expect.poll(() => shownRows(page, 'findings')).toEqual(all)

      const ruleHeader = page.locator('section[data-table="findings"] thead th', {hasText: 'Rule'})
      await ruleHeader.locator('button').click()
      const byRule = [...all].sort((a, b) => (a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0))
      expect(await shownRows(page, 'findings')).toEqual(byRule)
      expect(await ruleHeader.getAttribute('aria-sort')).toBe('ascending')
      await ruleHeader.locator('button').click()
      expect((await shownRows(page, 'findings')).map((r) => r[1])).toEqual(byRule.map((r) => r[1]).reverse())
      const severityHeader = page.locator('section[data-table="findings"] thead th', {hasText: 'Severity'})
      await severityHeader.locator('button').click()
      expect((await shownRows(page, 'findings')).map((r) => r[0])).toEqual(all.map((r) => r[0]).sort((a, b) => SEVERITY_ORDER.indexOf(a as Severity) - SEVERITY_ORDER.indexOf(b as Severity)))

      // A project's name in the projects table shows its findings.
      await page.locator('section[data-table="projects"] button.link', {hasText: 'legacy/tool'}).click()
      expect(await page.evaluate(`document.querySelector('${findingsSelect(2)}').selectedOptions[0].textContent`)).toMatch(/^legacy\/tool \(\d+\)$/)
      expect((await shownRows(page, 'findings')).map((r) => r[2])).toEqual(all.filter((r) => r[2] === 'legacy/tool').map(() => 'legacy/tool'))
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('project names made of markup show as text and never run, with and without JavaScript', async () => {
    const {file, json} = await scanReports(['scan', '--snapshot', await hostileSnapshot()], 'hostile')
    expect(json.findings.some((f) => f.project?.path === `acme/${IMG}`)).toBe(true)
    for (const javaScript of [true, false]) {
      const {page, requests, problems, context} = await openReport(await browser(), file, {javaScript})
      try {
        await page.waitForTimeout(200)
        expect(requests).toEqual([])
        expect(problems).toEqual([])
        expect(await page.locator('img').count()).toBe(0)
        // One script runs; every other script element is a JSON data block.
        expect(await page.locator('script:not([type])').count()).toBe(1)
        expect(await page.locator('script[type]:not([type="application/json"])').count()).toBe(0)
        expect((await page.locator('ol.risks .where').allTextContents()).some((where) => where.startsWith(`acme/${IMG}`) || where.startsWith(`legacy/${SCRIPT}`))).toBe(true)
        for (const name of [`acme/${IMG}`, `legacy/${SCRIPT}`]) {
          expect(await page.locator('section[data-table="projects"] td', {hasText: name}).first().textContent()).toBe(name)
          expect(await page.locator('section[data-table="findings"] td', {hasText: name}).count()).toBeGreaterThan(0)
        }
        if (javaScript) expect(await page.evaluate('window.pwned')).toBeUndefined()
      } finally {
        await context.close()
      }
    }
  })

  it('without JavaScript: every table is there as HTML, the controls are not', async () => {
    const {file, json} = await scanReports(['scan', '--snapshot', 'examples/snapshot.json'], 'example-nojs')
    const {page, problems, context} = await openReport(await browser(), file, {javaScript: false})
    try {
      expect(await shownRows(page, 'findings')).toEqual(json.findings.map(row))
      expect(await page.locator('.controls').first().isVisible()).toBe(false)
      expect(await page.locator('.pager').count()).toBe(0)
      expect(await page.locator('.nojs').count()).toBe(0)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('lists the suppressed findings with the reason, apart from the findings', async () => {
    const {file, json} = await scanReports(['scan', '--snapshot', 'examples/snapshot.json', '--config', 'examples/onedev-audit.config.json'], 'example-config')
    expect(json.suppressed.length).toBeGreaterThan(0)
    const {page, problems, context} = await openReport(await browser(), file)
    try {
      const why = (reason: AuditReport['suppressed'][number]['reason']) =>
        reason.kind === 'baseline' ? 'in the baseline' : `suppressed${reason.expires ? ` until ${reason.expires}` : ''}${reason.justification ? `: ${reason.justification}` : ''}`
      expect(await shownRows(page, 'suppressed')).toEqual(json.suppressed.map((s) => [...row(s.finding), why(s.reason)]))
      expect(await shownRows(page, 'findings')).toEqual(json.findings.map(row))
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  })
})

describe('long rule ids and messages', () => {
  it('leave the subject column readable: at least 140 pixels wide, with and without JavaScript', async () => {
    const long = [
      finding({
        ruleId: 'acme-plugin/branch-protection-requires-signed-commits-and-linear-history-everywhere',
        severity: 'high',
        subject: 'release/2026-hotfix-for-the-payment-service',
        pointer: '/branchProtections/0',
        project: {id: 7, path: 'platform/payments/payment-service-with-a-long-name'},
        message: `${'A message that quotes a long value: '.repeat(8)}${'x'.repeat(300)}`,
      }),
    ]
    const file = join(dir, 'long.html')
    await writeFile(file, textOf(htmlChunks(sampleInput({findings: long, errors: [], notices: []}))))
    for (const javaScript of [true, false]) {
      const {page, problems, context} = await openReport(await browser(), file, {javaScript, width: 1024})
      try {
        const subject = page.locator('section[data-table="findings"] tbody td.subject').first()
        expect(await subject.textContent()).toBe('release/2026-hotfix-for-the-payment-service')
        expect((await subject.boundingBox())!.width, `JavaScript ${javaScript ? 'on' : 'off'}`).toBeGreaterThanOrEqual(140)
        // A long unbroken word in a message wraps instead of pushing the table wider than the page.
        const wrap = page.locator('section[data-table="findings"] .table-wrap')
        expect(await wrap.evaluate((e) => e.scrollWidth - e.clientWidth), `JavaScript ${javaScript ? 'on' : 'off'}`).toBe(0)
        if (javaScript) {
          await subject.scrollIntoViewIfNeeded()
          await screenshot(page, 'html-long-subject.png')
        }
        expect(problems).toEqual([])
      } finally {
        await context.close()
      }
    }
  })
})

describe('the compliance tables in a browser', () => {
  it('show each judged control with the status, findings and suppressed counts of the JSON report, and filter by status', async () => {
    // One well-protected project and no server data: controls that pass, fail and were not evaluated.
    const snapshot = JSON.parse(await readFile('examples/snapshot.json', 'utf8')) as {projects: {path: string}[]; serverData?: unknown; notEvaluated?: unknown}
    snapshot.projects = snapshot.projects.filter((p) => p.path === 'acme')
    delete snapshot.serverData
    delete snapshot.notEvaluated
    const snapshotFile = join(dir, 'acme-only.json')
    await writeFile(snapshotFile, JSON.stringify(snapshot))
    const {file, json} = await scanReports(['scan', '--snapshot', snapshotFile], 'compliance')
    const frameworks = json.compliance!
    expect(frameworks.map((f) => f.framework)).toEqual(['cis', 'osps'])
    const statuses = new Set(frameworks.flatMap((f) => f.controls.map((c) => c.status)))
    expect([...statuses].sort()).toEqual(['fail', 'manual', 'not-evaluated', 'pass'])

    const {page, requests, problems, context} = await openReport(await browser(), file)
    try {
      const word = (status: string) => (status === 'not-evaluated' ? 'not evaluated' : status)
      for (const framework of frameworks) {
        const table = `compliance-${framework.framework}`
        const judged = framework.controls.filter((c) => c.status !== 'manual')
        const expected = judged.map((c) => [`${c.id}${c.approximate ? ' ≈' : ''}`, c.title, word(c.status), String(c.findings + c.baselined)])
        const rows = await shownRows(page, table)
        expect(rows.map((r) => [...r.slice(0, 3), r[4]])).toEqual(expected)
        // What failed, in words: each rule's line says what it looks for (its short description), the rule id as code.
        const found = ['Found', 'None found', 'Not evaluated', 'Found, suppressed']
        rows.forEach((r, i) => {
          for (const rule of judged[i]!.rules) {
            expect(r[3]).toContain(`(${rule.id}${rule.approximate === undefined ? '' : ' ≈'})`)
            expect(found.some((word) => r[3]!.includes(`${word}: `))).toBe(true)
          }
        })
        expect(await page.locator(`section[data-table="${table}"] td.found code`).count()).toBe(judged.reduce((sum, c) => sum + c.rules.length, 0))
        // Each status in its colour.
        for (const status of ['pass', 'fail', 'not-evaluated']) {
          expect(await page.locator(`section[data-table="${table}"] .badge.b-${status}`).count()).toBe(judged.filter((c) => c.status === status).length)
        }
        const pass = expected.filter((r) => r[2] === 'pass')
        expect(pass.length).toBe(framework.counts.pass)
        await page.selectOption(`section[data-table="${table}"] select[data-column="2"]`, {label: `pass (${pass.length})`})
        expect((await shownRows(page, table)).map((r) => r[0])).toEqual(pass.map((r) => r[0]))
        const manual = framework.controls.filter((c) => c.status === 'manual').length
        expect(await page.locator('details.manual summary', {hasText: `${framework.counts.manual} manual controls`}).count()).toBe(1)
        expect(manual).toBe(framework.counts.manual)
      }
      expect(requests).toEqual([])
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  })
})

describe('the top of the page answers the reader\'s question', () => {
  it('a small server with a project that cannot be read: "Audit incomplete" in red, what failed, then the top risks', async () => {
    const server = await startFixtureServer()
    try {
      server.override('GET /projects/3/setting', {status: 500, text: 'Internal Server Error'})
      const file = join(dir, 'live-incomplete.html')
      const html = await runCli(['scan', '--all-projects', '--format', 'html', '--output', file, '--fail-on', 'none'], {env: serverEnv(server)})
      expect(html.code).toBe(2)
      const json = JSON.parse((await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none'], {env: serverEnv(server)})).stdout) as AuditReport
      expect(json.summary.errors).toBe(1)
      const {page, requests, problems, context} = await openReport(await browser(), file, {height: 1300})
      try {
        const badge = page.locator('header .status')
        expect(await badge.textContent()).toBe('Audit incomplete: 1 error')
        expect(await badge.getAttribute('href')).toBe('#errors')
        expect(await badge.evaluate((e) => (globalThis as any).getComputedStyle(e).color as string)).toBe(FAIL_RED)
        expect(await page.locator('#verdict .headline').textContent()).toBe('Audit incomplete: 1 error')
        const judged = json.summary.verdict.slice('Audit incomplete: 1 error. '.length)
        expect(await page.locator('#verdict p.verdict').textContent()).toBe(`${judged}. What could not be read is listed right below: what follows is not the whole answer.`)
        expect(await topOrder(page)).toEqual(['verdict', 'errors', 'top-risks', 'notices', 'about', 'findings'].filter((id) => id !== 'notices' || json.notices.length > 0))
        expect(await page.locator('#errors li').allTextContents()).toEqual([expect.stringMatching(/^error.*projects\/3\/setting/)])
        expect(await page.locator('ol.risks .what').allTextContents()).toEqual(risks(json.findings))
        expect(await page.getByText(/Audit complete/).count()).toBe(0)
        expect(requests).toEqual([])
        expect(problems).toEqual([])
        await screenshot(page, 'html-report-incomplete.png')
      } finally {
        await context.close()
      }
    } finally {
      await server.close()
    }
  }, 60_000)

  it('the bench\'s 10,000 projects: the verdict and the top risks are the JSON report\'s, distinct rules, loaded with no problem', async () => {
    // The offline snapshot bench/run.mjs scans (bench/html.mjs builds it the same way).
    const snapshot = join(dir, 'bench-10000.json')
    const build = "import {writeFile} from 'node:fs/promises'; import {snapshotOf} from './bench/diff.mjs'; import {buildProjects, buildRoles, buildSetting} from './bench/simulator.mjs'; " +
      'await writeFile(process.argv[1], JSON.stringify(snapshotOf(buildProjects(10000), buildRoles(300), buildSetting)))'
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', build, snapshot], {cwd: ROOT})
    const {file, json} = await scanReports(['scan', '--snapshot', snapshot], 'bench-10000')
    expect(json.summary.findings).toBeGreaterThan(50_000)
    const {page, requests, problems, context} = await openReport(await browser(), file, {height: 1100})
    try {
      const critical = json.summary.bySeverity.critical
      expect(await page.locator('header .status').textContent()).toBe(`${critical.toLocaleString('en')} critical of ${json.summary.findings.toLocaleString('en')} findings`)
      expect(await page.locator('#verdict .headline').textContent()).toBe(headline(json.summary))
      expect(await page.locator('#verdict p.verdict').textContent()).toBe('Audit complete: judged 10000 projects and 300 roles with 55 enabled rules; some checks not evaluated.')
      const top = topRisks(json.findings)
      expect(new Set(top.map((t) => t.finding.ruleId)).size).toBe(5)
      expect(await page.locator('ol.risks .what').allTextContents()).toEqual(risks(json.findings))
      expect(await page.locator('ol.risks .more').allTextContents()).toEqual(top.filter((t) => t.more > 0).map((t) => `and ${t.more.toLocaleString('en')} more of this rule`))
      expect(await topOrder(page)).toEqual(['verdict', 'top-risks', 'notices', 'about', 'findings'])
      expect(requests).toEqual([])
      expect(problems).toEqual([])
      await screenshot(page, 'html-report-10000.png')
    } finally {
      await context.close()
    }
  }, 120_000)
})

describe('a large report', () => {
  // 1,234 findings over 300 projects: more than the rows written as HTML.
  const many = Array.from({length: 1234}, (_, i) =>
    finding({
      ruleId: i % 3 === 0 ? 'tag-protection/updatable' : 'job-secret/unrestricted',
      severity: SEVERITY_ORDER[i % 5]!,
      subject: `subject-${i}`,
      pointer: '/tagProtections/0',
      project: {id: 100 + (i % 300), path: `group/project-${String(i % 300).padStart(3, '0')}`},
    }),
  )
  let file: string

  beforeAll(async () => {
    file = join(dir, 'large.html')
    await writeFile(file, textOf(htmlChunks(sampleInput({findings: many, errors: [], notices: []}))))
  })

  it('with JavaScript: pages of 100 rows through all findings, and finds one far past the HTML rows', async () => {
    const {page, problems, context} = await openReport(await browser(), file)
    try {
      const count = page.locator('section[data-table="findings"] .pager .count')
      expect((await shownRows(page, 'findings')).length).toBe(100)
      expect(await count.textContent()).toBe('Showing 1–100 of 1,234 findings')
      expect(await page.locator('.nojs').first().isVisible()).toBe(false)
      await page.locator('section[data-table="findings"] .pager button.next').click()
      expect(await count.textContent()).toBe('Showing 101–200 of 1,234 findings')
      await page.fill(search('findings'), 'subject-1201')
      await expect.poll(() => shownRows(page, 'findings')).toEqual([row(many[1201]!)])
      expect(await count.textContent()).toBe('Showing 1–1 of 1 findings (1,234 in all), filtered by the text “subject-1201”')
      await page.fill(search('findings'), '')
      await page.selectOption(findingsSelect(2), {label: 'group/project-007 (5)'})
      await expect.poll(() => shownRows(page, 'findings')).toEqual(many.filter((f) => f.project!.path === 'group/project-007').map(row))
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('printed: the count line stays, saying which rows of how many and what they were filtered by; the buttons and page sizes go', async () => {
    const {page, problems, context} = await openReport(await browser(), file)
    try {
      const pager = 'section[data-table="findings"] .pager'
      const high = many.filter((f) => f.severity === 'high')
      await page.selectOption(findingsSelect(0), {label: `high (${high.length})`})
      await page.fill(search('findings'), 'Group/project-1')
      const shown = high.filter((f) => f.project!.path.includes('group/project-1') || f.message.toLowerCase().includes('group/project-1'))
      await expect.poll(() => shownRows(page, 'findings')).toEqual(shown.map(row))
      expect(shown.length).toBe(80)
      const text = 'Showing 1–80 of 80 findings (1,234 in all), filtered by Severity: high and the text “Group/project-1”'
      await expect.poll(() => page.locator(`${pager} .count`).textContent()).toBe(text)
      const controls = [`${pager} button.next`, `${pager} button.previous`, `${pager} select`, 'section[data-table="findings"] .controls']
      for (const control of controls) expect(await page.locator(control).isVisible(), control).toBe(true)
      await page.emulateMedia({media: 'print'})
      expect(await page.locator(`${pager} .count`).isVisible()).toBe(true)
      expect(await page.locator(`${pager} .count`).textContent()).toBe(text)
      for (const control of controls) expect(await page.locator(control).isVisible(), control).toBe(false)
      await screenshot(page, 'html-print-filtered.png')
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  })

  it(`without JavaScript: the first ${HTML_TABLE_ROWS} findings, and a note saying so`, async () => {
    const {page, context} = await openReport(await browser(), file, {javaScript: false})
    try {
      expect(await shownRows(page, 'findings')).toEqual(many.slice(0, HTML_TABLE_ROWS).map(row))
      expect(await page.locator('section[data-table="findings"] .nojs').textContent()).toContain(`The first ${HTML_TABLE_ROWS} of 1,234 findings are shown here.`)
    } finally {
      await context.close()
    }
  })
})

describe('the diff report in a browser', () => {
  it('shows the changes and the new and fixed findings of the JSON diff, and filters them', async () => {
    const before = JSON.parse(await readFile('examples/snapshot.json', 'utf8')) as {projects: {path: string; setting: {branchProtections: {preventForcedPush: boolean}[]} | null}[]}
    const after = structuredClone(before)
    const acme = after.projects.find((p) => p.path === 'acme')!
    acme.setting!.branchProtections[0]!.preventForcedPush = false
    after.projects.find((p) => p.path === 'acme/app')!.path = `acme/${IMG}`
    const oldFile = join(dir, 'old.json')
    const newFile = join(dir, 'new.json')
    await writeFile(oldFile, JSON.stringify(before))
    await writeFile(newFile, JSON.stringify(after))
    const file = join(dir, 'diff.html')
    const html = await runCli(['diff', oldFile, newFile, '--format', 'html', '--output', file, '--fail-on', 'none'])
    expect(html.code, html.stderr).toBe(0)
    const json = JSON.parse((await runCli(['diff', oldFile, newFile, '--format', 'json', '--fail-on', 'none'])).stdout) as DiffReport
    expect(json.changes.some((c) => c.classification === 'weakened')).toBe(true)
    expect(json.findings.new.length).toBeGreaterThan(0)

    const {page, requests, problems, context} = await openReport(await browser(), file)
    try {
      expect(requests).toEqual([])
      // The header says when each side was collected the way the scan report does: minutes, UTC.
      expect(await page.locator('p.subtitle').textContent()).toBe(`snapshot ${oldFile} → snapshot ${newFile}`)
      expect(await page.locator('dl.facts dd').evaluateAll((dds) => dds.slice(0, 2).map((dd) => dd.textContent))).toEqual([
        `snapshot ${oldFile} (collected 2026-11-01 03:00 UTC)`,
        `snapshot ${newFile} (collected 2026-11-01 03:00 UTC)`,
      ])
      expect(await page.locator('dl.facts dd time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')))).toEqual([
        '2026-11-01T03:00:00.000Z',
        '2026-11-01T03:00:00.000Z',
        expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      ])
      const changes = json.changes.map((c) => [c.classification, c.severity ?? '', c.project?.path ?? (c.role ? 'roles' : 'server'), shown(c.message), c.ruleId ?? ''])
      expect(await shownRows(page, 'changes')).toEqual(changes)
      // The rename: its project cell and the message that quotes it.
      expect(await page.locator('section[data-table="changes"] td', {hasText: `acme/${IMG}`}).count()).toBe(2)
      await page.selectOption('section[data-table="changes"] select[data-column="0"]', {label: `weakened (${changes.filter((c) => c[0] === 'weakened').length})`})
      expect(await shownRows(page, 'changes')).toEqual(changes.filter((c) => c[0] === 'weakened'))
      const findings = [...json.findings.new.map((f) => ['new', ...row(f)]), ...json.findings.fixed.map((f) => ['fixed', ...row(f)])].map(([state, severity, rule, where, subject, message]) => [state!, severity!, rule!, where!, subject!, message!])
      expect(await shownRows(page, 'finding-changes')).toEqual(findings)
      expect(await page.evaluate('window.pwned')).toBeUndefined()
      await screenshot(page, 'html-diff.png', true)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  })
})
