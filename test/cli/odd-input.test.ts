/**
 * Resources and odd input (issue 25), as a user meets them: a server paging without end, numbers,
 * keys and charsets a round trip through JavaScript would change, values nested deeper than any
 * setting, output files that cannot be written, and symbolic links inside an output folder. Each
 * ends in a one-line error naming what and where, exit 2, and the report of what was collected.
 */
import {Buffer} from 'node:buffer'
import {execFileSync} from 'node:child_process'
import {mkdir, readdir, readFile, rm, stat, symlink, writeFile} from 'node:fs/promises'
import {join, relative} from 'node:path'

import {afterEach, beforeAll, describe, expect, it} from 'vitest'

import {ROOT, runCli} from '../helpers/cli.js'
import {EMPTY_ACCESS, fixture, fixtureServerOptions, serverEnv} from '../helpers/fixture-server.js'
import {deeplyNested, encodeAs, endlessRolesPage, LATIN1_SECRET, NUMBER_LIKE_KEYS_TEXT, NUMBER_TOKENS, UNKNOWN_CHARSET} from '../helpers/hostile.js'
import {type OneDevServer, type OneDevServerOptions, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

let dir: string
let servers: OneDevServer[] = []

beforeAll(async () => {
  dir = await tempDir('oda-odd')
})
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

async function start(overrides: OneDevServerOptions = {}): Promise<OneDevServer> {
  const server = await startOneDevServer(fixtureServerOptions({access: EMPTY_ACCESS, admin: {}, ...overrides}))
  servers.push(server)
  return server
}

let fileCount = 0
const file = (name: string) => join(dir, `${++fileCount}-${name}`)

describe('a listing without end', () => {
  it('endless distinct pages of roles (600 KB each) stop at the byte bound with one line naming the listing; the report holds the projects', async () => {
    const server = await start()
    server.setHandler('GET /roles', (request, response) => {
      const url = new URL(request.url ?? '', 'http://x')
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(endlessRolesPage(Number(url.searchParams.get('offset')), Number(url.searchParams.get('count'))))
    })
    const report = file('report.json')
    const result = await runCli(['scan', '--all-projects', '--max-listing-mb', '3', '--format', 'json', '--output', report], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(2)
    const roleErrors = result.stderr.split('\n').filter((line) => line.includes('/roles'))
    expect(roleErrors).toEqual([
      'onedev-audit: error: GET /~api/roles: stopped paging at offset 500: the listings of this run passed 3 MiB (--max-listing-mb), which bounds the memory they take; a server paging without end, or raise the limit',
    ])
    expect(result.stderr).not.toContain('    at ')
    expect(server.requests.filter((r) => r.path === '/~api/roles')).toHaveLength(6)
    const document = JSON.parse(await readFile(report, 'utf8'))
    expect(document.errors.map((e: any) => e.kind)).toContain('paging')
    expect(document.findings.some((f: any) => f.project?.path === 'acme/app')).toBe(true)
  }, 60_000)

  it('each listing past --max-listing-items (projects, roles) stops with its own error in the report', async () => {
    const server = await start()
    const report = file('report.json')
    const result = await runCli(['scan', '--all-projects', '--max-listing-items', '3', '--format', 'json', '--output', report, '--fail-on', 'none'], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(2)
    const document = JSON.parse(await readFile(report, 'utf8'))
    expect(document.errors.filter((e: any) => e.kind === 'paging').map((e: any) => e.message).sort()).toEqual([
      'GET /~api/projects: stopped paging at offset 0: the listing passed 3 items (--max-listing-items); a server paging without end, or raise the limit',
      'GET /~api/roles: stopped paging at offset 0: the listing passed 3 items (--max-listing-items); a server paging without end, or raise the limit',
    ])
  }, 60_000)
})

/** A plan made by `fix --all-projects --output` against the server as it is (exit 1: findings). */
async function planFile(server: OneDevServer): Promise<string> {
  const plan = file('plan.json')
  const result = await runCli(['fix', '--all-projects', '--output', plan], {env: serverEnv(server)})
  expect(result.code, result.stdout + result.stderr).toBe(1)
  server.reset()
  return plan
}

/**
 * Project 3 (legacy/tool) served as `serve` makes its body from the setting stored now; a POST is
 * read as the UTF-8 it says it is and stored. Its job secret holds `secret`.
 */
function servedAs(server: OneDevServer, secret: string, serve: (stored: unknown) => {body: Buffer | string; contentType: string}): {stored: () => any; postedTypes: string[]} {
  let stored: any = fixture('legacy/setting-full.json')
  stored.buildSetting.jobSecrets[0].value = secret
  const postedTypes: string[] = []
  server.setHandler('GET /projects/3/setting', (_request, response) => {
    const {body, contentType} = serve(stored)
    response.writeHead(200, {'content-type': contentType})
    response.end(body)
  })
  server.setHandler('POST /projects/3/setting', (request, response, recorded) => {
    postedTypes.push(String(request.headers['content-type']))
    stored = JSON.parse(recorded.body)
    response.writeHead(200)
    response.end()
  })
  return {stored: () => stored, postedTypes}
}

describe('charsets', () => {
  it('a setting served as ISO-8859-1 is posted back as UTF-8, saying so, with its secret byte for byte', async () => {
    const server = await start()
    const project = servedAs(server, LATIN1_SECRET, (stored) => ({body: encodeAs(JSON.stringify(stored, null, 2), 'iso-8859-1'), contentType: 'application/json;charset=ISO-8859-1'}))
    const result = await runCli(['fix', '--all-projects', '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain('applied         legacy/tool (#3)')
    expect(project.postedTypes).toEqual(['application/json; charset=utf-8'])
    expect(project.stored().buildSetting.jobSecrets[0].value).toBe(LATIN1_SECRET)
    expect(project.stored().branchProtections[1].preventForcedPush).toBe(true)
  }, 60_000)

  it('a setting in a charset the tool does not know is not rewritten: nothing is sent for that project, the others are applied', async () => {
    const server = await start()
    const plan = await planFile(server)
    const project = servedAs(server, 'plain', (stored) => ({body: JSON.stringify(stored), contentType: `application/json; charset=${UNKNOWN_CHARSET}`}))
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain(`NOT READ        legacy/tool (#3): GET /~api/projects/3/setting: the answer's charset is not one this tool decodes; nothing of the answer is used; nothing was sent`)
    expect(project.postedTypes).toEqual([])
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/~api/projects/2/setting'])
  }, 60_000)
})

/** A setting (as text) with a member holding a value nested 3,000 levels deep. */
function deepSetting(setting: unknown): string {
  return JSON.stringify(setting).replace(/^\{/, `{"deep": ${deeplyNested(3000)}, `)
}

describe('values nested deeper than any setting', () => {
  it('scan: a setting nested 3,000 levels deep is that project\'s error, one line; the other projects are judged', async () => {
    const server = await start()
    const text = deepSetting(fixture('current/setting-full.json'))
    server.setHandler('GET /projects/2/setting', (_request, response) => {
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(text)
    })
    const report = file('report.json')
    const result = await runCli(['scan', '--all-projects', '--format', 'json', '--output', report], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toContain('GET /~api/projects/2/setting: the answer is nested deeper than 64 levels, which no OneDev payload is; nothing of it is used')
    expect(result.stderr).not.toMatch(/internal error|Maximum call stack|    at /)
    const document = JSON.parse(await readFile(report, 'utf8'))
    expect(document.findings.some((f: any) => f.project?.path === 'legacy/tool')).toBe(true)
  }, 60_000)

  it('fix --apply: a setting nested 3,000 levels deep is not read (nothing sent for it); the other projects are applied', async () => {
    const server = await start()
    const plan = await planFile(server)
    const text = deepSetting(server.settings[3])
    server.setHandler('GET /projects/3/setting', (_request, response) => {
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(text)
    })
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('NOT READ        legacy/tool (#3): GET /~api/projects/3/setting: the answer is nested deeper than 64 levels, which no OneDev payload is; nothing of it is used; nothing was sent')
    expect(result.stdout).toContain('applied         acme/app (#2)')
    expect(result.stdout + result.stderr).not.toMatch(/internal error|Maximum call stack/)
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/~api/projects/2/setting'])
  }, 60_000)

  it('a snapshot, a plan or a configuration nested 3,000 levels deep: one line naming the file, exit 2', async () => {
    const snapshot = JSON.parse(await readFile('examples/snapshot.json', 'utf8'))
    const deepSnapshot = file('deep-snapshot.json')
    await writeFile(deepSnapshot, JSON.stringify(snapshot).replace('"branchProtections":', `"deep": ${deeplyNested(3000)}, "branchProtections":`))
    const scanned = await runCli(['scan', '--snapshot', deepSnapshot])
    expect(scanned.code).toBe(2)
    expect(scanned.stderr.trim()).toMatch(new RegExp(`^onedev-audit: error: ${deepSnapshot.replace(/[.]/g, '\\.')}:1:\\d+: nested deeper than 128 levels, which nothing this tool reads is: refused$`))
    const deepPlan = file('plan.json')
    await writeFile(deepPlan, deeplyNested(3000))
    const applied = await runCli(['fix', '--plan', deepPlan, '--apply'], {env: {ONEDEV_URL: 'http://127.0.0.1:9', ONEDEV_TOKEN: 'x'}})
    expect(applied.code).toBe(2)
    expect(applied.stderr).toContain(`${deepPlan}:1:385: nested deeper than 128 levels, which nothing this tool reads is: refused`)
    const deepConfig = file('config.json')
    await writeFile(deepConfig, `{"rules": ${deeplyNested(3000)}}`)
    const configured = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--config', deepConfig])
    expect(configured.code).toBe(2)
    // The configuration is named as the user would type it from the working directory (the CLI's is ROOT).
    expect(configured.stderr).toContain(`onedev-audit: error: ${relative(ROOT, deepConfig) || deepConfig}:1:`)
    expect(configured.stderr).toContain('nested deeper than 128 levels')
    for (const result of [scanned, applied, configured]) expect(result.stderr).not.toMatch(/internal error|Maximum call stack|    at /)
  }, 60_000)
})

/**
 * Project 3 kept as text, as a Java server keeps its numbers: GET answers the text stored now, a POST
 * stores the text it was sent (`store` may change it first: a server that drops an edit).
 */
function keptAsText(server: OneDevServer, text: string, store: (posted: string, index: number) => string = (posted) => posted): {text: () => string; posts: string[]} {
  let stored = text
  const posts: string[] = []
  server.setHandler('GET /projects/3/setting', (_request, response) => {
    response.writeHead(200, {'content-type': 'application/json'})
    response.end(stored)
  })
  server.setHandler('POST /projects/3/setting', (_request, response, recorded) => {
    stored = store(recorded.body, posts.length)
    posts.push(recorded.body)
    response.writeHead(200)
    response.end()
  })
  return {text: () => stored, posts}
}

/** Project 3's setting as a server writes it, with the corpus's numbers and keys that look like numbers in members the fix does not touch. */
function oddSetting(server: OneDevServer): string {
  const tokens = NUMBER_TOKENS.map(({token}, i) => `"n${i}": ${token}`).join(', ')
  return JSON.stringify(server.settings[3], null, 2).replace(/^\{/, `{\n  "maxArtifactBytes": 12345678901234567891e0,\n  "numbers": {${tokens}},\n  "byNumber": ${NUMBER_LIKE_KEYS_TEXT},`)
}

describe('numbers and keys posted back exactly', () => {
  it('every number token and member order the fix does not edit is posted back as received; the change is verified', async () => {
    const server = await start()
    const plan = await planFile(server)
    const text = oddSetting(server)
    const project = keptAsText(server, text)
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain('applied         legacy/tool (#3)')
    expect(project.posts).toHaveLength(1)
    const posted = project.posts[0]!
    expect(posted).toContain('"maxArtifactBytes":12345678901234567891e0,')
    expect(posted).toContain(`"numbers":{${NUMBER_TOKENS.map(({token}, i) => `"n${i}": ${token}`).join(', ')}}`)
    expect(posted).toContain(`"byNumber":${NUMBER_LIKE_KEYS_TEXT}`)
    // Only the edited field differs from what was received.
    const sent = JSON.parse(posted)
    const received = JSON.parse(text)
    expect(sent.branchProtections[1].preventForcedPush).toBe(true)
    received.branchProtections[1].preventForcedPush = true
    expect(sent).toEqual(received)
  }, 60_000)

  it('a rollback posts the numbers back as received too', async () => {
    const server = await start()
    const plan = await planFile(server)
    // A server that keeps the edit but adds a member of its own (and stores the rollback): the verification
    // fails and the project is rolled back, a targeted reverse patch of the setting as the server has it now.
    const text = oddSetting(server)
    const project = keptAsText(server, text, (posted, index) => index > 0 ? posted : posted.replace(/("maxArtifactBytes":\s*12345678901234567891e0)/, '$1, "added": true'))
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', file('undo.json')], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stdout).toMatch(/ROLLED BACK +legacy\/tool \(#3\)/)
    expect(project.posts).toHaveLength(2)
    expect(project.posts[1]).toContain('12345678901234567891e0')
    expect(project.posts[1]).not.toContain('12345678901234567000')
    expect(project.text()).not.toContain('12345678901234567000')
  }, 60_000)
})

const ENOSPC = 'cannot write the file (ENOSPC: no space left on the device)'

/**
 * A device that is always full: a node of its own (root may make one) in the test's folder, so that a
 * tool that replaced it with a file would replace nothing of the system's; else /dev/full itself.
 */
function fullDevice(): string {
  const path = file('full')
  try {
    execFileSync('mknod', [path, 'c', '1', '7'], {stdio: 'ignore'})
    return path
  } catch {
    return '/dev/full'
  }
}

describe('output files that cannot be written', () => {
  it('scan --output on a full device: one line naming the file, the summary still printed, exit 2, the device left as it was', async () => {
    const full = fullDevice()
    const result = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--format', 'json', '--output', full, '--fail-on', 'none'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`onedev-audit: error: --output ${full}: ${ENOSPC}\n`)
    expect(result.stderr).toMatch(/onedev-audit: CIS SSCS v1\.0: \d+ pass/)
    expect(result.stderr).not.toMatch(/internal error|    at |wrote json report/)
    expect((await stat(full)).isCharacterDevice()).toBe(true)
  }, 60_000)

  it('diff, access and fix --output on a full device: one line naming the file, exit 2', async () => {
    const full = fullDevice()
    const runs = await Promise.all([
      runCli(['diff', 'examples/snapshot.json', 'examples/snapshot.json', '--output', full]),
      runCli(['access', '--snapshot', 'examples/snapshot.json', '--project', '2', '--output', full]),
      runCli(['fix', '--snapshot', 'examples/snapshot.json', '--output', full]),
    ])
    for (const result of runs) {
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).toContain(`onedev-audit: error: `)
      expect(result.stderr).toContain(`${full}: ${ENOSPC}`)
      expect(result.stderr).not.toMatch(/internal error|    at /)
    }
    // The plan is printed before it is written.
    expect(runs[2]!.stdout).toContain('Plan for')
    expect((await stat(full)).isCharacterDevice()).toBe(true)
  }, 60_000)

  it('collect --output and issue-setting pull --output on a full device: one line naming the file, exit 2, the device not replaced', async () => {
    const server = await start({issueSetting: {stateSpecs: []}})
    const full = fullDevice()
    const collected = await runCli(['collect', '--all-projects', '--output', full], {env: serverEnv(server)})
    expect(collected.code, collected.stderr).toBe(2)
    expect(collected.stderr).toContain(`onedev-audit: error: ${full}: ${ENOSPC}`)
    const pulled = await runCli(['issue-setting', 'pull', '--output', full], {env: serverEnv(server)})
    expect(pulled.code, pulled.stderr).toBe(2)
    expect(pulled.stderr).toContain(`onedev-audit: error: --output ${full}: ${ENOSPC}`)
    for (const result of [collected, pulled]) expect(result.stderr).not.toMatch(/internal error|    at /)
    expect((await stat(full)).isCharacterDevice()).toBe(true)
  }, 60_000)

  it('fix --apply: an undo record that can no longer be written stops the run before the next POST; one line, exit 2', async () => {
    const server = await start()
    const plan = await planFile(server)
    const folder = file('records')
    await mkdir(folder)
    const undo = join(folder, 'undo.json')
    // The folder of the record goes away while the first project is sent (a disk unmounted, a clean-up job).
    const stored = server.settings[3]
    server.setHandler('POST /projects/3/setting', async (_request, response, recorded) => {
      await rm(folder, {recursive: true, force: true})
      Object.assign(stored as object, JSON.parse(recorded.body))
      response.writeHead(200)
      response.end()
    })
    const result = await runCli(['fix', '--plan', plan, '--apply', '--undo-output', undo], {env: serverEnv(server)})
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`onedev-audit: error: --undo-output ${undo}: cannot write the file (ENOENT: no such folder): nothing more is sent; the record on disk names every change sent before this one`)
    expect(result.stdout).toContain('applied         legacy/tool (#3)')
    expect(result.stdout).toContain('not sent        acme/app (#2): the undo record cannot be written: not sent')
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/~api/projects/3/setting'])
    expect(result.stderr).not.toMatch(/internal error|    at /)
  }, 60_000)
})

describe('symbolic links inside collect --output-dir', () => {
  it('out/projects a link to a folder elsewhere: one line naming it, exit 2, nothing written or removed there', async () => {
    const server = await start()
    const out = file('out')
    const first = await runCli(['collect', '--all-projects', '--output-dir', out], {env: serverEnv(server)})
    expect(first.code, first.stderr).toBe(0)
    // Someone commits projects/ as a link to another folder, holding a file the old index lists.
    const elsewhere = file('elsewhere')
    await mkdir(join(elsewhere, 'acme'), {recursive: true})
    await writeFile(join(elsewhere, 'acme', 'app.json'), await readFile(join(out, 'projects', 'acme', 'app.json')))
    await writeFile(join(elsewhere, 'precious.txt'), 'not onedev-audit\'s')
    await rm(join(out, 'projects'), {recursive: true})
    await symlink(elsewhere, join(out, 'projects'))
    const again = await runCli(['collect', '--project', '3', '--output-dir', out], {env: serverEnv(server)})
    expect(again.code).toBe(2)
    expect(again.stderr.trim()).toBe(`onedev-audit: error: ${join(out, 'projects')}: a symbolic link inside the output folder: refused, nothing is written through it (remove the link, or choose another --output-dir)`)
    expect((await readdir(elsewhere)).sort()).toEqual(['acme', 'precious.txt'])
    expect(await readdir(join(elsewhere, 'acme'))).toEqual(['app.json'])
  }, 60_000)
})

describe('a named pipe (FIFO) where a file is read', () => {
  /** A named pipe nobody writes into: opening it to read waits for ever. */
  function pipe(name: string): string {
    const path = file(name)
    execFileSync('mkfifo', [path])
    return path
  }
  const kind = 'not a regular file: a named pipe (FIFO)'
  const oneLine = (stderr: string) => stderr.trim().split('\n')

  it('a snapshot, a configuration, a baseline, a plan, an undo record, an issue-setting file and a plugin: one line naming it, exit 2, never waiting on it', async () => {
    const fifo = pipe('input.fifo')
    const config = file('plugin-config.json')
    await writeFile(config, JSON.stringify({plugins: [fifo]}))
    const folder = file('snapshot-folder')
    await mkdir(folder)
    execFileSync('mkfifo', [join(folder, 'snapshot.json')])
    const runs: Array<[string[], string]> = [
      [['scan', '--snapshot', fifo], `onedev-audit: error: ${fifo}: cannot read (${kind})`],
      [['scan', '--snapshot', folder], `onedev-audit: error: snapshot.json: cannot read (${kind})`],
      [['diff', fifo, 'examples/snapshot.json'], `${fifo}: cannot read (${kind})`],
      [['scan', '--snapshot', 'examples/snapshot.json', '--config', fifo], `onedev-audit: error: ${relative(ROOT, fifo)}: cannot read the configuration file (${kind})`],
      [['scan', '--snapshot', 'examples/snapshot.json', '--config', config], `cannot load plugin "${fifo}" (${kind})`],
      [['scan', '--snapshot', 'examples/snapshot.json', '--baseline', fifo], `onedev-audit: error: ${fifo}: cannot read the baseline (${kind})`],
      [['fix', '--plan', fifo], `onedev-audit: error: ${fifo}: cannot read the plan file (${kind})`],
      [['fix', '--undo', fifo], `onedev-audit: error: ${fifo}: cannot read the undo file (${kind})`],
      [['issue-setting', 'lint', fifo], `onedev-audit: error: ${fifo}: cannot read the file (${kind})`],
    ]
    for (const [args, line] of runs) {
      const result = await runCli(args, {timeoutMs: 15_000})
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2)
      expect(oneLine(result.stderr), args.join(' ')).toHaveLength(1)
      expect(result.stderr, args.join(' ')).toContain(line)
    }
  }, 180_000)

  it('collect --output-dir over a folder whose index is a named pipe: not read as an earlier index, replaced by the new one', async () => {
    const server = await start()
    const out = file('out-pipe')
    await mkdir(out)
    execFileSync('mkfifo', [join(out, 'snapshot.json')])
    const result = await runCli(['collect', '--all-projects', '--output-dir', out], {env: serverEnv(server), timeoutMs: 30_000})
    expect(result.code, result.stderr).toBe(0)
    expect((await stat(join(out, 'snapshot.json'))).isFile()).toBe(true)
  }, 60_000)
})
