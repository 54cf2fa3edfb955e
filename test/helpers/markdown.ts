/**
 * Reading markdown as GitHub shows it: the links of a text, the anchors of its headings, the links
 * of a file that lead nowhere, and its fenced code blocks.
 */
import {readFile, stat} from 'node:fs/promises'
import {dirname, join, relative} from 'node:path'

import {ROOT} from './cli.js'

/** Fenced code blocks (``` or ~~~), which hold no link or heading. */
const FENCED = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm

/** The link targets of a markdown text: inline links and images, outside code blocks and code spans. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(FENCED, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!)
}

/** GitHub's anchors of a markdown text's headings: lower case, punctuation dropped, spaces as '-', repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  const prose = markdown.replace(FENCED, '')
  for (const [, text] of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = text!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    found.add(count === 0 ? base : `${base}-${count}`)
  }
  return found
}

/**
 * The repository's file a link names: a relative one from `file`, or an absolute one to the repository's
 * own address (`repository`: `https://github.com/OWNER/NAME`, its `/blob/main/` and raw files); undefined
 * for any other address.
 */
function linkedFile(file: string, path: string, repository: string | undefined): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(path)) return path === '' ? file : join(dirname(file), decodeURIComponent(path))
  if (repository === undefined) return undefined
  const {host, pathname} = new URL(repository)
  const owned = [`https://${host}${pathname}/blob/main/`, `https://raw.githubusercontent.com${pathname}/main/`].find((base) => path.startsWith(base))
  return owned === undefined ? undefined : join(ROOT, decodeURIComponent(path.slice(owned.length)))
}

/**
 * The links of a markdown file that lead nowhere: `target (why)`. Relative links, and with `repository`
 * the absolute links into it, must name a file of the repository, and their anchors one of its headings.
 */
export async function brokenLinks(file: string, repository?: string): Promise<string[]> {
  const broken: string[] = []
  for (const target of linkTargets(await readFile(file, 'utf8'))) {
    const [path, anchor] = target.split('#') as [string, string | undefined]
    const resolved = linkedFile(file, path, repository)
    if (resolved === undefined) continue
    if (!(await stat(resolved).catch(() => null))) {
      broken.push(`${target} (no file ${relative(ROOT, resolved)})`)
      continue
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !anchors(await readFile(resolved, 'utf8')).has(anchor)) {
      broken.push(`${target} (no heading #${anchor} in ${relative(ROOT, resolved)})`)
    }
  }
  return broken
}

/** The lines of each fenced block of a language (`sh`), block by block. */
export function codeBlocks(markdown: string, language: string): string[][] {
  return [...markdown.matchAll(/^```([\w-]*)[^\n]*\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === language).map((m) => m[2]!.split('\n').filter((line) => line.trim() !== ''))
}
