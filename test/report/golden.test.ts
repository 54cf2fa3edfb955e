/**
 * Byte-for-byte reports: every format, on every fixture, compared with files written by the code
 * before the reports were streamed (commit 75f8558, when each report was built as one string).
 * Regenerate only on purpose (`npx vitest run test/report/golden.test.ts -u`), after checking the
 * difference is intended.
 */
import {createHash} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {mkdir, readFile, writeFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {beforeAll, describe, expect, test} from 'vitest'

import {formatReport, MAX_SARIF_RESULTS, REPORT_FORMATS, type ReportInput} from '../../src/report/index.js'
import type {Finding, Severity} from '../../src/types/report-types.js'
import {runCli} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp-dir.js'
import {finding, findings, sampleInput} from './sample-input.js'

const HERE = dirname(fileURLToPath(import.meta.url))
const GOLDEN = join(HERE, 'golden')
const FIXTURES = join(HERE, '..', 'fixtures')
const EXTENSION = {json: 'json', sarif: 'sarif', markdown: 'md', stylish: 'txt'} as const
/** The formats that were written as one string before: HTML never was, and is checked in a browser (html-browser.test.ts). */
const FORMATS = REPORT_FORMATS.filter((format): format is keyof typeof EXTENSION => format !== 'html')

/** The report's own time (generatedAt, SARIF endTimeUtc, markdown's source line) is the only thing that changes between runs. */
function maskRunTime(text: string): string {
  return text
    .replace(/("generatedAt": |"endTimeUtc": )"[^"]*"/g, '$1"<time>"')
    .replace(/(onedev-audit [^,\n]*, )\d{4}-\d\d-\d\dT[\d:.]+Z/g, '$1<time>')
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** A large input: markdown lists 500 of its findings, SARIF keeps the 25,000 most severe. */
function manyFindings(): ReportInput {
  const severities: Severity[] = ['medium', 'low', 'high', 'info', 'critical']
  const many: Finding[] = Array.from({length: MAX_SARIF_RESULTS + 7}, (_, i) =>
    finding({
      ruleId: i % 3 === 0 ? 'tag-protection/updatable' : 'job-secret/unrestricted',
      severity: severities[i % severities.length]!,
      subject: `s${i} "quoted" \u2028 <b>|x|</b>`,
      pointer: i % 2 === 0 ? '/tagProtections/0/preventUpdate' : '/buildSetting/jobSecrets/1/authorization',
      project: i % 4 === 0 ? {id: 2, path: 'acme/web'} : {id: 1, path: 'acme'},
      ...(i % 5 === 0 ? {source: {id: 1, path: 'acme'}} : {}),
    }),
  )
  return sampleInput({findings: [...many, ...findings]})
}

const inputs: Record<string, () => ReportInput> = {
  sample: () => sampleInput(),
  empty: () => sampleInput({findings: [], errors: [], notices: [], suppressed: []}),
  colour: () => sampleInput({color: true, category: 'custom/category/'}),
  snapshotSource: () => sampleInput({source: {kind: 'snapshot', snapshot: 'snap.json', server: null, collectedAt: '2026-11-01T00:00:00.000Z'}}),
  fileSource: () => sampleInput({source: {kind: 'file', file: 'config/issue-setting.json'}}),
}

describe('the formatters write what they wrote as one string', () => {
  for (const [name, input] of Object.entries(inputs)) {
    for (const format of FORMATS) {
      test(`${name}, ${format}`, async () => {
        const {text} = formatReport(format, input())
        await expect(text).toMatchFileSnapshot(join(GOLDEN, 'formatters', `${name}.${EXTENSION[format]}`))
      })
    }
  }

  test('25,007 findings in every format (hashes of the reports)', async () => {
    const input = manyFindings()
    const hashes = Object.fromEntries(FORMATS.map((format) => {
      const {text, warnings} = formatReport(format, input)
      return [format, {bytes: Buffer.byteLength(text), sha256: sha256(text), warnings}]
    }))
    await expect(`${JSON.stringify(hashes, null, 2)}\n`).toMatchFileSnapshot(join(GOLDEN, 'formatters', 'many.hashes.json'))
  })
})

describe('the CLI writes the same reports, to standard output and to a file', () => {
  let dir: string
  beforeAll(async () => {
    dir = await tempDir('onedev-audit-golden')
    // Both payload generations in one snapshot, with the fixtures' full settings, a child that
    // inherits, a project that could not be read, and an error.
    const current = JSON.parse(readFileSync(join(FIXTURES, 'current', 'setting-full.json'), 'utf8')) as unknown
    const legacy = JSON.parse(readFileSync(join(FIXTURES, 'legacy', 'setting-full.json'), 'utf8')) as unknown
    const roles = JSON.parse(readFileSync(join(FIXTURES, 'roles.json'), 'utf8')) as unknown
    const snapshot = {
      snapshotVersion: 1,
      tool: {name: 'onedev-audit', version: 'fixture'},
      server: {url: 'https://onedev.example.com', apiPrefix: '/~api'},
      collectedAt: '2026-11-01T00:00:00.000Z',
      projects: [
        {id: 1, path: 'current', name: 'current', parentId: null, audited: true, setting: current},
        {id: 2, path: 'current/child', name: 'child', parentId: 1, audited: true, setting: {branchProtections: [], tagProtections: [], buildSetting: {jobSecrets: []}}},
        {id: 3, path: 'legacy', name: 'legacy', parentId: null, audited: true, setting: legacy},
        {id: 4, path: 'forbidden', name: 'forbidden', parentId: null, audited: true, setting: null},
      ],
      roles,
      errors: [{kind: 'forbidden', message: 'the token may not read this setting', project: {id: 4, path: 'forbidden'}, path: '/~api/projects/4/setting', status: 403}],
    }
    await mkdir(join(dir, 'work'))
    await writeFile(join(dir, 'work', 'generations.json'), JSON.stringify(snapshot, null, 2))
  })

  const cases: Record<string, {args: string[]; cwd?: 'work'}> = {
    example: {args: ['scan', '--snapshot', 'examples/snapshot.json']},
    'example-config': {args: ['scan', '--snapshot', 'examples/snapshot.json', '--config', 'examples/onedev-audit.config.json']},
    generations: {args: ['scan', '--snapshot', 'generations.json'], cwd: 'work'},
    'issue-setting': {args: ['issue-setting', 'lint', 'examples/issue-setting.json']},
  }
  for (const [name, {args, cwd}] of Object.entries(cases)) {
    for (const format of FORMATS) {
      test(`${name}, ${format}`, async () => {
        const options = cwd ? {cwd: join(dir, cwd)} : {}
        const toStdout = await runCli([...args, '--format', format, '--fail-on', 'none'], options)
        expect(toStdout.stderr).not.toContain('Error')
        await expect(maskRunTime(toStdout.stdout)).toMatchFileSnapshot(join(GOLDEN, 'cli', `${name}.${EXTENSION[format]}`))

        const output = join(dir, `${name}.${EXTENSION[format]}`)
        const toFile = await runCli([...args, '--format', format, '--fail-on', 'none', '--output', output], options)
        expect(toFile.code).toBe(toStdout.code)
        expect(maskRunTime(await readFile(output, 'utf8'))).toBe(maskRunTime(toStdout.stdout))
      })
    }
  }
})
