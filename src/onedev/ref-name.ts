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
import {segments} from './matchers.js'

/** Characters git refuses anywhere in a ref name besides control characters. */
const FORBIDDEN = ' ~^:?*[\\'
/**
 * Those of them that are no wildcard of OneDev's path patterns, which read `*`, `**` and `?` and
 * nothing else (theonedev/commons 96ef0eb commons-utils/src/main/java/io/onedev/commons/utils/match/PathMatcher.java:32-34,
 * src/onedev/matchers.ts): a pattern holding one can never match a branch or tag.
 */
const NEVER_MATCHED = ' ~^:[\\'

/** The first character of `text` that is a control character or one of `refused`, in words (`it holds a space`), or null. */
function refusedCharacter(text: string, refused: string): string | null {
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (code < 0x20 || code === 0x7f) return `it holds a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')})`
    if (refused.includes(char)) return char === ' ' ? 'it holds a space' : `it holds "${char}"`
  }
  return null
}

/**
 * Why git refuses a ref name or the part of one after `refs/heads/` or `refs/tags/` (the rules about
 * components, characters and sequences; a prefix of valid components adds no problem), or null.
 */
function componentsProblem(name: string): string | null {
  if (name === '') return 'it is empty'
  const character = refusedCharacter(name, FORBIDDEN)
  if (character !== null) return character
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

/**
 * Why a path pattern (a `--branch` or `--tag` value, an entry of the configuration's `branches` or
 * `tags`) can never match a branch or tag, or null when some name may match it: it is empty, or it
 * holds a character git refuses in every ref name that is no pattern wildcard: `~`, `^`, `:`, `[`, `\`
 * or DEL anywhere, a space or another control character inside a segment. OneDev's path matching
 * trims each `/` segment of the pattern as Java's String#trim does (Spring's tokenizeToStringArray:
 * theonedev/commons 96ef0eb commons-utils/src/main/java/io/onedev/commons/utils/match/PathMatcher.java:113,
 * commons-utils/src/main/java/io/onedev/commons/utils/StringUtils.java:102-103,137-138), so
 * `" main"` matches `main`, and `"hello world"` nothing. The other rules of ref names (`..`, a
 * segment beginning with `.`) are left alone: a wildcard may stand where they would apply; a pattern
 * that matches no existing name for any other reason is said in a notice (src/engine/coverage.ts).
 */
export function patternProblem(pattern: string, kind: 'branch' | 'tag'): string | null {
  const parts = segments(pattern)
  if (parts.length === 0) return 'it is empty'
  for (const part of parts) {
    const character = refusedCharacter(part, NEVER_MATCHED)
    if (character !== null) return `${character}, which git refuses in every ${kind} name`
  }
  return null
}
