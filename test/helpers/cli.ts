/**
 * Runs the built CLI (bin/run.js → dist/) as a user would: a child process of the same Node, with
 * a clean environment (none of the caller's ONEDEV_* variables), no colour, optional stdin.
 */
import {spawn} from 'node:child_process'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const BIN = join(ROOT, 'bin', 'run.js')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export function runCli(args: string[], options: {env?: Record<string, string | undefined>; input?: string; cwd?: string} = {}): Promise<CliResult> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('ONEDEV_') && name !== 'FORCE_COLOR') env[name] = value
  }
  env.NO_COLOR = '1'
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  return runProcess(process.execPath, [BIN, ...args], {cwd: options.cwd ?? ROOT, env, ...(options.input !== undefined ? {input: options.input} : {})})
}

/** Runs a program to its end and collects what it wrote; stdin gets `input`, else is closed at once. */
export function runProcess(command: string, args: string[], options: {cwd: string; env?: NodeJS.ProcessEnv; input?: string}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({code: code ?? -1, stdout, stderr}))
    if (options.input !== undefined) child.stdin.end(options.input)
    else child.stdin.end()
  })
}
