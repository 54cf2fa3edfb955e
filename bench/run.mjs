#!/usr/bin/env node
/**
 * Benchmark: how close the audit's collection gets to the ideal floor and to a bare undici client.
 *
 *   npm run bench                                   (builds, then runs this)
 *   node bench/run.mjs [--projects 2000] [--latency 10] [--concurrency 16] [--roles 300] [--runs 3] [--json]
 *   node bench/run.mjs --offline-only [--offline-projects 10000]   (only the offline snapshot scan)
 *   node bench/run.mjs --projects 10000 --latency 50 --concurrency 32   (the live case of a large real server)
 *   node bench/run.mjs --phases baseline,cli --live-only   (only those phases, no offline part: see PHASES)
 *   node bench/run.mjs --diff | --diff-only   (adds, or runs only, diff of two snapshots with 1 % changed: bench/diff.mjs)
 *   node bench/run.mjs --reports | --reports-only   (adds, or runs only, scan --format checkstyle and junit of the
 *       offline snapshot as a folder, against --format json: bench/onedev-reports.mjs)
 *   node bench/run.mjs --evidence | --evidence-only   (adds, or runs only, scan --format oscal and scan --attest of the
 *       offline snapshot, against --format json: bench/evidence.mjs)
 *   node bench/run.mjs --html-only   (only the HTML report of the offline snapshot: its size, time to write, and
 *       its load and first filter in headless Chromium: bench/html.mjs; part of every run with the offline part)
 *   node bench/run.mjs --fix | --fix-only [--fix-latency 10] [--fix-roots]   (adds, or runs only, fix: planning the offline snapshot,
 *       and the requests per changed project when applying the plan: bench/fix.mjs)
 *   node bench/run.mjs --notify | --notify-only [--notify-latency 10] [--vs-root DIR]   (adds, or runs only, notify on the
 *       offline snapshot against a loopback issue store: dry run, opening, and a run with nothing changed, each also
 *       with DIR's CLI right after, paired: bench/notify.mjs)
 *   node bench/run.mjs --arrival [--arrival-sizes 2000,10000] [--arrival-padding-kb 0,8]   (only the live full scan's
 *       peak RSS, projects judged on arrival against the whole model evaluated at the end, per size and
 *       payload padding: the simulator's settings are about 1 KB, plus the padding)
 *
 * The simulator runs in its own child process; each measured phase runs in a fresh child process
 * too (`--phase baseline|audit`), so neither shares an event loop with the server and each phase's
 * peak RSS is its own. See bench/README.md for what is measured.
 */
import {fork, spawn} from 'node:child_process'
import {Buffer} from 'node:buffer'
import {dirname, join, resolve as resolvePath} from 'node:path'
import {performance} from 'node:perf_hooks'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'

const HERE = dirname(fileURLToPath(import.meta.url))
const PREFIX = '/~api'
const USER = 'bench'
const SECRET = 'bench-token-not-a-secret'
const PAGE_SIZE = 100
const PHASES = ['baselinecontract', 'clicontract', 'baseline', 'client', 'contract', 'noaccess', 'audit', 'clinoaccess', 'cli']
/** The phases that run the CLI (bin/run.js): --vs-root runs each again with another build's CLI. */
const CLI_PHASES = ['clicontract', 'clinoaccess', 'cli']
const PHASE_LABELS = {
  baselinecontract: '(a0) bare undici, contract only',
  clicontract: '(c0) CLI scan, contract only',
  baseline: '(a) bare undici',
  client: '(a2) audit client',
  contract: '(b0) collect, contract only',
  noaccess: '(b1) collect, no access endpoints',
  audit: '(b) audit collect',
  clinoaccess: '(c1) CLI scan, no access endpoints',
  cli: '(c) full CLI scan',
}
/**
 * What the simulator answers in each phase. (b0) is a server that speaks only the contract: no
 * /repositories and no access or administration endpoints. (b1) and (c1) have default branches and
 * tags but no access endpoints (each answers 404 and its checks are not evaluated): what reading
 * default branches and tags costs is (b1) - (b0), what reading access data costs (issues 11, 14) is
 * (b) - (b1), in collection alone, and (c) - (c1) in the whole scan, evaluation of the access rules
 * included. Every other phase runs against a current server that answers everything.
 */
const PHASE_SERVER = {baselinecontract: {repositories: false, access: false}, clicontract: {repositories: false, access: false}, contract: {repositories: false, access: false}, noaccess: {repositories: true, access: false}, clinoaccess: {repositories: true, access: false}}
const CURRENT_SERVER = {repositories: true, access: true}
/** The server's version (src/api/version.ts): bare text, read once per run. */
const VERSION = '/version/server'
/** What the audit reads as text, not JSON: a default branch and the version (a Java String each, written unquoted). */
const isText = (path) => path.endsWith('/default-branch') || path === VERSION
/** The audit's optional server-wide endpoints that are neither listings nor per group or user (src/api/admin-data.ts, mail-data.ts). */
const ADMIN_SETTINGS = ['/settings/job-executors', '/settings/groovy-scripts', '/settings/system', '/settings/authenticator', '/sso-providers', '/settings/mail-service', '/settings/service-desk']
/** The audit's optional server-wide listings besides users and groups (src/api/agent-data.ts). */
const ADMIN_LISTINGS = ['/agent-tokens', '/agents']
const ROOT = join(HERE, '..')
/** How often the phases sample their event loop's delay (watchEventLoop). */
const LOOP_INTERVAL_MS = 10

const {values: flags} = parseArgs({
  options: {
    projects: {type: 'string', default: '2000'},
    users: {type: 'string', default: '300'},
    groups: {type: 'string', default: '40'},
    latency: {type: 'string', default: '10'},
    concurrency: {type: 'string', default: '16'},
    roles: {type: 'string', default: '300'},
    runs: {type: 'string', default: '3'},
    json: {type: 'boolean', default: false},
    phase: {type: 'string'},
    url: {type: 'string'},
    snapshot: {type: 'string'},
    'offline-projects': {type: 'string', default: '10000'},
    'offline-only': {type: 'boolean', default: false},
    diff: {type: 'boolean', default: false},
    'diff-only': {type: 'boolean', default: false},
    'html-only': {type: 'boolean', default: false},
    reports: {type: 'boolean', default: false},
    'reports-only': {type: 'boolean', default: false},
    evidence: {type: 'boolean', default: false},
    'evidence-only': {type: 'boolean', default: false},
    fix: {type: 'boolean', default: false},
    'fix-only': {type: 'boolean', default: false},
    'fix-latency': {type: 'string', default: '10'},
    'fix-roots': {type: 'boolean', default: false},
    notify: {type: 'boolean', default: false},
    'notify-only': {type: 'boolean', default: false},
    'notify-latency': {type: 'string', default: '10'},
    phases: {type: 'string'},
    'live-only': {type: 'boolean', default: false},
    'vs-root': {type: 'string'},
    'cli-root': {type: 'string'},
    arrival: {type: 'boolean', default: false},
    'arrival-sizes': {type: 'string', default: '2000,10000'},
    'arrival-padding-kb': {type: 'string', default: '0,8'},
    'arrival-heap-mb': {type: 'string', default: '160'},
  },
})

// ---- phases (each runs in its own child process) --------------------------------------------

/**
 * What the audit reads of one project, the same way it does: its setting, its default branch and its
 * base, group and user authorizations (src/api/access-data.ts) at once, then its tags unless the
 * repository is not initialized (204).
 */
async function readProject(get, id) {
  const [, defaultBranch] = await Promise.all([
    get(`/projects/${id}/setting`),
    get(`/repositories/${id}/default-branch`),
    get(`/projects/${id}/base-authorizations`),
    get(`/projects/${id}/group-authorizations`),
    get(`/projects/${id}/user-authorizations`),
  ])
  if (defaultBranch !== null) await get(`/repositories/${id}/tags`)
}

/**
 * What the audit reads of the server besides roles and projects (src/api/version.ts, access-data.ts,
 * admin-data.ts, agent-data.ts and mail-data.ts, on a server whose users listing has ids), each path
 * once, as soon as what it needs is known: the version, the security setting, the users and groups
 * listings, every group's memberships, the default group's authorizations, the administration settings
 * (the mail service and the service desk among them), the agent tokens and agents listings, and the
 * access tokens of every user.
 */
async function readServer(get, paged) {
  const asked = new Map()
  const once = (path) => {
    if (!asked.has(path)) asked.set(path, get(path))
    return asked.get(path)
  }
  const security = once('/settings/security')
  const users = paged('/users')
  const groups = paged('/groups')
  const memberships = groups.then((list) => Promise.all(list.map((group) => once(`/groups/${group.id}/memberships`))))
  const defaultGroup = Promise.all([security, groups]).then(([setting, list]) => {
    const group = list.find((candidate) => candidate.name === setting.defaultGroupName)
    return group === undefined ? null : get(`/groups/${group.id}/authorizations`)
  })
  const administrators = groups.then(async (list) => {
    const lists = await Promise.all(list.filter((group) => group.administrator).map((group) => once(`/groups/${group.id}/memberships`)))
    return lists.flat().map((membership) => membership.userId)
  })
  const tokens = Promise.all([users, administrators]).then(([list, admins]) => {
    const ids = new Set([...list.map((user) => user.id), 1, ...admins])
    return Promise.all([...ids].sort((a, b) => a - b).map((id) => get(`/users/${id}/access-tokens`)))
  })
  await Promise.all([security, memberships, defaultGroup, tokens, ...ADMIN_SETTINGS.map(get), ...ADMIN_LISTINGS.map(paged), get(VERSION)])
}

/**
 * Every project read by `concurrency` workers, beside the server-wide reads; against a server that
 * speaks only the contract (`contract`), what the audit reads of it: roles, projects and settings.
 */
async function readAll(get, paged, concurrency, contract = false) {
  const server = contract ? undefined : readServer(get, paged)
  const [roles, projects] = await Promise.all([paged('/roles'), paged('/projects')])
  let next = 0
  let settings = 0
  await Promise.all(
    Array.from({length: concurrency}, async () => {
      while (next < projects.length) {
        const project = projects[next++]
        if (contract) await get(`/projects/${project.id}/setting`)
        else await readProject(get, project.id)
        settings++
      }
    }),
  )
  await server
  return {projects: projects.length, roles: roles.length, settings, errors: 0}
}

/** (a) The baseline: a bare undici client doing the same fetches at the same concurrency. */
async function baselinePhase(url, concurrency, contract = false) {
  const {Agent} = await import('undici')
  const agent = new Agent({connections: concurrency, keepAliveTimeout: 10_000})
  const origin = new URL(url).origin
  const headers = {authorization: `Basic ${Buffer.from(`${USER}:${SECRET}`).toString('base64')}`, accept: 'application/json'}
  async function get(path) {
    const response = await agent.request({origin, path: PREFIX + path, method: 'GET', headers})
    const text = await response.body.text()
    if (response.statusCode === 204) return null
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`)
    return isText(path) ? text : JSON.parse(text)
  }
  async function paged(path) {
    const items = []
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const page = await get(`${path}?offset=${offset}&count=${PAGE_SIZE}`)
      items.push(...page)
      if (page.length < PAGE_SIZE) return items
    }
  }
  const started = performance.now()
  const read = await readAll(get, paged, concurrency, contract)
  const wallMs = performance.now() - started
  await agent.close()
  return {wallMs, ...read}
}

/** (a2) The audit's HTTP client alone (dist/src/api/client.js), same fetches, no ingest: splits the audit's overhead between client and model. */
async function clientPhase(url, concurrency) {
  const {createClient} = await import('../dist/src/api/client.js')
  const client = createClient({baseUrl: url, apiPrefix: PREFIX, user: USER, secret: SECRET, connections: concurrency})
  // JSON read as text, as the audit reads optional endpoints (a 204, no authenticator, is null).
  const get = async (path) => {
    const text = await client.getText(path)
    return text === null || isText(path) ? text : JSON.parse(text)
  }
  const started = performance.now()
  const read = await readAll(get, (path) => client.paged(path), concurrency)
  const wallMs = performance.now() - started
  await client.close()
  return {wallMs, ...read}
}

/** (b) The audit's collect path, from the built code, with the data sources the CLI reads (src/api/data-sources.ts). */
async function auditPhase(url, concurrency) {
  const {createClient} = await import('../dist/src/api/client.js')
  const {collectModel} = await import('../dist/src/api/collect.js')
  const {PROJECT_FETCHERS, SERVER_FETCHERS} = await import('../dist/src/api/data-sources.js')
  const client = createClient({baseUrl: url, apiPrefix: PREFIX, user: USER, secret: SECRET, connections: concurrency})
  const started = performance.now()
  const model = await collectModel(client, {server: {url, apiPrefix: PREFIX}, projects: 'all', concurrency, serverFetchers: SERVER_FETCHERS, projectFetchers: PROJECT_FETCHERS})
  const wallMs = performance.now() - started
  await client.close()
  return {
    wallMs,
    projects: model.projects.length,
    roles: model.roles.length,
    settings: [...model.projectsById.values()].filter((project) => project.setting !== null).length,
    errors: model.errors.length,
    firstError: model.errors[0]?.message,
    serverPayloads: Object.keys(model.serverData ?? {}).length,
    notEvaluated: (model.notEvaluated ?? []).length,
  }
}

/**
 * (c) The whole product: `onedev-audit scan --all-projects --format sarif` started by bin/run.js in this process (the bundle,
 * configuration, collection, every rule, the SARIF report written to a file), as a user runs it: importing bin/run.js
 * settles when its run has (its top-level await).
 */
async function cliPhase(url, concurrency) {
  const {readFile} = await import('node:fs/promises')
  Object.assign(process.env, {ONEDEV_URL: url, ONEDEV_API_PREFIX: PREFIX, ONEDEV_USER: USER, ONEDEV_TOKEN: SECRET})
  const {wallMs, sarif} = await withTempDir('oda-bench-', async (dir) => {
    const output = join(dir, 'report.sarif')
    const started = performance.now()
    // bin/run.js as a user starts it, its argv this phase's.
    // --cli-root: another checkout's build (bench/run.mjs --vs-root), in the same phase process.
    const bin = join(flags['cli-root'] ? resolvePath(flags['cli-root']) : ROOT, 'bin', 'run.js')
    process.argv = [process.execPath, bin, 'scan', '--all-projects', '--format', 'sarif', '--output', output, '--fail-on', 'none', '--concurrency', String(concurrency)]
    await import(pathToFileURL(bin).href)
    return {wallMs: performance.now() - started, sarif: JSON.parse(await readFile(output, 'utf8'))}
  })
  const notifications = sarif.runs[0].invocations?.[0]?.toolExecutionNotifications ?? []
  // Whether access was evaluated: the access findings by rule, and the optional endpoints reported not offered.
  const byRule = {}
  for (const result of sarif.runs[0].results) if (ACCESS_RULE.test(result.ruleId)) byRule[result.ruleId] = (byRule[result.ruleId] ?? 0) + 1
  const notEvaluated = notifications.filter((n) => n.properties?.kind === 'not-evaluated' && /^GET \//.test(n.message.text)).map((n) => n.message.text.split(':')[0])
  return {
    wallMs,
    projects: Number(flags.projects),
    roles: Number(flags.roles),
    settings: Number(flags.projects),
    findings: sarif.runs[0].results.length,
    errors: notifications.filter((n) => n.level === 'error').length,
    accessFindings: byRule,
    notEvaluated: notEvaluated.length,
    notEvaluatedEndpoints: notEvaluated,
  }
}

/** The rules that need access or administration data (issues 11, 14). */
const ACCESS_RULE = /^(access|server)\/|^role\/unused$/

if (flags.phase) {
  const phases = {baselinecontract: (url, concurrency) => baselinePhase(url, concurrency, true), clicontract: cliPhase, baseline: baselinePhase, client: clientPhase, contract: auditPhase, noaccess: auditPhase, audit: auditPhase, clinoaccess: cliPhase, cli: cliPhase}
  const run = phases[flags.phase]
  if (!run || !flags.url) throw new Error('usage: --phase baseline|client|audit --url URL --concurrency C')
  const loop = await watchEventLoop()
  const cpuBefore = process.cpuUsage()
  const result = await run(flags.url, Number(flags.concurrency))
  const cpu = process.cpuUsage(cpuBefore)
  result.cpuMs = (cpu.user + cpu.system) / 1000
  Object.assign(result, loop.stop())
  result.maxRssMb = process.resourceUsage().maxRSS / 1024
  process.stdout.write(`${JSON.stringify(result)}\n`)
  process.exit(0)
}

/**
 * The event loop's delay while requests are in flight: a timer every LOOP_INTERVAL_MS in the phase's
 * process (as perf_hooks.monitorEventLoopDelay samples it) records how late it fires, and only the
 * samples between the first request undici creates and the last answer it completes count, so that
 * start-up, the final evaluation and the report, which block the loop with no request waiting, do
 * not. Also the requests in flight as the client sees them (created, not yet completed), over time.
 */
async function watchEventLoop() {
  const channels = await import('node:diagnostics_channel')
  const samples = []
  let first
  let last
  let open = 0
  let openSince = 0
  let openArea = 0
  const moved = (delta) => {
    const now = performance.now()
    openArea += open * (now - openSince)
    openSince = now
    open += delta
    return now
  }
  const created = () => {
    const now = moved(1)
    first ??= now
  }
  const completed = () => {
    last = moved(-1)
  }
  channels.subscribe('undici:request:create', created)
  channels.subscribe('undici:request:trailers', completed)
  channels.subscribe('undici:request:error', completed)
  let expected = performance.now() + LOOP_INTERVAL_MS
  const timer = setInterval(() => {
    const now = performance.now()
    samples.push(now, Math.max(0, now - expected))
    expected = now + LOOP_INTERVAL_MS
  }, LOOP_INTERVAL_MS)
  return {
    stop() {
      clearInterval(timer)
      channels.unsubscribe('undici:request:create', created)
      channels.unsubscribe('undici:request:trailers', completed)
      channels.unsubscribe('undici:request:error', completed)
      const delays = []
      for (let i = 0; i < samples.length; i += 2) if (first !== undefined && samples[i] >= first && samples[i] <= last) delays.push(samples[i + 1])
      delays.sort((a, b) => a - b)
      return {
        loopDelayP99Ms: delays.length === 0 ? 0 : delays[Math.min(delays.length - 1, Math.floor(delays.length * 0.99))],
        loopDelayMaxMs: delays.at(-1) ?? 0,
        clientInFlight: first === undefined || last <= first ? 0 : openArea / (last - first),
      }
    },
  }
}

// ---- driver ------------------------------------------------------------------------------------

function startSimulator(options) {
  const child = fork(
    join(HERE, 'simulator.mjs'),
    ['--projects', options.projects, '--roles', options.roles, '--users', options.users, '--groups', options.groups, '--latency', options.latency, '--padding-kb', options.paddingKb ?? '0'],
    {stdio: ['ignore', 'pipe', 'inherit', 'ipc']},
  )
  return new Promise((resolve, reject) => {
    let buffered = ''
    child.once('exit', (code) => reject(new Error(`simulator exited early (${code})`)))
    child.stdout.on('data', (chunk) => {
      buffered += chunk
      const newline = buffered.indexOf('\n')
      if (newline >= 0) {
        const {url} = JSON.parse(buffered.slice(0, newline))
        resolve({child, url})
      }
    })
  })
}

function ask(child, type) {
  return askWith(child, {type})
}

function askWith(child, request) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.type === request.type) {
        child.off('message', onMessage)
        resolve(message)
      }
    }
    child.on('message', onMessage)
    child.send(request)
  })
}

/** `phase:vs` runs `phase` with the CLI of --vs-root. */
function runPhase(phase, url, concurrency, env = {}) {
  const started = performance.now()
  const [name, vs] = phase.split(':')
  const root = vs === undefined ? [] : ['--cli-root', resolvePath(flags['vs-root'])]
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--phase', name, '--url', url, '--concurrency', String(concurrency), ...root], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {...process.env, ...env},
  })
  let output = ''
  // What the phase says on stderr (the CLI's notices, one per endpoint not offered) is shown only when it fails.
  let errors = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (errors += chunk))
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${phase} phase failed (exit ${code}): ${errors.slice(-2000)}`))
      const result = JSON.parse(output.trim().split('\n').pop())
      resolve({...result, processMs: performance.now() - started})
    })
  })
}

/**
 * Spawn to exit of `node ARGS`; `env` is added to this process's environment, `okCodes` are exit codes
 * besides 0 that are no failure. With `cpu`, the process runs under GNU time (when the machine has it),
 * which adds its user + system CPU (`cpuMs`, NaN without GNU time) and peak RSS (`rssMb`).
 */
async function timeCommand(args, {env = {}, okCodes = [], cpu = false} = {}) {
  const {existsSync, mkdtempSync, readFileSync, rmSync} = await import('node:fs')
  const {tmpdir} = await import('node:os')
  const timed = cpu && existsSync('/usr/bin/time')
  const usageDir = timed ? mkdtempSync(join(tmpdir(), 'oda-time-')) : undefined
  const usage = usageDir && join(usageDir, 'usage')
  const [command, commandArgs] = usage ? ['/usr/bin/time', ['-o', usage, '-f', '%U %S %M', process.execPath, ...args]] : [process.execPath, args]
  const started = performance.now()
  const child = spawn(command, commandArgs, {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, NO_COLOR: '1', ...env}})
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const ms = performance.now() - started
      let cpuMs = Number.NaN
      let rssMb = Number.NaN
      if (usage) {
        const [user, system, rssKb] = readFileSync(usage, 'utf8').trim().split('\n').pop().split(' ').map(Number)
        rmSync(usageDir, {recursive: true, force: true})
        cpuMs = (user + system) * 1000
        rssMb = rssKb / 1024
      }
      if (code !== 0 && !okCodes.includes(code)) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(0, 500)}`))
      resolve({ms, cpuMs, rssMb, stdout, stderr})
    })
  })
}

/** Peak RSS of a node command, from GNU time when the machine has it (NaN otherwise). */
async function peakRssMb(args) {
  const {existsSync} = await import('node:fs')
  if (!existsSync('/usr/bin/time')) return Number.NaN
  const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, ...args], {cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe']})
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  await new Promise((resolve) => child.on('exit', resolve))
  return Number(stderr.trim().split('\n').pop()) / 1024
}

/** Runs `work(dir)` in a new temporary directory, removed afterwards whatever happens. */
async function withTempDir(prefix, work) {
  const {mkdtemp, rm} = await import('node:fs/promises')
  const {tmpdir} = await import('node:os')
  const dir = await mkdtemp(join(tmpdir(), prefix))
  try {
    return await work(dir)
  } finally {
    await rm(dir, {recursive: true, force: true})
  }
}

/** The offline target: evaluating a large snapshot (every rule, a full report) in a fresh process. */
function offlineBench(projectCount, roleCount, runs) {
  // The snapshot and the reports (about 170 MB at 10,000 projects) are removed afterwards.
  return withTempDir('oda-offline-', (dir) => offlineBenchIn(dir, projectCount, roleCount, runs))
}

async function offlineBenchIn(dir, projectCount, roleCount, runs) {
  const {buildProjects, buildRoles, buildSetting} = await import('./simulator.mjs')
  const {rm, writeFile, stat} = await import('node:fs/promises')
  const file = join(dir, 'snapshot.json')
  const projects = buildProjects(projectCount)
  const snapshot = {
    snapshotVersion: 1,
    tool: {name: 'onedev-audit', version: 'bench'},
    server: {url: 'https://onedev.example.com', apiPrefix: PREFIX},
    collectedAt: new Date().toISOString(),
    projects: projects.map((p) => ({id: p.id, path: p.path, name: p.name, parentId: p.parentId, audited: true, setting: buildSetting(p)})),
    roles: buildRoles(roleCount),
    errors: [],
  }
  await writeFile(file, JSON.stringify(snapshot))
  // The same snapshot with every rule off: what the payloads alone cost (loading, no findings).
  const {builtinRules} = await import('../dist/rules/index.js')
  const quiet = join(dir, 'rules-off.json')
  await writeFile(quiet, JSON.stringify({rules: Object.fromEntries(builtinRules.map((rule) => [rule.meta.id, 'off']))}))
  const scan = (format, output, ...extra) => ['bin/run.js', 'scan', '--snapshot', file, '--format', format, '--output', join(dir, output), '--fail-on', 'none', ...extra]
  const samples = {
    nodeMs: [], versionMs: [], versionRatio: [], exampleMs: [], exampleRatio: [], jsonMs: [], jsonCpuMs: [], sarifMs: [], evaluateMs: [], readMs: [], quietMs: [],
    parseMs: [], parseCpuMs: [], parseRatio: [], parseCpuRatio: [], floorMs: [], floorCpuMs: [], floorRatio: [], floorCpuRatio: [], floorToParse: [], floorCpuToParse: [],
  }
  let findings = 0
  // Not timed: on Node 22 and later, the first start of a build fills Node's compile cache (bin/run.js).
  await timeCommand(['bin/run.js', 'scan', '--snapshot', 'examples/snapshot.json', '--fail-on', 'none'])
  for (let run = 0; run < runs; run++) {
    const node = (await timeCommand(['-e', '0'])).ms
    samples.nodeMs.push(node)
    const version = (await timeCommand(['bin/run.js', '--version'])).ms
    samples.versionMs.push(version)
    samples.versionRatio.push(version / node)
    // The local case: the 4-project example, against `node -e 0` just before it (a ratio per pair).
    const example = (await timeCommand(['bin/run.js', 'scan', '--snapshot', 'examples/snapshot.json', '--fail-on', 'none'])).ms
    samples.exampleMs.push(example)
    samples.exampleRatio.push(example / node)
    // Issue 28's yardsticks, each in a process of its own started right after the scan (a user's scan:
    // no --debug, which turns on source maps): JSON.parse of the same file, and the floor of any tool
    // that reads it and writes a report of the scan's size (bench/report-floor.mjs).
    const json = await timeCommand(scan('json', 'r.json'), {cpu: true})
    const parse = await timeCommand(['-e', `JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`], {cpu: true})
    findings = Number(/: (\d+) findings?/.exec(json.stderr)?.[1] ?? 0)
    const floor = await timeCommand(['bench/report-floor.mjs', file, join(dir, 'floor.json'), String(findings), String((await stat(join(dir, 'r.json'))).size)], {cpu: true})
    samples.jsonMs.push(json.ms)
    samples.jsonCpuMs.push(json.cpuMs)
    samples.parseMs.push(parse.ms)
    samples.parseCpuMs.push(parse.cpuMs)
    samples.floorMs.push(floor.ms)
    samples.floorCpuMs.push(floor.cpuMs)
    samples.parseRatio.push(json.ms / parse.ms)
    samples.parseCpuRatio.push(json.cpuMs / parse.cpuMs)
    samples.floorRatio.push(json.ms / floor.ms)
    samples.floorCpuRatio.push(json.cpuMs / floor.cpuMs)
    samples.floorToParse.push(floor.ms / parse.ms)
    samples.floorCpuToParse.push(floor.cpuMs / parse.cpuMs)
    // --debug prints each phase's time (a few lines on stderr): the reading and the evaluation are read from it.
    const debug = await timeCommand(scan('json', 'd.json', '--debug'))
    samples.readMs.push(Number(/read the snapshot: .* in (\d+)ms/.exec(debug.stderr)?.[1] ?? Number.NaN))
    samples.evaluateMs.push(Number(/evaluated .* in (\d+)ms/.exec(debug.stderr)?.[1] ?? Number.NaN))
    samples.sarifMs.push((await timeCommand(scan('sarif', 'r.sarif'))).ms)
    samples.quietMs.push((await timeCommand(scan('json', 'q.json', '--config', quiet))).ms)
    await rm(join(dir, 'floor.json'), {force: true})
  }
  const maxRssMb = await peakRssMb(scan('sarif', 'rss.sarif'))
  const jsonRssMb = await peakRssMb(scan('json', 'rss.json'))
  const quietRssMb = await peakRssMb(scan('json', 'rss-q.json', '--config', quiet))
  return {
    projects: projectCount,
    roles: roleCount,
    snapshotMb: (await stat(file)).size / 1024 / 1024,
    nodeMs: median(samples.nodeMs),
    versionMs: median(samples.versionMs),
    versionToNode: median(samples.versionRatio),
    exampleMs: median(samples.exampleMs),
    exampleToNode: median(samples.exampleRatio),
    jsonMs: median(samples.jsonMs),
    sarifMs: median(samples.sarifMs),
    readMs: median(samples.readMs),
    evaluateMs: median(samples.evaluateMs),
    rulesOffMs: median(samples.quietMs),
    parseMs: median(samples.parseMs),
    jsonToParse: median(samples.parseRatio),
    jsonCpuMs: median(samples.jsonCpuMs),
    parseCpuMs: median(samples.parseCpuMs),
    jsonCpuToParse: median(samples.parseCpuRatio),
    floorMs: median(samples.floorMs),
    floorCpuMs: median(samples.floorCpuMs),
    floorToParse: median(samples.floorToParse),
    floorCpuToParse: median(samples.floorCpuToParse),
    jsonToFloor: median(samples.floorRatio),
    jsonCpuToFloor: median(samples.floorCpuRatio),
    maxRssMb,
    jsonRssMb,
    rulesOffRssMb: quietRssMb,
    findings,
  }
}

function median(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * Judged on arrival (issue 12): the full live scan (c) per size and payload padding, with projects
 * judged as they arrive and their payloads dropped, and with the whole model kept and evaluated at the
 * end (the bench-only switch ONEDEV_AUDIT_WHOLE_MODEL=1), alternating, in one run. Each also runs with
 * V8's old space capped (--max-old-space-size): V8 collects lazily, so the plain peak RSS says little
 * of what the run needs; under the cap, a run that holds more than the cap dies (out of memory).
 */
async function arrivalBench(sizes, paddings, runs) {
  const concurrency = Number(flags.concurrency)
  const capped = {NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${flags['arrival-heap-mb']}`.trim()}
  const rows = []
  for (const paddingKb of paddings) {
    for (const projects of sizes) {
      const simulator = await startSimulator({projects: String(projects), roles: flags.roles, users: flags.users, groups: flags.groups, latency: flags.latency, paddingKb: String(paddingKb)})
      const samples = {whole: [], arrival: [], wholeCapped: [], arrivalCapped: []}
      try {
        for (let run = 0; run < runs; run++) {
          for (const mode of ['whole', 'arrival']) {
            const env = mode === 'whole' ? {ONEDEV_AUDIT_WHOLE_MODEL: '1'} : {}
            await askWith(simulator.child, {type: 'reset', repositories: true})
            samples[mode].push(await runPhase('cli', simulator.url, concurrency, env))
            await askWith(simulator.child, {type: 'reset', repositories: true})
            samples[`${mode}Capped`].push(await runPhase('cli', simulator.url, concurrency, {...env, ...capped}).catch(() => ({outOfMemory: true})))
          }
        }
      } finally {
        simulator.child.send({type: 'close'})
      }
      const row = {projects, paddingKb}
      for (const [mode, list] of Object.entries(samples)) {
        const done = list.filter((r) => !r.outOfMemory)
        row[mode] = done.length === 0 ? {outOfMemory: true} : {wallMs: median(done.map((r) => r.wallMs)), maxRssMb: Math.max(...done.map((r) => r.maxRssMb)), findings: done[0].findings, outOfMemory: done.length < list.length}
      }
      rows.push(row)
    }
  }
  return rows
}

function arrivalLines(rows, runs) {
  const ms = (value) => `${Math.round(value)} ms`
  const cell = (r) => (r.outOfMemory && r.maxRssMb === undefined ? 'out of memory' : `${r.maxRssMb.toFixed(0)} MB, ${ms(r.wallMs)}${r.outOfMemory ? ' (some runs out of memory)' : ''}`)
  return [
    `live full scan (c), latency ${flags.latency} ms, concurrency ${flags.concurrency}, ${flags.roles} roles: peak RSS of the whole process (max of ${runs}), wall (median);`,
    `"capped": with --max-old-space-size=${flags['arrival-heap-mb']}`,
    `  projects  padding  whole model at the end   judged on arrival        whole, capped            on arrival, capped       findings`,
    ...rows.map((r) => `  ${String(r.projects).padEnd(9)} ${`${r.paddingKb} KB`.padEnd(8)} ${cell(r.whole).padEnd(24)} ${cell(r.arrival).padEnd(24)} ${cell(r.wholeCapped).padEnd(24)} ${cell(r.arrivalCapped).padEnd(24)} ${r.arrival.findings}${r.arrival.findings === r.whole.findings ? '' : ` (whole: ${r.whole.findings})`}`),
  ]
}

async function main() {
  if (flags.arrival) {
    const runs = Math.max(1, Number(flags.runs))
    const rows = await arrivalBench(flags['arrival-sizes'].split(',').map(Number), flags['arrival-padding-kb'].split(',').map(Number), runs)
    process.stdout.write(flags.json ? `${JSON.stringify({arrival: rows}, null, 2)}\n` : `${arrivalLines(rows, runs).join('\n')}\n`)
    return
  }
  if (flags['diff-only']) {
    const {diffBench, diffLines} = await import('./diff.mjs')
    const runs = Math.max(1, Number(flags.runs))
    const diff = await diffBench(Number(flags['offline-projects']), Number(flags.roles), runs, {timeCommand, peakRssMb, median, withTempDir})
    process.stdout.write(flags.json ? `${JSON.stringify({diff}, null, 2)}\n` : `${diffLines(diff, runs).join('\n')}\n`)
    return
  }
  if (flags['reports-only']) {
    const {reportsBench, reportsLines} = await import('./onedev-reports.mjs')
    const runs = Math.max(1, Number(flags.runs))
    const reports = await reportsBench(Number(flags['offline-projects']), Number(flags.roles), runs, {timeCommand, peakRssMb, median, withTempDir})
    process.stdout.write(flags.json ? `${JSON.stringify({reports}, null, 2)}\n` : `${reportsLines(reports, runs).join('\n')}\n`)
    return
  }
  if (flags['evidence-only']) {
    const {evidenceBench, evidenceLines} = await import('./evidence.mjs')
    const runs = Math.max(1, Number(flags.runs))
    const evidence = await evidenceBench(Number(flags['offline-projects']), Number(flags.roles), runs, {timeCommand, peakRssMb, median, withTempDir})
    process.stdout.write(flags.json ? `${JSON.stringify({evidence}, null, 2)}\n` : `${evidenceLines(evidence, runs).join('\n')}\n`)
    return
  }
  if (flags['html-only']) {
    const {htmlBench, htmlLines} = await import('./html.mjs')
    const runs = Math.max(1, Number(flags.runs))
    const html = await htmlBench(Number(flags['offline-projects']), Number(flags.roles), runs, {timeCommand, peakRssMb, median, withTempDir})
    process.stdout.write(flags.json ? `${JSON.stringify({html}, null, 2)}\n` : `${htmlLines(html, runs).join('\n')}\n`)
    return
  }
  if (flags['fix-only']) {
    const {fixBench, fixLines} = await import('./fix.mjs')
    const runs = Math.max(1, Number(flags.runs))
    const fix = await fixBench(Number(flags['offline-projects']), Number(flags.roles), runs, Number(flags['fix-latency']), {timeCommand, peakRssMb, median, withTempDir}, flags['fix-roots'])
    process.stdout.write(flags.json ? `${JSON.stringify({fix}, null, 2)}\n` : `${fixLines(fix, runs).join('\n')}\n`)
    return
  }
  if (flags['notify-only']) {
    const {notifyBench, notifyLines} = await import('./notify.mjs')
    const runs = Math.max(1, Number(flags.runs))
    const notify = await notifyBench(Number(flags['offline-projects']), Number(flags.roles), runs, Number(flags['notify-latency']), Number(flags.concurrency), {timeCommand, peakRssMb, median, withTempDir}, flags['vs-root'] && resolvePath(flags['vs-root']))
    process.stdout.write(flags.json ? `${JSON.stringify({notify}, null, 2)}\n` : `${notifyLines(notify, runs).join('\n')}\n`)
    return
  }
  if (flags['offline-only']) {
    const runs = Math.max(1, Number(flags.runs))
    const offline = await offlineBench(Number(flags['offline-projects']), Number(flags.roles), runs)
    process.stdout.write(flags.json ? `${JSON.stringify({offline}, null, 2)}\n` : `${offlineLines(offline, runs).join('\n')}\n`)
    return
  }
  const options = {projects: flags.projects, roles: flags.roles, users: flags.users, groups: flags.groups, latency: flags.latency}
  const latency = Number(flags.latency)
  const concurrency = Number(flags.concurrency)
  const runs = Math.max(1, Number(flags.runs))
  // --phases baseline,cli: only those (the 10,000-project, 50 ms case takes minutes per phase).
  let phases = flags.phases ? PHASES.filter((phase) => flags.phases.split(',').includes(phase)) : PHASES
  const unknown = flags.phases ? flags.phases.split(',').filter((phase) => !PHASES.includes(phase)) : []
  if (unknown.length > 0 || phases.length === 0) throw new Error(`--phases: unknown phase ${unknown.join(', ') || '(none given)'}; the phases are ${PHASES.join(', ')}`)
  const all = phases.length === PHASES.length
  // --vs-root DIR: each CLI phase is run a second time, right after, with the CLI of DIR (another build).
  if (flags['vs-root']) phases = phases.flatMap((phase) => (CLI_PHASES.includes(phase) ? [phase, `${phase}:vs`] : [phase]))
  const simulator = await startSimulator(options)
  const results = Object.fromEntries(phases.map((phase) => [phase, []]))
  try {
    for (let run = 0; run < runs; run++) {
      for (const phase of phases) {
        await askWith(simulator.child, {type: 'reset', ...(PHASE_SERVER[phase.split(':')[0]] ?? CURRENT_SERVER)})
        const result = await runPhase(phase, simulator.url, concurrency)
        const stats = await ask(simulator.child, 'stats')
        results[phase].push({...result, requests: stats.requests, serverMaxInFlight: stats.maxInFlight, meanInFlight: stats.meanInFlight})
      }
    }
  } finally {
    simulator.child.send({type: 'close'})
  }

  const summary = {}
  for (const phase of phases) {
    const list = results[phase]
    const requests = list[list.length - 1].requests
    const floorMs = (requests * latency) / concurrency
    summary[phase] = {
      wallMs: median(list.map((r) => r.wallMs)),
      processMs: median(list.map((r) => r.processMs)),
      cpuMs: median(list.map((r) => r.cpuMs)),
      requests,
      floorMs,
      serverMaxInFlight: Math.max(...list.map((r) => r.serverMaxInFlight)),
      meanInFlight: median(list.map((r) => r.meanInFlight)),
      clientInFlight: median(list.map((r) => r.clientInFlight)),
      loopDelayP99Ms: median(list.map((r) => r.loopDelayP99Ms)),
      loopDelayMaxMs: Math.max(...list.map((r) => r.loopDelayMaxMs)),
      cpuPerProjectMs: median(list.map((r) => r.cpuMs / Number(flags.projects))),
      maxRssMb: Math.max(...list.map((r) => r.maxRssMb)),
      projects: list[0].projects,
      roles: list[0].roles,
      settings: list[0].settings,
      errors: list[0].errors,
      firstError: list[0].firstError,
      findings: list[0].findings,
      serverPayloads: list[0].serverPayloads,
      notEvaluated: list[0].notEvaluated,
      notEvaluatedEndpoints: list[0].notEvaluatedEndpoints,
      accessFindings: list[0].accessFindings,
    }
  }
  if (all) checkAccessEvaluated(summary)
  const {baseline, audit, client, cli} = summary
  const ratio = (a, b) => (a && b ? a.wallMs / b.wallMs : undefined)
  const report = {
    projects: Number(flags.projects),
    roles: Number(flags.roles),
    latencyMs: latency,
    concurrency,
    runs,
    baseline,
    audit,
    auditToFloor: audit && audit.wallMs / audit.floorMs,
    auditToBaseline: ratio(audit, baseline),
    clientToBaseline: ratio(client, baseline),
    baselineToFloor: baseline && baseline.wallMs / baseline.floorMs,
    cliToFloor: cli && cli.wallMs / cli.floorMs,
    cliToBaseline: ratio(cli, baseline),
    paired: pairedRatios(results),
    phases: summary,
  }
  const offline = flags['live-only'] ? undefined : await offlineBench(Number(flags['offline-projects']), Number(flags.roles), runs)
  report.offline = offline
  const htmlModule = offline ? await import('./html.mjs') : undefined
  if (htmlModule) report.html = await htmlModule.htmlBench(Number(flags['offline-projects']), Number(flags.roles), runs, {timeCommand, peakRssMb, median, withTempDir})
  if (flags.diff) report.diff = await (await import('./diff.mjs')).diffBench(Number(flags['offline-projects']), Number(flags.roles), runs, {timeCommand, peakRssMb, median, withTempDir})
  if (flags.reports) report.reports = await (await import('./onedev-reports.mjs')).reportsBench(Number(flags['offline-projects']), Number(flags.roles), runs, {timeCommand, peakRssMb, median, withTempDir})
  if (flags.evidence) report.evidence = await (await import('./evidence.mjs')).evidenceBench(Number(flags['offline-projects']), Number(flags.roles), runs, {timeCommand, peakRssMb, median, withTempDir})
  if (flags.fix) report.fix = await (await import('./fix.mjs')).fixBench(Number(flags['offline-projects']), Number(flags.roles), runs, Number(flags['fix-latency']), {timeCommand, peakRssMb, median, withTempDir}, flags['fix-roots'])
  if (flags.notify) report.notify = await (await import('./notify.mjs')).notifyBench(Number(flags['offline-projects']), Number(flags.roles), runs, Number(flags['notify-latency']), concurrency, {timeCommand, peakRssMb, median, withTempDir})
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return
  }
  const ms = (value) => `${Math.round(value)} ms`
  const lines = [
    `onedev-audit bench: ${report.projects} projects, ${report.roles} roles, latency ${latency} ms, concurrency ${concurrency}, median of ${runs} run(s)`,
    '',
    `${''.padEnd(35)}wall       process    cpu        cpu/project  requests  floor      wall/floor  in flight (max)  loop p99   peak RSS`,
    ...phases.map((phase) => {
      const r = summary[phase]
      return `${labelOf(phase).padEnd(34)} ${ms(r.wallMs).padEnd(10)} ${ms(r.processMs).padEnd(10)} ${ms(r.cpuMs).padEnd(10)} ${`${r.cpuPerProjectMs.toFixed(2)} ms`.padEnd(12)} ${String(r.requests).padEnd(9)} ${ms(r.floorMs).padEnd(10)} ${(r.wallMs / r.floorMs).toFixed(2).padEnd(11)} ${`${r.meanInFlight.toFixed(1)} (${r.serverMaxInFlight})`.padEnd(16)} ${`${r.loopDelayP99Ms.toFixed(1)} ms`.padEnd(9)} ${r.maxRssMb.toFixed(0)} MB`
    }),
    '',
    ...(audit ? [`audit / floor:    ${report.auditToFloor.toFixed(2)}x   (floor = requests x latency / concurrency; not reachable on 2 shared cores)`] : []),
    ...(report.auditToBaseline ? [`audit / baseline: ${report.auditToBaseline.toFixed(2)}x   (client alone / baseline: ${report.clientToBaseline?.toFixed(2) ?? '-'}x; the rest is validation, redaction and normalization)`] : []),
    ...(cli ? [`full CLI / floor: ${report.cliToFloor.toFixed(2)}x   full CLI / baseline: ${report.cliToBaseline?.toFixed(2) ?? '-'}x   (${cli.findings} findings in the SARIF report)`] : []),
    ...(audit ? [`audit read ${audit.projects} projects, ${audit.settings} settings, ${audit.roles} roles, ${audit.errors} error(s)${audit.firstError ? `: ${audit.firstError}` : ''}`] : []),
    ...(all ? costLines(summary, report.projects, ms) : []),
    ...liveTargetLines(report.paired, summary, concurrency),
    ...(offline ? ['', ...offlineLines(offline, runs)] : []),
    ...(report.html ? ['', ...htmlModule.htmlLines(report.html, runs)] : []),
    ...(report.diff ? ['', ...(await import('./diff.mjs')).diffLines(report.diff, runs)] : []),
    ...(report.reports ? ['', ...(await import('./onedev-reports.mjs')).reportsLines(report.reports, runs)] : []),
    ...(report.evidence ? ['', ...(await import('./evidence.mjs')).evidenceLines(report.evidence, runs)] : []),
    ...(report.fix ? ['', ...(await import('./fix.mjs')).fixLines(report.fix, runs)] : []),
    ...(report.notify ? ['', ...(await import('./notify.mjs')).notifyLines(report.notify, runs)] : []),
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

/** A phase's label; `phase:vs` is the phase with the CLI of --vs-root. */
function labelOf(phase) {
  const [name, vs] = phase.split(':')
  return vs === undefined ? PHASE_LABELS[name] : `${PHASE_LABELS[name].slice(0, PHASE_LABELS[name].indexOf(')') + 1)} --vs-root build`
}

/**
 * Whole processes (spawn to exit), each scan against the bare client of the same run: the median of
 * the per-run ratios, (c0) / (a0) on a server that speaks only the contract, (c) / (a) on a current one.
 */
function pairedRatios(results) {
  // Each run's ratio, then their median with the min and max: {median, min, max}, or undefined.
  const spread = (a, b, key) => {
    if (!results[a] || !results[b]) return undefined
    const ratios = results[a].map((r, i) => r[key] / results[b][i][key])
    return {median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios)}
  }
  const vs = Object.fromEntries(CLI_PHASES.filter((phase) => results[`${phase}:vs`]).map((phase) => [phase, {process: spread(phase, `${phase}:vs`, 'processMs'), cpu: spread(phase, `${phase}:vs`, 'cpuMs')}]))
  const contract = spread('clicontract', 'baselinecontract', 'processMs')
  const current = spread('cli', 'baseline', 'processMs')
  return {cliContractToBaseline: contract?.median, cliToBaseline: current?.median, spreads: {cliContractToBaseline: contract, cliToBaseline: current}, vs}
}

/** `1.02x (0.98-1.05)`: a paired ratio's median, and its min and max over the runs. */
const withSpread = (ratio) => `${ratio.median.toFixed(2)}x (${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)})`

/** Issue 28's targets, for the phases that ran: scans against the bare client, against the floor, and the requests in flight. */
function liveTargetLines(paired, summary, concurrency) {
  const rows = []
  const inFlight = (r) => `${r.meanInFlight.toFixed(1)} of ${concurrency}`
  if (paired.cliContractToBaseline !== undefined) rows.push(targetRow('(c0) / (a0), whole processes, paired', withSpread(paired.spreads.cliContractToBaseline), '<= 1.3x', paired.cliContractToBaseline <= 1.3))
  if (paired.cliToBaseline !== undefined) rows.push(targetRow('(c) / (a), whole processes, paired', withSpread(paired.spreads.cliToBaseline), '<= 1.3x', paired.cliToBaseline <= 1.3))
  for (const phase of ['clicontract', 'cli']) {
    const r = summary[phase]
    if (!r) continue
    const label = phase === 'cli' ? '(c)' : '(c0)'
    rows.push(targetRow(`${label} whole process / floor`, `${(r.processMs / r.floorMs).toFixed(2)}x`, '<= 1.1x', r.processMs / r.floorMs <= 1.1))
    rows.push(targetRow(`${label} mean requests in flight at the server`, inFlight(r), `>= ${(concurrency * 14) / 16}`, r.meanInFlight >= (concurrency * 14) / 16))
  }
  for (const [phase, ratio] of Object.entries(paired.vs)) rows.push(`  ${labelOf(phase)} / the --vs-root build: whole process ${withSpread(ratio.process)}, CPU ${withSpread(ratio.cpu)} (paired per run: median, min-max)`)
  if (rows.length === 0) return []
  const bare = ['baselinecontract', 'baseline'].filter((phase) => summary[phase]).map((phase) => `${PHASE_LABELS[phase]}: ${inFlight(summary[phase])} in flight, ${(summary[phase].processMs / summary[phase].floorMs).toFixed(2)}x the floor`)
  return ['', 'targets (issue 28; 1.1x the floor is for 5,000 projects at 50 ms, concurrency 32):', ...rows, ...(bare.length > 0 ? [`  the bare client on the same run: ${bare.join('; ')}`] : [])]
}

/** What default branches and tags (issue 10) and access data (issues 11, 14) cost: the same run, before and after. */
function costLines(summary, projects, ms) {
  const {contract, noaccess, audit, clinoaccess, cli, baseline} = summary
  const cost = (before, after) =>
    `${after.requests - before.requests} more requests (${before.requests} -> ${after.requests}, ${((after.requests - before.requests) / projects).toFixed(2)} per project), ` +
    `${ms(after.wallMs - before.wallMs)} more wall time (${ms(before.wallMs)} -> ${ms(after.wallMs)}, +${((after.wallMs / before.wallMs - 1) * 100).toFixed(0)} %)`
  const rules = Object.entries(cli.accessFindings ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)).map(([rule, count]) => `${rule} ${count}`)
  return [
    `default branches and tags (issue 10), (b0) -> (b1): ${cost(contract, noaccess)}`,
    `access and administration (issues 11, 14), collection (b1) -> (b): ${cost(noaccess, audit)}`,
    `access and administration, full CLI scan (c1) -> (c): ${cost(clinoaccess, cli)}; (c) / bare client ${(cli.wallMs / baseline.wallMs).toFixed(2)}x`,
    `access evaluated in (b) and (c): ${audit.serverPayloads} server payloads, 0 endpoints not evaluated; (c) has ${rules.join(', ')}; (b1) and (c1): ${noaccess.notEvaluated} and ${clinoaccess.notEvaluated} endpoints not evaluated`,
  ]
}

/**
 * The bench measures what it says only if the audit really read and judged access data where the
 * simulator answers it, and reported it not evaluated where it does not: checked, or the bench fails.
 */
function checkAccessEvaluated(summary) {
  const problems = []
  const {noaccess, audit, clinoaccess, cli} = summary
  if (audit.notEvaluated !== 0 || audit.serverPayloads === 0) problems.push(`(b) collected ${audit.serverPayloads} server payloads with ${audit.notEvaluated} endpoints not evaluated`)
  if (cli.notEvaluated !== 0) problems.push(`(c) reported endpoints not evaluated: ${cli.notEvaluatedEndpoints.join(', ')}`)
  if (!Object.keys(cli.accessFindings ?? {}).some((rule) => rule.startsWith('access/'))) problems.push('(c) has no access/* finding')
  if (noaccess.notEvaluated === 0) problems.push('(b1) reported no endpoint not evaluated')
  if (clinoaccess.notEvaluated === 0 || Object.keys(clinoaccess.accessFindings ?? {}).length > 0) problems.push(`(c1) reported ${clinoaccess.notEvaluated} endpoints not evaluated and ${Object.keys(clinoaccess.accessFindings ?? {}).join(', ') || 'no'} access findings`)
  if (problems.length > 0) throw new Error(`access data was not evaluated as the phases expect: ${problems.join('; ')}`)
}

function offlineLines(offline, runs) {
  const ms = (value) => `${Math.round(value)} ms`
  return [
    `offline: scan --snapshot of ${offline.projects} projects and ${offline.roles} roles (${offline.snapshotMb.toFixed(1)} MB), whole process from spawn to exit, median of ${runs}:`,
    `  node -e 0: ${ms(offline.nodeMs)}   onedev-audit --version: ${ms(offline.versionMs)}   scan --snapshot examples/snapshot.json: ${ms(offline.exampleMs)} (${offline.exampleToNode.toFixed(2)}x node -e 0)`,
    `  scan --format json: ${ms(offline.jsonMs)} (reading the snapshot ${ms(offline.readMs)}, evaluating every rule ${ms(offline.evaluateMs)})   peak RSS ${offline.jsonRssMb.toFixed(0)} MB   (${offline.findings} findings)`,
    `  scan --format sarif: ${ms(offline.sarifMs)}   peak RSS ${offline.maxRssMb.toFixed(0)} MB`,
    `  every rule off (the payloads alone, no findings): ${ms(offline.rulesOffMs)}   peak RSS ${offline.rulesOffRssMb.toFixed(0)} MB`,
    '',
    'targets (issue 12):',
    targetRow(`offline scan of ${offline.projects} projects, spawn to exit, JSON`, ms(offline.jsonMs), '<= 1500 ms', offline.jsonMs <= 1500),
    targetRow('its peak RSS', `${offline.jsonRssMb.toFixed(0)} MB`, '<= 200 MB', offline.jsonRssMb <= 200),
    '',
    `target (issue 28): the JSON scan (${ms(offline.jsonMs)}, CPU ${ms(offline.jsonCpuMs)}) against JSON.parse of the snapshot in a process of its own`,
    `(${ms(offline.parseMs)}, CPU ${ms(offline.parseCpuMs)}), and against the floor of any tool that reads it and writes a report of the same size`,
    `(bench/report-floor.mjs: ${ms(offline.floorMs)}, CPU ${ms(offline.floorCpuMs)}); spawn to exit, paired per run, medians of the ratios:`,
    targetRow('scan --format json / JSON.parse, wall', `${offline.jsonToParse.toFixed(2)}x`, '<= 6x', offline.jsonToParse <= 6),
    targetRow('scan --format json / JSON.parse, CPU', `${offline.jsonCpuToParse.toFixed(2)}x`, '<= 6x', offline.jsonCpuToParse <= 6),
    `  the floor / JSON.parse: ${offline.floorToParse.toFixed(2)}x wall, ${offline.floorCpuToParse.toFixed(2)}x CPU; the scan / the floor: ${offline.jsonToFloor.toFixed(2)}x wall, ${offline.jsonCpuToFloor.toFixed(2)}x CPU`,
    '',
    "start-up targets (issue 21, on Node 20; they replace issue 12's 2.5x for the example):",
    targetRow('scan --snapshot examples/snapshot.json / node -e 0', `${offline.exampleToNode.toFixed(2)}x`, '<= 3x', offline.exampleToNode <= 3),
    targetRow('--version / node -e 0', `${offline.versionToNode.toFixed(2)}x`, '<= 2x', offline.versionToNode <= 2),
  ]
}

function targetRow(measure, value, target, met) {
  return `  ${measure.padEnd(56)} ${value.padEnd(10)} target ${target.padEnd(12)} ${met ? 'met' : 'NOT met'}`
}

await main()
