/**
 * The HTML reports checked for accessibility as a browser renders them: axe-core 4 (Deque's engine,
 * the one browser extensions and Lighthouse run) inside Debian's Chromium (test/helpers/browser.ts),
 * over the example report, with and without its script (the script renders the tables), and a diff
 * report. Every rule axe runs by default (WCAG 2 A and AA, best practices) must pass: any violation
 * fails with its rule, impact and the elements it names (issue 33: the footer's grey failed WCAG AA
 * contrast, `color-contrast`, serious, 1 node).
 *
 * axe is evaluated in the page over the DevTools protocol, as Playwright's evaluate does: the page's
 * Content-Security-Policy, which allows only its own inline script, stays on.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {createRequire} from 'node:module'
import {join} from 'node:path'

import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {launchChromium, openReport} from '../helpers/browser.js'
import {runCli} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp-dir.js'

let dir: string
let launched: Promise<Browser> | undefined
const browser = () => (launched ??= launchChromium())

beforeAll(async () => {
  dir = await tempDir('oda-a11y')
})
afterAll(async () => {
  await (await launched?.catch(() => undefined))?.close()
})

/** axe-core's browser build, as its package ships it. */
const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface Violation {
  id: string
  impact: string | null
  help: string
  nodes: Array<{target: unknown[]; failureSummary?: string}>
}

/** Every violation axe finds in the page, one line each: rule, impact, how many elements, which, and why. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(await AXE_SOURCE)
  const found = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run()
    return result.violations as Violation[]
  })
  return found.map((v) => `${v.id} (${v.impact}, ${v.nodes.length} node${v.nodes.length === 1 ? '' : 's'}): ${v.help}: ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`.replace(/\s+/g, ' ')).join('; ')}`)
}

async function written(args: string[], name: string): Promise<string> {
  const file = join(dir, name)
  const result = await runCli([...args, '--format', 'html', '--output', file, '--fail-on', 'none'])
  expect(result.code, result.stderr).toBe(0)
  return file
}

describe('the HTML reports pass axe-core in Chromium, every default rule', () => {
  for (const script of [true, false]) {
    it(`the example report${script ? '' : ', as it reads without its script (the tables as written)'}`, async () => {
      const file = await written(['scan', '--snapshot', 'examples/snapshot.json'], `example-${script}.html`)
      // axe needs JavaScript in the page: the page as a browser without it shows it is the page without its own script.
      if (!script) await writeFile(file, (await readFile(file, 'utf8')).replace(/<script>[\s\S]*?<\/script>/g, ''))
      const {page, context, problems} = await openReport(await browser(), file)
      try {
        if (!script) expect(await page.locator('section[data-table="findings"] .controls').isVisible()).toBe(false)
        expect(await violations(page)).toEqual([])
        expect(problems).toEqual([])
      } finally {
        await context.close()
      }
    }, 60_000)
  }

  it('a diff report', async () => {
    const before = JSON.parse(await readFile('examples/snapshot.json', 'utf8')) as {projects: {path: string; setting: {branchProtections: {preventForcedPush: boolean}[]} | null}[]}
    const after = structuredClone(before)
    after.projects.find((p) => p.path === 'acme')!.setting!.branchProtections[0]!.preventForcedPush = false
    const oldFile = join(dir, 'old.json')
    const newFile = join(dir, 'new.json')
    await writeFile(oldFile, JSON.stringify(before))
    await writeFile(newFile, JSON.stringify(after))
    const file = await written(['diff', oldFile, newFile], 'diff.html')
    const {page, context, problems} = await openReport(await browser(), file)
    try {
      expect(await violations(page)).toEqual([])
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
