/**
 * Key files a user names: the undo key that seals undo records (src/cli/undo-key.ts) and the signing
 * key of attestations (src/cli/attest.ts). A key others could read could be used by them; one in a
 * folder others can write, replaced. So a key is read only when it is a regular file of the user who
 * runs the command, which nobody else may read or write, in a folder that is theirs (or root's) and that
 * nobody else may write into. A key that is not a regular file (a FIFO, a device) is refused before it
 * is opened, and opened without blocking, so that nothing at its path can hang the command. Anything
 * else is refused with one line (exit 2) before any request. On a system without POSIX owners
 * (Windows) the owner and mode checks are not made.
 */
import type {Stats} from 'node:fs'
import {realpath, stat} from 'node:fs/promises'
import {dirname} from 'node:path'

import {NotRegularFileError, readRegularFile} from '../util/fs.js'
import {UsageError} from './errors.js'

/** What kind of key a file holds, as messages name it, and the sizes such a key may have. */
export interface KeyKind {
  /** `undo key`, `signing key`. */
  name: string
  minBytes: number
  maxBytes: number
}

export const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0')
export const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code ?? 'error'
const uid = () => process.getuid?.()
const article = (name: string) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`

/** Refused: anything but a regular file of the user who runs the command, which nobody else may read or write, of a key's size. */
export function checkKeyFile(kind: KeyKind, path: string, found: Stats): void {
  if (!found.isFile()) throw new UsageError(`the ${kind.name} ${path} is not a file`)
  const me = uid()
  if (me === undefined) return
  if (found.uid !== me) throw new UsageError(`the ${kind.name} ${path} belongs to another user (uid ${found.uid}): use a key file of your own`)
  if ((found.mode & 0o077) !== 0) throw new UsageError(`the ${kind.name} ${path} can be read or written by others (mode ${octal(found.mode)}): make it yours alone (chmod 600), or make a new key if others may have read it`)
  if (found.size < kind.minBytes) throw new UsageError(`the ${kind.name} ${path} has ${found.size} bytes: ${article(kind.name)} has at least ${kind.minBytes}`)
  if (found.size > kind.maxBytes) throw new UsageError(`the ${kind.name} ${path} has ${found.size} bytes: ${article(kind.name)} has at most ${kind.maxBytes}`)
}

/**
 * Refused: a folder on the way to the key that someone else owns, or may write into (they could put
 * their own key there); `own`: the user's own folder of keys, which nobody else may list either.
 */
export function checkKeyFolder(kind: KeyKind, folder: string, found: Stats, role: 'own' | 'holder'): void {
  if (!found.isDirectory()) throw new UsageError(`${folder}, the folder of the ${kind.name}, is not a folder${found.isSymbolicLink() ? ' (a symbolic link)' : ''}`)
  const me = uid()
  if (me === undefined) return
  if (found.uid !== me && !(role === 'holder' && found.uid === 0)) throw new UsageError(`${folder}, a folder of the ${kind.name}, belongs to another user (uid ${found.uid}): keep the key in a folder of your own`)
  if (role === 'own' && (found.mode & 0o077) !== 0) throw new UsageError(`${folder}, the folder of your ${kind.name}, can be read or written by others (mode ${octal(found.mode)}): make it yours alone (chmod 700)`)
  if ((found.mode & 0o022) !== 0) throw new UsageError(`${folder}, a folder of the ${kind.name}, can be written by others (mode ${octal(found.mode)}): keep the key in a folder only you can write, never in a shared temporary folder`)
}

/** The folder's status (followed when it is a link); a UsageError when it cannot be read. */
export async function keyFolderStat(kind: KeyKind, folder: string): Promise<Stats> {
  try {
    return await stat(folder)
  } catch (error) {
    throw new UsageError(`cannot read ${folder}, a folder of the ${kind.name} (${codeOf(error)})`)
  }
}

/**
 * The bytes of a key file, checked before it is opened (what is at the path, never followed when
 * `noLinks`) and again on what was opened (readRegularFile): never a FIFO or a device, whose open or
 * read could block.
 */
export async function readKeyFile(kind: KeyKind, path: string, noLinks: boolean): Promise<Buffer> {
  let bytes: Buffer
  try {
    bytes = await readRegularFile(path, {noFollow: noLinks, check: (found) => checkKeyFile(kind, path, found)})
  } catch (error) {
    if (error instanceof UsageError) throw error
    if (error instanceof NotRegularFileError) throw new UsageError(`the ${kind.name} ${path} is not a file but ${error.kind}: ${article(kind.name)} is a regular file`)
    if (codeOf(error) === 'ELOOP') throw new UsageError(`the ${kind.name} ${path} is a symbolic link: it must be a file of its own`)
    throw new UsageError(`cannot read the ${kind.name} ${path} (${codeOf(error)})`)
  }
  if (bytes.length < kind.minBytes || bytes.length > kind.maxBytes) throw new UsageError(`the ${kind.name} ${path} has ${bytes.length} bytes: ${article(kind.name)} has ${kind.minBytes} to ${kind.maxBytes}`)
  return bytes
}

/**
 * A key file the user named (a flag or an environment variable): followed to where it really is, its
 * folder checked, then read as readKeyFile does. `missing` says what to do when there is no such file.
 */
export async function readNamedKeyFile(kind: KeyKind, file: string, missing: string): Promise<{path: string; bytes: Buffer}> {
  let real: string
  try {
    real = await realpath(file)
  } catch (error) {
    if (codeOf(error) === 'ENOENT') throw new UsageError(`the ${kind.name} ${file}: no such file${missing ? ` (${missing})` : ''}`)
    throw new UsageError(`cannot read the ${kind.name} ${file} (${codeOf(error)})`)
  }
  checkKeyFolder(kind, dirname(real), await keyFolderStat(kind, dirname(real)), 'holder')
  return {path: real, bytes: await readKeyFile(kind, real, true)}
}
