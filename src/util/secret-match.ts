/**
 * Finding a known secret in text someone else wrote (a server's error answer), where the writer may
 * have broken it: a line break, a wrapped line's indentation or a run of spaces inserted between any
 * two of its characters (issue 33: a secret quoted across a line break was shown all but whole,
 * since only the unbroken secret was looked for). Whitespace counts for nothing on either side: the
 * secret's own (a multi-line key) and the text's.
 *
 * The one place this matching is written: the judgement of server text (src/model/server-text.ts),
 * the masking of known secrets in messages (src/model/redact.ts redactText) and the API client's
 * masking of its own token use it. Pure; no regular expression is built from anything but the
 * secret itself, each of its characters escaped.
 */

const WHITESPACE = /\s+/gu
/** What a regular expression reads as syntax; every other character stands for itself (with the `u` flag, only these may be escaped). */
const SYNTAX = /[\^$\\.*+?()[\]{}|/]/gu

/** The text without any whitespace. */
function withoutWhitespace(text: string): string {
  return text.replace(WHITESPACE, '')
}

/**
 * Whether any of `texts` holds any of `secrets` with whitespace inserted anywhere in it (give texts
 * and secrets already folded alike; an all-whitespace secret is never found). Each text is stripped once.
 */
export function holdsAnySecret(texts: readonly string[], secrets: readonly string[]): boolean {
  const bare = secrets.map(withoutWhitespace).filter((secret) => secret !== '')
  if (bare.length === 0) return false
  return texts.some((text) => {
    const flat = withoutWhitespace(text)
    return bare.some((secret) => flat.includes(secret))
  })
}

/** A pattern that finds `secret` also when runs of whitespace were inserted between its characters; null for an all-whitespace secret. */
function brokenSecretPattern(secret: string): RegExp | null {
  const characters = [...withoutWhitespace(secret)]
  if (characters.length === 0) return null
  // Each character is literal and never whitespace, so `\s*` and the character after it never compete: matching is linear.
  return new RegExp(characters.map((character) => character.replace(SYNTAX, '\\$&')).join('\\s*'), 'gu')
}

/** `text` with every occurrence of each secret replaced by `mask`, also where whitespace breaks it; the longest secrets first. */
export function maskSecrets(text: string, secrets: Iterable<string>, mask: string): string {
  let out = text
  for (const secret of [...new Set(secrets)].sort((a, b) => b.length - a.length)) {
    const pattern = brokenSecretPattern(secret)
    if (pattern !== null) out = out.replace(pattern, () => mask)
  }
  return out
}
