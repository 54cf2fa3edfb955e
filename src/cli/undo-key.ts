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
 * (exit 2) before any request, as for every key file (src/cli/key-file.ts, which also never opens a
 * FIFO or a device at the key's path). On a system without POSIX owners (Windows) these checks are not made.
 */
import {randomBytes} from 'node:crypto'
import {link, lstat, mkdir, open, rm} from 'node:fs/promises'
import {homedir} from 'node:os'
import {dirname, isAbsolute, join} from 'node:path'

import {MIN_KEY_BYTES, UndoKey} from '../fix/seal.js'
import {UsageError} from './errors.js'
import {checkKeyFolder, codeOf, type KeyKind, keyFolderStat, readKeyFile, readNamedKeyFile} from './key-file.js'

/** The environment variable naming a key file, as --undo-key does. */
export const UNDO_KEY_ENV = 'ONEDEV_UNDO_KEY_FILE'
/** An undo key: at least MIN_KEY_BYTES; a file larger than 4096 bytes is not one (the tool makes keys of 32 bytes). */
const UNDO_KEY: KeyKind = {name: 'undo key', minBytes: MIN_KEY_BYTES, maxBytes: 4096}

/** Where the user's own undo key is: `$XDG_CONFIG_HOME/onedev-audit/undo-key`, else `~/.config/onedev-audit/undo-key` (a relative XDG_CONFIG_HOME is ignored, as the XDG specification says). */
export function defaultUndoKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.XDG_CONFIG_HOME
  const base = configured !== undefined && isAbsolute(configured) ? configured : join(homedir(), '.config')
  return join(base, 'onedev-audit', 'undo-key')
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
  checkKeyFolder(UNDO_KEY, holder, await keyFolderStat(UNDO_KEY, holder), 'holder')
  checkKeyFolder(UNDO_KEY, folder, found, 'own')
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
    const {path, bytes} = await readNamedKeyFile(UNDO_KEY, request.file, `--undo-key or ${UNDO_KEY_ENV} names the key file of the user who applied; leave it out to use your own`)
    return new UndoKey(bytes, path)
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
  return new UndoKey(await readKeyFile(UNDO_KEY, path, true), path)
}
