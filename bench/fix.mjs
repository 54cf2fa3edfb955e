/**
 * The fix measurement (`node bench/run.mjs --fix`, or `--fix-only`), issue 19:
 * - planning: `fix --snapshot S --output PLAN` for a snapshot of `--offline-projects` projects built
 *   from the simulator's settings, whole process from spawn to exit and the planning alone (from
 *   --debug), against `scan --snapshot S --format json` of the same snapshot run just before it (a
 *   ratio per pair), and the peak RSS of each (GNU time);
 * - applying: `fix --plan PLAN --apply` against a loopback server that serves and stores those
 *   settings (GET and POST /~api/projects/{id}/setting, `--fix-latency` ms per request), counting
 *   the requests per changed project (the target is exactly three: GET, POST, GET) and checking that
 *   every change was applied and verified (exit 0) and that the stored settings are the planned ones.
 */
import {createServer} from 'node:http'
import {readFile, stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {buildProjects, buildRoles, buildSetting} from './simulator.mjs'

/** GET and POST of project settings, nothing else; what is posted is stored. */
function settingServer(settings, latencyMs) {
  const counts = {get: 0, post: 0, other: 0}
  const server = createServer((request, response) => {
    const chunks = []
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      const match = /^\/~api\/projects\/(\d+)\/setting$/.exec(request.url ?? '')
      const id = match ? Number(match[1]) : -1
      setTimeout(() => {
        if (!match || !settings.has(id)) {
          counts.other++
          response.writeHead(404, {'content-type': 'text/plain'})
          return response.end('HTTP 404 Not Found')
        }
        if (request.method === 'POST') {
          counts.post++
          settings.set(id, Buffer.concat(chunks).toString('utf8'))
          response.writeHead(200, {'content-length': 0})
          return response.end()
        }
        counts.get++
        const body = settings.get(id)
        response.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(body)})
        response.end(body)
      }, latencyMs)
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({server, counts, settings, url: `http://127.0.0.1:${server.address().port}`})))
}

/**
 * `tools`: run.mjs's timeCommand, peakRssMb, median and withTempDir. `roots`: every project a root
 * project (`--fix-roots`), so that one in four has a change (the simulator's tree changes one in a
 * hundred): what a large apply costs, its undo record rewritten before and after each project.
 */
export function fixBench(projectCount, roleCount, runs, latencyMs, tools, roots = false) {
  return tools.withTempDir('oda-fix-bench-', (dir) => fixBenchIn(dir, projectCount, roleCount, runs, latencyMs, tools, roots))
}

async function fixBenchIn(dir, projectCount, roleCount, runs, latencyMs, {timeCommand, peakRssMb, median}, roots) {
  const tree = buildProjects(projectCount)
  const projects = roots ? tree.map((p) => ({...p, parentId: null, path: p.name})) : tree
  const original = new Map(projects.map((p) => [p.id, JSON.stringify(buildSetting(p), null, 2)]))
  const live = await settingServer(new Map(original), latencyMs)
  try {
    const snapshotFile = join(dir, 'snapshot.json')
    const snapshot = {
      snapshotVersion: 1,
      tool: {name: 'onedev-audit', version: 'bench'},
      server: {url: live.url, apiPrefix: '/~api'},
      collectedAt: new Date().toISOString(),
      projects: projects.map((p) => ({id: p.id, path: p.path, name: p.name, parentId: p.parentId, audited: true, setting: JSON.parse(original.get(p.id))})),
      roles: buildRoles(roleCount),
      errors: [],
    }
    await writeFile(snapshotFile, JSON.stringify(snapshot))
    const planFile = join(dir, 'plan.json')
    const scan = ['bin/run.js', 'scan', '--snapshot', snapshotFile, '--format', 'json', '--output', join(dir, 'scan.json'), '--fail-on', 'none']
    const plan = ['bin/run.js', 'fix', '--snapshot', snapshotFile, '--output', planFile]
    const samples = {scanMs: [], planMs: [], planningMs: [], ratio: [], applyMs: []}
    let applied
    for (let i = 0; i < runs; i++) {
      const scanned = (await timeCommand(scan)).ms
      const planned = await timeCommand([...plan, '--debug'], {okCodes: [1]})
      samples.scanMs.push(scanned)
      samples.planMs.push(planned.ms)
      samples.ratio.push(planned.ms / scanned)
      samples.planningMs.push(Number(/planned .* in (\d+)ms/.exec(planned.stderr)?.[1] ?? Number.NaN))
      // Applying: the server back to the planned state, the counters to zero; an undo record of its own
      // per run (one is never overwritten).
      for (const [id, text] of original) live.settings.set(id, text)
      Object.assign(live.counts, {get: 0, post: 0, other: 0})
      // Its own configuration folder: the undo key that seals the records is made there, not in the home of whoever measures.
      const env = {ONEDEV_URL: live.url, ONEDEV_API_PREFIX: '/~api', ONEDEV_USER: 'bench', ONEDEV_TOKEN: 'bench-token-not-a-secret', XDG_CONFIG_HOME: dir}
      const run = await timeCommand(['bin/run.js', 'fix', '--plan', planFile, '--apply', '--undo-output', join(dir, `undo-${i + 1}.json`)], {env})
      samples.applyMs.push(run.ms)
      applied = {...live.counts}
    }
    const document = JSON.parse(await readFile(planFile, 'utf8'))
    const changed = document.projects.length
    const stored = document.projects.every((p) => live.settings.get(p.id) !== original.get(p.id))
    return {
      projects: projectCount,
      roles: roleCount,
      snapshotMb: (await stat(snapshotFile)).size / 1024 / 1024,
      planMb: (await stat(planFile)).size / 1024 / 1024,
      changedProjects: changed,
      changes: document.projects.reduce((n, p) => n + p.changes.length, 0),
      cleared: document.projects.reduce((n, p) => n + p.changes.reduce((m, c) => m + c.clears.length, 0), 0),
      manual: document.manual.length,
      scanMs: median(samples.scanMs),
      planMs: median(samples.planMs),
      planningMs: median(samples.planningMs),
      planToScan: median(samples.ratio),
      scanRssMb: await peakRssMb(scan),
      planRssMb: await peakRssMb(plan),
      latencyMs,
      applyMs: median(samples.applyMs),
      requests: applied.get + applied.post + applied.other,
      requestsPerProject: (applied.get + applied.post + applied.other) / changed,
      gets: applied.get,
      posts: applied.post,
      stored,
    }
  } finally {
    await new Promise((resolve) => live.server.close(resolve))
  }
}

export function fixLines(result, runs) {
  const ms = (value) => `${Math.round(value)} ms`
  return [
    `fix: a snapshot of ${result.projects} projects and ${result.roles} roles (${result.snapshotMb.toFixed(1)} MB), whole process from spawn to exit, median of ${runs}:`,
    `  scan --snapshot S --format json: ${ms(result.scanMs)}   peak RSS ${result.scanRssMb.toFixed(0)} MB`,
    `  fix --snapshot S --output PLAN: ${ms(result.planMs)} (planning ${ms(result.planningMs)})   peak RSS ${result.planRssMb.toFixed(0)} MB   (${result.planToScan.toFixed(2)}x the scan's time, paired; ${(result.planRssMb / result.scanRssMb).toFixed(2)}x its memory)`,
    `  the plan: ${result.changes} changes in ${result.changedProjects} projects clearing ${result.cleared} findings, ${result.manual} manual steps, ${result.planMb.toFixed(1)} MB`,
    `  fix --plan PLAN --apply (${result.latencyMs} ms per request): ${ms(result.applyMs)}; ${result.requests} requests for ${result.changedProjects} changed projects = ${result.requestsPerProject.toFixed(2)} per project (${result.gets} GET, ${result.posts} POST); every change stored: ${result.stored ? 'yes' : 'NO'}`,
  ]
}
