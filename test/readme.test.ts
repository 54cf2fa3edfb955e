/**
 * The README is a newcomer's page: at most 400 lines, Install near the top, a table of contents that
 * names every section, and links that work wherever the page is shown (on a registry, in an installed
 * package): each one is an anchor of the page, a file the package ships, or an address, and the
 * addresses into the repository name files and headings that exist. Every command of its `sh` blocks
 * that needs no server (a snapshot, or nothing at all) runs, in a folder of its own, with the exit code
 * the page implies.
 */
import {copyFile, mkdir, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {beforeAll, describe, expect, it} from 'vitest'

import {BIN, ROOT, runProcess} from './helpers/cli.js'
import {anchors, brokenLinks, codeBlocks, linkTargets} from './helpers/markdown.js'
import {tempDir} from './helpers/temp-dir.js'

const README = join(ROOT, 'README.md')
let text: string
let pkg: {homepage: string; files: string[]}

beforeAll(async () => {
  text = await readFile(README, 'utf8')
  pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'))
})

describe('README.md', () => {
  it('is at most 400 lines, with Install among the first sections and a contents list naming every section', () => {
    const lines = text.split('\n')
    expect(lines.length).toBeLessThanOrEqual(400)
    const sections = lines.filter((line) => line.startsWith('## ')).map((line) => line.slice(3))
    expect(sections.slice(0, 2)).toEqual(['Contents', 'Install'])
    expect(lines.findIndex((line) => line === '## Install')).toBeLessThan(60)
    const contents = text.slice(text.indexOf('## Contents'), text.indexOf('## Install'))
    const listed = linkTargets(contents)
    for (const section of sections.filter((name) => name !== 'Contents')) expect(listed, section).toContain(`#${[...anchors(`## ${section}`)][0]}`)
  })

  it('links only to its own headings, to files the package ships, and to addresses; those into the repository exist', async () => {
    const shipped = new Set([...pkg.files.map((pattern) => pattern.split('/')[0]!), 'LICENSE', 'README.md', 'package.json'])
    const own = anchors(text)
    const problems: string[] = []
    for (const target of linkTargets(text)) {
      if (/^https?:\/\//.test(target)) continue
      if (target.startsWith('#')) {
        if (!own.has(target.slice(1))) problems.push(`${target}: no such heading`)
      } else if (!shipped.has(target.split(/[/#]/)[0]!)) {
        problems.push(`${target}: not in the package (an installed package or a registry page has no such file; link to the repository's address)`)
      }
    }
    const repository = pkg.homepage.replace(/#.*$/, '')
    expect([...problems, ...(await brokenLinks(README, repository))]).toEqual([])
    // The repository's pages are linked by their address, as package.json names it.
    expect(linkTargets(text).filter((target) => target.includes('/docs/')).every((target) => target.startsWith(`${repository}/blob/main/docs/`) || target.startsWith('https://raw.githubusercontent.com/onedev-audit/onedev-audit/main/docs/'))).toBe(true)
  })
})

/**
 * The commands that need no server, with the exit code each has on the example snapshot: 1 where it
 * finds something at or above --fail-on (or a plan with changes, a failing control), else 0. A command
 * added to the README that needs no server must be added here.
 */
const EXPECTED: Record<string, number> = {
  'onedev-audit --version': 0,
  'onedev-audit scan --snapshot examples/snapshot.json': 1,
  'onedev-audit scan --snapshot examples/snapshot.json --format html --output report.html': 1,
  'onedev-audit rules': 0,
  'onedev-audit rules show job-secret/broad-branches': 0,
  'onedev-audit scan --snapshot examples/snapshot.json --update-baseline onedev-audit.baseline.json': 0,
  'onedev-audit scan --snapshot examples/snapshot.json --baseline onedev-audit.baseline.json': 0,
  'onedev-audit fix --snapshot examples/snapshot.json --output plan.json': 1,
  'onedev-audit scan --snapshot examples/snapshot.json --framework osps --fail-on none --fail-on-control': 1,
  'onedev-audit access --snapshot examples/snapshot.json --project 2 --principal core-devs': 0,
  'onedev-audit issue-setting lint examples/issue-setting.json': 0,
}

/** A README command that needs no server: it reads a snapshot, or asks the tool about itself or a file of the examples. */
const NEEDS_NO_SERVER = /^onedev-audit (.* )?--snapshot |^onedev-audit (--version|--help|rules\b|issue-setting lint examples\/)/

describe("the README's commands that need no server", () => {
  it('run in a folder of their own, in order, each with its exit code', async () => {
    const commands = codeBlocks(text, 'sh')
      .flat()
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((command) => NEEDS_NO_SERVER.test(command))
    expect(commands.slice().sort()).toEqual(Object.keys(EXPECTED).sort())

    const dir = await tempDir('oda-readme')
    await mkdir(join(dir, 'examples'))
    await mkdir(join(dir, 'bin'))
    for (const file of ['snapshot.json', 'issue-setting.json']) await copyFile(join(ROOT, 'examples', file), join(dir, 'examples', file))
    await writeFile(join(dir, 'bin', 'onedev-audit'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`, {mode: 0o755})
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ONEDEV_')))
    const ran: Record<string, number> = {}
    for (const command of commands) {
      const result = await runProcess('sh', ['-c', command], {cwd: dir, env: {...env, NO_COLOR: '1', PATH: `${join(dir, 'bin')}:${process.env.PATH}`}})
      ran[command] = result.code
      if (result.code !== EXPECTED[command]) expect(result.stderr, command).toBe('')
    }
    expect(ran).toEqual(EXPECTED)
  })
})
