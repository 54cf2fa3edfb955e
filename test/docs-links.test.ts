/**
 * The documentation's links lead somewhere: in the README and every page under docs/ (written or
 * generated), each relative link names a file of the repository, and each `#anchor` into a markdown
 * file names one of its headings (as GitHub makes anchors of them).
 */
import {readdir, readFile} from 'node:fs/promises'
import {join, relative} from 'node:path'

import {describe, expect, it} from 'vitest'

import {ROOT} from './helpers/cli.js'
import {anchors, brokenLinks, linkTargets} from './helpers/markdown.js'

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
