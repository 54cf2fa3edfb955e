/**
 * The undo key: the secret that seals the undo records `fix --apply` writes (src/fix/seal.ts). It is a
 * file of the user's own configuration, `$XDG_CONFIG_HOME/onedev-audit/undo-key` (else
 * `~/.config/onedev-audit/undo-key`), made on first use with 32 random bytes, mode 0600 in a folder of
 * mode 0700; or a file a team names (`--undo-key FILE`, or ONEDEV_UNDO_KEY_FILE), to undo on another
 * machine than the one that applied.
 *
 * A key others could read would let them seal a record of their own; one in a folder others can
 * write, be replaced. So a key is used only when it is a regular file of the user who runs the
 * command, which nobody else may read or write, and its folder is theirs (or root's) and nobody else
 * may write into it: the user's own folder (`onedev-audit/`), which nobody else may even list, and the
 * folder that holds it. Anything else, a shared temporary folder included, is refused with one line
 * (exit 2) before any request. On a system without POSIX owners (Windows) these checks are not made.
 */
import {randomBytes} from 'node:crypto'
import type {Stats} from 'node:fs'
import {link, lstat, mkdir, open, realpath, rm, stat} from 'node:fs/promises'
import {homedir} from 'node:os'
import {dirname, isAbsolute, join} from 'node:path'

import {MIN_KEY_BYTES, UndoKey} from '../fix/seal.js'
import {NotRegularFileError, readRegularFile} from '../util/fs.js'
import {UsageError} from './errors.js'

/** The environment variable naming a key file, as --undo-key does. */
export const UNDO_KEY_ENV = 'ONEDEV_UNDO_KEY_FILE'
/** A key file larger than this is not one (the tool makes keys of 32 bytes). */
const MAX_KEY_BYTES = 4096

/** Where the user's own undo key is: `$XDG_CONFIG_HOME/onedev-audit/undo-key`, else `~/.config/onedev-audit/undo-key` (a relative XDG_CONFIG_HOME is ignored, as the XDG specification says). */
export function defaultUndoKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.XDG_CONFIG_HOME
  const base = configured !== undefined && isAbsolute(configured) ? configured : join(homedir(), '.config')
  return join(base, 'onedev-audit', 'undo-key')
}

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0')
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code ?? 'error'
const uid = () => process.getuid?.()

/** Refused: nobody else may read or write the key, and it is the user's own regular file. */
function checkKeyFile(path: string, found: Stats): void {
  if (!found.isFile()) throw new UsageError(`the undo key ${path} is not a file`)
  const me = uid()
  if (me === undefined) return
  if (found.uid !== me) throw new UsageError(`the undo key ${path} belongs to another user (uid ${found.uid}): use a key file of your own`)
  if ((found.mode & 0o077) !== 0) throw new UsageError(`the undo key ${path} can be read or written by others (mode ${octal(found.mode)}): make it yours alone (chmod 600), or make a new key if others may have read it`)
  if (found.size < MIN_KEY_BYTES) throw new UsageError(`the undo key ${path} has ${found.size} bytes: an undo key has at least ${MIN_KEY_BYTES}`)
  if (found.size > MAX_KEY_BYTES) throw new UsageError(`the undo key ${path} has ${found.size} bytes: an undo key has at most ${MAX_KEY_BYTES}`)
}

/**
 * Refused: a folder on the way to the key that someone else owns, or may write into (they could put
 * their own key there); `own`: the user's own `onedev-audit/` folder, which nobody else may list either.
 */
function checkFolder(folder: string, found: Stats, role: 'own' | 'holder'): void {
  if (!found.isDirectory()) throw new UsageError(`${folder}, the folder of the undo key, is not a folder${found.isSymbolicLink() ? ' (a symbolic link)' : ''}`)
  const me = uid()
  if (me === undefined) return
  if (found.uid !== me && !(role === 'holder' && found.uid === 0)) throw new UsageError(`${folder}, a folder of the undo key, belongs to another user (uid ${found.uid}): keep the key in a folder of your own`)
  if (role === 'own' && (found.mode & 0o077) !== 0) throw new UsageError(`${folder}, the folder of your undo key, can be read or written by others (mode ${octal(found.mode)}): make it yours alone (chmod 700)`)
  if ((found.mode & 0o022) !== 0) throw new UsageError(`${folder}, a folder of the undo key, can be written by others (mode ${octal(found.mode)}): keep the key in a folder only you can write, never in a shared temporary folder`)
}

/** The folder's status (followed when it is a link); a UsageError when it cannot be read. */
async function folderStat(folder: string): Promise<Stats> {
  try {
    return await stat(folder)
  } catch (error) {
    throw new UsageError(`cannot read ${folder}, a folder of the undo key (${codeOf(error)})`)
  }
}

/**
 * Reads a key file, checked on what was opened (never a link when `noLinks`): an UndoKey. Anything but
 * a regular file (a named pipe, which would block the open for ever, a device) is refused before it
 * is opened, and again on the open descriptor (readRegularFile).
 */
async function readKey(path: string, noLinks: boolean): Promise<UndoKey> {
  let bytes: Buffer
  try {
    bytes = await readRegularFile(path, {noFollow: noLinks, check: (found) => checkKeyFile(path, found)})
  } catch (error) {
    if (error instanceof UsageError) throw error
    if (error instanceof NotRegularFileError) throw new UsageError(`the undo key ${path} is not a file but ${error.kind}: an undo key is a regular file`)
    if (codeOf(error) === 'ELOOP') throw new UsageError(`the undo key ${path} is a symbolic link: it must be a file of its own`)
    throw new UsageError(`cannot read the undo key ${path} (${codeOf(error)})`)
  }
  if (bytes.length < MIN_KEY_BYTES || bytes.length > MAX_KEY_BYTES) throw new UsageError(`the undo key ${path} has ${bytes.length} bytes: an undo key has ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES}`)
  return new UndoKey(bytes, path)
}

/** Makes the key (32 random bytes, mode 0600) where none is: written whole under another name, then linked to its own (a run that made one meanwhile wins). */
async function makeKey(path: string): Promise<void> {
  const temp = join(dirname(path), `.undo-key.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temp, 'wx', 0o600)
    try {
      await handle.writeFile(randomBytes(32))
    } finally {
      await handle.close()
    }
    await link(temp, path).catch((error: unknown) => {
      if (codeOf(error) !== 'EEXIST') throw error
    })
  } catch (error) {
    throw new UsageError(`cannot make the undo key ${path} (${codeOf(error)})`)
  } finally {
    await rm(temp, {force: true})
  }
}

/** The user's own folder for the key, made (mode 0700, the folders above it too) when `create` and it is not there; false when it is not there. */
async function ownFolder(folder: string, create: boolean): Promise<boolean> {
  const holder = dirname(folder)
  let found = await lstat(folder).catch((error: unknown) => {
    if (codeOf(error) === 'ENOENT') return null
    throw new UsageError(`cannot read ${folder}, the folder of your undo key (${codeOf(error)})`)
  })
  if (found === null) {
    if (!create) return false
    try {
      await mkdir(holder, {recursive: true, mode: 0o700})
      await mkdir(folder, {mode: 0o700}).catch((error: unknown) => {
        if (codeOf(error) !== 'EEXIST') throw error
      })
      found = await lstat(folder)
    } catch (error) {
      throw new UsageError(`cannot make ${folder}, the folder of your undo key (${codeOf(error)})`)
    }
  }
  // The folder that holds it may be a link (a configuration folder kept elsewhere): judged where it leads.
  checkFolder(holder, await folderStat(holder), 'holder')
  checkFolder(folder, found, 'own')
  return true
}

export interface UndoKeyRequest {
  /** A key file named by --undo-key or ONEDEV_UNDO_KEY_FILE; else the user's own. */
  file?: string
  /** Make the user's own key when it is not there (applying: the record is sealed); else null then. */
  create: boolean
  /** Says that a key was made, and where. */
  say: (line: string) => void
}

/**
 * The undo key of this run, checked (see the top of this file), or null when the user has none and
 * `create` is false. Any problem is a UsageError: one line, exit 2, before any request. A named key
 * file must exist: a typo never makes a new key.
 */
export async function undoKey(request: UndoKeyRequest): Promise<UndoKey | null> {
  if (request.file !== undefined) {
    let real: string
    try {
      real = await realpath(request.file)
    } catch (error) {
      if (codeOf(error) === 'ENOENT') throw new UsageError(`the undo key ${request.file}: no such file (--undo-key or ${UNDO_KEY_ENV} names the key file of the user who applied; leave it out to use your own)`)
      throw new UsageError(`cannot read the undo key ${request.file} (${codeOf(error)})`)
    }
    checkFolder(dirname(real), await folderStat(dirname(real)), 'holder')
    return readKey(real, true)
  }
  const path = defaultUndoKeyPath()
  if (!(await ownFolder(dirname(path), request.create))) return null
  const there = await lstat(path).then(
    () => true,
    () => false,
  )
  if (!there) {
    if (!request.create) return null
    await makeKey(path)
    request.say(`onedev-audit: made your undo key ${path} (32 random bytes that only you can read): it seals the undo records fix --apply writes; to undo on another machine, copy it there and name it with --undo-key`)
  }
  return readKey(path, true)
}
