import {createHash} from 'node:crypto'

/** The SHA-256 of bytes (a string: of its UTF-8 bytes), as 64 lower-case hex digits. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}
