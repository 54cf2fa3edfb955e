/**
 * What OneDev makes of inline Markdown text, for tests of what notify writes into an issue: the text
 * it shows, and whether any of it becomes HTML, a mention, a reference or a link.
 */
import {expect} from 'vitest'

/** What OneDev shows of inline Markdown text: backslash escapes and the three entities resolved. */
export function rendered(markdown: string): string {
  return markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/&(amp|lt|gt);/g, (_, name: string) => ({amp: '&', lt: '<', gt: '>'})[name]!)
}

// OneDev's patterns (MentionParser, ReferenceUtils, CommitProcessor with ProjectPathValidator and
// ProjectKeyValidator), and what flexmark's autolink extension links (a scheme, `www.`, an e-mail address).
const PATH = '\\w([\\w\\-/.]*\\w)?'
const MENTION = /(^|\W+)@(\w[\w.-]*)(?=$|\W)/
const REFERENCE = new RegExp(`(^|\\W+)((issue|build|workspace|pr|(pull\\s+request))\\s+)?(((${PATH})?#)|([A-Z][A-Z]+-))(\\d+)(?=$|[\\W]+)`, 'i')
const COMMIT = new RegExp(`(^|\\W+)((${PATH}):)?([a-f0-9]{40})($|[^a-f0-9])`)
const AUTOLINK = /[a-z][a-z0-9+.-]*:\/\/|www\.|[\w.+-]@[a-z0-9]/i

export function expectInert(markdown: string): void {
  expect(markdown).not.toMatch(/[<>\n\r]/)
  // Every Markdown special character is escaped (preceded by an odd run of backslashes).
  for (const match of markdown.matchAll(/(\\*)([`*_[\]|~${}#])/g)) expect(match[1]!.length % 2, `unescaped ${match[2]} in ${markdown}`).toBe(1)
  const text = rendered(markdown)
  for (const pattern of [MENTION, REFERENCE, COMMIT, AUTOLINK]) expect(text, `${pattern} in ${text}`).not.toMatch(pattern)
}

