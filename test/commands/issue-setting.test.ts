/**
 * The issue-setting commands as a user runs them: the built CLI in a child process, against a real
 * loopback server that records exactly what reached it.
 */
import {readdir, readFile, stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {runCli, ROOT} from '../helpers/cli.js'
import {serverEnv} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {validateReportJson, validateSarif} from '../helpers/sarif-validate.js'
import {tempDir} from '../helpers/temp-dir.js'

const EXAMPLE = join(ROOT, 'examples', 'issue-setting.json')

/** What the server holds before each test: a current-generation setting. */
const serverSetting = {
  stateSpecs: [{name: 'Open', color: '#f0ad4e'}, {name: 'Closed', color: '#5cb85c'}],
  transitionSpecs: [{'@type': 'ManualSpec', fromStates: ['Open'], toStates: ['Closed'], authorizedRoles: ['Developer'], promptFields: [], removeFields: []}],
  fieldSpecs: [{'@type': 'SecretField', name: 'Deploy key', allowMultiple: false, defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: 'hunter2-field-default'}}],
  boardSpecs: [],
  listFields: ['State'],
  listLinks: [],
  namedQueries: [],
  issueTemplates: [],
  timeTrackingSetting: {useHoursAndMinutesOnly: false, hoursPerDay: 8, daysPerWeek: 5},
  reconciled: true,
}

/** A current-generation file: typed transitions, choice field board. Lints clean at --fail-on high. */
const typedFile = {
  stateSpecs: [{name: 'Open', color: '#f0ad4e'}, {name: 'Doing', color: '#337ab7'}, {name: 'Closed', color: '#5cb85c'}],
  transitionSpecs: [
    {'@type': 'ManualSpec', fromStates: ['Open'], toStates: ['Doing'], authorizedRoles: ['Developer'], promptFields: ['Type'], removeFields: []},
    {'@type': 'PullRequestMergedSpec', fromStates: ['Doing'], toState: 'Closed', branches: 'main', removeFields: []},
  ],
  fieldSpecs: [{'@type': 'ChoiceField', name: 'Type', allowMultiple: false, choiceProvider: {'@type': 'SpecifiedChoices', choices: [{value: 'Bug'}, {value: 'Task'}]}}],
  boardSpecs: [{name: 'Types', identifyField: 'Type', columns: ['Bug', 'Task', null], displayFields: ['State'], displayLinks: []}],
  listFields: ['State', 'Type'],
  listLinks: [],
  namedQueries: [],
  issueTemplates: [],
  reconciled: true,
}

/** Refers to a state that does not exist: a high finding. */
const brokenFile = {...typedFile, transitionSpecs: [{fromStates: ['Open'], toState: 'Done', removeFields: []}]}

let server: OneDevServer
let dir: string

beforeAll(async () => {
  server = await startOneDevServer({issueSetting: serverSetting})
  dir = await tempDir('oda-issue-setting')
  await writeFile(join(dir, 'typed.json'), JSON.stringify(typedFile, null, 2))
  await writeFile(join(dir, 'broken.json'), JSON.stringify(brokenFile, null, 2))
  await writeFile(join(dir, 'syntax.json'), '{\n  "stateSpecs": [\n    {"name": "hunter2-in-file",}\n  ]\n}\n')
})
afterAll(async () => {
  await server.close()
})
beforeEach(async () => {
  server.reset()
  // Put the server's setting back (a previous apply replaced it).
  const response = await fetch(`${server.url}/~api/settings/issue`, {
    method: 'POST',
    headers: {authorization: `Basic ${Buffer.from(`${server.user}:${server.secret}`).toString('base64')}`, 'content-type': 'application/json'},
    body: JSON.stringify(serverSetting),
  })
  expect(response.status).toBe(200)
  server.reset()
})

const cli = (args: string[], options: {cwd?: string} = {}) => runCli(['issue-setting', ...args], {env: serverEnv(server), ...options})

function expectNoSecret(...texts: string[]) {
  for (const text of texts) {
    expect(text).not.toContain(server.secret)
    expect(text).not.toContain('hunter2')
  }
}

describe('issue-setting lint', () => {
  it('passes the example (contract shape) with only the reconciled notice, and makes no request', async () => {
    const result = await cli(['lint', EXAMPLE, '--format', 'json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(validateReportJson(report)).toEqual([])
    expect(report.server).toBeNull()
    expect(report.file).toBe(EXAMPLE)
    expect(report.findings.map((f: any) => [f.ruleId, f.severity, f.pointer, f.file])).toEqual([['issue-setting/not-reconciled', 'info', '/reconciled', EXAMPLE]])
    expect(server.requests).toEqual([])
  })

  it('passes a file with current servers\' typed transitions', async () => {
    const result = await cli(['lint', join(dir, 'typed.json'), '--format', 'json'])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout).findings).toEqual([])
  })

  it('reports a broken reference as a finding, exits 1, and --fail-on decides', async () => {
    const file = join(dir, 'broken.json')
    const result = await cli(['lint', file, '--format', 'json'])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout).findings).toEqual([
      expect.objectContaining({ruleId: 'issue-setting/undefined-state', severity: 'high', subject: 'Done', pointer: '/transitionSpecs/0/toState', file}),
    ])
    expect((await cli(['lint', file, '--format', 'json', '--fail-on', 'critical'])).code).toBe(0)
  })

  it('writes SARIF whose result points at the line of the file', async () => {
    const output = join(dir, 'lint.sarif')
    const result = await cli(['lint', join(dir, 'broken.json'), '--format', 'sarif', '--output', output])
    expect(result.code).toBe(1)
    const sarif = JSON.parse(await readFile(output, 'utf8'))
    expect(validateSarif(sarif)).toEqual([])
    const [finding] = sarif.runs[0].results
    expect(finding.ruleId).toBe('issue-setting/undefined-state')
    const lines = JSON.stringify(brokenFile, null, 2).split('\n')
    expect(finding.locations[0].physicalLocation.region.startLine).toBe(lines.findIndex((line) => line.includes('"toState": "Done"')) + 1)
  })

  it('names file, line and column of a JSON error, exits 2, and echoes nothing of the text', async () => {
    const file = join(dir, 'syntax.json')
    const result = await cli(['lint', file])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`onedev-audit: error: ${file}:3:32: invalid JSON: trailing comma before '}'\n`)
    expectNoSecret(result.stdout, result.stderr)
  })

  it('is listed by `rules`', async () => {
    const result = await runCli(['rules', '--json'])
    const ids = JSON.parse(result.stdout).filter((r: any) => r.scope === 'issue-setting').map((r: any) => r.id)
    expect(ids).toEqual(expect.arrayContaining(['issue-setting/no-states', 'issue-setting/duplicate-name', 'issue-setting/undefined-state', 'issue-setting/undefined-field', 'issue-setting/board-columns', 'issue-setting/not-reconciled', 'issue-setting/transition-any-user']))
  })
})

describe('issue-setting apply', () => {
  it('backs up the current setting, prints the diff, and POSTs the file exactly', async () => {
    const backup = join(dir, 'backup.json')
    const result = await cli(['apply', EXAMPLE, '--backup', backup, '--format', 'json'])
    expect(result.code).toBe(0)
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /~api/settings/issue', 'POST /~api/settings/issue'])
    const example = JSON.parse(await readFile(EXAMPLE, 'utf8'))
    expect(JSON.parse(server.requests[1]!.body)).toEqual(example)
    for (const request of server.requests) expect(request.basic).toEqual({user: server.user, secret: server.secret})
    // The backup is what GET returned, the secret field default masked; only the owner may read it.
    const saved = JSON.parse(await readFile(backup, 'utf8'))
    expect(saved).toEqual({...serverSetting, fieldSpecs: [{...serverSetting.fieldSpecs[0], defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: '<redacted>'}}]})
    expect((await stat(backup)).mode & 0o777).toBe(0o600)
    // stdout: the lint report, then the diff.
    const diff = result.stdout.slice(result.stdout.lastIndexOf('}\n') + 2).split('\n').filter(Boolean)
    expect(diff).toContain('+ state "In Progress"')
    expect(diff).toContain('- field "Deploy key"')
    expect(diff).toContain('- timeTrackingSetting (absent from the file: the server resets it to its stock default)')
    expect(result.stderr).toContain(`onedev-audit: saved the current issue setting to ${backup}`)
    expect(result.stderr).toContain(`onedev-audit: applied ${EXAMPLE} to ${server.url}`)
    expectNoSecret(result.stdout, result.stderr)
  })

  it('writes the backup to a timestamped file in the working directory by default', async () => {
    const cwd = await tempDir('oda-apply-cwd')
    const result = await cli(['apply', join(dir, 'typed.json'), '--format', 'json'], {cwd})
    expect(result.code).toBe(0)
    const files = await readdir(cwd)
    expect(files).toEqual([expect.stringMatching(/^issue-setting-backup-\d{8}-\d{6}\.json$/)])
    expect(JSON.parse(await readFile(join(cwd, files[0]!), 'utf8')).stateSpecs).toEqual(serverSetting.stateSpecs)
    expect(JSON.parse(server.requests.find((r) => r.method === 'POST')!.body)).toEqual(typedFile)
  })

  it('sends nothing, not even a GET, when the lint fails', async () => {
    const result = await cli(['apply', join(dir, 'broken.json'), '--backup', join(dir, 'never.json'), '--format', 'json'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`onedev-audit: not applied: ${join(dir, 'broken.json')} has findings at or above --fail-on high; nothing was sent`)
    expect(server.requests).toEqual([])
    await expect(stat(join(dir, 'never.json'))).rejects.toThrow()
  })

  it('sends nothing when the file is not valid JSON', async () => {
    const result = await cli(['apply', join(dir, 'syntax.json')])
    expect(result.code).toBe(2)
    expect(server.requests).toEqual([])
  })

  it('--dry-run prints the body and makes no request', async () => {
    const result = await cli(['apply', EXAMPLE, '--dry-run', '--format', 'json'])
    expect(result.code).toBe(0)
    expect(server.requests).toEqual([])
    const marker = 'dry run: would POST /~api/settings/issue with this body (nothing was sent):\n'
    expect(result.stdout).toContain(marker)
    expect(JSON.parse(result.stdout.slice(result.stdout.indexOf(marker) + marker.length))).toEqual(JSON.parse(await readFile(EXAMPLE, 'utf8')))
  })

  it('applies anyway, with a notice, on a server without GET /settings/issue', async () => {
    server.override('GET /settings/issue', {status: 404, text: 'HTTP 404 Not Found'})
    const result = await cli(['apply', join(dir, 'typed.json'), '--backup', join(dir, 'no-get.json'), '--format', 'json'])
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('onedev-audit: notice: this server has no GET /settings/issue: no backup and no diff; applying the whole file')
    expect(JSON.parse(server.requests.find((r) => r.method === 'POST')!.body)).toEqual(typedFile)
    await expect(stat(join(dir, 'no-get.json'))).rejects.toThrow()
  })

  it('prints the server\'s text/plain detail of a failed POST and exits 2', async () => {
    server.override('POST /settings/issue', {status: 500, text: 'Duplicate field name: Type'})
    const result = await cli(['apply', join(dir, 'typed.json'), '--backup', join(dir, 'b500.json'), '--format', 'json'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^onedev-audit: error: POST \/~api\/settings\/issue: 500 Internal Server Error: Duplicate field name: Type$/m)
    expectNoSecret(result.stdout, result.stderr)
  })

  it('sends nothing on 403 for the GET', async () => {
    server.override('GET /settings/issue', {status: 403, text: 'Not authorized'})
    const result = await cli(['apply', join(dir, 'typed.json'), '--backup', join(dir, 'b403.json'), '--format', 'json'])
    expect(result.code).toBe(2)
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([])
  })
})

describe('issue-setting pull', () => {
  it('writes the current setting, secret field defaults redacted', async () => {
    const output = join(dir, 'pulled.json')
    const result = await cli(['pull', '--output', output])
    expect(result.code).toBe(0)
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /~api/settings/issue'])
    const text = await readFile(output, 'utf8')
    expect(JSON.parse(text)).toEqual({...serverSetting, fieldSpecs: [{...serverSetting.fieldSpecs[0], defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: '<redacted>'}}]})
    expect(result.stderr).toContain(`onedev-audit: wrote the issue setting to ${output}`)
    expect(result.stderr).toContain('notice: some values were written as <redacted>')
    expectNoSecret(text, result.stdout, result.stderr)
  })

  it('says so when a URL was written with parts masked (a query value is hidden): applying the file as it is would post them', async () => {
    const withLink = {...serverSetting, fieldSpecs: [], issueTemplates: [{issueQuery: null, issueDescription: 'Read https://wiki.example.com/page?id=42 first'}]}
    server.override('GET /settings/issue', {json: withLink})
    const output = join(dir, 'pulled-link.json')
    const result = await cli(['pull', '--output', output])
    expect(result.code).toBe(0)
    expect(JSON.parse(await readFile(output, 'utf8')).issueTemplates[0].issueDescription).toBe('Read https://wiki.example.com/page?id=HIDDEN first')
    expect(result.stderr).toContain('onedev-audit: notice: some URLs were written with parts masked as REDACTED or HIDDEN (credentials, query values): put the real values back before applying this file')
    expect(result.stderr).not.toContain('written as <redacted>')
  })

  it('requires --output, and fails with exit 2 on a server without GET', async () => {
    expect((await cli(['pull'])).code).toBe(2)
    server.override('GET /settings/issue', {status: 404, text: 'HTTP 404 Not Found'})
    const result = await cli(['pull', '--output', join(dir, 'none.json')])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('this server has no GET /~api/settings/issue')
  })
})
