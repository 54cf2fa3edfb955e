/**
 * Which names git accepts for a branch or a tag: the rules of git-check-ref-format(1), applied to
 * `refs/heads/<name>` and `refs/tags/<name>`. A name git refuses can never exist on a server, so a
 * branch the audit makes up (a route through a new branch, a name that stands for a configured one)
 * must pass them: `**` in a protection matches `/src/x`, but nobody can push a branch of that name.
 *
 * The rules, one per reason returned:
 * - no component (between `/`) is empty: no leading or trailing `/`, no `//`;
 * - no component begins with `.` or ends with `.lock`;
 * - no `..`, no `@{`, and the name does not end with `.`;
 * - no ASCII control character (below U+0020, or U+007F), space, `~`, `^`, `:`, `?`, `*`, `[` or `\`.
 * (`git branch` also refuses a name beginning with `-`, but git accepts `refs/heads/-x` from a push.)
 *
 * Pure: the reasons are plain text, not escaped.
 */

/** Characters git refuses anywhere in a ref name besides control characters. */
const FORBIDDEN = ' ~^:?*[\\'

/**
 * Why git refuses a ref name or the part of one after `refs/heads/` or `refs/tags/` (the rules about
 * components, characters and sequences; a prefix of valid components adds no problem), or null.
 */
function componentsProblem(name: string): string | null {
  if (name === '') return 'it is empty'
  for (const char of name) {
    const code = char.codePointAt(0)!
    if (code < 0x20 || code === 0x7f) return `it holds a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')})`
    if (FORBIDDEN.includes(char)) return char === ' ' ? 'it holds a space' : `it holds "${char}"`
  }
  if (name.startsWith('/')) return 'it begins with "/"'
  if (name.endsWith('/')) return 'it ends with "/"'
  if (name.includes('//')) return 'it holds "//"'
  if (name.includes('..')) return 'it holds ".."'
  if (name.includes('@{')) return 'it holds "@{"'
  if (name.endsWith('.')) return 'it ends with "."'
  for (const component of name.split('/')) {
    if (component.startsWith('.')) return `its part "${component}" begins with "."`
    if (component.endsWith('.lock')) return `its part "${component}" ends with ".lock"`
  }
  return null
}

/** Why git refuses the full ref name (`refs/heads/main`), or null when it accepts it. */
export function refNameProblem(ref: string): string | null {
  return ref === '@' ? 'it is "@"' : componentsProblem(ref)
}

/** Why git refuses `name` as a branch or tag name (the ref `refs/heads/<name>`, `refs/tags/<name>`), or null when it accepts it. */
export const gitNameProblem = componentsProblem

/** Whether git accepts `name` as a branch or tag name. */
export const gitAcceptsName = (name: string): boolean => componentsProblem(name) === null
