/**
 * The documentation's links lead somewhere: in the README and every page under docs/ (written or
 * generated), each relative link names a file of the repository, and each `#anchor` into a markdown
 * file names one of its headings (as GitHub makes anchors of them).
 */
import {readdir, readFile, stat} from 'node:fs/promises'
import {dirname, join, relative} from 'node:path'

import {describe, expect, it} from 'vitest'

import {ROOT} from './helpers/cli.js'

/** The link targets of a markdown text: inline links and images, outside code blocks and code spans. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!)
}

/** GitHub's anchors of a markdown text's headings: lower case, punctuation dropped, spaces as '-', repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
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

/** The links of a markdown file that lead nowhere: `target (why)`. */
export async function brokenLinks(file: string): Promise<string[]> {
  const broken: string[] = []
  for (const target of linkTargets(await readFile(file, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
    const [path, anchor] = target.split('#') as [string, string | undefined]
    const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path))
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

async function markdownFiles(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, 'docs'), {recursive: true})).filter((path) => path.endsWith('.md')).map((path) => join(ROOT, 'docs', path))
  return [join(ROOT, 'README.md'), ...docs.sort()]
}

describe('links in the documentation', () => {
  it('every relative link of README.md and docs/ names a file, and every anchor a heading', async () => {
    const broken: string[] = []
    for (const file of await markdownFiles()) for (const link of await brokenLinks(file)) broken.push(`${relative(ROOT, file)}: ${link}`)
    expect(broken).toEqual([])
  })

  it('the checker finds what is broken', async () => {
    expect(linkTargets('[a](b.md) `[c](d.md)` ![e](f.png "t")\n```\n[g](h.md)\n```\n')).toEqual(['b.md', 'f.png'])
    expect([...anchors('# The `fix` command\n## Fixing findings\n## Fixing findings\n### [Link](x.md) & more')]).toEqual(['the-fix-command', 'fixing-findings', 'fixing-findings-1', 'link--more'])
  })
})
