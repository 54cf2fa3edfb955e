/**
 * The notify measurement (`node bench/run.mjs --notify`, or `--notify-only`), issue 27: a snapshot of
 * `--offline-projects` projects built from the simulator's settings, and a loopback issue store that
 * answers like OneDev's IssueResource after `--notify-latency` ms per request (GET /settings/issue,
 * GET /users/me, the project listing, GET /issues per project, POST /issues, the description and
 * state-transition POSTs; each issue's submitterId is the caller's account). Each run, from an empty store, whole processes from spawn to exit:
 *   - `scan --snapshot S --format json`, the reference;
 *   - `notify --snapshot S`: the dry run, paired with the scan just before it (a ratio per pair);
 *   - `notify --snapshot S --apply`: opens one issue per project with findings;
 *   - `notify --snapshot S --apply` again: nothing changed, so queries only and no write.
 * Requests are counted by kind; the bench fails unless the second --apply wrote nothing and the first
 * opened exactly one issue per project with findings. With `--vs-root DIR` (another checkout, built)
 * the three notify runs are run again right after, with DIR's CLI, against the same store from empty:
 * wall and CPU time of each, paired per run.
 */
import {createServer} from 'node:http'
import {stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {buildProjects, buildRoles, buildSetting} from './simulator.mjs'

const WORKFLOW = {
  stateSpecs: [{name: 'Open', color: '#2095F2'}, {name: 'Closed', color: '#1BC5BD'}],
  transitionSpecs: [{'@type': 'ManualSpec', fromStates: [], toStates: [], authorizedRoles: [], promptFields: [], removeFields: [], issueQuery: null}],
  fieldSpecs: [],
  boardSpecs: [],
  listFields: [],
  listLinks: [],
  namedQueries: [],
  issueTemplates: [],
  reconciled: true,
}

/** The issue endpoints notify uses, storing issues in memory; every answer after `latencyMs` (exported to run beside a paired measurement of whole processes). */
export function issueStore(projects, latencyMs) {
  const byPath = new Map(projects.map((p) => [p.path, p.id]))
  const listing = projects.map((p) => ({id: p.id, name: p.name, path: p.path, parentId: p.parentId}))
  const counts = {workflow: 0, account: 0, listing: 0, query: 0, open: 0, describe: 0, transit: 0, other: 0}
  let issues = new Map()
  let nextId = 1
  const server = createServer((request, response) => {
    const chunks = []
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1')
      const body = Buffer.concat(chunks).toString('utf8')
      const send = (status, text, type = 'application/json') => {
        response.writeHead(status, {'content-type': type, 'content-length': Buffer.byteLength(text)})
        response.end(text)
      }
      setTimeout(() => {
        const path = url.pathname
        if (request.method === 'GET' && path === '/~api/settings/issue') {
          counts.workflow++
          return send(200, JSON.stringify(WORKFLOW))
        }
        if (request.method === 'GET' && path === '/~api/users/me') {
          counts.account++
          return send(200, JSON.stringify({id: 1, disabled: false, type: 'ORDINARY', name: 'bench', fullName: null, notifyOwnEvents: false}))
        }
        if (request.method === 'GET' && path === '/~api/projects') {
          counts.listing++
          const offset = Number(url.searchParams.get('offset'))
          const count = Number(url.searchParams.get('count'))
          return send(200, JSON.stringify(listing.slice(offset, offset + count)))
        }
        if (request.method === 'GET' && path === '/~api/issues') {
          counts.query++
          const project = /^"Project" is "((?:[^"\\]|\\.)*)" and /.exec(url.searchParams.get('query') ?? '')
          const id = project ? byPath.get(project[1].replace(/\\(.)/g, '$1')) : undefined
          return send(200, JSON.stringify(id === undefined ? [] : [...issues.values()].filter((issue) => issue.projectId === id)))
        }
        if (request.method === 'POST' && path === '/~api/issues') {
          counts.open++
          const posted = JSON.parse(body)
          const id = nextId++
          issues.set(id, {id, number: id, projectId: posted.projectId, title: posted.title, description: posted.description, state: 'Open', confidential: posted.confidential, submitterId: 1})
          return send(200, String(id))
        }
        const write = /^\/~api\/issues\/(\d+)\/(description|state-transitions)$/.exec(path)
        if (request.method === 'POST' && write && issues.has(Number(write[1]))) {
          const issue = issues.get(Number(write[1]))
          if (write[2] === 'description') {
            counts.describe++
            issue.description = body
          } else {
            counts.transit++
            issue.state = JSON.parse(body).state
          }
          return send(200, '', 'text/plain')
        }
        counts.other++
        send(404, 'HTTP 404 Not Found', 'text/plain')
      }, latencyMs)
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        counts,
        url: `http://127.0.0.1:${server.address().port}`,
        issues: () => issues,
        reset() {
          issues = new Map()
          nextId = 1
          for (const key of Object.keys(counts)) counts[key] = 0
        },
      }),
    ),
  )
}

/** `tools`: run.mjs's timeCommand, peakRssMb, median and withTempDir; `vsRoot`: another build whose CLI runs the same notify runs, paired. */
export function notifyBench(projectCount, roleCount, runs, latencyMs, concurrency, tools, vsRoot) {
  return tools.withTempDir('oda-notify-bench-', (dir) => notifyBenchIn(dir, projectCount, roleCount, runs, latencyMs, concurrency, tools, vsRoot))
}

const total = (counts) => Object.values(counts).reduce((a, b) => a + b, 0)

async function notifyBenchIn(dir, projectCount, roleCount, runs, latencyMs, concurrency, {timeCommand, peakRssMb, median}, vsRoot) {
  const projects = buildProjects(projectCount)
  const store = await issueStore(projects, latencyMs)
  try {
    const snapshotFile = join(dir, 'snapshot.json')
    await writeFile(
      snapshotFile,
      JSON.stringify({
        snapshotVersion: 1,
        tool: {name: 'onedev-audit', version: 'bench'},
        server: {url: store.url, apiPrefix: '/~api'},
        collectedAt: new Date().toISOString(),
        projects: projects.map((p) => ({id: p.id, path: p.path, name: p.name, parentId: p.parentId, audited: true, setting: buildSetting(p)})),
        roles: buildRoles(roleCount),
        errors: [],
      }),
    )
    const env = {ONEDEV_URL: store.url, ONEDEV_API_PREFIX: '/~api', ONEDEV_USER: 'bench', ONEDEV_TOKEN: 'bench-token-not-a-secret'}
    const scan = ['bin/run.js', 'scan', '--snapshot', snapshotFile, '--format', 'json', '--output', join(dir, 'scan.json'), '--fail-on', 'none']
    const notifyOf = (cli) => [cli, 'notify', '--snapshot', snapshotFile, '--concurrency', String(concurrency)]
    const notify = notifyOf('bin/run.js')
    /** The dry run, --apply from an empty store, --apply again with `cli`: times and the requests the store counted. */
    const notifyRuns = async (cli) => {
      const command = notifyOf(cli)
      store.reset()
      const dryRun = await timeCommand(command, {env, okCodes: [1], cpu: true})
      const counted = {dry: {...store.counts, lines: dryRun.stdout.split('\n').filter(Boolean).length}}
      store.reset()
      const applyRun = await timeCommand([...command, '--apply'], {env, cpu: true})
      counted.applied = {...store.counts, issues: store.issues().size}
      for (const key of Object.keys(store.counts)) store.counts[key] = 0
      const againRun = await timeCommand([...command, '--apply'], {env, cpu: true})
      counted.again = {...store.counts}
      if (counted.again.open + counted.again.describe + counted.again.transit !== 0) throw new Error(`${cli}: notify wrote ${counted.again.open + counted.again.describe + counted.again.transit} times when nothing had changed`)
      if (counted.applied.open !== counted.dry.lines || counted.applied.issues !== counted.applied.open) throw new Error(`${cli}: notify opened ${counted.applied.open} issues for ${counted.dry.lines} projects to open`)
      return {times: {dry: dryRun, apply: applyRun, again: againRun}, ...counted}
    }
    const samples = {scanMs: [], dryMs: [], ratio: [], applyMs: [], againMs: [], dryCpuMs: [], applyCpuMs: [], againCpuMs: []}
    const vs = {dryMs: [], applyMs: [], againMs: [], dryCpuMs: [], applyCpuMs: [], againCpuMs: []}
    const paired = {dry: [], apply: [], again: [], dryCpu: [], applyCpu: [], againCpu: []}
    let dry
    let applied
    let again
    for (let i = 0; i < runs; i++) {
      store.reset()
      const scanned = (await timeCommand(scan)).ms
      // With --vs-root the two builds take turns going first (ours, theirs; then theirs, ours; ...), so neither gains from its place.
      const theirsFirst = vsRoot && i % 2 === 1 ? await notifyRuns(join(vsRoot, 'bin', 'run.js')) : undefined
      const ours = await notifyRuns('bin/run.js')
      samples.scanMs.push(scanned)
      samples.ratio.push(ours.times.dry.ms / scanned)
      for (const phase of ['dry', 'apply', 'again']) {
        samples[`${phase}Ms`].push(ours.times[phase].ms)
        samples[`${phase}CpuMs`].push(ours.times[phase].cpuMs)
      }
      ;({dry, applied, again} = ours)
      if (vsRoot) {
        const theirs = theirsFirst ?? (await notifyRuns(join(vsRoot, 'bin', 'run.js')))
        for (const phase of ['dry', 'apply', 'again']) {
          vs[`${phase}Ms`].push(theirs.times[phase].ms)
          vs[`${phase}CpuMs`].push(theirs.times[phase].cpuMs)
          paired[phase].push(ours.times[phase].ms / theirs.times[phase].ms)
          paired[`${phase}Cpu`].push(ours.times[phase].cpuMs / theirs.times[phase].cpuMs)
        }
      }
    }
    store.reset()
    // GNU time's child inherits this process's environment: the server and token for that one run.
    const saved = {...process.env}
    Object.assign(process.env, env)
    const dryRssMb = await peakRssMb(notify).finally(() => {
      for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key]
      Object.assign(process.env, saved)
    })
    return {
      projects: projectCount,
      roles: roleCount,
      latencyMs,
      concurrency,
      snapshotMb: (await stat(snapshotFile)).size / 1024 / 1024,
      withFindings: dry.lines,
      scanMs: median(samples.scanMs),
      dryMs: median(samples.dryMs),
      dryToScan: median(samples.ratio),
      applyMs: median(samples.applyMs),
      againMs: median(samples.againMs),
      dryCpuMs: median(samples.dryCpuMs),
      applyCpuMs: median(samples.applyCpuMs),
      againCpuMs: median(samples.againCpuMs),
      ...(vsRoot ? {vsRoot, vs: Object.fromEntries(Object.entries(vs).map(([key, values]) => [key, median(values)])), paired: Object.fromEntries(Object.entries(paired).map(([key, ratios]) => [key, {median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), all: ratios}]))} : {}),
      dry,
      applied,
      again,
      dryRequests: total({...dry, lines: 0}),
      floorMs: (total({...dry, lines: 0}) * latencyMs) / concurrency,
      dryRssMb,
    }
  } finally {
    await new Promise((resolve) => store.server.close(resolve))
  }
}

export function notifyLines(result, runs) {
  const ms = (value) => `${Math.round(value)} ms`
  const {dry, applied, again} = result
  return [
    `notify: a snapshot of ${result.projects} projects and ${result.roles} roles (${result.snapshotMb.toFixed(1)} MB), ${result.withFindings} of them with findings at or above high; an issue store answering after ${result.latencyMs} ms, --concurrency ${result.concurrency}; whole process from spawn to exit, median of ${runs}:`,
    `  scan --snapshot S --format json: ${ms(result.scanMs)}`,
    `  notify --snapshot S (dry run, no issue yet): ${ms(result.dryMs)} (${result.dryToScan.toFixed(2)}x the scan's time, paired)   peak RSS ${result.dryRssMb.toFixed(0)} MB`,
    `    requests: ${dry.workflow} GET /settings/issue + ${dry.account ?? 0} GET /users/me + ${dry.listing} listing pages + ${dry.query} GET /issues = ${result.dryRequests} (floor ${ms(result.floorMs)} = requests x latency / concurrency)`,
    `  notify --snapshot S --apply (opens them): ${ms(result.applyMs)}; ${applied.query} queries, ${applied.open} POST /issues (${(applied.open / result.withFindings).toFixed(2)} per project with findings), ${applied.describe + applied.transit} other writes`,
    `  notify --snapshot S --apply again (nothing changed): ${ms(result.againMs)}; ${again.query} queries, ${again.open + again.describe + again.transit} writes`,
    `  CPU (user + system), median: dry run ${ms(result.dryCpuMs)}, --apply ${ms(result.applyCpuMs)}, --apply again ${ms(result.againCpuMs)}`,
    ...(result.paired
      ? [
          `  against the --vs-root build (${result.vsRoot}), the same runs next to ours (after, then before, in turn), ratio ours / theirs per run, median (min-max) of ${runs}:`,
          ...['dry', 'apply', 'again'].map((phase) => {
            const ratio = ({median, min, max}) => `${median.toFixed(2)}x (${min.toFixed(2)}-${max.toFixed(2)})`
            return `    ${{dry: 'dry run', apply: '--apply', again: '--apply again'}[phase]}: wall ${ratio(result.paired[phase])} (theirs ${ms(result.vs[`${phase}Ms`])}), CPU ${ratio(result.paired[`${phase}Cpu`])} (theirs ${ms(result.vs[`${phase}CpuMs`])})`
          }),
        ]
      : []),
  ]
}
