/**
 * A real browser for the HTML report tests: Debian's Chromium (`apt-get install chromium`; .ci/run
 * installs it) driven by playwright-core, which never downloads a browser of its own. A missing
 * Chromium fails the tests with a message saying how to install it: they are never skipped.
 *
 * `openReport` loads a report from its file:// URL and records every request the page makes besides
 * that one (each is aborted: a self-contained report makes none), every console error and warning,
 * every uncaught exception and every dialog (an injected `alert` would open one).
 */
import {existsSync} from 'node:fs'
import {mkdir} from 'node:fs/promises'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import {type Browser, type BrowserContext, chromium, type Page} from 'playwright-core'

import {ROOT} from './cli.js'

export const CHROMIUM = process.env.ONEDEV_AUDIT_CHROMIUM ?? '/usr/bin/chromium'

/** Where the tests leave screenshots for people to look at (not committed). */
export const TEST_OUTPUT = join(ROOT, 'test-output')

// Chromium as this machine's notes say to start it: no sandbox (root), no GPU, and none of its own
// background connections (the network is closed; each would be refused). Playwright adds --headless
// and a new empty profile (--user-data-dir) per launch.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The HTML report tests open the reports in Debian's Chromium, and ${CHROMIUM} does not exist. ` +
        'Install it with `apt-get install -y chromium` (as root; .ci/run does this), or set ONEDEV_AUDIT_CHROMIUM to a Chromium binary.',
    )
  }
  return chromium.launch({executablePath: CHROMIUM, args: FLAGS})
}

export interface OpenedReport {
  page: Page
  context: BrowserContext
  /** Requests other than the report's own file:// URL (all aborted). */
  requests: string[]
  /** Console errors and warnings (a Content-Security-Policy violation is one), uncaught exceptions, dialogs. */
  problems: string[]
}

export async function openReport(browser: Browser, file: string, options: {javaScript?: boolean; width?: number; height?: number} = {}): Promise<OpenedReport> {
  const context = await browser.newContext({javaScriptEnabled: options.javaScript ?? true, viewport: {width: options.width ?? 1280, height: options.height ?? 900}})
  const url = pathToFileURL(file).href
  const requests: string[] = []
  const problems: string[] = []
  await context.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue()
    requests.push(route.request().url())
    return route.abort()
  })
  const page = await context.newPage()
  page.on('request', (request) => {
    if (request.url() !== url && !requests.includes(request.url())) requests.push(request.url())
  })
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  await page.goto(url, {waitUntil: 'load'})
  return {page, context, requests, problems}
}

/** A screenshot under test-output/ for people to look at. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  await mkdir(TEST_OUTPUT, {recursive: true})
  const path = join(TEST_OUTPUT, name)
  await page.screenshot({path, fullPage})
  return path
}

/** The text of each cell of the rows a table shows, row by row. */
export function shownRows(page: Page, table: string): Promise<string[][]> {
  return page.$$eval(`section[data-table="${table}"] tbody tr`, (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')))
}
