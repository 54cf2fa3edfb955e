import {writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {ROOT, runCli} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp-dir.js'

const CORE_RULES = [
  'branch-protection/unprotected-branch',
  'branch-protection/force-push-allowed',
  'branch-protection/signature-not-required',
  'role/over-privileged',
  'job-secret/broad-branches',
  // Issue 34, on data read since: agents, the mail service, the service desk, AI users, IdP default groups.
  'server/agent-token-unused',
  'server/mail-plaintext',
  'server/service-desk-open',
  'server/ai-entitled-to-all',
  'server/idp-default-group-privileged',
]

describe('rules', () => {
  it('lists every rule with severity and whether it is enabled, as JSON too', async () => {
    const result = await runCli(['rules', '--json'])
    expect(result.code).toBe(0)
    const rows = JSON.parse(result.stdout)
    const ids = rows.map((r: {id: string}) => r.id)
    // 52 before issue 34; its twelve rules (seven on executors, base roles and strict builds, five on new data) make 64.
    expect(rows).toHaveLength(64)
    for (const id of CORE_RULES) expect(ids).toContain(id)
    expect(ids.filter((id: string) => id.startsWith('issue-setting/')).length).toBeGreaterThanOrEqual(5)
    expect(rows.find((r: any) => r.id === 'branch-protection/force-push-allowed')).toMatchObject({severity: 'high', enabled: true, scope: 'project', origin: 'builtin'})
    const table = await runCli(['rules'])
    expect(table.stdout.split('\n')[0]).toMatch(/^RULE\s+SEVERITY\s+ENABLED\s+DESCRIPTION$/)
    // The count says why a scan report lists fewer: the issue-setting rules judge a file, not the server.
    const fileRules = rows.filter((r: {scope: string}) => r.scope === 'issue-setting').length
    expect(fileRules).toBe(9)
    expect(table.stdout.trimEnd().split('\n').at(-1)).toBe(
      `${rows.length} rules, ${rows.length} enabled: ${rows.length - fileRules} judge the server's settings (scan, diff and fix report them), ${fileRules} the issue-setting file (issue-setting lint). Details: onedev-audit rules show ID`,
    )
    const sarif = JSON.parse((await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--format', 'sarif', '--fail-on', 'none'])).stdout)
    expect(sarif.runs[0].tool.driver.rules).toHaveLength(rows.length - fileRules)
  })

  it('reflects the configuration: off and severity overrides', async () => {
    const dir = await tempDir('oda-rules')
    await writeFile(join(dir, 'onedev-audit.config.json'), JSON.stringify({rules: {'branch-protection/force-push-allowed': 'off', 'role/over-privileged': 'critical'}}))
    const rows = JSON.parse((await runCli(['rules', '--json'], {cwd: dir})).stdout)
    expect(rows.find((r: any) => r.id === 'branch-protection/force-push-allowed')).toMatchObject({enabled: false})
    expect(rows.find((r: any) => r.id === 'role/over-privileged')).toMatchObject({severity: 'critical', defaultSeverity: 'high'})
  })

  it('a misspelt configuration key is one line naming the key meant, exit 2', async () => {
    const dir = await tempDir('oda-rules')
    await writeFile(join(dir, 'onedev-audit.config.json'), JSON.stringify({brnches: ['release/**']}))
    const result = await runCli(['scan', '--snapshot', join(ROOT, 'examples', 'snapshot.json')], {cwd: dir})
    expect([result.code, result.stdout, result.stderr]).toEqual([2, '', 'onedev-audit: error: onedev-audit.config.json: /: unknown key "brnches" (did you mean "branches"?)\n'])
  })

  it('show prints the help of one rule; an unknown id is a one-line error', async () => {
    const shown = await runCli(['rules', 'show', 'job-secret/broad-branches'])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(/^# job-secret\/broad-branches\n/)
    expect(shown.stdout).toContain('This run: severity high, enabled.')
    const unknown = await runCli(['rules', 'show', 'job-secret/broad'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toBe('onedev-audit: error: unknown rule "job-secret/broad"; did you mean job-secret/broad-branches?\n')
  })
})

describe('help and version', () => {
  it('--help shows the commands; scan --help shows flags and examples', async () => {
    const top = await runCli(['--help'])
    expect(top.code).toBe(0)
    for (const command of ['scan', 'collect', 'rules', 'issue-setting']) expect(top.stdout).toContain(command)
    const help = await runCli(['scan', '--help'])
    expect(help.code).toBe(0)
    for (const text of ['--api-prefix', '--token-stdin', '--fail-on', '--snapshot', 'EXAMPLES', 'ONEDEV_TOKEN']) expect(help.stdout).toContain(text)
    expect(help.stdout).not.toMatch(/--token\b(?!-stdin)/)
  })

  it('a misspelt command is one line in the tool\'s style with what was meant, exit 2', async () => {
    const typo = await runCli(['scna', '--snapshot', 'examples/snapshot.json'])
    expect([typo.code, typo.stdout, typo.stderr]).toEqual([2, '', 'onedev-audit: error: unknown command "scna"; did you mean scan? (see onedev-audit --help)\n'])
    const sub = await runCli(['issue-setting', 'lnt', 'examples/issue-setting.json'])
    expect([sub.code, sub.stderr]).toEqual([2, 'onedev-audit: error: unknown command "issue-setting lnt"; did you mean issue-setting lint? (see onedev-audit --help)\n'])
    const unknown = await runCli(['frobnicate'])
    expect([unknown.code, unknown.stderr]).toEqual([2, 'onedev-audit: error: unknown command "frobnicate" (see onedev-audit --help)\n'])
  })

  it('help as people ask for it: `help`, `help COMMAND`, --help anywhere; help for a misspelt command is the same one line, exit 2', async () => {
    const top = await runCli(['--help'])
    expect(await runCli(['help'])).toMatchObject({code: 0, stdout: top.stdout, stderr: ''})
    const scan = await runCli(['scan', '--help'])
    for (const args of [['help', 'scan'], ['scan', '--format', 'json', '--help'], ['--help', 'scan'], ['scan', 'stray-word', '--help']]) {
      expect(await runCli(args), args.join(' ')).toMatchObject({code: 0, stdout: scan.stdout, stderr: ''})
    }
    const lint = await runCli(['issue-setting', 'lint', '--help'])
    expect(lint.stdout).toMatch(/^Check an issue-setting file/)
    expect(await runCli(['help', 'issue-setting', 'lint'])).toMatchObject({code: 0, stdout: lint.stdout})
    expect((await runCli(['help', 'issue-setting'])).stdout).toBe((await runCli(['issue-setting', '--help'])).stdout)
    const line = (typed: string, meant: string) => `onedev-audit: error: unknown command "${typed}"; did you mean ${meant}? (see onedev-audit --help)\n`
    for (const [args, typed, meant] of [
      [['scna', '--help'], 'scna', 'scan'],
      [['help', 'scna'], 'scna', 'scan'],
      [['--help', 'scna'], 'scna', 'scan'],
      [['issue-setting', 'lnt', '--help'], 'issue-setting lnt', 'issue-setting lint'],
      [['help', 'issue-setting', 'lnt'], 'issue-setting lnt', 'issue-setting lint'],
    ] as const) {
      expect(await runCli([...args]), args.join(' ')).toMatchObject({code: 2, stdout: '', stderr: line(typed, meant)})
    }
  })

  it('a value that is not one of a flag\'s choices is shown as given, with the choice meant; one that may be a secret is not shown', async () => {
    const expected = (shown: string, meant = '') => `onedev-audit: error: expected --format to be one of: stylish, json, sarif, markdown, html, checkstyle, junit, oscal, not ${shown}${meant} (see --help)\n`
    const typo = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--format', 'sairf'])
    expect([typo.code, typo.stdout, typo.stderr]).toEqual([2, '', expected('"sairf"', '; did you mean sarif?')])
    expect((await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--format=xml'])).stderr).toBe(expected('"xml"'))
    const secret = await runCli(['scan', '--snapshot', 'examples/snapshot.json', '--format', 'Hunter2!pass'])
    expect([secret.code, secret.stderr]).toEqual([2, expected('the 12-character value given (not shown: it may be a secret)')])
  })

  it('--version prints the package version', async () => {
    const result = await runCli(['--version'])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^onedev-audit\/0\.1\.0 /)
  })
})
