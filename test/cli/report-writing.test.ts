/**
 * How the report reaches its file or reader: a run stopped while writing never leaves half a report
 * where the previous one was, and a reader that stops reading is not an error.
 */
import {execFileSync, spawn} from 'node:child_process'
import {watch} from 'node:fs'
import {lstat, mkdir, readdir, readFile, symlink, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {beforeAll, describe, expect, it} from 'vitest'

import {BIN, ROOT, runCli} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp-dir.js'

let dir: string
let snapshot: string
const PREVIOUS = '{"previous": "report"}\n'

/** The example snapshot's projects copied `copies` times under their own groups: a report of many megabytes. */
async function largeSnapshot(copies: number): Promise<string> {
  const example = JSON.parse(await readFile(join(ROOT, 'examples', 'snapshot.json'), 'utf8')) as {projects: Array<Record<string, unknown>>; serverData: Record<string, unknown>}
  const projects = []
  // Each copy's projects with their own authorizations: a project without them is an incomplete snapshot.
  const serverData = Object.fromEntries(Object.entries(example.serverData).filter(([key]) => !key.startsWith('projects/')))
  for (let copy = 0; copy < copies; copy++) {
    for (const project of example.projects) {
      const offset = copy * 1000
      const id = (project.id as number) + offset
      projects.push({
        ...project,
        id,
        path: `copy${copy}/${project.path as string}`,
        parentId: project.parentId === null ? null : (project.parentId as number) + offset,
      })
      for (const kind of ['base', 'group', 'user']) serverData[`projects/${id}/${kind}-authorizations`] = example.serverData[`projects/${project.id as number}/${kind}-authorizations`]
    }
  }
  const path = join(dir, 'large-snapshot.json')
  await writeFile(path, JSON.stringify({...example, projects, serverData}))
  return path
}

beforeAll(async () => {
  dir = await tempDir('oda-writing')
  snapshot = await largeSnapshot(1500)
}, 60_000)

/**
 * Starts a scan writing `--output report`, and sends `signal` as soon as its temporary file appears
 * in the folder (the report is being written). Resolves with how it ended.
 */
async function stopWhileWriting(out: string, signal: NodeJS.Signals) {
  const folder = join(dir, out)
  await mkdir(folder)
  const report = join(folder, 'report.json')
  await writeFile(report, PREVIOUS)
  const child = spawn(process.execPath, [BIN, 'scan', '--snapshot', snapshot, '--format', 'json', '--output', report, '--fail-on', 'none'], {
    cwd: ROOT,
    env: {...process.env, NO_COLOR: '1'},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  let sent = false
  const watcher = watch(folder, (_event, name) => {
    if (!sent && name?.startsWith('.report.json.')) {
      sent = true
      child.kill(signal)
    }
  })
  const ended = await new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) => child.on('close', (code, signalName) => resolve({code, signal: signalName})))
  watcher.close()
  return {...ended, sent, stderr, report, files: await readdir(folder)}
}

describe('a report file', () => {
  it('stays the previous report when the run is killed (SIGKILL) while writing the new one', async () => {
    const run = await stopWhileWriting('killed', 'SIGKILL')
    expect(run.sent).toBe(true)
    expect(run.signal).toBe('SIGKILL')
    expect(await readFile(run.report, 'utf8')).toBe(PREVIOUS)
    // SIGKILL leaves the temporary file: hidden, beside the report, never under the report's name.
    expect(run.files.filter((name) => name !== 'report.json')).toEqual(run.files.length > 1 ? [expect.stringMatching(/^\.report\.json\.[0-9a-f]{12}\.tmp$/)] : [])
  }, 60_000)

  it('stays the previous report, and no temporary file is left, when Ctrl-C stops the run while writing', async () => {
    const run = await stopWhileWriting('interrupted', 'SIGINT')
    expect(run.sent).toBe(true)
    expect(run.signal).toBe('SIGINT')
    expect(await readFile(run.report, 'utf8')).toBe(PREVIOUS)
    expect(run.files).toEqual(['report.json'])
  }, 60_000)

  it('is replaced whole by a run that finishes', async () => {
    const report = join(dir, 'whole.json')
    await writeFile(report, PREVIOUS)
    const result = await runCli(['scan', '--snapshot', snapshot, '--format', 'json', '--output', report, '--fail-on', 'none'])
    expect(result.code).toBe(0)
    const written = JSON.parse(await readFile(report, 'utf8')) as {summary: {projects: number; findings: number}}
    expect(written.summary.projects).toBe(6000)
    expect((await readdir(dir)).filter((name) => name.startsWith('.whole.json'))).toEqual([])
  }, 60_000)

  it('goes into a pipe as it is, which stays a pipe (as /dev/null stays a device: a rename onto it would replace it)', async () => {
    const fifo = join(dir, 'reader.fifo')
    execFileSync('mkfifo', [fifo])
    // The reader opens the pipe first: the scan's open for writing then does not wait.
    const reader = spawn('cat', [fifo], {stdio: ['ignore', 'pipe', 'ignore']})
    let received = ''
    reader.stdout.setEncoding('utf8').on('data', (chunk: string) => (received += chunk))
    const closed = new Promise<void>((resolve) => reader.on('close', () => resolve()))
    const result = await runCli(['scan', '--snapshot', join(ROOT, 'examples', 'snapshot.json'), '--format', 'json', '--output', fifo, '--fail-on', 'none'])
    await closed
    expect(result.code).toBe(0)
    expect((JSON.parse(received) as {summary: {projects: number}}).summary.projects).toBe(4)
    expect((await lstat(fifo)).isFIFO()).toBe(true)
    expect((await readdir(dir)).filter((name) => name.startsWith('.reader.fifo'))).toEqual([])
  }, 60_000)

  it('through a symbolic link replaces the file it leads to and keeps the link', async () => {
    const target = join(dir, 'target.json')
    const link = join(dir, 'link.json')
    await writeFile(target, PREVIOUS)
    await symlink(target, link)
    const result = await runCli(['scan', '--snapshot', join(ROOT, 'examples', 'snapshot.json'), '--format', 'json', '--output', link, '--fail-on', 'none'])
    expect(result.code).toBe(0)
    expect((await lstat(link)).isSymbolicLink()).toBe(true)
    expect((JSON.parse(await readFile(target, 'utf8')) as {summary: {projects: number}}).summary.projects).toBe(4)
  }, 60_000)
})

it('a reader that closes standard output early (`scan | head`) is no error: no stack trace, the audit\'s exit code', async () => {
  const child = spawn(process.execPath, [BIN, 'scan', '--snapshot', snapshot, '--format', 'json'], {
    cwd: ROOT,
    env: {...process.env, NO_COLOR: '1'},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  let head = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  child.stdout.setEncoding('utf8').once('data', (chunk: string) => {
    head = chunk
    child.stdout.destroy()
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)))
  expect(head.startsWith('{\n  "$schema"')).toBe(true)
  expect(stderr).toBe('')
  expect(code).toBe(1)
}, 60_000)

/** Runs the CLI and starts reading its standard output only after `waitMs`: a slow reader, as CI's log collector can be. */
function runWithSlowReader(args: string[], waitMs: number): Promise<{code: number | null; stdout: string; stderr: string}> {
  const child = spawn(process.execPath, [BIN, ...args], {cwd: ROOT, env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stdout.pause()
  setTimeout(() => child.stdout.resume(), waitMs)
  return new Promise((resolve) => child.on('close', (code) => resolve({code, stdout, stderr})))
}

describe('a slow reader of standard output gets the whole report', () => {
  // A pipe holds 64 KiB: the rest waits in the process, and a non-zero exit code (process.exit)
  // must not drop it. Node 22 and later buffer up to 64 KiB before a write asks to wait (Node 20:
  // 16 KiB), so the last piece of this 200 KiB report was lost there (CI on the newest LTS).
  for (const [format, failOn, code] of [['sarif', 'low', 1], ['sarif', 'none', 0]] as const) {
    it(`${format}, exit code ${code}`, async () => {
      const args = ['scan', '--snapshot', 'examples/snapshot.json', '--format', format, '--fail-on', failOn]
      const slow = await runWithSlowReader(args, 1500)
      const report = join(dir, `slow-reader.${format}`)
      const toFile = await runCli([...args, '--output', report])
      const mask = (text: string) => text.replace(/("generatedAt": |"endTimeUtc": )"[^"]*"/g, '$1"<time>"')
      const expected = mask(await readFile(report, 'utf8'))
      expect(Buffer.byteLength(expected)).toBeGreaterThan(128 * 1024)
      expect(slow.stderr).toBe('')
      expect(slow.code).toBe(code)
      expect(toFile.code).toBe(code)
      expect(mask(slow.stdout)).toBe(expected)
    }, 60_000)
  }
})
