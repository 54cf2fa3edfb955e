/** notify's issues as read from GET /issues, and the marker it keeps in their descriptions (src/model/issue.ts). */
import {describe, expect, it} from 'vitest'

import {formatMarker, parseCreatedId, parseIssueList, parseMarker} from '../../src/model/issue.js'

describe('the marker', () => {
  it('round-trips a project and the server, and is an HTML comment OneDev does not render', () => {
    const digest = `sha256:${'ab'.repeat(32)}`
    expect(formatMarker({scope: {kind: 'project', id: 12}, findings: digest})).toBe(`<!-- onedev-audit:notify project=12 findings=${digest} -->`)
    expect(parseMarker(`text\n${formatMarker({scope: {kind: 'project', id: 12}, findings: digest})}\nmore`)).toEqual({scope: {kind: 'project', id: 12}, findings: digest})
    expect(parseMarker(formatMarker({scope: {kind: 'server'}, findings: 'none'}))).toEqual({scope: {kind: 'server'}, findings: 'none'})
  })

  it('is not read from something that only looks like it', () => {
    for (const text of [
      '',
      'onedev-audit:notify project=12 findings=none',
      '<!-- onedev-audit:notify project=12 findings=sha256:abc -->',
      '<!-- onedev-audit:notify project=-1 findings=none -->',
      '<!-- onedev-audit:notify project=1 findings=None -->',
      `<!-- onedev-audit:notify project=1 findings=sha256:${'AB'.repeat(32)} -->`,
    ]) {
      expect(parseMarker(text), text).toBeNull()
    }
  })
})

describe('parseIssueList', () => {
  it("reads OneDev's Issue JSON and skips what is not an issue", () => {
    const parsed = parseIssueList([
      {id: 5, number: 3, projectId: 2, title: 't', description: 'd', state: 'Open', confidential: true, numberScopeId: 2, submitterId: 1},
      {id: 6, title: null, description: null, state: 7},
      {number: 4},
      'x',
      {id: 2 ** 60},
    ])
    expect(parsed).toEqual({
      issues: [
        {id: 5, number: 3, projectId: 2, title: 't', description: 'd', state: 'Open', confidential: true, submitterId: 1},
        {id: 6, number: null, projectId: null, title: '', description: '', state: '', confidential: false, submitterId: null},
      ],
      invalid: 3,
    })
    expect(parseIssueList({issues: []})).toBeNull()
  })

  it('reads the id POST /issues answers, and nothing else', () => {
    expect(parseCreatedId('123')).toBe(123)
    expect(parseCreatedId(' 45\n')).toBe(45)
    for (const text of ['', '"12"', '12.5', '-3', '<html>', '1'.repeat(20)]) expect(parseCreatedId(text), text).toBeNull()
  })
})
