import {createHash} from 'node:crypto'
import {createReadStream} from 'node:fs'

/** The SHA-256 of bytes (a string: of its UTF-8 bytes), as 64 lower-case hex digits. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** The SHA-256 of a file's bytes, read as a stream (a report of any size, a pipe too): never the whole file in memory. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}
