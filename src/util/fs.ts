import {randomBytes} from 'node:crypto'
import {constants, readFileSync, type Stats, unlinkSync} from 'node:fs'
import {type FileHandle, link, lstat, open, realpath, rename, rm, stat} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'

/** What a failed write's code means, in words a person acts on. */
const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EFBIG: 'the file is too large for the device',
  EIO: 'an input/output error of the device',
  EROFS: 'a read-only file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENOENT: 'no such folder',
  ENAMETOOLONG: 'the name is too long',
  EEXIST: 'the file exists',
  ELOOP: 'too many symbolic links',
}

/**
 * A file that could not be written, as a value: `error` is the one line to print (the file, the
 * code, what it means), which src/cli/errors.ts turns into exit 2. `code` is the system's code.
 */
export class FileWriteError extends Error {
  readonly error: {kind: 'io'; message: string}
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    const meaning = WRITE_FAILURES[code]
    super(`${path}: cannot write the file (${code}${meaning ? `: ${meaning}` : ''})`)
    this.name = 'FileWriteError'
    this.error = {kind: 'io', message: this.message}
  }
}

/** The FileWriteError of a failed write of `path` (an error that already is one passes as it is). */
export function writeFailure(path: string, error: unknown): FileWriteError {
  if (error instanceof FileWriteError) return error
  const code = (error as NodeJS.ErrnoException | null)?.code
  return new FileWriteError(path, typeof code === 'string' ? code : error instanceof Error ? error.name : 'error')
}

/** What a path holds that is not a regular file, in words. */
function kindOf(found: Stats): string {
  if (found.isFIFO()) return 'a named pipe (FIFO)'
  if (found.isDirectory()) return 'a folder'
  if (found.isSymbolicLink()) return 'a symbolic link'
  if (found.isCharacterDevice()) return 'a character device'
  if (found.isBlockDevice()) return 'a block device'
  if (found.isSocket()) return 'a socket'
  return 'not a file'
}

/**
 * A path that names something other than a regular file where a file is read. `code` is what callers
 * print in brackets, as they print a system error's code (`cannot read X (not a regular file: a named
 * pipe (FIFO))`); `kind` is what it is instead.
 */
export class NotRegularFileError extends Error {
  readonly code: string
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path}: not a regular file: ${kind}`)
    this.name = 'NotRegularFileError'
    this.code = `not a regular file: ${kind}`
  }
}

/**
 * Reads a file the user named (a configuration, baseline, plan, undo record, snapshot or key file),
 * refusing anything but a regular file without ever waiting on it: opening a named pipe (FIFO) for
 * reading blocks until someone writes into it, and a device may never end. So the path is looked at
 * first (stat; lstat with `noFollow`), then opened with O_NONBLOCK (and O_NOFOLLOW: a symbolic link
 * is the system's ELOOP) and the open descriptor looked at again (fstat): a file swapped for a FIFO in
 * between is refused too, without a read. `check` sees the opened file's status before anything is
 * read (its owner, mode and size) and may throw. Throws NotRegularFileError, or the system's error
 * (ENOENT, EACCES, ELOOP, ...) as it is.
 */
export async function readRegularFile(path: string, options: {noFollow?: boolean; check?: (found: Stats) => void} = {}): Promise<Buffer> {
  // The same first look as expectRegularFile, with lstat when no link may be followed.
  const first = await (options.noFollow ? lstat(path) : stat(path))
  if (!first.isFile() && !(options.noFollow && first.isSymbolicLink())) throw new NotRegularFileError(path, kindOf(first))
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0))
  try {
    const opened = await handle.stat()
    if (!opened.isFile()) throw new NotRegularFileError(path, kindOf(opened))
    options.check?.(opened)
    // A regular file's descriptor, checked: read at once. FileHandle#readFile's promise per chunk cost a
    // 10,000-file snapshot folder about 40 µs of CPU per file more than fs.readFile did before.
    return readFileSync(handle.fd)
  } finally {
    await handle.close()
  }
}

/**
 * Refuses a path that is not a regular file (NotRegularFileError), for a file that something else
 * opens (Node's module loader, for a plugin): the check readRegularFile makes before it opens.
 */
export async function expectRegularFile(path: string): Promise<void> {
  const found = await stat(path)
  if (!found.isFile()) throw new NotRegularFileError(path, kindOf(found))
}

/** readRegularFile, as UTF-8 text. */
export async function readTextFile(path: string, options: {noFollow?: boolean} = {}): Promise<string> {
  return (await readRegularFile(path, options)).toString('utf8')
}

/** Pieces of text are written in batches of about this many characters. */
export const WRITE_BATCH = 64 * 1024

/** Joins small pieces of text into batches of about `size` characters (a large piece passes alone). */
export function* batched(chunks: Iterable<string>, size = WRITE_BATCH): Generator<string, void, undefined> {
  let batch = ''
  for (const chunk of chunks) {
    batch += chunk
    if (batch.length >= size) {
      yield batch
      batch = ''
    }
  }
  if (batch !== '') yield batch
}

/**
 * Where a write to `path` really goes: the file a symbolic link leads to (the link is kept), and
 * whether that is something other than a regular file (a device such as /dev/null, a pipe), which is
 * written into as it is: renaming a file onto it would replace it, /dev/null included.
 */
async function writeTarget(path: string): Promise<{path: string; special: boolean}> {
  const found = await stat(path).catch(() => null)
  if (found === null) return {path, special: false}
  return {path: await realpath(path), special: !found.isFile()}
}

/** Writes batches of text into an open file, one batch while the next is made. */
async function writeBatches(handle: FileHandle, chunks: Iterable<string>): Promise<void> {
  // One batch is written while the next is made: the text is produced during the write instead of
  // after it (a 40 MB report is about 600 writes).
  let writing: Promise<void> | undefined
  try {
    for (const batch of batched(chunks)) {
      const bytes = Buffer.from(batch, 'utf8')
      await writing
      writing = writeAll(handle, bytes)
    }
    await writing
  } finally {
    await writing?.catch(() => undefined)
  }
}

/**
 * Writes a file from pieces of text through a temporary sibling and a rename: readers (and a run
 * killed half-way) never see half a file; the previous file stays until the new one is complete.
 * The temporary file is removed when the process exits while writing (a second Ctrl-C during a
 * collection) or is stopped by SIGINT or SIGTERM that nothing else handles; only SIGKILL leaves it
 * (hidden, beside the previous report). A symbolic link is followed (the file it leads to is
 * replaced, the link kept); a device or a pipe (`--output /dev/null`) is written into directly.
 * With `createOnly`, nothing that exists is replaced: the complete file is linked to its name, which
 * fails with EEXIST when something is there (a file written by another run meanwhile included).
 * Without `follow`, whatever is at `path` (a symbolic link included) is replaced by the file, never
 * written through. Any failure is a FileWriteError naming the file (its `code` the system's: ENOSPC, EEXIST, ...).
 */
export async function writeChunksAtomic(path: string, chunks: Iterable<string>, mode = 0o644, createOnly = false, follow = true): Promise<void> {
  try {
    await writeChunksAtomicOrThrow(path, chunks, mode, createOnly, follow)
  } catch (error) {
    // A system error (it has a code) is the file's; anything else (a formatter's bug) stays what it is.
    throw typeof (error as NodeJS.ErrnoException | null)?.code === 'string' ? writeFailure(path, error) : error
  }
}

async function writeChunksAtomicOrThrow(path: string, chunks: Iterable<string>, mode: number, createOnly: boolean, follow: boolean): Promise<void> {
  const target = createOnly || !follow ? {path, special: false} : await writeTarget(path)
  if (target.special) {
    const handle = await open(target.path, 'w')
    try {
      await writeBatches(handle, chunks)
    } finally {
      await handle.close()
    }
    return
  }
  const temp = join(dirname(target.path), `.${basename(target.path)}.${randomBytes(6).toString('hex')}.tmp`)
  // Tracked before the file exists: a signal right after it is created must not leave it.
  trackTemp(temp)
  let handle: FileHandle | undefined
  try {
    handle = await open(temp, 'wx', mode)
    await writeBatches(handle, chunks)
    await handle.close()
    handle = undefined
    if (createOnly) {
      await link(temp, target.path)
      await rm(temp, {force: true})
    } else {
      await rename(temp, target.path)
    }
  } catch (error) {
    await handle?.close().catch(() => undefined)
    await rm(temp, {force: true})
    throw error
  } finally {
    untrackTemp(temp)
  }
}

/**
 * The temporary files being written now (writeChunksAtomic), removed if the process ends before they
 * are renamed: one `exit` listener and one handler per signal for all of them, however many files are
 * written at once (collect --output-dir writes dozens: a listener each would trip Node's leak warning).
 */
const pendingTemps = new Set<string>()
/** The signals handled while files are pending: those nobody else handles, whose default would end the process at once. */
let handledSignals: NodeJS.Signals[] = []

function removePendingTemps(): void {
  for (const temp of pendingTemps) {
    try {
      unlinkSync(temp)
    } catch {
      // Already renamed or never created.
    }
  }
  pendingTemps.clear()
}

function onSignalWhileWriting(signal: NodeJS.Signals): void {
  stopHandling()
  removePendingTemps()
  process.kill(process.pid, signal)
}

function stopHandling(): void {
  process.off('exit', removePendingTemps)
  for (const signal of handledSignals) process.off(signal, onSignalWhileWriting)
  handledSignals = []
}

function trackTemp(temp: string): void {
  if (pendingTemps.size === 0) {
    process.on('exit', removePendingTemps)
    handledSignals = (['SIGINT', 'SIGTERM'] as const).filter((signal) => process.listenerCount(signal) === 0)
    for (const signal of handledSignals) process.on(signal, onSignalWhileWriting)
  }
  pendingTemps.add(temp)
}

function untrackTemp(temp: string): void {
  pendingTemps.delete(temp)
  if (pendingTemps.size === 0) stopHandling()
}

async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset)).bytesWritten
}

/** Writes a file through a temporary sibling and a rename, so readers never see half a file (writeChunksAtomic). */
export async function writeFileAtomic(path: string, content: string, mode = 0o644, follow = true): Promise<void> {
  await writeChunksAtomic(path, [content], mode, false, follow)
}

const closedStreams = new WeakSet<NodeJS.WritableStream>()

/**
 * Standard output closed by its reader (`onedev-audit scan | head`) is not an error: whatever is
 * left is not written, and nothing else happens. Any other write error stays an error.
 */
function ignoreClosedReader(stream: NodeJS.WritableStream): void {
  if (stream.listeners('error').includes(onStreamError)) return
  stream.on('error', onStreamError)
}

function onStreamError(this: NodeJS.WritableStream, error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') {
    closedStreams.add(this)
    return
  }
  throw error
}

/**
 * Writes pieces of text to a stream (standard output) in batches, waiting for it to drain when it
 * asks to. Returns false when the reader closed the stream before the end (the rest is dropped).
 */
export async function writeChunksTo(stream: NodeJS.WritableStream, chunks: Iterable<string>): Promise<boolean> {
  ignoreClosedReader(stream)
  for (const batch of batched(chunks)) {
    if (closedStreams.has(stream)) return false
    if (!stream.write(batch)) await drained(stream)
  }
  // What is still queued reaches the reader before the process ends: AuditCommand.finally awaits `flushed`.
  return !closedStreams.has(stream)
}

/**
 * Resolves once everything written to the stream so far has been handed to the operating system.
 * A pipe to a slow reader keeps the rest in the process; `process.exit` (how oclif ends a command
 * with a non-zero code) would drop it. Resolves at once when nothing is pending or the reader left.
 */
export function flushed(stream: NodeJS.WritableStream & {writableLength?: number}): Promise<void> {
  if (closedStreams.has(stream) || !stream.writableLength) return Promise.resolve()
  // The callback of an empty write runs after every earlier write was handed over (or failed).
  return new Promise((resolve) => stream.write('', () => resolve()))
}

function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done)
      stream.off('error', done)
      stream.off('close', done)
      resolve()
    }
    stream.on('drain', done)
    stream.on('error', done)
    stream.on('close', done)
  })
}
