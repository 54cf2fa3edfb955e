/**
 * examples/snapshot.json (what `npm run demo` audits) is what `collect` writes for the fixture server,
 * with the loopback address and the time replaced by stable values. UPDATE_EXAMPLES=1 rewrites it.
 * The CI examples install onedev-audit only as their project's lockfile pins it (`npm ci`): never by a
 * bare name, which runs whatever the registry serves under it, with an administrator token at hand.
 */
import {execFileSync, spawn, spawnSync} from 'node:child_process'
import {createPublicKey, generateKeyPairSync} from 'node:crypto'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {CORE_SCHEMA, defineMappingTag, load} from 'js-yaml'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {pathMatcher} from '../src/onedev/matchers.js'
import {expectNoCanary} from './helpers/canaries.js'
import {ROOT, runCli} from './helpers/cli.js'
import {serverEnv, startFixtureServer} from './helpers/fixture-server.js'
import type {OneDevServer} from './helpers/onedev-server.js'
import {readCheckstyleAsOneDev, readJunitAsOneDev} from './helpers/onedev-reports.js'
import {tempDir} from './helpers/temp-dir.js'

const EXAMPLE = join(ROOT, 'examples', 'snapshot.json')

function stable(text: string, serverUrl: string): string {
  const snapshot = JSON.parse(text.split(serverUrl).join('https://onedev.example.com'))
  snapshot.collectedAt = '2026-11-01T03:00:00.000Z'
  snapshot.tool.version = 'example'
  return JSON.stringify(snapshot, null, 2) + '\n'
}

it('examples/snapshot.json is what collect writes for the fixture server', async () => {
  const server = await startFixtureServer()
  try {
    const out = join(await tempDir('oda-example'), 'snapshot.json')
    const result = await runCli(['collect', '--all-projects', '--output', out], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(0)
    const expected = stable(await readFile(out, 'utf8'), server.url)
    expectNoCanary(expected)
    if (process.env.UPDATE_EXAMPLES) await writeFile(EXAMPLE, expected)
    expect(await readFile(EXAMPLE, 'utf8')).toBe(expected)
  } finally {
    await server.close()
  }
})

it('npm run demo: the example snapshot gives findings, a clean exit with --fail-on none', async () => {
  const result = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--fail-on', 'none'])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  expect(result.stdout).toMatch(/acme\/app/)
  expect(result.stdout).toMatch(/✖ \d+ findings \(\d+ critical, \d+ high, \d+ medium, \d+ low, \d+ info\)/)
  expect(result.stdout).toMatch(/access\/direct-push/)
  expect(result.stdout).toMatch(/server\/open-sign-up/)
})

it('npm run demo: then the access table of one project', async () => {
  const result = await runCli(['access', '--snapshot', 'examples/snapshot.json', '--project', '2', '--principal', 'core-devs'])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  expect(result.stdout).toMatch(/group core-devs\s+read-code\s+Code Writer @ acme, Code Reader @ acme/)
})

/**
 * examples/onedev-buildspec.yml: its jobs' commands, run as OneDev would run them (the shell of the
 * job's container, in a clone of the audit project, with the server variables and secrets filled in,
 * the install lines (`npm ci`) left out and `onedev-audit` the built CLI), write exactly the reports its publish
 * steps name, and the push of the nightly job's snapshot is what starts the job that publishes the code
 * problems, whose Checkstyle report OneDev resolves against that job's own checkout.
 */
describe('examples/onedev-buildspec.yml', () => {
  interface Step {
    type: string
    filePatterns?: string
    interpreter?: {commands: string}
    [key: string]: unknown
  }
  interface Job {
    name: string
    steps: Step[]
    triggers: Array<{type: string; branches?: string; paths?: string}>
  }
  // OneDev's YAML tags (`!CommandStep`) as the `type` key current build specs use for them.
  const tagged = defineMappingTag<Record<string, unknown>>('!', {
    matchByTagPrefix: true,
    create: (tagName) => ({type: tagName.slice(1)}),
    addPair: (carrier, key, value) => {
      carrier[String(key)] = value
      return ''
    },
    has: (carrier, key) => Object.prototype.hasOwnProperty.call(carrier, String(key)),
    keys: (result) => Object.keys(result),
    get: (result, key) => result[String(key)],
    identify: () => false,
  })
  const spec = load(readFileSync(join(ROOT, 'examples', 'onedev-buildspec.yml'), 'utf8'), {schema: CORE_SCHEMA.withTags(tagged)}) as {jobs: Job[]}
  const nightly = spec.jobs.find((job) => job.triggers.some((t) => t.type === 'ScheduleTrigger'))!
  const problems = spec.jobs.find((job) => job.triggers.some((t) => t.type === 'BranchUpdateTrigger'))!
  const published = (job: Job, type: string) => job.steps.filter((step) => step.type === type).map((step) => step.filePatterns!)

  let server: OneDevServer
  let origin: string
  /** The job secret onedev-audit-signing-key (a PEM private key), and its public key for verify. */
  const SIGNING_KEY = {privatePem: generateKeyPairSync('ed25519').privateKey.export({type: 'pkcs8', format: 'pem'}).toString(), publicFile: ''}
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, {cwd, encoding: 'utf8', env: {...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1'}})

  beforeAll(async () => {
    // The example exports no ONEDEV_USER: an access token alone.
    server = await startFixtureServer({credentials: {user: '', secret: 'an-access-token-of-the-auditor'}})
    const dir = await tempDir('oda-buildspec')
    SIGNING_KEY.publicFile = join(dir, 'signing.pub.pem')
    writeFileSync(SIGNING_KEY.publicFile, createPublicKey(SIGNING_KEY.privatePem).export({type: 'spki', format: 'pem'}))
    origin = join(dir, 'origin.git')
    git(dir, 'init', '-q', '--bare', '-b', 'main', origin)
    const seed = join(dir, 'seed')
    git(dir, 'clone', '-q', origin, seed)
    writeFileSync(join(seed, 'README.md'), 'the audit project\n')
    git(seed, 'add', 'README.md')
    git(seed, '-c', 'user.name=t', '-c', 'user.email=t@localhost', 'commit', '-q', '-m', 'init')
    git(seed, 'push', '-q', 'origin', 'HEAD:main')
  })
  afterAll(async () => {
    await server.close()
  })

  /** A build of `job`: a fresh clone of the audit project, its command steps run there by the container's shell. */
  async function build(job: Job, name: string, serverUrl = server.url): Promise<{work: string; code: number; output: string}> {
    const build = await tempDir(`oda-build-${name}`)
    const work = join(build, 'workspace')
    git(ROOT, 'clone', '-q', origin, work)
    // What the audit project's pinned install (`npm ci`) puts on the PATH: here, the built CLI.
    mkdirSync(join(build, 'bin'))
    writeFileSync(join(build, 'bin', 'onedev-audit'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'run.js')}" "$@"\n`, {mode: 0o755})
    let code = 0
    let output = ''
    for (const step of job.steps.filter((s) => s.type === 'CommandStep')) {
      const commands = step.interpreter!.commands
        .split('\n')
        .filter((line) => !/^\s*npm (ci|install)\b/.test(line))
        .join('\n')
        .replaceAll('@server_url@', serverUrl)
        .replaceAll('@secret:onedev-audit-token@', server.secret)
        // A job secret's value, lines and all, goes into the commands where they name it (v11.6.3
        // server-core/src/main/java/io/onedev/server/util/interpolative/VariableInterpolator.java:96-102, v16.5.6
        // .../JobVariableInterpolator.java:94), and it may hold a PEM's lines: the secret is edited in a text area
        // (v11.6.3 server-core/src/main/java/io/onedev/server/web/editable/secret/SecretPropertyEditor.java:45, v16.5.6 :47).
        .replaceAll('@secret:onedev-audit-signing-key@', SIGNING_KEY.privatePem)
      expect(commands, 'a variable the test does not fill in').not.toMatch(/@[\w:.-]+@/)
      const script = commands
      const env: Record<string, string> = {PATH: `${join(build, 'bin')}:${process.env.PATH!}`, HOME: work, NO_COLOR: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1'}
      // Not spawnSync: the fixture server answers from this process's event loop.
      const result = await new Promise<{status: number; text: string}>((resolve, reject) => {
        const child = spawn('/bin/sh', ['-c', script], {cwd: work, env, stdio: ['ignore', 'pipe', 'pipe']})
        let text = ''
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        child.on('error', reject)
        child.on('close', (status) => resolve({status: status ?? -1, text}))
      })
      code = result.status
      output += result.text
    }
    return {work, code, output}
  }

  it('the nightly job writes the reports it publishes; its push starts the job whose Checkstyle report OneDev resolves', async () => {
    expect(published(nightly, 'PublishJUnitReportStep')).toEqual(['onedev-audit-junit.xml'])
    expect(published(problems, 'PublishCheckstyleReportStep')).toEqual(['onedev-audit-checkstyle.xml'])
    expect(JSON.stringify(problems), 'the problems job reads no server: it needs no secret').not.toMatch(/@secrets?:/)

    // Two nights: the first has nothing to compare with, the second compares with the first's snapshot.
    for (const night of ['first', 'second']) {
      const before = git(origin, 'rev-parse', 'main').trim()
      const {work, code, output} = await build(nightly, night)
      // The fixture server has high findings: --fail-on high fails the job, after everything is written and pushed.
      expect(code, output).toBe(1)
      expectNoCanary(output)
      const patterns = nightly.steps.filter((step) => step.type.startsWith('Publish')).map((step) => step.filePatterns!)
      for (const pattern of patterns) {
        expect(pattern, 'a literal file name').not.toMatch(/[*?]/)
        expect(existsSync(join(work, pattern)), `${night} night: ${pattern}`).toBe(true)
        expectNoCanary(readFileSync(join(work, pattern), 'utf8'))
      }
      // The markdown report is signed: its attestation verifies with the public key of the job secret.
      const verified = await runCli(['verify', join(work, 'onedev-audit.intoto.json'), '--public-key', SIGNING_KEY.publicFile, join(work, 'onedev-audit.md')])
      expect(verified.code, verified.stderr).toBe(0)
      expect(output).not.toContain(SIGNING_KEY.privatePem.split('\n')[1]!)
      const junit = await readJunitAsOneDev(join(work, 'onedev-audit-junit.xml'))
      expect(junit.suites.map((suite) => suite.name)).toEqual(['CIS SSCS v1.0', 'OSPS Baseline v2026.02.19', 'rules', 'audit'])
      if (night === 'second') expect(readFileSync(join(work, 'drift.md'), 'utf8')).toMatch(/^# onedev-audit diff/)
      // The push (every night: the snapshot's index holds the time of the collection) touched files the
      // trigger of the problems job watches, on the branch it watches.
      const pushed = git(origin, 'diff', '--name-only', before, 'main').trim().split('\n')
      const trigger = problems.triggers.find((t) => t.type === 'BranchUpdateTrigger')!
      expect(trigger.branches).toBe('main')
      expect(pushed.length).toBeGreaterThan(0)
      expect(pushed.every((file) => pathMatcher(trigger.paths!, file))).toBe(true)

      const run = await build(problems, `problems-${night}`)
      expect(run.code, run.output).toBe(0)
      const report = join(run.work, 'onedev-audit-checkstyle.xml')
      const {problems: shown, unresolved} = await readCheckstyleAsOneDev(report, run.work)
      expect(unresolved).toEqual([])
      expect(shown.length).toBeGreaterThan(0)
      // Every problem is on a file of the build's own commit.
      const tracked = new Set(git(run.work, 'ls-files').trim().split('\n'))
      expect(shown.every((problem) => tracked.has(problem.file))).toBe(true)
    }
  }, 300_000)

  it('a night whose collection is incomplete keeps last night\'s snapshot: nothing is committed or pushed', async () => {
    // Run after the two nights above: the audit project holds a snapshot. Tonight the server cannot be reached.
    const before = git(origin, 'rev-parse', 'main').trim()
    const {work, code, output} = await build(nightly, 'unreachable', 'http://127.0.0.1:9')
    expect(code, output).toBe(2)
    expect(git(origin, 'rev-parse', 'main').trim()).toBe(before)
    expect(existsSync(join(work, 'onedev', 'snapshot.json')), 'last night\'s snapshot is kept in the workspace').toBe(true)
  }, 120_000)
})

/** npm's words for installing by name (`npm install` and its aliases), and the other tools' ones. */
const BY_NAME = /^(npm (install|i|in|ins|inst|insta|instal|isnt|isnta|isntal|isntall|add|update|up|upgrade)|yarn (add|global|dlx)|pnpm (add|install|i|dlx)|bunx|bun (add|install|x))\b/

/**
 * The commands of a CI file that install or fetch a package without its lockfile pinning it: an
 * install by name, or npx / npm exec without --no (which, with no TTY, installs a missing package from
 * the registry without asking).
 */
function unpinnedInstalls(text: string): string[] {
  const commands = text
    .split('\n')
    .map((line) => line.replace(/^\s*(-\s+)?(run:\s*)?/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .flatMap((line) => line.split(/&&|\|\||[;|]/).map((command) => command.trim()))
  return commands.filter((command) => BY_NAME.test(command) || (/^(npx|npm exec)\b/.test(command) && !/\s--no\b/.test(command)))
}

describe('examples/github-workflow.yml', () => {
  it("signs tonight's SARIF with the key of the ONEDEV_AUDIT_SIGNING_KEY secret: the attestation verifies, the key is in no output", async () => {
    const workflow = load(await readFile(join(ROOT, 'examples/github-workflow.yml'), 'utf8')) as {jobs: Record<string, {steps: Array<Record<string, any>>}>}
    const audit = Object.values(workflow.jobs).flatMap((job) => job.steps).find((step) => step.id === 'audit')!
    expect(audit.env.SIGNING_KEY).toBe('${{ secrets.ONEDEV_AUDIT_SIGNING_KEY }}')
    const work = await tempDir('oda-gh-audit')
    await writeFile(join(work, 'tonight'), await readFile(EXAMPLE))
    mkdirSync(join(work, 'bin'))
    writeFileSync(join(work, 'bin', 'onedev-audit'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'run.js')}" "$@"\n`, {mode: 0o755})
    const pair = generateKeyPairSync('ec', {namedCurve: 'prime256v1'})
    const privatePem = pair.privateKey.export({type: 'pkcs8', format: 'pem'}).toString()
    writeFileSync(join(work, 'signing.pub.pem'), pair.publicKey.export({type: 'spki', format: 'pem'}))
    // GitHub runs a step's script with bash -e; the fixture server's high findings make it exit 1 (continue-on-error).
    const result = spawnSync('bash', ['-e', '-c', audit.run], {cwd: work, encoding: 'utf8', env: {PATH: `${join(work, 'bin')}:${process.env.PATH!}`, HOME: work, NO_COLOR: '1', SIGNING_KEY: privatePem}})
    expect(result.status, result.stderr).toBe(1)
    expect(result.stdout + result.stderr).not.toContain(privatePem.split('\n')[1]!)
    const verified = await runCli(['verify', 'onedev-audit.sarif.intoto.json', '--public-key', 'signing.pub.pem', 'onedev-audit.sarif'], {cwd: work})
    expect(verified.code, verified.stderr).toBe(0)
    const upload = Object.values(workflow.jobs).flatMap((job) => job.steps).find((step) => step.with?.name === 'onedev-audit-report')!
    expect(upload.with.path.trim().split('\n')).toEqual(['onedev-audit.html', 'onedev-audit.sarif', 'onedev-audit.sarif.intoto.json'])
  }, 60_000)

  it('uploads the SARIF only after a complete collection: GitHub would close what an incomplete one could not judge', async () => {
    const workflow = load(await readFile(join(ROOT, 'examples/github-workflow.yml'), 'utf8')) as {jobs: Record<string, {steps: Array<Record<string, unknown>>}>}
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps)
    const collect = steps.find((step) => typeof step.run === 'string' && step.run.includes('onedev-audit collect'))
    const upload = steps.filter((step) => typeof step.uses === 'string' && step.uses.startsWith('github/codeql-action/upload-sarif'))
    expect(collect?.id).toBe('collect')
    expect(upload.map((step) => step.if)).toEqual(["steps.collect.outcome == 'success'"])
  })
})

describe('the CI examples install a pinned, integrity-checked onedev-audit', () => {
  for (const file of ['examples/github-workflow.yml', 'examples/onedev-buildspec.yml']) {
    it(`${file}: npm ci of its project's lockfile, nothing by name`, async () => {
      const text = await readFile(join(ROOT, file), 'utf8')
      expect(unpinnedInstalls(text)).toEqual([])
      expect(text).toMatch(/^\s*(- run: )?npm ci --ignore-scripts\b/m)
    })
  }

  it('an install by name or an npx that may install is found', () => {
    expect(unpinnedInstalls('      - run: npm install -g onedev-audit\n')).toEqual(['npm install -g onedev-audit'])
    expect(unpinnedInstalls('cd x && npm i onedev-audit@latest; npx onedev-audit scan\n# npm install in a comment\n')).toEqual(['npm i onedev-audit@latest', 'npx onedev-audit scan'])
    expect(unpinnedInstalls('yarn add onedev-audit\npnpm dlx onedev-audit\nnpm exec -- onedev-audit\n')).toHaveLength(3)
    expect(unpinnedInstalls('npm ci --ignore-scripts\nnpx --no -- onedev-audit scan\nonedev-audit collect --all-projects\n')).toEqual([])
  })
})
