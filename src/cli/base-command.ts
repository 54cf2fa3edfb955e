/**
 * The base of every command: one-line errors with exit code 2, stack traces only with --debug,
 * and nothing a user typed as a flag value echoed back (it might be a secret).
 */
import {Command} from '@oclif/core/command'
import * as Errors from '@oclif/core/errors'

import {escapeControl, oneLine} from '../util/escape.js'
import {closest} from '../util/suggest.js'
import {flushed} from '../util/fs.js'
import {auditErrorOf, describeAuditError, EXIT, UsageError} from './errors.js'

/**
 * A flag or argument problem found by oclif's parser, as one line: its reasons without the
 * "The following error occurred:" header or the help hint, and no value after `=` (it might be a
 * secret typed into the wrong flag).
 */
export function parserProblem(message: string): string {
  const reasons = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^The following errors? occurred:?$/i.test(line) && !/^See more help with/i.test(line))
    .map(choiceProblem)
  // A line ending in ':' introduces the next one ("Missing 1 required arg:" / "id  Rule id ...").
  const joined = reasons.reduce((text, line, i) => (i === 0 ? line : `${text}${text.endsWith(':') ? ' ' : '; '}${line}`), '')
  return oneLine(joined.replace(/(--?[\w-]+)=\S+/g, '$1=…'), 400)
}

/**
 * oclif's `Expected --format=sairf to be one of: stylish, json, sarif, markdown, html`, with the value
 * given shown as typed and the choice it was most likely meant to be. A value that does not look like a
 * choice (longer than 20 characters, or with characters no choice has) is not shown: it may be a
 * secret typed into the wrong flag.
 */
function choiceProblem(line: string): string {
  const choice = /^Expected --([\w-]+)=(.*) to be one of: (.*)$/.exec(line)
  if (!choice) return line
  const [, flag, given, list] = choice as unknown as [string, string, string, string]
  const shown = given.length <= 20 && /^[\p{L}\p{N}._+-]+$/u.test(given) ? `"${given}"` : `the ${given.length}-character value given (not shown: it may be a secret)`
  const meant = closest(given, list.split(', '))
  return `expected --${flag} to be one of: ${list}, not ${shown}${meant === undefined ? '' : `; did you mean ${meant}?`}`
}

export abstract class AuditCommand extends Command {
  /** Set from --debug once flags are parsed; before that, from argv. */
  protected debugEnabled = process.argv.includes('--debug')

  /** Writes one line to stderr. */
  protected say(line: string): void {
    process.stderr.write(`${line}\n`)
  }

  protected debugLine = (line: string): void => {
    if (this.debugEnabled) process.stderr.write(`debug: ${escapeControl(line)}\n`)
  }

  /** Refuses a secret given as a flag, without echoing it. */
  protected refuseSecretFlags(flags: {token?: string; password?: string}): void {
    for (const name of ['token', 'password'] as const) {
      if (flags[name] !== undefined) {
        throw new UsageError(
          `--${name} is not accepted: the secret is never a flag value (it would show in process lists and shell history); set ONEDEV_TOKEN or pipe it with --token-stdin`,
        )
      }
    }
  }

  /**
   * A command that reads a server's projects or a snapshot names what to read once: `--snapshot PATH`
   * (every audited project of it), `--project ID` (repeatable), or `--all-projects`. One line
   * (UsageError) otherwise. `verb` says what the command does with a snapshot's projects (`evaluates`,
   * `notifies`); `nothing` is the line when none is given.
   * Not oclif's `exclusive`: it would also refuse an ONEDEV_URL exported in the environment.
   */
  protected checkProjectSelection(flags: {snapshot?: string; project?: number[]; 'all-projects'?: boolean}, verb: string, nothing: string): void {
    const projects = flags['all-projects'] === true || (flags.project?.length ?? 0) > 0
    if (flags.snapshot && projects) {
      throw new UsageError(`--snapshot ${verb} every audited project of the snapshot: it cannot be combined with --project or --all-projects (use the configuration's projects.include/exclude to narrow it)`)
    }
    if (!flags.snapshot && !projects) throw new UsageError(nothing)
    if (flags['all-projects'] && flags.project?.length) throw new UsageError('--project and --all-projects cannot be combined')
  }

  /**
   * Runs after every command, before oclif ends the process: a non-zero exit code goes through
   * `process.exit`, which would cut off whatever a slow reader (a pipe, CI's log collector) had not
   * yet taken of a large report.
   */
  protected override async finally(error: Error | undefined): Promise<void> {
    await Promise.all([flushed(process.stdout), flushed(process.stderr)])
    return super.finally(error)
  }

  protected override async catch(error: Error & {oclif?: {exit?: number}}): Promise<never> {
    if (error instanceof Errors.ExitError) throw error
    const known = auditErrorOf(error)
    let message: string
    if (known) {
      message = describeAuditError(known)
    } else if (error instanceof Errors.CLIError && error.oclif?.exit !== undefined) {
      message = `${parserProblem(error.message)} (see --help)`
    } else {
      message = `internal error: ${oneLine(error.message ?? String(error), 400)}${this.debugEnabled ? '' : ' (run with --debug for details)'}`
    }
    this.say(`onedev-audit: error: ${message}`)
    if (this.debugEnabled && error.stack) this.say(error.stack.split('\n').map(escapeControl).join('\n'))
    this.exit(EXIT.incomplete)
  }
}
