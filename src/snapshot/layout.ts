/**
 * The snapshot format: its version (a single file and a folder's index carry it), and the file layout
 * of a snapshot folder (`collect --output-dir`):
 *
 *   snapshot.json             the index: server, time, projects (ids, paths, parents, files), errors
 *   roles.json                the redacted roles listing
 *   server.json               the redacted payloads of the optional endpoints (when collected)
 *   projects/<path>.json      each project's redacted setting payload
 *
 * A project path comes from the server and is hostile: each segment is percent-encoded so that a
 * path can never leave the `projects/` folder, never names a hidden, reserved or special file on any
 * platform, and different paths always give different files.
 */
import {createHash} from 'node:crypto'

/** `snapshotVersion`: snapshot.ts reads this format only, and says why it refuses another. */
export const SNAPSHOT_VERSION = 1
export const SNAPSHOT_SCHEMA_URL = 'https://onedev-audit.dev/schemas/snapshot.schema.json'

export const INDEX_FILE = 'snapshot.json'
export const ROLES_FILE = 'roles.json'
/** The server data document (security and admin settings, groups, users, authorizations). */
export const SERVER_DATA_FILE = 'server.json'
export const PROJECTS_DIR = 'projects'

/** Longest encoded segment kept whole; longer ones are cut and end in a hash (file names are ≤ 255 bytes). */
const MAX_SEGMENT = 150
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i

function percent(char: string): string {
  return [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('')
}

/**
 * One path segment as a file or folder name. Only `[A-Za-z0-9_-]` are kept; every other character
 * (dots included, so no segment is `.`, `..`, hidden, or ends in `.json`) is percent-encoded as UTF-8.
 * An empty segment is `%`, which encoding never produces otherwise. `~` is kept for suffixes.
 */
export function encodeSegment(segment: string): string {
  if (segment === '') return '%'
  let out = ''
  for (const char of segment) out += /^[A-Za-z0-9_-]$/.test(char) ? char : percent(char)
  if (WINDOWS_RESERVED.test(out)) out = percent(out[0]!) + out.slice(1)
  if (out.length > MAX_SEGMENT) {
    const hash = createHash('sha256').update(segment, 'utf8').digest('hex').slice(0, 16)
    // Cut at a character boundary: never inside a %XX escape.
    let cut = MAX_SEGMENT
    while (cut > 0 && (out[cut - 1] === '%' || out[cut - 2] === '%')) cut--
    out = `${out.slice(0, cut)}~h${hash}`
  }
  return out
}

/** `projects/<encoded segments>.json`, relative to the snapshot folder, always with `/`. */
export function projectFilePath(projectPath: string, suffix?: string): string {
  const segments = String(projectPath).split('/').map(encodeSegment)
  if (suffix !== undefined) segments[segments.length - 1] += `~${encodeSegment(suffix)}`
  return `${PROJECTS_DIR}/${segments.join('/')}.json`
}

/** What projectFilePath can produce: the only setting file names a loaded index may name. */
const SAFE_FILE = /^projects\/(?:[A-Za-z0-9_%~-]+\/)*[A-Za-z0-9_%~-]+\.json$/

/** Whether a file named in a snapshot index stays inside the snapshot folder's `projects/`. */
export function isSafeProjectFile(file: string): boolean {
  return SAFE_FILE.test(file) && file.length <= 4096
}
