/**
 * Runs the built CLI (bin/run.js → dist/) as a user would: a child process of the same Node, with
 * a clean environment (none of the caller's ONEDEV_* variables), no colour, optional stdin.
 */
import {spawn} from 'node:child_process'
import {readdir, readFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {expect} from 'vitest'

import {tempDir} from './temp-dir.js'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const BIN = join(ROOT, 'bin', 'run.js')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

let configHome: Promise<string> | undefined

/**
 * The configuration folder (XDG_CONFIG_HOME) of the CLI runs of a test file: a temporary folder of
 * its own, so that `fix --apply` makes its undo key there, never in the home of whoever runs the tests.
 */
export function testConfigHome(): Promise<string> {
  return (configHome ??= tempDir('oda-config'))
}

/**
 * `timeoutMs`: a run that could hang (a named pipe read where a file is expected) is killed after it,
 * with exit code -1 and a line on its stderr saying so, so that the test fails instead of waiting.
 */
export async function runCli(args: string[], options: {env?: Record<string, string | undefined>; input?: string; cwd?: string; timeoutMs?: number} = {}): Promise<CliResult> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('ONEDEV_') && name !== 'FORCE_COLOR') env[name] = value
  }
  env.NO_COLOR = '1'
  env.XDG_CONFIG_HOME = await testConfigHome()
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  const {input, timeoutMs} = options
  return runProcess(process.execPath, [BIN, ...args], {cwd: options.cwd ?? ROOT, env, ...(input !== undefined ? {input} : {}), ...(timeoutMs !== undefined ? {timeoutMs} : {})})
}

/** Runs a program to its end and collects what it wrote; stdin gets `input`, else is closed at once; killed after `timeoutMs` (exit code -1). */
export function runProcess(command: string, args: string[], options: {cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    let killed = false
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => ((killed = true), child.kill('SIGKILL')), options.timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve(killed ? {code: -1, stdout, stderr: `${stderr}(killed after ${options.timeoutMs} ms: it did not end)\n`} : {code: code ?? -1, stdout, stderr})
    })
    if (options.input !== undefined) child.stdin.end(options.input)
    else child.stdin.end()
  })
}

/**
 * `collect --all-projects --debug` once with `--output FILE` and once with `--output-dir FOLDER`,
 * each expected to exit 0; gives what both printed and the text of every file they wrote.
 */
export async function collectToFileAndFolder(env: Record<string, string>, file: string, folder: string): Promise<{printed: string; written: string[]}> {
  let printed = ''
  for (const target of [['--output', file], ['--output-dir', folder]]) {
    const result = await runCli(['collect', '--all-projects', '--debug', ...target], {env})
    expect(result.code, result.stderr).toBe(0)
    printed += result.stdout + result.stderr
  }
  const entries = await readdir(folder, {withFileTypes: true, recursive: true})
  const files = [file, ...entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))]
  return {printed, written: await Promise.all(files.map((path) => readFile(path, 'utf8')))}
}
