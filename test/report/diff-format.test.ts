/** The diff formats escape every server string: a hostile project path, role name or secret name renders as text. */
import {readFile} from 'node:fs/promises'

import {describe, expect, it} from 'vitest'

import {diffModels} from '../../src/diff/diff.js'
import {formatDiff} from '../../src/report/diff-format.js'
import type {DiffReportInput} from '../../src/report/diff-input.js'
import {validateDiffJson, validateSarif} from '../helpers/sarif-validate.js'
import {model, project, role} from '../helpers/model-builders.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'

const HOSTILE = 'x<img src=x onerror=alert(1)>|\u001b[2J\n'

function input(): DiffReportInput {
  const before = model({projects: [project({id: 1, path: `acme/${HOSTILE}`, jobSecrets: [{name: HOSTILE, authorization: 'on branch "main"'}]})], roles: [role({id: 1, name: HOSTILE})]})
  const after = model({projects: [project({id: 1, path: `acme/${HOSTILE}`, jobSecrets: [{name: HOSTILE, authorization: 'on branch "**"'}]})], roles: [role({id: 1, name: HOSTILE, manageProject: true})]})
  const result = diffModels({before, after, rules: [], settings: DEFAULT_SETTINGS, suppressions: [], ruleSeverities: new Map(), today: '2026-11-23'})
  const side = {server: before.server, snapshot: `snap-${HOSTILE}.json`}
  return {tool: {name: 'onedev-audit', version: 'test'}, generatedAt: '2026-11-23T03:00:00.000Z', old: side, new: side, result, rules: [], locations: {}}
}

describe('diff formats', () => {
  it('stylish: no control character reaches the terminal', () => {
    const text = formatDiff('stylish', input()).text
    expect(text).not.toMatch(/\u001b/)
    expect(text).toContain('weakened')
    expect(text.split('\n').filter((line) => line.includes('onerror')).every((line) => !line.includes('\n'))).toBe(true)
  })

  it('markdown: no raw HTML and no table break', () => {
    const text = formatDiff('markdown', input()).text
    expect(text).not.toContain('<img')
    for (const line of text.split('\n').filter((l) => l.startsWith('| **'))) expect(line.split(/(?<!\\)\|/).length).toBe(6)
  })

  it('json and sarif validate against their schemas', () => {
    expect(validateDiffJson(JSON.parse(formatDiff('json', input()).text))).toEqual([])
    const sarif = JSON.parse(formatDiff('sarif', input()).text)
    expect(validateSarif(sarif)).toEqual([])
    expect(JSON.stringify(sarif)).not.toMatch(/\\u001b/)
  })
})

describe('the diff schema', () => {
  it('defines a finding, its references, severity and server exactly as the report schema does (one finding, two documents)', async () => {
    const load = async (name: string) => (JSON.parse(await readFile(new URL(`../../schemas/${name}`, import.meta.url), 'utf8')) as {$defs: Record<string, unknown>}).$defs
    const [diff, report] = await Promise.all([load('diff.schema.json'), load('report.schema.json')])
    for (const name of ['Finding', 'ProjectRef', 'RoleRef', 'Severity', 'Server']) expect(diff[name], name).toEqual(report[name])
  })
})
