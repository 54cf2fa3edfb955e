/**
 * RFC 6901 JSON pointers: how the model, the findings and the reports point into raw payloads.
 * Resolution reads own properties only, so `__proto__` or `constructor` in a pointer never reaches
 * a prototype.
 */

/** Escapes one reference token: `~` → `~0`, `/` → `~1`. */
export function escapePointerToken(token: string | number): string {
  if (typeof token === 'number') return String(token)
  return token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token
}

/** Appends reference tokens to a pointer (`''` is the whole document). */
export function joinPointer(base: string, ...tokens: (string | number)[]): string {
  let out = base
  for (const token of tokens) out += '/' + escapePointerToken(token)
  return out
}

/** The reference tokens of a pointer, unescaped; null when it is not a valid pointer. */
export function parsePointer(pointer: string): string[] | null {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) return null
  const tokens = pointer.slice(1).split('/')
  if (!pointer.includes('~')) return tokens
  for (const token of tokens) if (/~(?![01])/.test(token)) return null
  return tokens.map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/** Builds a pointer from a path of keys and indexes (as zod issues report them). */
export function pointerOf(path: readonly PropertyKey[]): string {
  return joinPointer('', ...path.map((key) => (typeof key === 'symbol' ? String(key.description) : key)))
}

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/

/** `pointer/member` when the document has that member, else `pointer`: a finding's pointer always resolves. */
export function memberPointer(document: unknown, pointer: string, member: string): string {
  const candidate = joinPointer(pointer, member)
  return hasPointer(document, candidate) ? candidate : pointer
}

/** Whether the pointer names an existing member of the document (a member holding null exists). */
export function hasPointer(document: unknown, pointer: string): boolean {
  return lookup(document, pointer).found
}

/** The value the pointer names, or undefined when there is none. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  return lookup(document, pointer).value
}

function lookup(document: unknown, pointer: string): {found: boolean; value: unknown} {
  const tokens = parsePointer(pointer)
  if (tokens === null) return {found: false, value: undefined}
  let current: unknown = document
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token)) return {found: false, value: undefined}
      const index = Number(token)
      if (index >= current.length) return {found: false, value: undefined}
      current = current[index]
    } else if (current !== null && typeof current === 'object') {
      if (!Object.prototype.hasOwnProperty.call(current, token)) return {found: false, value: undefined}
      current = (current as Record<string, unknown>)[token]
    } else {
      return {found: false, value: undefined}
    }
  }
  return {found: true, value: current}
}
