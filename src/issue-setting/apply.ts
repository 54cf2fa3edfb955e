/**
 * Applying an issue-setting file to a server, and pulling the server's setting into a file. The
 * order is fixed so that nothing is sent when anything before the send fails: read the current
 * setting (if the server offers GET), save it to the backup file, show the diff, then POST the
 * file's text exactly as written.
 */
import {ApiError, type ApiClient} from '../api/types.js'
import {redactIssueSetting} from '../model/issue-setting.js'
import {secretsOf} from '../model/redact.js'
import type {AuditError} from '../model/types.js'
import {writeFailure, writeFileAtomic} from '../util/fs.js'
import {diffSettings} from './diff.js'

export const ISSUE_SETTING_PATH = '/settings/issue'

/** An expected failure of the issue-setting commands, as a value the command prints (exit 2). */
export class IssueSettingError extends Error {
  constructor(readonly error: AuditError) {
    super(error.message)
    this.name = 'IssueSettingError'
  }
}

const two = (n: number) => String(n).padStart(2, '0')

/** The default backup file name: `issue-setting-backup-YYYYMMDD-HHMMSS.json` (UTC). */
export function backupPath(now: Date): string {
  const date = `${now.getUTCFullYear()}${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`
  const time = `${two(now.getUTCHours())}${two(now.getUTCMinutes())}${two(now.getUTCSeconds())}`
  return `issue-setting-backup-${date}-${time}.json`
}

/** The text of an issue-setting file: redacted (SecretField defaults, password-like keys), pretty, one final newline. */
export function issueSettingFileText(raw: unknown): string {
  return `${JSON.stringify(redactIssueSetting(raw), null, 2)}\n`
}

/**
 * Whether an error means the server does not offer GET /settings/issue (405, or OneDev's 404 for a path
 * no resource matches), as opposed to a real failure: an HTML 404 is a wrong prefix reaching the web UI.
 */
export function isMissingEndpoint(error: unknown): boolean {
  return error instanceof ApiError && error.noResource
}

/** GET {prefix}/settings/issue; null when the server has no such endpoint. Other failures throw. */
export async function fetchIssueSetting(client: ApiClient): Promise<unknown | null> {
  try {
    return await client.getJson(ISSUE_SETTING_PATH)
  } catch (error) {
    if (isMissingEndpoint(error)) return null
    throw error
  }
}

export interface ApplyIo {
  /** The diff (stdout). */
  out: (line: string) => void
  /** Notices and progress (stderr). */
  say: (line: string) => void
}

export interface ApplyOutcome {
  /** Where the previous setting was saved; null when the server has no GET. */
  backup: string | null
  /** What changes; null when the server has no GET. */
  diff: string[] | null
}

/**
 * Saves the server's current setting to `backup` (mode 0600), prints what changes, then POSTs the
 * file's text as written (`text`, whose parsed value is `body`: numbers as their tokens, members in
 * their order; the server replaces the whole setting). Throws an ApiError or IssueSettingError,
 * having sent nothing, when anything before the POST fails.
 */
export async function applyIssueSetting(client: ApiClient, file: {text: string; body: unknown}, options: {backup: string; io: ApplyIo}): Promise<ApplyOutcome> {
  const {body} = file
  const {io} = options
  const before = await fetchIssueSetting(client)
  let outcome: ApplyOutcome = {backup: null, diff: null}
  if (before === null) {
    io.say(`onedev-audit: notice: this server has no GET ${ISSUE_SETTING_PATH}: no backup and no diff; applying the whole file`)
  } else {
    try {
      await writeFileAtomic(options.backup, issueSettingFileText(before), 0o600)
    } catch (error) {
      throw new IssueSettingError({kind: 'io', message: `--backup ${writeFailure(options.backup, error).message}; nothing was sent`})
    }
    io.say(`onedev-audit: saved the current issue setting to ${options.backup}`)
    const diff = diffSettings(before, body)
    if (diff.length === 0) io.out('no change to the issue setting (the server still sets reconciled to false)')
    else for (const line of diff) io.out(line)
    outcome = {backup: options.backup, diff}
  }
  // A byte order mark is no part of the JSON (the file was read as UTF-8, and is sent as UTF-8).
  // A server's error text that quotes a secret of the file (a SecretField's default) never shows it.
  await client.postText(ISSUE_SETTING_PATH, file.text.replace(/^\uFEFF/, ''), secretsOf(body, redactIssueSetting))
  return outcome
}

/** What --dry-run prints: the request it would send, with the body redacted. */
export function dryRunText(body: unknown, apiPrefix: string): string {
  return `dry run: would POST ${apiPrefix}${ISSUE_SETTING_PATH} with this body (nothing was sent):\n${issueSettingFileText(body)}`
}
