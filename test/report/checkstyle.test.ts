import {describe, expect, test} from 'vitest'

import {checkstyleChunks} from '../../src/report/checkstyle.js'
import {textOf} from '../../src/report/chunks.js'
import {finding, findings, locations, sampleInput} from './sample-input.js'

const report = (overrides: Parameters<typeof sampleInput>[0]) => {
  const {chunks, warnings} = checkstyleChunks(sampleInput(overrides))
  return {text: textOf(chunks), warnings}
}

describe('checkstyle', () => {
  const serverFinding = finding({ruleId: 'server/open-sign-up', severity: 'high', subject: 'sign-up', pointer: '/security/enableSelfRegister', document: 'server'})

  test('each severity as OneDev reads it: critical and high errors, medium warnings, low and info info', () => {
    const {text} = report({snapshotRoot: 'onedev', findings: findings.slice(0, 4), errors: []})
    expect([...text.matchAll(/severity="(\w+)"[^>]*source="([^"]+)"/g)].map((m) => [m[2], m[1]])).toEqual([
      ['branch-protection/force-push-allowed', 'error'],
      ['job-secret/unrestricted', 'error'],
      ['tag-protection/updatable', 'warning'],
      ['role/runs-any-job', 'info'],
    ])
  })

  test('a finding in the server data goes to server.json, or to the index when the folder has none: never dropped', () => {
    const withServer = report({snapshotRoot: 'onedev', findings: [serverFinding], locations: {...locations, serverData: {security: {enableSelfRegister: true}}}})
    expect(withServer.text).toContain('<file name="onedev/server.json">\n    <error line="3" column="5" severity="error"')
    const without = report({snapshotRoot: 'onedev', findings: [serverFinding]})
    expect(without.text).toContain('<file name="onedev/snapshot.json">\n    <error line="1" column="1" severity="error"')
  })

  test('an incomplete audit says so first, as an error on line 1 of the index: fewer problems never stand for an audit that could not judge everything', () => {
    const errors = [{kind: 'forbidden' as const, message: '403', project: {id: 2, path: 'acme/app'}, path: '/~api/projects/2/setting', status: 403}]
    const {text} = report({snapshotRoot: 'onedev', findings: [findings[3]!], errors})
    const lines = text.split('\n')
    const at = lines.indexOf('  <file name="onedev/snapshot.json">')
    expect(at).toBeGreaterThan(0)
    expect(lines[at + 1]).toBe('    <error line="1" column="1" severity="error" message="Audit incomplete: 1 error: Judged 3 projects and 10 roles: 1 new finding (0 critical, 0 high, 0 medium, 1 low, 0 info). What it could not judge is not among these problems (the errors are in the scan&apos;s output)" source="onedev-audit/audit-incomplete"/>')
    expect(text.match(/audit-incomplete/g)).toHaveLength(1)
    // A complete audit has no such problem.
    expect(report({snapshotRoot: 'onedev', findings: [findings[3]!], errors: []}).text).not.toContain('audit-incomplete')
  })

  test('names start with the folder as seen from the working directory; outside it, a warning', () => {
    expect(report({snapshotRoot: '', findings: [findings[3]!]}).text).toContain('<file name="roles.json">')
    expect(report({snapshotRoot: 'audit/onedev', findings: [findings[3]!]}).text).toContain('<file name="audit/onedev/roles.json">')
    expect(report({snapshotRoot: 'onedev', findings: [findings[3]!]}).warnings).toEqual([])
    expect(report({snapshotRoot: '../onedev', findings: [findings[3]!]}).warnings).toEqual([
      "the snapshot folder ../onedev is outside the working directory: OneDev resolves the file names of a Checkstyle report from the job's working directory, so run the scan there (or give it a folder inside it)",
    ])
  })

  test('no finding: an empty report, unless the audit is incomplete', () => {
    expect(report({findings: [], errors: []}).text).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle version="onedev-audit 0.1.0">\n</checkstyle>\n')
    expect(report({findings: []}).text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle version="onedev-audit 0.1.0">\n  <file name="onedev/snapshot.json">\n' +
        '    <error line="1" column="1" severity="error" message="Audit incomplete: 1 error: Judged 3 projects and 10 roles: nothing found in what was judged. What it could not judge is not among these problems (the errors are in the scan&apos;s output)" source="onedev-audit/audit-incomplete"/>\n' +
        '  </file>\n</checkstyle>\n',
    )
  })
})
