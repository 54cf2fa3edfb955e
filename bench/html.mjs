/**
 * The HTML report measurement (issue 20; `node bench/run.mjs --html-only`, and part of the default
 * run beside the offline one): the same `--offline-projects` snapshot as the offline target, scanned
 * with `--format html` and `--format json` in turn (whole process, spawn to exit, median of the runs),
 * the HTML file's size, and the file opened in Debian's Chromium (headless, through playwright-core,
 * a fresh browser context per run, JavaScript on): time to DOMContentLoaded and to load from the
 * navigation's start, then the first filter (severity: critical) and a text search, each from the
 * change to the next frame painted. Without /usr/bin/chromium the browser part is left out, saying so.
 */
import {existsSync} from 'node:fs'
import {stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import {snapshotOf} from './diff.mjs'
import {buildProjects, buildRoles, buildSetting} from './simulator.mjs'

const CHROMIUM = process.env.ONEDEV_AUDIT_CHROMIUM ?? '/usr/bin/chromium'
// As test/helpers/browser.ts starts it.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** `tools`: run.mjs's timeCommand, peakRssMb, median and withTempDir. */
export function htmlBench(projectCount, roleCount, runs, tools) {
  return tools.withTempDir('oda-html-bench-', (dir) => htmlBenchIn(dir, projectCount, roleCount, runs, tools))
}

async function htmlBenchIn(dir, projectCount, roleCount, runs, {timeCommand, peakRssMb, median}) {
  const snapshot = join(dir, 'snapshot.json')
  await writeFile(snapshot, JSON.stringify(snapshotOf(buildProjects(projectCount), buildRoles(roleCount), buildSetting)))
  const file = join(dir, 'report.html')
  const scan = (format, output) => ['bin/run.js', 'scan', '--snapshot', snapshot, '--format', format, '--output', output, '--fail-on', 'none', '--debug']
  const samples = {htmlMs: [], jsonMs: [], htmlWriteMs: [], jsonWriteMs: []}
  let findings = 0
  for (let run = 0; run < runs; run++) {
    for (const format of ['html', 'json']) {
      const measured = await timeCommand(scan(format, format === 'html' ? file : join(dir, 'report.json')))
      samples[`${format}Ms`].push(measured.ms)
      // --debug's own figure for formatting and writing the report.
      samples[`${format}WriteMs`].push(Number(/formatted and wrote the \w+ report in (\d+)ms/.exec(measured.stderr)?.[1] ?? Number.NaN))
      findings = Number(/: (\d+) findings?/.exec(measured.stderr)?.[1] ?? 0)
    }
  }
  const result = {
    projects: projectCount,
    roles: roleCount,
    findings,
    htmlMb: (await stat(file)).size / 1024 / 1024,
    jsonMb: (await stat(join(dir, 'report.json'))).size / 1024 / 1024,
    htmlMs: median(samples.htmlMs),
    jsonMs: median(samples.jsonMs),
    htmlWriteMs: median(samples.htmlWriteMs),
    jsonWriteMs: median(samples.jsonWriteMs),
    htmlRssMb: await peakRssMb(scan('html', join(dir, 'rss.html'))),
    browser: existsSync(CHROMIUM) ? await browserTimes(file, runs, median) : undefined,
  }
  return result
}

/** Opening the report in Chromium, `runs` times: load, then the first filter and a search, in the page's own clock. */
async function browserTimes(file, runs, median) {
  const {chromium} = await import('playwright-core')
  const browser = await chromium.launch({executablePath: CHROMIUM, args: FLAGS})
  const samples = {domContentLoadedMs: [], loadMs: [], filterMs: [], searchMs: [], focusMs: [], shown: [], searchShown: []}
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({viewport: {width: 1280, height: 900}})
      const page = await context.newPage()
      await page.goto(pathToFileURL(file).href, {waitUntil: 'load', timeout: 120_000})
      const navigation = await page.evaluate('(() => { const n = performance.getEntriesByType("navigation")[0]; return {domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd} })()')
      samples.domContentLoadedMs.push(navigation.domContentLoaded)
      samples.loadMs.push(navigation.load)
      // Each from the change to the frame after it: the script's filtering and rendering, and the browser's layout and paint.
      const filter = await page.evaluate(`new Promise((resolve) => {
        const select = document.querySelector('section[data-table="findings"] select[data-column="0"]');
        const start = performance.now();
        select.value = '0';
        select.dispatchEvent(new Event('change'));
        requestAnimationFrame(() => setTimeout(() => resolve({ms: performance.now() - start, shown: document.querySelector('section[data-table="findings"] .pager .count').textContent})));
      })`)
      samples.filterMs.push(filter.ms)
      samples.shown.push(filter.shown)
      // The search box waits 150 ms after the last key before it filters: that pause is taken off.
      // Focusing it first makes the texts it searches (timed apart).
      const search = await page.evaluate(`new Promise((resolve) => {
        const select = document.querySelector('section[data-table="findings"] select[data-column="0"]');
        select.value = '';
        select.dispatchEvent(new Event('change'));
        const status = document.querySelector('section[data-table="findings"] .pager .count');
        const input = document.querySelector('section[data-table="findings"] input[data-search]');
        let start = 0;
        let focus = 0;
        const observer = new MutationObserver(() => {
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => resolve({ms: performance.now() - start - 150, focusMs: focus, shown: status.textContent})));
        });
        observer.observe(status, {childList: true, characterData: true, subtree: true});
        // As a person searches: the box gets the focus (the script then makes the texts it searches), then a word is typed.
        const focused = performance.now();
        input.focus();
        focus = performance.now() - focused;
        start = performance.now();
        input.value = 'npm-token';
        input.dispatchEvent(new Event('input'));
      })`)
      samples.searchMs.push(search.ms)
      samples.focusMs.push(search.focusMs)
      samples.searchShown.push(search.shown)
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return {
    domContentLoadedMs: median(samples.domContentLoadedMs),
    loadMs: median(samples.loadMs),
    filterMs: median(samples.filterMs),
    searchMs: median(samples.searchMs),
    focusMs: median(samples.focusMs),
    filterShown: samples.shown[0],
    searchShown: samples.searchShown[0],
  }
}

export function htmlLines(result, runs) {
  const ms = (value) => `${Math.round(value)} ms`
  const {browser} = result
  return [
    `html: scan --snapshot of ${result.projects} projects and ${result.roles} roles (${result.findings} findings), whole process from spawn to exit, median of ${runs}:`,
    `  scan --format html: ${ms(result.htmlMs)} (formatting and writing ${ms(result.htmlWriteMs)})   ${result.htmlMb.toFixed(1)} MB   peak RSS ${result.htmlRssMb.toFixed(0)} MB`,
    `  scan --format json: ${ms(result.jsonMs)} (formatting and writing ${ms(result.jsonWriteMs)})   ${result.jsonMb.toFixed(1)} MB`,
    browser
      ? `  in headless Chromium: DOMContentLoaded ${ms(browser.domContentLoadedMs)}, load ${ms(browser.loadMs)}; first filter (critical) ${ms(browser.filterMs)} (${browser.filterShown}); search "npm-token" ${ms(browser.searchMs)} (${browser.searchShown}; its 150 ms pause after typing taken off; focusing the box first, which makes the texts searched: ${ms(browser.focusMs)})`
      : `  in headless Chromium: not measured (${CHROMIUM} is missing: apt-get install -y chromium)`,
  ]
}
