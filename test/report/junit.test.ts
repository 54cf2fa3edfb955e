import {writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {describe, expect, test} from 'vitest'

import {textOf} from '../../src/report/chunks.js'
import {JUNIT_MAX_LISTED, junitChunks} from '../../src/report/junit.js'
import type {ComplianceFramework, Finding} from '../../src/types/report-types.js'
import {readJunitAsOneDev} from '../helpers/onedev-reports.js'
import {tempDir} from '../helpers/temp-dir.js'
import {finding, findings, sampleInput} from './sample-input.js'

const HOSTILE = `</failure><![CDATA[x]]>]]>"'&\u0000\u0007\u001b[2J\u202e\ufffe\uffff\ud800<!DOCTYPE x [<!ENTITY e "y">]>&e;`

const force = findings[0]!
const hostileFinding = finding({ruleId: 'branch-protection/force-push-allowed', severity: 'high', subject: HOSTILE, pointer: '/x', project: {id: 9, path: `acme/${HOSTILE}`}, message: `Branch ${HOSTILE} can be force-pushed.`})

const framework: ComplianceFramework = {
  framework: 'cis',
  name: 'CIS Software Supply Chain Security Guide',
  label: 'CIS SSCS v1.0',
  version: '1.0',
  source: {repository: 'https://github.com/aquasecurity/chain-bench', commit: '936b65a', path: 'docs/guide.pdf'},
  counts: {pass: 1, fail: 1, exception: 1, notEvaluated: 1, manual: 1},
  controls: [
    {id: '1.1.16', title: 'Ensure force push code to branches is denied', tag: 'CIS-1.1.16', status: 'fail', approximate: false, findings: 1, baselined: 1, suppressed: 1, projects: [{id: 2, path: 'acme/web'}, {id: 9, path: `acme/${HOSTILE}`}], rules: [{id: 'branch-protection/force-push-allowed', status: 'fail', findings: 1, baselined: 1, suppressed: 1}]},
    {id: '1.1.17', title: 'Ensure branch deletions are denied', tag: 'CIS-1.1.17', status: 'pass', approximate: false, findings: 0, baselined: 0, suppressed: 0, projects: [], rules: [{id: 'branch-protection/deletion-allowed', status: 'pass', findings: 0, baselined: 0, suppressed: 0}]},
    {id: '1.2.1', title: 'Ensure secrets are scoped', tag: 'CIS-1.2.1', status: 'exception', approximate: false, findings: 0, baselined: 0, suppressed: 2, exceptions: [{rule: 'job-secret/unrestricted', justification: 'internal network, OPS-142', expires: '2027-03-31', findings: 2}], projects: [], rules: [{id: 'job-secret/unrestricted', status: 'exception', findings: 0, baselined: 0, suppressed: 2}]},
    {id: '1.3.5', title: 'Ensure MFA', tag: 'CIS-1.3.5', status: 'not-evaluated', approximate: false, findings: 0, baselined: 0, suppressed: 0, projects: [], rules: [{id: 'server/two-factor-not-enforced', status: 'not-evaluated', findings: 0, baselined: 0, suppressed: 0, notEvaluated: `GET /settings/security answered 403 for ${HOSTILE}`}]},
    {id: '1.1.1', title: 'Ensure tracked', tag: 'CIS-1.1.1', status: 'manual', approximate: false, findings: 0, baselined: 0, suppressed: 0, projects: [], rules: []},
  ],
}

async function asOneDev(text: string) {
  const file = join(await tempDir('oda-junit'), 'report.xml')
  await writeFile(file, text)
  return readJunitAsOneDev(file)
}

describe('scan --format junit', () => {
  const input = sampleInput({
    findings: [...findings, hostileFinding],
    compliance: [framework],
    complianceDetail: {failing: new Map([['CIS-1.1.16', [force, hostileFinding]]]), excused: new Map(), notJudged: new Map([['tag-protection/updatable', 'GET /projects/{id}/tags was not offered']])},
    errors: [{kind: 'forbidden', message: `refused ${HOSTILE}`, path: '/~api/roles', status: 403}],
  })
  const text = textOf(junitChunks(input).chunks)

  test('OneDev reads a suite per framework, the rules and the audit, with counts that match their cases, whatever the server sent', async () => {
    const report = await asOneDev(text)
    expect(report.root).toBe('testsuites')
    expect(report.suites.map((suite) => suite.name)).toEqual(['CIS SSCS v1.0', 'rules', 'audit'])
    for (const suite of report.suites) {
      expect(suite.tests).toBe(suite.cases.length)
      expect(suite.failures + suite.errors).toBe(suite.cases.filter((c) => c.status === 'NOT_PASSED').length)
      expect(suite.skipped).toBe(suite.cases.filter((c) => c.status === 'NOT_RUN').length)
      expect(new Set(suite.cases.map((c) => c.name)).size).toBe(suite.cases.length)
    }
    const [cis, rules, audit] = report.suites
    expect(cis!.status).toBe('NOT_PASSED')
    expect(cis!.cases.map((c) => [c.name, c.status])).toEqual([
      ['1.1.16 Ensure force push code to branches is denied', 'NOT_PASSED'],
      ['1.1.17 Ensure branch deletions are denied', 'PASSED'],
      ['1.2.1 Ensure secrets are scoped', 'NOT_RUN'],
      ['1.3.5 Ensure MFA', 'NOT_RUN'],
      ['1.1.1 Ensure tracked', 'NOT_RUN'],
    ])
    // The failure lists the findings that fail it, by project, control characters shown as escapes.
    const failure = cis!.cases[0]!.text!
    expect(failure.split('\n').slice(0, 2)).toEqual(['fails: 2 findings in 2 projects (1 of them in the baseline: known, not accepted), of branch-protection/force-push-allowed (1 more accepted by suppressions):', ''])
    expect(failure.split('\n')).toContain('acme/web')
    expect(failure).toContain(`  critical  ${force.message} (inherited from acme)  [branch-protection/force-push-allowed]`)
    expect(failure).toContain('acme/</failure><![CDATA[x]]>]]>"\'&\\x00\\x07\\x1b[2J\\u202e\\ufffe\\uffff\\ud800<!DOCTYPE x [<!ENTITY e "y">]>&e;')
    expect(failure).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e\ufffe\uffff]/)
    expect(cis!.cases[2]!.text).toBe('exception: no finding fails it; 2 findings of its rules accepted by suppressions: job-secret/unrestricted: internal network, OPS-142 (until 2027-03-31), 2 findings')
    expect(cis!.cases[3]!.text).toMatch(/^not evaluated: server\/two-factor-not-enforced: GET \/settings\/security answered 403 for <\/failure>/)
    expect(cis!.cases[4]!.text).toBe("manual: no rule judges it from OneDev's settings; judge it by hand")

    // One case per enabled rule (the disabled webhook/plain-http has none).
    expect(rules!.cases.map((c) => [c.name, c.status])).toEqual([
      ['branch-protection/force-push-allowed', 'NOT_PASSED'],
      ['job-secret/unrestricted', 'NOT_PASSED'],
      ['tag-protection/updatable', 'NOT_PASSED'],
      ['role/runs-any-job', 'NOT_PASSED'],
      ['issue-setting/unknown-state', 'NOT_PASSED'],
    ])
    expect(rules!.cases[0]!.text!.split('\n')[0]).toBe('2 findings (1 critical, 1 high):')
    expect(audit!.cases).toEqual([{name: 'complete', status: 'NOT_PASSED', error: true, text: expect.stringContaining('incomplete: 1 error')}])
    expect(audit!.errors).toBe(1)
  })

  test('a rule without findings passes, or is skipped when it could not be judged or its findings are all accepted; one with a finding in the baseline fails', async () => {
    const quiet = sampleInput({findings: [findings[3]!], errors: [], complianceDetail: {failing: new Map(), excused: new Map(), notJudged: new Map([['branch-protection/force-push-allowed', 'GET /repositories/{id}/default-branch was not offered']])}})
    const report = await asOneDev(textOf(junitChunks(quiet).chunks))
    const rules = report.suites.find((suite) => suite.name === 'rules')!
    expect(rules.cases.map((c) => [c.name, c.status, c.text])).toEqual([
      ['branch-protection/force-push-allowed', 'NOT_RUN', 'not evaluated: GET /repositories/{id}/default-branch was not offered'],
      ['job-secret/unrestricted', 'NOT_RUN', 'exception: no finding fails it; 1 finding of the rule accepted by suppressions: job-secret/unrestricted: sonar token is read-only (until 2027-01-01), 1 finding'],
      // In the baseline: known, not accepted.
      ['tag-protection/updatable', 'NOT_PASSED', expect.stringMatching(/^1 finding \(1 medium\):\n\nacme\n/)],
      ['role/runs-any-job', 'NOT_PASSED', expect.stringContaining('Code Writer')],
      ['issue-setting/unknown-state', 'PASSED', null],
    ])
    expect(report.suites.find((suite) => suite.name === 'audit')!.cases[0]!.status).toBe('PASSED')
  })

  test(`a case lists the first ${JUNIT_MAX_LISTED} findings and counts the rest`, () => {
    const many: Finding[] = Array.from({length: JUNIT_MAX_LISTED + 5}, (_, i) =>
      finding({ruleId: 'tag-protection/updatable', severity: 'medium', subject: `v${i}`, pointer: '/tagProtections/0', project: {id: 100 + i, path: `g/p${String(i).padStart(5, '0')}`}}),
    )
    const lines = textOf(junitChunks(sampleInput({findings: many, suppressed: []})).chunks)
    const failure = lines.slice(lines.indexOf('<testcase name="tag-protection/updatable"'))
    expect(failure.match(/^ {2}medium {4}/gm)).toHaveLength(JUNIT_MAX_LISTED)
    expect(failure).toContain('… 5 more findings in 5 more groups (projects, roles, server): the JSON report lists them all.')
  })
})
