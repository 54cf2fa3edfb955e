import {writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import type * as Sarif from 'sarif'
import {beforeAll, describe, expect, test} from 'vitest'

import type {Finding, Severity} from '../../src/types/report-types.js'
import {formatReport, lineOfPointer, MAX_SARIF_RESULTS} from '../../src/report/index.js'
import {projectFilePath} from '../../src/snapshot/layout.js'
import {multitoolErrorsByFile, validateSarif} from '../helpers/sarif-validate.js'
import {tempDir} from '../helpers/temp-dir.js'
import {finding, findings, parentRaw, rolesRaw, sampleInput} from './sample-input.js'

const sarifOf = (text: string) => JSON.parse(text) as Sarif.Log
const run = (input = sampleInput()) => sarifOf(formatReport('sarif', input).text).runs[0]!

let dir: string
beforeAll(async () => {
  dir = await tempDir('onedev-audit-sarif')
})

describe('SARIF report', () => {
  test('is valid against the official SARIF 2.1.0 schema and passes the Multitool SARIF and GitHub rules; the validators catch a broken file', async () => {
    const {text, warnings} = formatReport('sarif', sampleInput())
    // The sample audit is incomplete (a 403): GitHub would close what it could not judge.
    expect(warnings).toEqual(['this SARIF is of an incomplete audit: uploaded to GitHub code scanning, it closes the alerts of everything it could not judge as if fixed; upload complete runs only'])
    expect(formatReport('sarif', sampleInput({errors: []})).warnings).toEqual([])
    expect(validateSarif(JSON.parse(text))).toEqual([])

    // An empty run (no findings, no errors) keeps an empty results array.
    const emptyText = formatReport('sarif', sampleInput({findings: [], errors: [], notices: [], suppressed: []})).text
    const empty = sarifOf(emptyText)
    expect(empty.runs[0]!.results).toEqual([])
    expect(empty.runs[0]!.invocations![0]!.executionSuccessful).toBe(true)
    expect(validateSarif(empty)).toEqual([])

    // What GitHub would reject: a result without a location.
    const broken = sarifOf(text)
    delete broken.runs[0]!.results![0]!.locations

    const files = {sample: join(dir, 'sample.sarif'), empty: join(dir, 'empty.sarif'), broken: join(dir, 'broken.sarif')}
    await writeFile(files.sample, text)
    await writeFile(files.empty, emptyText)
    await writeFile(files.broken, JSON.stringify(broken, null, 2))
    const errors = await multitoolErrorsByFile(Object.values(files))
    expect(errors.get(files.sample)).toEqual([])
    expect(errors.get(files.empty)).toEqual([])
    const brokenErrors = errors.get(files.broken)!
    expect(brokenErrors.length).toBeGreaterThan(0)
    expect(brokenErrors.every((error) => /^GH\d{4}: /.test(error))).toBe(true)
    expect(brokenErrors[0]).toContain('runs[0].results[0]')

    broken.runs[0]!.results![1]!.level = 'severe' as Sarif.Result.level
    expect(validateSarif(broken)).toContain('/runs/0/results/1/level must be equal to one of the allowed values')
  }, 120_000)

  test('has the final 2.1.0 schema, one run and the tool', () => {
    const log = sarifOf(formatReport('sarif', sampleInput()).text)
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json')
    expect(log.version).toBe('2.1.0')
    expect(log.runs).toHaveLength(1)
    const {driver} = log.runs[0]!.tool
    expect([driver.name, driver.version, driver.semanticVersion, driver.informationUri]).toEqual([
      'onedev-audit',
      '0.1.0',
      '0.1.0',
      'https://github.com/onedev-audit/onedev-audit',
    ])
  })

  test('lists every known rule, disabled ones too, with levels and security-severity per severity', () => {
    const rules = run().tool.driver.rules!
    expect(rules.map((rule) => [rule.id, rule.name, rule.defaultConfiguration?.level, rule.defaultConfiguration?.enabled, rule.properties?.['security-severity']])).toEqual([
      ['branch-protection/force-push-allowed', 'BranchProtectionForcePushAllowed', 'error', true, '9.5'],
      ['job-secret/unrestricted', 'JobSecretUnrestricted', 'error', true, '8.0'],
      ['tag-protection/updatable', 'TagProtectionUpdatable', 'warning', true, '5.5'],
      ['role/runs-any-job', 'RoleRunsAnyJob', 'note', true, '2.0'],
      ['issue-setting/unknown-state', 'IssueSettingUnknownState', 'note', true, undefined],
      ['webhook/plain-http', 'WebhookPlainHttp', 'error', false, '8.0'],
    ])
    expect(rules[4]!.properties).toEqual({tags: ['security'], precision: 'high', 'problem.severity': 'recommendation'})
    expect(rules[0]!.properties!.tags).toEqual(['security', 'CIS-1.1.16'])
    expect(rules[0]!.shortDescription!.text).toBe('Short branch-protection/force-push-allowed')
    expect(rules[0]!.fullDescription!.text).toBe('Full description of branch-protection/force-push-allowed.')
    expect(rules[0]!.help).toEqual({
      text: '## branch-protection/force-push-allowed\n\nFix it in *Settings*.',
      markdown: '## branch-protection/force-push-allowed\n\nFix it in *Settings*.',
    })
  })

  test('uses the effective (overridden) severity for a rule and caps descriptions at 1024 characters and tags at 20', () => {
    const input = sampleInput()
    const long = {
      ...input.rules[0]!,
      severity: 'low' as Severity,
      meta: {...input.rules[0]!.meta, fullDescription: 'x'.repeat(3000), tags: Array.from({length: 30}, (_, i) => `t${i}`)},
    }
    const rule = run({...input, rules: [long, ...input.rules.slice(1)]}).tool.driver.rules![0]!
    expect(rule.defaultConfiguration?.level).toBe('note')
    expect(rule.properties?.['security-severity']).toBe('2.0')
    expect(rule.fullDescription!.text).toHaveLength(1024)
    expect(rule.properties!.tags).toHaveLength(20)
    expect(rule.properties!.tags![0]).toBe('security')
  })

  test('has one result per active finding with level, rule index, message context and fingerprints', () => {
    const {results, tool} = run()
    expect(results!.map((result) => [result.ruleId, result.level, tool.driver.rules![result.ruleIndex!]!.id === result.ruleId])).toEqual([
      ['branch-protection/force-push-allowed', 'error', true],
      ['job-secret/unrestricted', 'error', true],
      ['tag-protection/updatable', 'warning', true],
      ['role/runs-any-job', 'note', true],
      ['issue-setting/unknown-state', 'note', true],
    ])
    expect(results!.map((result) => result.message.text)).toEqual([
      'Message of branch-protection/force-push-allowed about develop. (project acme/web, inherited from acme)',
      'Message of job-secret/unrestricted about npm-token. (project acme)',
      'Message of tag-protection/updatable about **. (project acme/web)',
      'Message of role/runs-any-job about Code Writer. (role Code Writer)',
      'Message of issue-setting/unknown-state about Closed.',
    ])
    expect(results![0]!.partialFingerprints).toEqual({
      primaryLocationLineHash: 'fp-branch-protection/force-push-allowed-develop',
      'onedevAudit/v1': 'fp-branch-protection/force-push-allowed-develop',
    })
    expect(results![0]!.properties).toEqual({
      severity: 'critical',
      subject: 'develop',
      project: 'acme/web',
      pointer: '/branchProtections/1/preventForcedPush',
      'security-severity': '9.5',
    })
    expect(results!.map((result) => result.properties?.['security-severity'])).toEqual(['9.5', '8.0', '5.5', '2.0', undefined])
  })

  test('locates results in the snapshot files at the line of their pointer', () => {
    const {results} = run()
    const where = (result: Sarif.Result) => {
      const location = result.locations![0]!
      return [location.physicalLocation!.artifactLocation!.uri, location.physicalLocation!.artifactLocation!.uriBaseId, location.physicalLocation!.region!.startLine, location.logicalLocations![0]!.fullyQualifiedName]
    }
    const parentText = JSON.stringify(parentRaw, null, 2)
    expect(results!.map(where)).toEqual([
      [`onedev/${projectFilePath('acme')}`, '%SRCROOT%', lineOfPointer(parentText, '/branchProtections/1/preventForcedPush'), 'acme#/branchProtections/1/preventForcedPush'],
      [`onedev/${projectFilePath('acme')}`, '%SRCROOT%', lineOfPointer(parentText, '/buildSetting/jobSecrets/1/authorization'), 'acme#/buildSetting/jobSecrets/1/authorization'],
      [`onedev/${projectFilePath('acme/web')}`, '%SRCROOT%', 8, 'acme/web#/tagProtections/0/preventUpdate'],
      ['onedev/roles.json', '%SRCROOT%', lineOfPointer(JSON.stringify(rolesRaw, null, 2), '/1/jobPrivileges/0/runJob'), 'roles#/1/jobPrivileges/0/runJob'],
      ['config/issue-setting.json', '%SRCROOT%', 4, 'config/issue-setting.json#/stateSpecs/1/name'],
    ])
    // The line really holds the setting the finding is about.
    const line = parentText.split('\n')[(results![0]!.locations![0]!.physicalLocation!.region!.startLine ?? 0) - 1]
    expect(line).toBe('      "preventForcedPush": false,')
  })

  test('leaves suppressed and baselined findings out', () => {
    const text = formatReport('sarif', sampleInput()).text
    expect(text).not.toContain('sonar-login')
    expect(text).not.toContain('fp-tag-protection/updatable-v*')
    expect(run().results).toHaveLength(findings.length)
  })

  test('reports errors and notices as tool execution notifications and the run as unsuccessful', () => {
    const [invocation] = run().invocations!
    expect(invocation!.executionSuccessful).toBe(false)
    expect(invocation!.toolExecutionNotifications).toEqual([
      // First, where GitHub shows a run's problems: the audit is incomplete, and what it judged.
      {
        level: 'error',
        message: {text: 'Audit incomplete: 1 error (listed below). Judged 3 projects and 10 roles: 5 new findings (1 critical, 1 high, 1 medium, 1 low, 1 info), 1 suppressed, 1 already in the baseline'},
        properties: {kind: 'incomplete'},
      },
      {level: 'error', message: {text: '/~api/projects/3/setting: the token may not read this setting (HTTP 403)'}, properties: {kind: 'forbidden'}},
      {level: 'warning', message: {text: 'suppression of job-secret/unrestricted for acme/ci expired on 2026-01-01'}, properties: {kind: 'suppression-expired'}},
    ])
  })

  test('names the analysis category after the server host, the snapshot or the given category', () => {
    expect(run().automationDetails).toEqual({id: 'onedev-audit/onedev.example.com/'})
    expect(run(sampleInput({source: {kind: 'server', server: {url: 'http://OneDev.Local:6610/', apiPrefix: '/~api'}}})).automationDetails!.id).toBe(
      'onedev-audit/onedev.local:6610/',
    )
    expect(run(sampleInput({source: {kind: 'snapshot', snapshot: 'snap.json', server: null}})).automationDetails!.id).toBe('onedev-audit/snapshot/')
    expect(run(sampleInput({source: {kind: 'file', file: 'issue.json'}})).automationDetails!.id).toBe('onedev-audit/issue-setting/')
    expect(run(sampleInput({category: 'onedev-audit/prod/web/'})).automationDetails!.id).toBe('onedev-audit/prod/web/')
  })

  test('keeps the 25,000 most severe results and says how many were left out', () => {
    const many: Finding[] = Array.from({length: MAX_SARIF_RESULTS}, (_, i) =>
      finding({ruleId: 'tag-protection/updatable', severity: 'medium', subject: `t${i}`, pointer: '/tagProtections/0', project: {id: 2, path: 'acme/web'}}),
    )
    const critical = findings[0]!
    // The one critical finding comes last in the input; it must be kept and a medium one dropped.
    const {text, warnings} = formatReport('sarif', sampleInput({findings: [...many, critical], errors: [], notices: []}))
    const log = sarifOf(text)
    const {results, invocations} = log.runs[0]!
    expect(results).toHaveLength(25_000)
    expect(results!.filter((result) => result.level === 'error').map((result) => result.ruleId)).toEqual(['branch-protection/force-push-allowed'])
    expect(results!.some((result) => result.properties?.subject === 't24999')).toBe(false)
    expect(results![0]!.properties?.subject).toBe('t0')
    const message =
      'SARIF holds the 25000 most severe of 25001 findings: 1 left out, because GitHub code scanning accepts at most 25000 results per run. The JSON report has them all.'
    expect(warnings).toEqual([message])
    expect(invocations![0]!.toolExecutionNotifications).toEqual([{level: 'warning', message: {text: message}, properties: {kind: 'truncated'}}])
  })

  test('escapes control and bidi characters from server strings in messages', () => {
    const hostile = finding({
      ruleId: 'tag-protection/updatable',
      severity: 'medium',
      subject: 'v\u202e1',
      pointer: '/tagProtections/0',
      message: 'Tag \x1b[31mv\u202e1\x1b[0m can be moved.',
      project: {id: 2, path: 'acme/\nweb'},
    })
    const [result] = run(sampleInput({findings: [hostile]})).results!
    expect(result!.message.text).toBe('Tag \\x1b[31mv\\u202e1\\x1b[0m can be moved. (project acme/\\nweb)')
    expect(result!.properties).toMatchObject({subject: 'v\\u202e1', project: 'acme/\\nweb'})
  })

  test('never carries raw payload values', () => {
    expect(formatReport('sarif', sampleInput()).text).not.toContain('CANARY')
  })
})
