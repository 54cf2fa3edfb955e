/**
 * An audit with errors never wears a check mark or "No findings", in any format (issue 26): it says
 * first that it is incomplete and how many errors there were, then where they are listed, how many
 * projects and roles it judged (and how many projects could not be read) and what it found there.
 * Against a server that refuses every connection (the issue's `ONEDEV_URL=http://127.0.0.1:9`), a
 * real server whose one project fails, and through diff and access. Every count in the lines is the
 * JSON report's of the same run.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {createServer} from 'node:net'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {serverEnv, startFixtureServer} from '../helpers/fixture-server.js'
import type {OneDevServer} from '../helpers/onedev-server.js'
import {validateReportJson, validateSarif} from '../helpers/sarif-validate.js'
import {tempDir} from '../helpers/temp-dir.js'

/** A loopback port nothing listens on: connections to it are refused. */
async function refusedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const {port} = probe.address() as {port: number}
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

let dir: string
let refused: Record<string, string>
let server: OneDevServer

beforeAll(async () => {
  dir = await tempDir('onedev-audit-incomplete')
  refused = {ONEDEV_URL: `http://127.0.0.1:${await refusedPort()}`, ONEDEV_TOKEN: 'x'}
  server = await startFixtureServer()
})

afterAll(async () => {
  await server?.close()
})

const CLEAN = /✔|no findings|no change\b/i

describe('a server that refuses every connection', () => {
  it('says "Audit incomplete" first in every format, never a check mark or "No findings"', async () => {
    const args = ['scan', '--all-projects', '--retries', '0']
    const json = await runCli([...args, '--format', 'json'], {env: refused})
    expect(json.code).toBe(2)
    const report = JSON.parse(json.stdout)
    expect(validateReportJson(report)).toEqual([])
    const errors = report.errors.length
    expect(errors).toBeGreaterThan(5)
    const verdict = `Audit incomplete: ${errors} errors. Judged 0 projects and 0 roles: nothing could be judged`
    expect(report.summary).toMatchObject({complete: false, verdict, projects: 0, notRead: 0, roles: 0, findings: 0, errors})

    const stylish = await runCli(args, {env: refused})
    expect(stylish.code).toBe(2)
    expect(stylish.stdout.trimEnd().split('\n').at(-1)).toBe(`✖ Audit incomplete: ${errors} errors (listed above). Judged 0 projects and 0 roles (OneDev version unknown): nothing could be judged`)
    expect(stylish.stdout).not.toMatch(CLEAN)

    const markdown = await runCli([...args, '--format', 'markdown'], {env: refused})
    expect(markdown.code).toBe(2)
    expect(markdown.stdout.split('\n').slice(4, 12)).toEqual([
      `✖ **Audit incomplete: ${errors} errors** (listed below). Judged 0 projects and 0 roles: nothing could be judged.`,
      '',
      '## Errors',
      '',
      'Part of the server could not be audited, so what follows is not the whole answer:',
      '',
      `- /api/roles: GET /api/roles: connection failed (ECONNREFUSED) (and ${errors - 1} more requests failed the same way)`,
      '',
    ])
    expect(markdown.stdout).not.toMatch(CLEAN)

    const sarifRun = await runCli([...args, '--format', 'sarif'], {env: refused})
    // Uploaded, it would close every alert as fixed: stderr says so.
    expect(sarifRun.stderr).toContain('onedev-audit: warning: this SARIF is of an incomplete audit: uploaded to GitHub code scanning, it closes the alerts of everything it could not judge as if fixed; upload complete runs only\n')
    const sarif = JSON.parse(sarifRun.stdout)
    expect(validateSarif(sarif)).toEqual([])
    const [invocation] = sarif.runs[0].invocations
    expect(invocation.executionSuccessful).toBe(false)
    expect(invocation.toolExecutionNotifications[0]).toEqual({
      level: 'error',
      message: {text: `Audit incomplete: ${errors} errors (listed below). Judged 0 projects and 0 roles: nothing could be judged`},
      properties: {kind: 'incomplete'},
    })
    expect(invocation.toolExecutionNotifications).toHaveLength(errors + 1)

    const output = join(dir, 'refused.json')
    const written = await runCli([...args, '--format', 'json', '--output', output], {env: refused})
    expect(written.code).toBe(2)
    expect(written.stderr.split('\n')).toContain(`onedev-audit: wrote json report to ${output}: Audit incomplete: ${errors} errors (listed above). Judged 0 projects and 0 roles: nothing could be judged`)
    expect(JSON.parse(await readFile(output, 'utf8')).summary.verdict).toBe(verdict)
  }, 60_000)
})

describe('a server whose one project cannot be read', () => {
  it('names the errors first, then what was judged (and the project not read) and found there', async () => {
    server.override('GET /projects/3/setting', {status: 500, text: 'Internal Server Error'})
    try {
      const json = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none'], {env: serverEnv(server)})
      expect(json.code).toBe(2)
      const {summary} = JSON.parse(json.stdout)
      expect(summary).toMatchObject({complete: false, notRead: 1, errors: 1, uninitialized: 1})
      const counts = `${summary.findings} findings (${['critical', 'high', 'medium', 'low', 'info'].map((s) => `${summary.bySeverity[s]} ${s}`).join(', ')})`
      const judged = `Judged ${summary.projects} projects (1 with an empty repository; 1 more could not be read) and ${summary.roles} roles: ${counts}`
      expect(summary.verdict).toBe(`Audit incomplete: 1 error. ${judged}`)

      const stylish = await runCli(['scan', '--all-projects', '--fail-on', 'none'], {env: serverEnv(server)})
      expect(stylish.code).toBe(2)
      // Stylish says which OneDev it judged (the fixture server says 16.5.6).
      expect(stylish.stdout.trimEnd().split('\n').at(-1)).toBe(`✖ Audit incomplete: 1 error (listed above). ${judged.replace(' roles:', ' roles (OneDev 16.5.6):')}`)
      const markdown = await runCli(['scan', '--all-projects', '--fail-on', 'none', '--format', 'markdown'], {env: serverEnv(server)})
      expect(markdown.stdout.split('\n')[4]).toBe(`✖ **Audit incomplete: 1 error** (listed below). ${judged}.`)
    } finally {
      server.reset()
    }
  }, 60_000)
})

describe('diff and access with errors', () => {
  it('diff against a server that refuses every connection: "Comparison incomplete" first, never "No change" with a check mark', async () => {
    const json = await runCli(['diff', 'examples/snapshot.json', '--all-projects', '--retries', '0', '--format', 'json'], {env: refused})
    expect(json.code).toBe(2)
    const errors = JSON.parse(json.stdout).errors.length
    const stylish = await runCli(['diff', 'examples/snapshot.json', '--all-projects', '--retries', '0'], {env: refused})
    expect(stylish.code).toBe(2)
    // Nothing NEW could not read is compared: no project "removed", no finding "fixed".
    expect(stylish.stdout.trimEnd().split('\n').at(-1)).toBe(`✖ Comparison incomplete: ${errors} errors (listed above). Nothing could be compared`)
    const markdown = await runCli(['diff', 'examples/snapshot.json', '--all-projects', '--retries', '0', '--format', 'markdown'], {env: refused})
    expect(markdown.stdout.split('\n').slice(4, 7)).toEqual([`✖ **Comparison incomplete: ${errors} errors** (listed below). ${stylish.stdout.trimEnd().split('\n').at(-1)!.replace(/^.*\(listed above\)\. /, '')}.`, '', '## Errors'])
  }, 60_000)

  it('diff of a snapshot with itself where a side has an error: no check mark', async () => {
    const snapshot = join(dir, 'with-error.json')
    const base = JSON.parse(await readFile('examples/snapshot.json', 'utf8'))
    base.errors = [{kind: 'forbidden', message: 'the token may not read this setting', path: '/~api/projects/9/setting', status: 403}]
    await writeFile(snapshot, JSON.stringify(base))
    const result = await runCli(['diff', snapshot, snapshot])
    expect(result.code).toBe(2)
    const last = result.stdout.trimEnd().split('\n').at(-1)!
    expect(last).toMatch(/^✖ Comparison incomplete: 2 errors \(listed above\)\. No change in what both sides hold \(\d+ unchanged findings\)$/)
    expect(result.stdout).not.toContain('✔')
  }, 60_000)

  it('fix against a server that refuses every connection: "Plan incomplete" first, before any "Nothing to change"', async () => {
    const result = await runCli(['fix', '--all-projects', '--retries', '0'], {env: refused})
    expect(result.code).toBe(2)
    const errors = Number(/and (\d+) more requests failed the same way/.exec(result.stderr)![1]) + 1
    expect(result.stdout.split('\n')[0]).toBe(`Plan incomplete: ${errors} errors (listed on standard error): it covers only the 0 projects that could be read.`)
  }, 60_000)

  it('access with a refused endpoint says before the table that the answer is incomplete', async () => {
    server.override('GET /groups', {status: 403, text: 'Access denied'})
    try {
      const result = await runCli(['access', '--project', '2'], {env: serverEnv(server)})
      expect(result.code).toBe(2)
      expect(result.stdout.split('\n').slice(0, 3)).toEqual([
        'Answer incomplete: 1 error (listed below): what could not be read (principals, memberships, grants) is missing from this table.',
        '',
        'Project acme/app (#2), branch master',
      ])
    } finally {
      server.reset()
    }
  }, 60_000)
})
