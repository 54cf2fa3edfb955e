import {describe, expect, test} from 'vitest'

import {formatReport} from '../../src/report/index.js'
import {finding, sampleInput} from './sample-input.js'

const stylish = (input = sampleInput()) => formatReport('stylish', input).text

describe('stylish report', () => {
  test('groups findings by project, then roles, then the linted file, then errors, notices and the summary (no colour)', () => {
    expect(stylish(sampleInput({color: false}))).toBe(
      [
        'acme',
        '  high      npm-token  Message of job-secret/unrestricted about npm-token.  job-secret/unrestricted',
        '',
        'acme/web',
        '  critical  develop  Message of branch-protection/force-push-allowed about develop. (inherited from acme)  branch-protection/force-push-allowed',
        '  medium    **       Message of tag-protection/updatable about **.  tag-protection/updatable',
        '',
        'roles',
        '  low       Code Writer  Message of role/runs-any-job about Code Writer.  role/runs-any-job',
        '',
        'config/issue-setting.json',
        '  info      Closed  Message of issue-setting/unknown-state about Closed.  issue-setting/unknown-state',
        '',
        'error  /~api/projects/3/setting: the token may not read this setting (HTTP 403)',
        '',
        'notice  suppression of job-secret/unrestricted for acme/ci expired on 2026-01-01',
        '',
        '✖ Audit incomplete: 1 error (listed above). Judged 3 projects and 10 roles (OneDev 16.5.6): 5 new findings (1 critical, 1 high, 1 medium, 1 low, 1 info), 1 suppressed, 1 already in the baseline',
        '',
      ].join('\n'),
    )
  })

  test('colours severities, dims rule ids and underlines groups when asked', () => {
    const lines = stylish(sampleInput({color: true})).split('\n')
    expect(lines[0]).toBe('\x1b[4macme\x1b[0m')
    expect(lines[1]).toBe('  \x1b[31mhigh\x1b[0m      npm-token  Message of job-secret/unrestricted about npm-token.  \x1b[2mjob-secret/unrestricted\x1b[0m')
    expect(lines[4]).toBe(
      '  \x1b[31mcritical\x1b[0m  develop  Message of branch-protection/force-push-allowed about develop. (inherited from acme)  \x1b[2mbranch-protection/force-push-allowed\x1b[0m',
    )
    expect(lines[5]).toBe('  \x1b[33mmedium\x1b[0m    **       Message of tag-protection/updatable about **.  \x1b[2mtag-protection/updatable\x1b[0m')
    expect(lines[8]).toBe('  \x1b[36mlow\x1b[0m       Code Writer  Message of role/runs-any-job about Code Writer.  \x1b[2mrole/runs-any-job\x1b[0m')
    expect(lines[11]).toBe('  \x1b[90minfo\x1b[0m      Closed  Message of issue-setting/unknown-state about Closed.  \x1b[2missue-setting/unknown-state\x1b[0m')
    expect(lines[13]).toBe('\x1b[31merror\x1b[0m  /~api/projects/3/setting: the token may not read this setting (HTTP 403)')
    expect(lines[15]).toBe('\x1b[33mnotice\x1b[0m  suppression of job-secret/unrestricted for acme/ci expired on 2026-01-01')
    expect(lines[17]).toBe('\x1b[31m✖\x1b[0m Audit incomplete: 1 error (listed above). Judged 3 projects and 10 roles (OneDev 16.5.6): 5 new findings (1 critical, 1 high, 1 medium, 1 low, 1 info), 1 suppressed, 1 already in the baseline')
  })

  test('says there are no findings, with singular counts', () => {
    const input = sampleInput({findings: [], suppressed: [], errors: [], notices: [], counts: {projects: 1, roles: 1}})
    expect(stylish({...input, color: false})).toBe('✔ No findings in 1 project and 1 role (OneDev 16.5.6)\n')
    expect(stylish({...input, color: true})).toBe('\x1b[32m✔\x1b[0m No findings in 1 project and 1 role (OneDev 16.5.6)\n')
  })

  test('an audit with errors never wears a check mark or "No findings": it says it is incomplete first, then what it judged', () => {
    const none = sampleInput({findings: [], suppressed: [], notices: [], counts: {projects: 0, roles: 0}, errorCount: 11, color: false})
    expect(stylish(none).split('\n').at(-2)).toBe('✖ Audit incomplete: 11 errors (listed above). Judged 0 projects and 0 roles (OneDev 16.5.6): nothing could be judged')
    const some = sampleInput({findings: [], suppressed: [], notices: [], counts: {projects: 3, roles: 10, notRead: 1}, color: true})
    expect(stylish(some).split('\n').at(-2)).toBe('\x1b[31m✖\x1b[0m Audit incomplete: 1 error (listed above). Judged 3 projects (1 more could not be read) and 10 roles (OneDev 16.5.6): nothing found in what was judged')
  })

  test('names the linted file in the summary of an issue-setting lint', () => {
    const input = sampleInput({source: {kind: 'file', file: 'issue.json'}, findings: [], suppressed: [], errors: [], notices: [], color: false})
    expect(stylish(input)).toBe('✔ No findings in issue.json\n')
  })

  test('escapes ANSI, bidi and control characters in every server string', () => {
    const hostile = finding({
      ruleId: 'tag-protection/updatable',
      severity: 'medium',
      subject: 'v\u202e1',
      pointer: '/tagProtections/0',
      message: 'Tag \x1b]8;;https://evil\x07link\x1b]8;;\x07 moves.\nFAKE  ✔ No findings',
      project: {id: 9, path: 'evil\x1b[2J\x1b[Hgroup\r'},
    })
    const text = stylish(
      sampleInput({
        findings: [hostile],
        suppressed: [],
        errors: [{kind: 'http', message: 'bad \x1b[31mstatus\u2066', path: '/~api/projects/9\n/setting'}],
        notices: [{kind: 'warning', message: 'unused\u0085 suppression'}],
        color: false,
      }),
    )
    expect(text).toBe(
      [
        'evil\\x1b[2J\\x1b[Hgroup\\r',
        '  medium    v\\u202e1  Tag \\x1b]8;;https://evil\\x07link\\x1b]8;;\\x07 moves.\\nFAKE  ✔ No findings  tag-protection/updatable',
        '',
        'error  /~api/projects/9\\n/setting: bad \\x1b[31mstatus\\u2066',
        '',
        'warning  unused\\x85 suppression',
        '',
        '✖ Audit incomplete: 1 error (listed above). Judged 3 projects and 10 roles (OneDev 16.5.6): 1 finding (0 critical, 0 high, 1 medium, 0 low, 0 info)',
        '',
      ].join('\n'),
    )
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/)
  })

  test('never prints raw payload values', () => {
    expect(stylish()).not.toContain('CANARY')
  })
})
