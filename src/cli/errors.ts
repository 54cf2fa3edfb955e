/**
 * Turning errors into one line and an exit code. Any error the user can act on is a value with a
 * message; anything else is a bug, shown with its stack only under --debug.
 */
import {ApiError, failureReason} from '../api/types.js'
import {ConfigError} from '../engine/config.js'
import {type Finding, SEVERITIES, type Severity} from '../engine/rule.js'
import type {AuditError} from '../model/types.js'
import {escapeControl} from '../util/escape.js'
import {FileWriteError} from '../util/fs.js'
import type {FailOn} from './flags.js'

/** A problem with what the user asked for: printed as one line, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export const EXIT = {ok: 0, findings: 1, incomplete: 2} as const

/** The AuditError carried by an error we expect, or null for a bug. */
export function auditErrorOf(error: unknown): AuditError | null {
  if (error instanceof ApiError) return error.error
  if (error instanceof ConfigError) return error.error
  if (error instanceof UsageError) return {kind: 'config', message: error.message}
  if (error && typeof error === 'object' && 'error' in error) {
    const inner = (error as {error: unknown}).error
    if (inner && typeof inner === 'object' && 'kind' in inner && 'message' in inner) return inner as AuditError
  }
  return null
}

export function describeAuditError(error: AuditError): string {
  const where = error.project ? `project ${error.project.path} (#${error.project.id}): ` : ''
  return escapeControl(`${where}${error.message}`)
}

/**
 * The errors as a person reads them: request failures that failed the same way (same kind, status
 * and reason, whatever the request or project: a server answering HTML, refusing the credentials
 * or the connection) are one error, the first of them, ending with how many more there were.
 * Other errors stay as they are; the order is that of each group's first error.
 */
export function collapseErrors(errors: readonly AuditError[]): AuditError[] {
  const groups = new Map<string, {error: AuditError; more: number}>()
  const kept: {error: AuditError; more: number}[] = []
  for (const error of errors) {
    const key = error.path === undefined ? undefined : JSON.stringify([error.kind, error.status ?? null, failureReason(error)])
    const group = key === undefined ? undefined : groups.get(key)
    if (group) {
      group.more++
      continue
    }
    const fresh = {error, more: 0}
    kept.push(fresh)
    if (key !== undefined) groups.set(key, fresh)
  }
  return kept.map(({error, more}) =>
    more === 0 ? error : {...error, message: `${error.message} (and ${more} more request${more === 1 ? '' : 's'} failed the same way)`},
  )
}

/** One stderr line per error, repeated request failures collapsed (collapseErrors). */
export function errorLines(errors: readonly AuditError[]): string[] {
  return collapseErrors(errors).map((error) => `onedev-audit: error: ${describeAuditError(error)}`)
}

export function isAtOrAbove(severity: Severity, threshold: FailOn): boolean {
  return threshold !== 'none' && SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold)
}

/**
 * 2 when the audit is incomplete; else 1 when a finding is at or above the threshold, or a compliance
 * control fails and `controlFails` is asked (--fail-on-control); else 0.
 */
export function exitCodeFor(findings: readonly Finding[], failOn: FailOn, complete: boolean, controlFails = false): number {
  if (!complete) return EXIT.incomplete
  return controlFails || findings.some((f) => isAtOrAbove(f.severity, failOn)) ? EXIT.findings : EXIT.ok
}

/**
 * Writes an output file; when it cannot be written (a full disk, a folder in the way), says so in
 * one line naming the flag and the file, and returns false so that the command goes on with what
 * it still can (its summary on stderr) and exits 2. Any other error is thrown.
 */
export async function writeOrSay(flag: string, write: () => Promise<void>, say: (line: string) => void): Promise<boolean> {
  try {
    await write()
    return true
  } catch (error) {
    if (!(error instanceof FileWriteError)) throw error
    say(`onedev-audit: error: ${flag} ${escapeControl(error.message)}`)
    return false
  }
}
