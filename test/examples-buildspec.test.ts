/**
 * Every build spec under examples/ loads and validates on the oldest OneDev the README names for it and on
 * the newest release, as OneDev's source says (test/helpers/buildspec/facts.ts: the classes' properties,
 * the required ones, the enums, the highest spec version, each with tag, file and line; migrate.ts:
 * OneDev's migrations of an older spec). OneDev validates the whole build spec before it runs any job
 * of it, the nightly schedule included: one missing required property and no job runs.
 */
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {checkBuildSpec, parseBuildSpec} from './helpers/buildspec/check.js'
import {NEWEST, OLDEST, RELEASES} from './helpers/buildspec/facts.js'
import {ROOT} from './helpers/cli.js'

const EXAMPLES = readdirSync(join(ROOT, 'examples')).filter((name) => /buildspec.*\.ya?ml$/.test(name))
const read = (name: string) => readFileSync(join(ROOT, 'examples', name), 'utf8')

/** The job secrets an example's header tells the user to create (`#   name: what it is`). */
function secretsNamed(text: string): string[] {
  const header = text.slice(0, text.search(/^[^#\s]/m))
  return [...header.matchAll(/^#\s+([\w.-]+):\s/gm)].map((match) => match[1]!)
}

/** The oldest OneDev the README says the build spec example runs on. */
function oldestNamedIn(file: string): string | undefined {
  return /examples\/onedev-buildspec\.yml[\s\S]{0,600}?runs\s+on\s+OneDev\s+(\d+\.\d+\.\d+)\s+and\s+later/.exec(readFileSync(join(ROOT, file), 'utf8'))?.[1]
}

describe('the build specs under examples/', () => {
  it('there is one at least, and the README and docs/inside-onedev.md name the oldest OneDev it runs on: the oldest release of the fact table', () => {
    expect(EXAMPLES).toContain('onedev-buildspec.yml')
    expect(oldestNamedIn('README.md')).toBe(OLDEST.tag.slice(1))
    expect(oldestNamedIn('docs/inside-onedev.md')).toBe(OLDEST.tag.slice(1))
  })

  for (const name of EXAMPLES) {
    const text = read(name)
    const secrets = secretsNamed(text)
    for (const release of RELEASES) {
      it(`${name} loads and validates on OneDev ${release.tag}`, () => {
        expect(checkBuildSpec(text, release, {secrets})).toEqual([])
      })
    }

    it(`${name}: every secret its commands use is one its header asks for`, () => {
      expect(secrets.length).toBeGreaterThan(0)
      const used = [...text.matchAll(/@secrets?:([\w.-]+)@/g)].map((match) => match[1]!)
      expect(used.filter((secret) => !secrets.includes(secret))).toEqual([])
    })
  }
})

describe('the build spec check catches what OneDev rejects', () => {
  const example = read('onedev-buildspec.yml')
  const secrets = secretsNamed(example)
  const check = (text: string, release = NEWEST) => checkBuildSpec(text, release, {secrets})
  /** The example with its first markdown report step replaced by `step`. */
  const withDrift = (step: string) => example.replace(/ {2}- !PublishMarkdownReportStep\n {4}name: drift\n(?: {4}.*\n)+/, step)

  it('a markdown report step without startPage (the example as it was: no job of it ran)', () => {
    const before = withDrift('  - !PublishMarkdownReportStep\n    name: drift\n    reportName: what changed since last night\n    filePatterns: drift.md\n    condition: ALWAYS\n')
    expect(before).not.toBe(example)
    for (const release of RELEASES) {
      expect(check(before, release)).toEqual([
        expect.stringMatching(/^jobs\[0\]\.steps\[2\] \(PublishMarkdownReportStep "drift"\): startPage is required \(@NotEmpty, v1\d\.\d\.\d server-plugin\/server-plugin-report-markdown\/src\/main\/java\/io\/onedev\/server\/plugin\/report\/markdown\/PublishMarkdownReportStep\.java:\d+\)$/),
      ])
    }
  })

  it('a property the step class does not have', () => {
    const unknown = withDrift('  - !PublishMarkdownReportStep\n    name: drift\n    reportName: drift\n    filePatterns: drift.md\n    startPage: drift.md\n    startpage: drift.md\n')
    expect(check(unknown, OLDEST)).toEqual([expect.stringMatching(/^jobs\[0\]\.steps\[2\] \(PublishMarkdownReportStep "drift"\): startpage is no property of PublishMarkdownReportStep at v11\.6\.3 .*"Malformed build spec"$/)])
  })

  it('a spec version newer than the release reads', () => {
    const newer = example.replace(/^version: \d+$/m, 'version: 39')
    expect(check(newer, OLDEST)).toEqual([expect.stringMatching(/^version: 39: OneDev v11\.6\.3 reads build specs up to version 38 .*"Can not find migrate method … migrate39"/)])
    expect(check(example.replace(/^version: \d+$/m, 'version: 54'), NEWEST)).toEqual([expect.stringMatching(/^version: 54: OneDev v16\.5\.6 reads build specs up to version 53/)])
  })

  it('a `type` key where 11.6.3 reads only YAML tags; accepted from 13.0.x on', () => {
    const typed = example.replace('  - !PublishJUnitReportStep\n', '  - type: PublishJUnitReportStep\n')
    expect(check(typed, OLDEST)).toEqual(expect.arrayContaining([expect.stringMatching(/^jobs\[0\]\.steps\[5\]\.type: OneDev v11\.6\.3 names a class only with a YAML tag/)]))
    expect(check(typed, NEWEST)).toEqual([])
  })

  it('a condition, a threshold or a cron expression the release does not know', () => {
    expect(check(example.replace('failThreshold: HIGH', 'failThreshold: SEVERE'))).toEqual([expect.stringMatching(/^jobs\[1\]\.steps\[2\]\.failThreshold: "SEVERE" is no Severity of v16\.5\.6/)])
    expect(check(example.replace('condition: ALWAYS', 'condition: SUCCESSFUL'), OLDEST)).toEqual([expect.stringMatching(/^jobs\[0\]\.steps\[2\]\.condition: "SUCCESSFUL" is no ExecuteCondition of v11\.6\.3/)])
    expect(check(example.replace(/cronExpression: .*/, 'cronExpression: 0 3 * * *'))).toEqual([expect.stringMatching(/^jobs\[0\]\.triggers\[0\]\.cronExpression: "0 3 \* \* \*" is not a Quartz cron expression/)])
  })

  it('a missing required job property, a value below its minimum, a duplicate job name', () => {
    expect(check(example.replace('- name: onedev-audit problems\n', '- name: onedev-audit\n'))).toEqual([expect.stringMatching(/^jobs: the job name "onedev-audit" is used twice/)])
    expect(check(example.replace('  maxRetries: 3\n', '  maxRetries: 0\n'))).toEqual([expect.stringMatching(/^jobs\[0\]\.maxRetries: 0 is below 1 \(@Min/)])
    expect(check(example.replace(/ {4}reportName: onedev-audit compliance\n/, ''))).toEqual([expect.stringMatching(/^jobs\[0\]\.steps\[5\] \(PublishJUnitReportStep "compliance"\): reportName is required/)])
  })

  it('a clone credential naming a job secret the example does not ask for', () => {
    expect(check(example.replace('accessTokenSecret: audit-push-token', 'accessTokenSecret: push-token'))).toEqual([expect.stringMatching(/^jobs\[0\]\.steps\[0\]\.cloneCredential\.accessTokenSecret: "push-token" is no job secret the example asks for .*"Secret not found"/)])
  })

  it('a step OneDev\'s migrations would rewrite, and this replay does not, is not judged as written', () => {
    const cache = example.replace('  - !CommandStep\n    name: audit\n', '  - !SetupCacheStep\n    name: cache\n    key: npm\n    paths: [node_modules]\n  - !CommandStep\n    name: audit\n')
    expect(check(cache, NEWEST)).toEqual([expect.stringMatching(/^v16\.5\.6: migrate47 \(v16\.5\.6 .*BuildSpec\.java\) would change the step type SetupCacheStep, which this replay does not carry out$/)])
  })

  it('a command step outside a container: no image is needed, and 16.5.6 needs the shell OneDev cannot tell here', () => {
    const shell = example.replace('    runInContainer: true\n    image: node:20\n', '    runInContainer: false\n')
    expect(check(shell, OLDEST)).toEqual([])
    expect(check(shell, NEWEST)).toEqual([expect.stringMatching(/^v16\.5\.6: migrate50 .* would change a DefaultInterpreter outside a container/)])
  })

  it('at 16.5.6 the migrated spec is judged: migrate40 renames the steps\' conditions before the 16.5.6 enum is checked', () => {
    const doc = parseBuildSpec(example)
    expect(doc.version).toBeLessThan(NEWEST.specVersion.value)
    expect(example).toMatch(/condition: ALL_PREVIOUS_STEPS_WERE_SUCCESSFUL/)
    expect(NEWEST.enums.ExecuteCondition!.values.map((known) => known.value)).not.toContain('ALL_PREVIOUS_STEPS_WERE_SUCCESSFUL')
    expect(check(example, NEWEST)).toEqual([])
  })
})
