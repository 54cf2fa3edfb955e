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
    const {text} = report({snapshotRoot: 'onedev', findings: findings.slice(0, 4)})
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

  test('names start with the folder as seen from the working directory; outside it, a warning', () => {
    expect(report({snapshotRoot: '', findings: [findings[3]!]}).text).toContain('<file name="roles.json">')
    expect(report({snapshotRoot: 'audit/onedev', findings: [findings[3]!]}).text).toContain('<file name="audit/onedev/roles.json">')
    expect(report({snapshotRoot: 'onedev', findings: [findings[3]!]}).warnings).toEqual([])
    expect(report({snapshotRoot: '../onedev', findings: [findings[3]!]}).warnings).toEqual([
      "the snapshot folder ../onedev is outside the working directory: OneDev resolves the file names of a Checkstyle report from the job's working directory, so run the scan there (or give it a folder inside it)",
    ])
  })

  test('no finding: an empty report', () => {
    expect(report({findings: []}).text).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle version="onedev-audit 0.1.0">\n</checkstyle>\n')
  })
})
