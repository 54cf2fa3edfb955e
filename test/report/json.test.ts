import {describe, expect, test} from 'vitest'

import {buildJsonReport, formatReport} from '../../src/report/index.js'
import type {AuditReport} from '../../src/types/report-types.js'
import {validateReportJson} from '../helpers/sarif-validate.js'
import {findings, sampleInput} from './sample-input.js'

describe('JSON report', () => {
  test('validates against schemas/report.schema.json and has exact summary counts', () => {
    const {text, warnings} = formatReport('json', sampleInput())
    expect(warnings).toEqual([])
    expect(text.endsWith('}\n')).toBe(true)
    const report = JSON.parse(text) as AuditReport
    expect(validateReportJson(report)).toEqual([])
    expect(report.$schema).toBe('https://onedev-audit.dev/schemas/report.schema.json')
    expect(report.complete).toBe(false)
    // The summary says first that the audit is incomplete: its counts are of what was judged.
    expect(report.summary).toEqual({
      complete: false,
      verdict: 'Audit incomplete: 1 error. Judged 3 projects and 10 roles: 5 new findings (1 critical, 1 high, 1 medium, 1 low, 1 info), 1 suppressed, 1 already in the baseline',
      projects: 3,
      notRead: 0,
      roles: 10,
      rules: 5,
      findings: 5,
      bySeverity: {critical: 1, high: 1, medium: 1, low: 1, info: 1},
      suppressed: 2,
      uninitialized: 0,
      errors: 1,
    })
  })

  test('keeps active findings in order, and suppressed and baselined findings with their reason', () => {
    const report = buildJsonReport(sampleInput())
    expect(report.findings).toEqual(findings)
    expect(report.suppressed.map((entry) => [entry.finding.subject, entry.reason])).toEqual([
      ['sonar-login', {kind: 'suppression', justification: 'sonar token is read-only', expires: '2027-01-01'}],
      ['v*', {kind: 'baseline'}],
    ])
  })

  test('is complete without errors, counts only enabled rules, and validates when empty', () => {
    const input = sampleInput({findings: [], suppressed: [], errors: [], notices: [], source: {kind: 'snapshot', snapshot: 'snap/', server: null}})
    const report = buildJsonReport(input)
    expect(validateReportJson(report)).toEqual([])
    expect(report.complete).toBe(true)
    expect(report.summary).toEqual({
      complete: true,
      verdict: 'No findings in 3 projects and 10 roles',
      projects: 3,
      notRead: 0,
      roles: 10,
      rules: 5,
      findings: 0,
      bySeverity: {critical: 0, high: 0, medium: 0, low: 0, info: 0},
      suppressed: 0,
      uninitialized: 0,
      errors: 0,
    })
  })

  test('an audit with errors and no findings: the summary never reads as all clear', () => {
    const report = buildJsonReport(sampleInput({findings: [], suppressed: [], notices: [], counts: {projects: 2, roles: 0, notRead: 1}}))
    expect(validateReportJson(report)).toEqual([])
    expect(report.summary).toMatchObject({complete: false, findings: 0, projects: 2, notRead: 1, errors: 1})
    expect(report.summary.verdict).toBe('Audit incomplete: 1 error. Judged 2 projects (1 more could not be read) and 0 roles: nothing found in what was judged')
  })

  test('writes keys in one stable order and drops members the schema does not know', () => {
    const sloppy = {
      fingerprint: 'f',
      pointer: '/x',
      subject: 's',
      extra: 'not in the schema',
      role: null,
      project: {path: 'p', id: 1, more: true},
      message: 'm',
      severity: 'low',
      ruleId: 'r',
    } as unknown as AuditReport['findings'][number]
    const report = buildJsonReport(
      sampleInput({findings: [sloppy], source: {collectedAt: '2026-11-21', kind: 'server', server: {apiPrefix: '/~api', url: 'https://h'}}}),
    )
    expect(validateReportJson(report)).toEqual([])
    expect(Object.keys(report)).toEqual(['$schema', 'reportVersion', 'tool', 'generatedAt', 'server', 'collectedAt', 'complete', 'findings', 'suppressed', 'errors', 'notices', 'uninitializedProjects', 'summary'])
    expect(Object.keys(report.findings[0]!)).toEqual(['ruleId', 'severity', 'message', 'project', 'role', 'subject', 'pointer', 'fingerprint'])
    expect(report.findings[0]!.project).toEqual({id: 1, path: 'p'})
    // A source without a version: the report says it is unknown (null).
    expect(report.server).toEqual({url: 'https://h', apiPrefix: '/~api', version: null})
    expect(Object.keys(buildJsonReport(sampleInput()).findings[0]!)).toEqual([
      'ruleId', 'severity', 'message', 'project', 'role', 'subject', 'pointer', 'source', 'fingerprint',
    ])
  })

  test('the schema validator rejects a report that breaks the contract', () => {
    const report = buildJsonReport(sampleInput()) as unknown as Record<string, unknown>
    expect(validateReportJson({...report, complete: 'yes'})).toEqual(['/complete must be boolean'])
  })

  test('never carries raw payload values', () => {
    expect(formatReport('json', sampleInput()).text).not.toContain('CANARY')
  })
})

describe('server URL in reports', () => {
  test('loses user info, query and fragment, and is kept as given otherwise', () => {
    const withCredentials = sampleInput({source: {kind: 'server', server: {url: 'https://bob:s3cret@onedev.example.com/od?token=abc#x', apiPrefix: '/~api'}}})
    expect(buildJsonReport(withCredentials).server).toEqual({url: 'https://onedev.example.com/od', apiPrefix: '/~api', version: null})
    const markdownText = formatReport('markdown', withCredentials).text
    expect(markdownText).toContain('Server: https://onedev.example.com/od (OneDev version unknown) ·')
    for (const text of [markdownText, formatReport('json', withCredentials).text, formatReport('sarif', withCredentials).text, formatReport('stylish', withCredentials).text]) {
      expect(text).not.toContain('s3cret')
      expect(text).not.toContain('abc')
    }
    expect(buildJsonReport(sampleInput()).server!.url).toBe('https://onedev.example.com')
  })
})
