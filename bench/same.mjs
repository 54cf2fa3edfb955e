#!/usr/bin/env node
/**
 * Nothing else changes: the reports and the requests of this build against another one (a checkout
 * of the commit before a change, built), on the bench's data.
 *
 *   node bench/same.mjs --base ../onedev-audit-before [--projects 2000] [--offline-projects 10000] [--formats json,sarif]
 *       [--offline-formats json,sarif,markdown,html,junit,checkstyle,stylish] [--offline-only] [--snapshot FILE]
 *
 * - live: `scan --all-projects --concurrency 16` of both builds against one simulator (bench/simulator.mjs),
 *   once with every endpoint on and once as a server that speaks only the contract: the reports must be
 *   the same byte for byte once their timestamps are blanked, and the requests the same (each request's
 *   path and query, in any order; on the contract server, the endpoints it lacks by template, since how
 *   often each is asked before it is known not to be offered depends on timing: contractRequestList);
 * - offline: `scan --snapshot` of the bench's offline snapshot (bench/run.mjs) by both builds, in every
 *   format (checkstyle of the same snapshot written as a folder, which it needs): the same reports;
 *   and so for `--snapshot FILE` too (one written by collect, with access data, say).
 * Exits 1 when anything differs, naming it.
 */
import {spawn} from 'node:child_process'
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'

import {buildProjects, buildRoles, buildSetting, startSimulator} from './simulator.mjs'

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = join(HERE, '..')

/**
 * A report with its timestamps blanked: `generatedAt`, `collectedAt` and SARIF's start and end times;
 * the HTML page's `<time>` of writing; the markdown report's time after the tool's version.
 */
export function withoutTimestamps(text) {
  return text
    .replace(/"(generatedAt|collectedAt|startTimeUtc|endTimeUtc)"(\s*):(\s*)"[^"]*"/g, '"$1"$2:$3""')
    .replace(/<time datetime="[^"<>]*">[^<>]*<\/time>/g, '<time></time>')
    .replace(/^(.* · onedev-audit [^,\n]*, )\d{4}-\d\d-\d\dT[\d:.]+Z$/m, '$1')
}

/** The requests of a run as a sorted list (their order depends on timing, not on what is asked). */
export function requestList(paths) {
  return [...paths].sort()
}

/**
 * The requests of a run against a server that lacks some endpoints: the requests it answers (roles,
 * projects, settings) as a sorted list, and the endpoints it lacks only as the set of their templates.
 * How often such an endpoint is asked before it is known not to be offered depends on which answers
 * are in flight together (build 1fe049e too: 4 to 16 asks of /repositories/{id}/tags at concurrency 16).
 */
export function contractRequestList(paths) {
  const answered = paths.filter((path) => /^\/[^/]+\/(roles|projects)(\/\d+(\/setting)?)?(\?|$)/.test(path))
  const missing = new Set(paths.filter((path) => !answered.includes(path)).map((path) => path.replace(/\?.*$/, '').replace(/\/\d+(?=\/|$)/g, '/{id}')))
  return [...requestList(answered), ...[...missing].sort().map((template) => `not offered: ${template}`)]
}

function run(root, args, env) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'run.js'), ...args], {stdio: ['ignore', 'ignore', 'pipe'], env: {...process.env, ...env}})
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', fail)
    child.on('exit', (code) => (code === 0 || code === 1 ? done() : fail(new Error(`${root}: ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`))))
  })
}

async function main() {
  const {values: flags} = parseArgs({
    options: {
      base: {type: 'string'},
      projects: {type: 'string', default: '2000'},
      'offline-projects': {type: 'string', default: '10000'},
      formats: {type: 'string', default: 'json,sarif'},
      'offline-formats': {type: 'string', default: 'json,sarif,markdown,html,junit,checkstyle,stylish'},
      'offline-only': {type: 'boolean', default: false},
      snapshot: {type: 'string'},
    },
  })
  if (!flags.base) throw new Error('usage: node bench/same.mjs --base DIR (a built checkout to compare this one with)')
  const builds = {base: resolve(flags.base), this: ROOT}
  const formats = flags.formats.split(',')
  const offlineFormats = flags['offline-formats'].split(',')
  const dir = await mkdtemp(join(tmpdir(), 'oda-same-'))
  const differences = []
  const compare = async (what, files) => {
    const [a, b] = await Promise.all(files.map((file) => readFile(file, 'utf8')))
    const same = withoutTimestamps(a) === withoutTimestamps(b)
    if (!same) differences.push(what)
    process.stdout.write(`${same ? 'same' : 'DIFFERENT'}: ${what} (${b.length} characters)\n`)
  }
  try {
    const simulator = flags['offline-only'] ? undefined : await startSimulator({projects: Number(flags.projects), latency: 0, record: true})
    try {
      for (const server of simulator ? [{name: 'current server', repositories: true, access: true}, {name: 'contract only', repositories: false, access: false}] : []) {
        simulator.setRepositories(server.repositories)
        simulator.setAccess(server.access)
        const env = {ONEDEV_URL: simulator.url, ONEDEV_API_PREFIX: simulator.prefix, ONEDEV_USER: 'bench', ONEDEV_TOKEN: 'bench-token-not-a-secret'}
        for (const format of formats) {
          const requests = {}
          const files = []
          for (const [name, root] of Object.entries(builds)) {
            const file = join(dir, `${name}-${format}-${server.repositories}`)
            simulator.reset()
            await run(root, ['scan', '--all-projects', '--concurrency', '16', '--format', format, '--output', file, '--fail-on', 'none'], env)
            requests[name] = server.repositories ? requestList(simulator.stats.paths) : contractRequestList(simulator.stats.paths)
            files.push(file)
          }
          await compare(`live scan, ${server.name}, ${format} report`, files)
          const same = JSON.stringify(requests.base) === JSON.stringify(requests.this)
          if (!same) differences.push(`live scan, ${server.name}, requests`)
          process.stdout.write(`${same ? 'same' : 'DIFFERENT'}: live scan, ${server.name}, ${format}: requests (${requests.this.length})\n`)
        }
      }
    } finally {
      await simulator?.close()
    }
    const snapshot = join(dir, 'snapshot.json')
    const projects = buildProjects(Number(flags['offline-projects']))
    await writeFile(
      snapshot,
      JSON.stringify({
        snapshotVersion: 1,
        tool: {name: 'onedev-audit', version: 'bench'},
        server: {url: 'https://onedev.example.com', apiPrefix: '/~api'},
        collectedAt: '2026-01-01T00:00:00.000Z',
        projects: projects.map((p) => ({id: p.id, path: p.path, name: p.name, parentId: p.parentId, audited: true, setting: buildSetting(p)})),
        roles: buildRoles(300),
        errors: [],
      }),
    )
    const snapshots = [{file: snapshot, label: `offline scan of ${projects.length} projects`}]
    if (flags.snapshot) snapshots.push({file: resolve(flags.snapshot), label: `offline scan of ${flags.snapshot}`})
    for (const [index, {file: input, label}] of snapshots.entries()) {
      // checkstyle names the files of a snapshot folder: the same snapshot, as collect --output-dir writes it.
      const folder = join(dir, `onedev-${index}`)
      if (offlineFormats.includes('checkstyle')) {
        const {loadSnapshot, saveSnapshotDir} = await import('../dist/src/snapshot/snapshot.js')
        await saveSnapshotDir(await loadSnapshot(input), folder, {name: 'onedev-audit', version: 'bench'})
      }
      for (const format of offlineFormats) {
        const files = []
        for (const [name, root] of Object.entries(builds)) {
          const file = join(dir, `${name}-offline-${index}.${format}`)
          await run(root, ['scan', '--snapshot', format === 'checkstyle' ? relative(process.cwd(), folder) : input, '--format', format, '--output', file, '--fail-on', 'none'], {})
          files.push(file)
        }
        await compare(`${label}, ${format} report`, files)
      }
    }
  } finally {
    await rm(dir, {recursive: true, force: true})
  }
  if (differences.length > 0) {
    process.stderr.write(`different: ${differences.join('; ')}\n`)
    process.exit(1)
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) await main()
