import {describe, expect, test} from 'vitest'

import {CONTROL_STATUSES} from '../../src/engine/compliance.js'
import {formatReport} from '../../src/report/index.js'
import {escapeMarkdown} from '../../src/util/escape.js'
import {MARKDOWN_MAX_FINDINGS} from '../../src/report/markdown.js'
import {finding, sampleInput} from './sample-input.js'

const markdown = (input = sampleInput()) => formatReport('markdown', input).text

describe('markdown report', () => {
  test('has a title, a severity table, a table per project, findings by project, errors and notices', () => {
    expect(markdown()).toBe(
      [
        '# onedev-audit report',
        '',
        'Server: https://onedev.example.com (OneDev 16.5.6) · onedev-audit 0.1.0, 2026-11-22T10:00:00.000Z',
        '',
        '✖ **Audit incomplete: 1 error** (listed below). Judged 3 projects and 10 roles: 5 new findings (1 critical, 1 high, 1 medium, 1 low, 1 info), 1 suppressed, 1 already in the baseline.',
        '',
        '## Errors',
        '',
        'Part of the server could not be audited, so what follows is not the whole answer:',
        '',
        '- /\\~api/projects/3/setting: the token may not read this setting (HTTP 403)',
        '',
        '| Severity | Findings |',
        '| --- | ---: |',
        '| critical | 1 |',
        '| high | 1 |',
        '| medium | 1 |',
        '| low | 1 |',
        '| info | 1 |',
        '',
        '## By project',
        '',
        '| Project | critical | high | medium | low | info |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        '| acme | 0 | 1 | 0 | 0 | 0 |',
        '| acme/web | 1 | 0 | 1 | 0 | 0 |',
        '| roles | 0 | 0 | 0 | 1 | 0 |',
        '| config/issue-setting.json | 0 | 0 | 0 | 0 | 1 |',
        '',
        '## Findings',
        '',
        '### acme',
        '',
        '| Severity | Rule | Subject | Message |',
        '| --- | --- | --- | --- |',
        '| **high** | job-secret/unrestricted | npm-token | Message of job-secret/unrestricted about npm-token. |',
        '',
        '### acme/web',
        '',
        '| Severity | Rule | Subject | Message |',
        '| --- | --- | --- | --- |',
        '| **critical** | branch-protection/force-push-allowed | develop | Message of branch-protection/force-push-allowed about develop. (inherited from acme) |',
        '| **medium** | tag-protection/updatable | \\*\\* | Message of tag-protection/updatable about \\*\\*. |',
        '',
        '### roles',
        '',
        '| Severity | Rule | Subject | Message |',
        '| --- | --- | --- | --- |',
        '| **low** | role/runs-any-job | Code Writer | Message of role/runs-any-job about Code Writer. |',
        '',
        '### config/issue-setting.json',
        '',
        '| Severity | Rule | Subject | Message |',
        '| --- | --- | --- | --- |',
        '| **info** | issue-setting/unknown-state | Closed | Message of issue-setting/unknown-state about Closed. |',
        '',
        '## Notices',
        '',
        '- suppression of job-secret/unrestricted for acme/ci expired on 2026-01-01',
        '',
      ].join('\n'),
    )
  })

  test('says there are no findings and has no project sections then', () => {
    const text = markdown(sampleInput({findings: [], suppressed: [], errors: [], notices: [], counts: {projects: 1, roles: 0}}))
    expect(text.split('\n').slice(0, 6)).toEqual([
      '# onedev-audit report',
      '',
      'Server: https://onedev.example.com (OneDev 16.5.6) · onedev-audit 0.1.0, 2026-11-22T10:00:00.000Z',
      '',
      '✔ **No findings** in 1 project and 0 roles.',
      '',
    ])
    expect(text).not.toContain('## By project')
    expect(text).not.toContain('## Findings')
    expect(text).not.toContain('## Errors')
  })

  test('an audit with errors never says "No findings": the verdict says it is incomplete, the errors follow at once', () => {
    const text = markdown(sampleInput({findings: [], suppressed: [], notices: [], counts: {projects: 0, roles: 0}, errorCount: 11}))
    expect(text.split('\n').slice(4, 12)).toEqual([
      '✖ **Audit incomplete: 11 errors** (listed below). Judged 0 projects and 0 roles: nothing could be judged.',
      '',
      '## Errors',
      '',
      'Part of the server could not be audited, so what follows is not the whole answer:',
      '',
      '- /\\~api/projects/3/setting: the token may not read this setting (HTTP 403)',
      '',
    ])
    expect(text).not.toMatch(/no findings|✔/i)
  })

  test('renders hostile project names, subjects and messages as text', () => {
    const hostile = finding({
      ruleId: 'tag-protection/updatable',
      severity: 'medium',
      subject: '| x |',
      pointer: '/tagProtections/0',
      message: 'See [here](javascript:alert(1)) `rm -rf` *now*\n# Heading\x1b[31m\u202e',
      project: {id: 9, path: '<img src=x onerror=alert(1)>'},
    })
    const text = markdown(sampleInput({findings: [hostile], suppressed: [], errors: [], notices: []}))
    expect(text).toContain('| &lt;img src=x onerror=alert(1)&gt; | 0 | 0 | 1 | 0 | 0 |')
    expect(text).toContain('### &lt;img src=x onerror=alert(1)&gt;\n')
    expect(text).toContain(
      '| **medium** | tag-protection/updatable | \\| x \\| | See \\[here\\](javascript:alert(1)) \\`rm -rf\\` \\*now\\*\\\\n# Heading\\\\x1b\\[31m\\\\u202e |',
    )
    expect(text).not.toContain('<img')
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/)
  })

  test(`lists at most ${MARKDOWN_MAX_FINDINGS} findings and counts the rest`, () => {
    const many = Array.from({length: MARKDOWN_MAX_FINDINGS + 3}, (_, i) =>
      finding({ruleId: 'tag-protection/updatable', severity: 'medium', subject: `t${i}`, pointer: '/tagProtections/0', project: {id: 2, path: 'acme/web'}}),
    )
    const text = markdown(sampleInput({findings: many}))
    expect(text.match(/^\| \*\*medium\*\* /gm)).toHaveLength(MARKDOWN_MAX_FINDINGS)
    expect(text).toContain('| acme/web | 0 | 0 | 503 | 0 | 0 |')
    expect(text).toContain('\n3 more findings are not listed here; the JSON and SARIF reports have them all.\n')
  })

  test('never prints raw payload values', () => {
    expect(markdown()).not.toContain('CANARY')
  })
})

describe('markdown compliance tables', () => {
  const hostile = '<img src=x onerror=alert(1)> | x |'
  const compliance = [
    {
      framework: 'cis',
      name: 'CIS Software Supply Chain Security Guide',
      label: 'CIS SSCS v1.0',
      version: '1.0',
      source: {repository: 'https://github.com/aquasecurity/chain-bench', commit: '936b65a3576ed5f1bc99bef5d9e7ec513a352de3', path: 'docs/guide.pdf'},
      counts: {pass: 1, fail: 1, exception: 1, notEvaluated: 1, manual: 1},
      controls: [
        {id: '1.1.16', title: 'Ensure force push code to branches is denied', tag: 'CIS-1.1.16', status: 'fail' as const, approximate: false, findings: 2, baselined: 3, suppressed: 1, projects: [{id: 1, path: hostile}], rules: [{id: 'branch-protection/force-push-allowed', status: 'fail' as const, findings: 2, baselined: 3, suppressed: 1}]},
        {id: '1.1.17', title: 'Ensure branch deletions are denied', tag: 'CIS-1.1.17', status: 'pass' as const, approximate: true, findings: 0, baselined: 0, suppressed: 0, projects: [], rules: [{id: 'branch-protection/deletion-allowed', status: 'pass' as const, findings: 0, baselined: 0, suppressed: 0, approximate: 'close'}]},
        {
          id: '1.1.9', title: 'Ensure all checks have passed', tag: 'CIS-1.1.9', status: 'exception' as const, approximate: false, findings: 0, baselined: 0, suppressed: 2,
          exceptions: [{rule: 'branch-protection/build-not-required', justification: `no CI here ${hostile}`, expires: '2027-03-31', findings: 2}],
          projects: [], rules: [{id: 'branch-protection/build-not-required', status: 'exception' as const, findings: 0, baselined: 0, suppressed: 2}],
        },
        {id: '1.3.5', title: 'Ensure MFA', tag: 'CIS-1.3.5', status: 'not-evaluated' as const, approximate: false, findings: 0, baselined: 0, suppressed: 0, projects: [], rules: [{id: 'server/two-factor-not-enforced', status: 'not-evaluated' as const, findings: 0, baselined: 0, suppressed: 0, notEvaluated: `the rule failed: rule x failed on project ${hostile}`}]},
        {id: '1.1.1', title: 'Ensure tracked', tag: 'CIS-1.1.1', status: 'manual' as const, approximate: false, findings: 0, baselined: 0, suppressed: 0, projects: [], rules: []},
      ],
    },
  ]

  test('a table of the controls some rule judges, the reason a control was not evaluated escaped, manual ones counted', () => {
    const text = markdown(sampleInput({compliance}))
    const section = text.slice(text.indexOf('## Compliance'), text.indexOf('## By project'))
    expect(section.split('\n')).toEqual([
      '## Compliance',
      '',
      '### CIS SSCS v1.0',
      '',
      'CIS Software Supply Chain Security Guide 1.0: 1 pass, 1 fail, 1 exception, 1 not evaluated, 1 manual.',
      '',
      '| Control | Title | Status | Findings |',
      '| --- | --- | --- | ---: |',
      '| 1.1.16 | Ensure force push code to branches is denied | ✖ fail | 2 (3 baselined, 1 suppressed) |',
      '| 1.1.17 ≈ | Ensure branch deletions are denied | ✔ pass | 0 |',
      '| 1.1.9 | Ensure all checks have passed | exception: "no CI here &lt;img src=x onerror=alert(1)&gt; \\| x \\|" (until 2027-03-31; 2 findings of branch-protection/build-not-required) | 0 (2 suppressed) |',
      '| 1.3.5 | Ensure MFA | not evaluated: the rule failed: rule x failed on project &lt;img src=x onerror=alert(1)&gt; \\| x \\| | 0 |',
      '',
      "1 more control is manual: no rule judges it from OneDev's settings. ≈: a rule evidences the control approximately.",
      '',
      'What the statuses mean:',
      '',
      ...CONTROL_STATUSES.map(({label, meaning}) => `- **${label}**: ${escapeMarkdown(meaning)}.`),
      '',
      '',
    ])
  })
})
