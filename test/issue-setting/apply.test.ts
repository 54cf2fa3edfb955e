import {readFile, stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {createClient} from '../../src/api/client.js'
import {ApiError, type ApiClient} from '../../src/api/types.js'
import {applyIssueSetting, backupPath, dryRunText, IssueSettingError, issueSettingFileText} from '../../src/issue-setting/apply.js'
import {readIssueSettingFile} from '../../src/issue-setting/file.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

const current = {
  stateSpecs: [{name: 'Open', color: '#f0ad4e'}, {name: 'Closed', color: '#5cb85c'}],
  transitionSpecs: [],
  fieldSpecs: [],
  boardSpecs: [],
  listFields: ['State'],
  listLinks: [],
  namedQueries: [],
  issueTemplates: [],
  reconciled: true,
}

const file = {
  ...current,
  stateSpecs: [...current.stateSpecs, {name: 'Verified', color: '#337ab7'}],
  transitionSpecs: [{fromStates: ['Closed'], toState: 'Verified', removeFields: []}],
  unknownButKept: {x: [1, 2]},
}

let server: OneDevServer
let client: ApiClient
let dir: string
let out: string[]
let said: string[]
const io = {out: (line: string) => out.push(line), say: (line: string) => said.push(line)}

beforeAll(async () => {
  server = await startOneDevServer({issueSetting: current})
  client = createClient({baseUrl: server.url, apiPrefix: '/~api', user: server.user, secret: server.secret, retries: 0})
  dir = await tempDir('oda-apply')
})
afterAll(async () => {
  await client.close()
  await server.close()
})
beforeEach(() => {
  server.reset()
  out = []
  said = []
})

const posts = () => server.requests.filter((r) => r.method === 'POST')
/** A file as readIssueSettingFile gives it: its text and its parsed value. */
const asFile = (body: unknown) => ({text: `${JSON.stringify(body, null, 2)}\n`, body})

describe('applyIssueSetting', () => {
  it('saves the current setting (0600), prints the diff, then POSTs the file exactly', async () => {
    const backup = join(dir, 'backup-1.json')
    const outcome = await applyIssueSetting(client, asFile(file), {backup, io})
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /~api/settings/issue', 'POST /~api/settings/issue'])
    expect(JSON.parse(posts()[0]!.body)).toEqual(file)
    expect(JSON.parse(await readFile(backup, 'utf8'))).toEqual(current)
    expect((await stat(backup)).mode & 0o777).toBe(0o600)
    expect(out).toEqual(['+ state "Verified"', '+ transition Closed → Verified', '+ unknownButKept'])
    expect(outcome).toEqual({backup, diff: out})
    expect(said).toEqual([`onedev-audit: saved the current issue setting to ${backup}`])
    // Restore the fixture for the other cases.
    await client.postJson('/settings/issue', current)
  })

  it('applies without backup or diff when the server has no GET, and says so', async () => {
    for (const status of [404, 405]) {
      server.reset()
      said = []
      server.override('GET /settings/issue', {status, text: 'HTTP 404 Not Found'})
      const backup = join(dir, `never-${status}.json`)
      expect(await applyIssueSetting(client, asFile(file), {backup, io})).toEqual({backup: null, diff: null})
      expect(JSON.parse(posts()[0]!.body)).toEqual(file)
      expect(said).toEqual(['onedev-audit: notice: this server has no GET /settings/issue: no backup and no diff; applying the whole file'])
      await expect(stat(backup)).rejects.toThrow()
    }
  })

  it('sends nothing when reading the current setting fails otherwise (403)', async () => {
    server.override('GET /settings/issue', {status: 403, text: 'Not authorized'})
    const error = await applyIssueSetting(client, asFile(file), {backup: join(dir, 'b403.json'), io}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).error).toMatchObject({kind: 'forbidden', status: 403})
    expect(posts()).toEqual([])
  })

  it('sends nothing when the backup cannot be written', async () => {
    const error = await applyIssueSetting(client, asFile(file), {backup: join(dir, 'missing-dir', 'b.json'), io}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IssueSettingError)
    expect((error as IssueSettingError).error).toEqual({kind: 'io', message: `--backup ${join(dir, 'missing-dir', 'b.json')}: cannot write the file (ENOENT: no such folder); nothing was sent`})
    expect(posts()).toEqual([])
  })

  it('passes on the server\'s text/plain detail of a failed POST', async () => {
    server.override('POST /settings/issue', {status: 500, text: 'Duplicate state name: Open'})
    const error = await applyIssueSetting(client, asFile(file), {backup: join(dir, 'b500.json'), io}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).error).toMatchObject({kind: 'http', status: 500})
    expect((error as ApiError).message).toContain('Duplicate state name: Open')
    expect(posts()).toHaveLength(1)
  })

  it('POSTs the file as written: numbers as their tokens, members in their order, no byte order mark', async () => {
    const text = `\uFEFF{"stateSpecs": [{"name": "Open", "color": "#f0ad4e"}], "10": 1.0, "2": 12345678901234567891e0,\n "maxDays": 9007199254740993, "transitionSpecs": []}\n`
    const path = join(dir, 'exact.json')
    await writeFile(path, text)
    const read = await readIssueSettingFile(path)
    await applyIssueSetting(client, {text: read.text, body: read.setting.raw}, {backup: join(dir, 'b-exact.json'), io})
    expect(posts()[0]!.body).toBe(text.slice(1))
    // JSON.stringify of the parsed file would have said something else.
    expect(JSON.stringify(JSON.parse(text.slice(1)))).toBe('{"2":12345678901234567000,"10":1,"stateSpecs":[{"name":"Open","color":"#f0ad4e"}],"maxDays":9007199254740992,"transitionSpecs":[]}')
    await client.postJson('/settings/issue', current)
  })

  it('refuses a file that names a member twice in one object (lint and server may read it differently), naming where', async () => {
    const path = join(dir, 'twice.json')
    await writeFile(path, '{"stateSpecs": [{"name": "Open",\n  "name": "Closed"}], "transitionSpecs": []}\n')
    const error = await readIssueSettingFile(path).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(IssueSettingError)
    expect((error as IssueSettingError).error).toEqual({kind: 'config', message: `${path}:2:3: a member is named twice in one object: readers differ on which one counts; keep one`})
  })

  it("never shows a secret of the file that the server's error text quotes (a SecretField's default)", async () => {
    const secret = 'correct horse battery staple'
    const withSecret = {...current, fieldSpecs: [{'@type': 'SecretField', name: 'Key', defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: secret}}]}
    server.override('POST /settings/issue', {status: 500, text: `Invalid default value "${secret}" of field Key`})
    const error = await applyIssueSetting(client, asFile(withSecret), {backup: join(dir, 'b-quoted.json'), io}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).error).toMatchObject({kind: 'http', status: 500})
    expect(JSON.stringify((error as ApiError).error) + (error as ApiError).message).not.toContain('horse battery')
    expect(posts()[0]!.body).toContain(secret)
  })

  it('redacts secret field defaults in the backup', async () => {
    const withSecret = {...current, fieldSpecs: [{'@type': 'SecretField', name: 'Key', defaultValueProvider: {'@type': 'SpecifiedDefaultValue', value: 'hunter2-secret'}}]}
    server.override('GET /settings/issue', {json: withSecret})
    const backup = join(dir, 'b-secret.json')
    await applyIssueSetting(client, asFile(current), {backup, io})
    const text = await readFile(backup, 'utf8')
    expect(text).not.toContain('hunter2')
    expect(JSON.parse(text).fieldSpecs[0].defaultValueProvider).toEqual({'@type': 'SpecifiedDefaultValue', value: '<redacted>'})
  })
})

describe('helpers', () => {
  it('names the default backup after the UTC time', () => {
    expect(backupPath(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe('issue-setting-backup-20260102-030405.json')
  })

  it('prints the dry-run body redacted, with the request line', () => {
    const body = {fieldSpecs: [{'@type': 'SecretField', name: 'K', defaultValueProvider: {value: 'hunter2-secret'}}]}
    const text = dryRunText(body, '/~api')
    expect(text.split('\n')[0]).toBe('dry run: would POST /~api/settings/issue with this body (nothing was sent):')
    expect(text).not.toContain('hunter2')
    expect(issueSettingFileText({a: 1})).toBe('{\n  "a": 1\n}\n')
  })

  it('reads a file, or says why not', async () => {
    const path = join(dir, 'ok.json')
    await writeFile(path, JSON.stringify(file))
    const read = await readIssueSettingFile(path)
    expect(read.setting.raw).toEqual(file)
    await expect(readIssueSettingFile(join(dir, 'absent.json'))).rejects.toMatchObject({error: {kind: 'io', message: `${join(dir, 'absent.json')}: cannot read the file (ENOENT)`}})
    await expect(readIssueSettingFile(dir)).rejects.toMatchObject({error: {kind: 'io'}})
  })
})
