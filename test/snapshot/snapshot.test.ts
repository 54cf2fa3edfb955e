import {readFileSync} from 'node:fs'
import {mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import ajv2020 from 'ajv/dist/2020.js'
import ajvFormats from 'ajv-formats'
import {afterEach, beforeEach, describe, expect, test} from 'vitest'

import {ingestProjectSetting, ingestRoles} from '../../src/model/ingest.js'
import type {AuditError, AuditModel, Project} from '../../src/model/types.js'
import {projectFilePath} from '../../src/snapshot/layout.js'
import {SnapshotError, loadSnapshot, saveSnapshotDir, saveSnapshotFile, toSnapshot} from '../../src/snapshot/snapshot.js'
import {FIXTURES_DIR, expectNoCanary} from '../helpers/canaries.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const tool = {name: 'onedev-audit', version: '0.1.0'}

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, name), 'utf8'))
}

async function schemaValidator(ref?: string) {
  const Ajv2020 = ajv2020.default
  const ajv = new Ajv2020({allErrors: true, strict: false})
  ajvFormats.default(ajv)
  const schema = JSON.parse(await readFile(join(root, 'schemas', 'snapshot.schema.json'), 'utf8'))
  ajv.addSchema(schema)
  return ajv.getSchema(ref ? `${schema.$id}${ref}` : schema.$id)!
}

async function project(id: number, path: string, parentId: number | null, raw: unknown, errors: AuditError[]): Promise<Project> {
  if (raw === null) return {id, path, name: path.split('/').pop() ?? null, parentId, setting: null, raw: null}
  const ingested = await ingestProjectSetting(raw, {id, path})
  errors.push(...ingested.errors)
  return {id, path, name: path.split('/').pop() ?? null, parentId, setting: ingested.setting, raw: ingested.raw}
}

const HOSTILE_PATHS = ['../../etc/passwd', 'a/../../b', 'C:\\x', 'ctl\u0001\u001b[2J\nchars', '/abs', 'x//y', '.hidden']

async function buildModel(): Promise<AuditModel> {
  const errors: AuditError[] = []
  const group = await project(1, 'group', null, fixture('legacy/setting-full.json'), errors)
  const repo = await project(2, 'group/repo', 1, fixture('current/setting-full.json'), errors)
  const forbidden = await project(3, 'group/secret-repo', 1, null, errors)
  errors.push({kind: 'forbidden', message: 'project group/secret-repo (#3): 403 Forbidden', project: {id: 3, path: 'group/secret-repo'}, path: '/~api/projects/3/setting', status: 403})
  const invalid = await project(4, 'group/broken', 1, {branchProtections: [{enabled: 'yes'}], buildSetting: {jobSecrets: [{value: 'CANARY-broken-7f3a'}]}}, errors)
  const hostile = await Promise.all(HOSTILE_PATHS.map((path, i) => project(100 + i, path, null, {branchProtections: [{branches: `b${i}`}]}, errors)))
  const roles = await ingestRoles(fixture('roles.json') as unknown[])
  errors.push(...roles.errors)
  const audited = [repo, forbidden, invalid, ...hostile]
  return {
    server: {url: 'https://onedev.example.com', apiPrefix: '/~api'},
    projects: audited,
    projectsById: new Map([group, ...audited].map((p) => [p.id, p])),
    roles: roles.roles,
    rolesRaw: roles.raw,
    errors,
    collectedAt: '2026-11-22T04:00:00.000Z',
  }
}

let work: string
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'onedev-audit-snapshot-'))
})
afterEach(async () => {
  await rm(work, {recursive: true, force: true})
})

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, {withFileTypes: true})) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await filesUnder(full)))
    else out.push(full)
  }
  return out.sort()
}

async function expectSnapshotError(promise: Promise<unknown>, kind: string, message: string | RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SnapshotError)
  expect((error as SnapshotError).error.kind).toBe(kind)
  if (typeof message === 'string') expect((error as SnapshotError).message).toBe(message)
  else expect((error as SnapshotError).message).toMatch(message)
  expect((error as SnapshotError).message).not.toMatch(/\n/)
}

describe('snapshot file', () => {
  test('model → file → model gives the same model', async () => {
    const model = await buildModel()
    const file = join(work, 'snapshot.json')
    await saveSnapshotFile(model, file, tool)
    const loaded = await loadSnapshot(file)
    expect(loaded).toEqual(model)
    expect(loaded.projects.map((p) => p.path)).toEqual(model.projects.map((p) => p.path))
    expect(loaded.projectsById.get(1)!.setting!.generation).toBe('legacy')
  })

  test('the file is one JSON document valid against schemas/snapshot.schema.json, mode 0600, with no secret', async () => {
    const file = join(work, 'snapshot.json')
    await saveSnapshotFile(await buildModel(), file, tool)
    const text = await readFile(file, 'utf8')
    expectNoCanary(text)
    const validate = await schemaValidator()
    expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const document = JSON.parse(text)
    expect(document.projects.map((p: {id: number; audited: boolean}) => [p.id, p.audited])).toEqual([
      [2, true],
      [3, true],
      [4, true],
      ...HOSTILE_PATHS.map((_, i) => [100 + i, true]),
      [1, false],
    ])
    expect(document.projects[1].setting).toBeNull()
    expect(await readdir(work)).toEqual(['snapshot.json'])
  })

  test('toSnapshot strips credentials from the server URL', async () => {
    const model = {...(await buildModel()), server: {url: 'https://admin:CANARY-server-7f3a@onedev.example.com/', apiPrefix: '/~api'}}
    expect(toSnapshot(model, tool).server).toEqual({url: 'https://REDACTED@onedev.example.com/', apiPrefix: '/~api'})
  })

  test('a server URL with a query value that is not a recognised credential is stored with the value hidden', async () => {
    const hidden = {...(await buildModel()), server: {url: 'https://onedev.example.com/?x=CANARY.q.7f3a', apiPrefix: '/~api'}}
    expect(toSnapshot(hidden, tool).server).toEqual({url: 'https://onedev.example.com/?x=HIDDEN', apiPrefix: '/~api'})
    const plain = {...(await buildModel()), server: {url: 'https://onedev.example.com', apiPrefix: '/~api'}}
    expect(toSnapshot(plain, tool).server).toEqual({url: 'https://onedev.example.com', apiPrefix: '/~api'})
  })

  test('a secret planted by hand in a snapshot file is redacted on load', async () => {
    const file = join(work, 'snapshot.json')
    await saveSnapshotFile(await buildModel(), file, tool)
    const document = JSON.parse(await readFile(file, 'utf8'))
    const repo = document.projects.find((p: {id: number}) => p.id === 2)
    repo.setting.buildSetting.jobSecrets[0].value = 'CANARY-hand-jobsecret-7f3a'
    repo.setting.webHooks[0].secret = 'CANARY-hand-webhook-7f3a'
    repo.setting.webHooks[0].postUrl = 'https://u:CANARY-hand-url-7f3a@ci.example.com/?token=CANARY-hand-query-7f3a'
    repo.setting.contributedSettings[0].notifications[0].webhookUrl = 'https://hooks.slack.com/services/T1/B2/CANARY-hand-slack-7f3a'
    document.roles[0].password = 'CANARY-hand-role-7f3a'
    document.server.url = 'https://u:CANARY-hand-server-7f3a@onedev.example.com'
    document.errors.push({kind: 'http', message: 'GET https://u:CANARY-hand-error-7f3a@onedev.example.com/~api failed'})
    await writeFile(file, JSON.stringify(document))
    const loaded = await loadSnapshot(file)
    expectNoCanary(JSON.stringify({...loaded, projectsById: [...loaded.projectsById.values()]}))
    expect(loaded.projectsById.get(2)!.setting!.webHooks[0]).toMatchObject({hasSecret: true, url: {hadUserInfo: true, secretQueryParams: ['token']}})
  })

  test('a hand-edited setting that is invalid and holds a secret: redacted on load, its error reported, the other projects ingested', async () => {
    const file = join(work, 'snapshot.json')
    await saveSnapshotFile(await buildModel(), file, tool)
    const document = JSON.parse(await readFile(file, 'utf8'))
    const repo = document.projects.find((p: {id: number}) => p.id === 2)
    repo.setting.branchProtections[0].enabled = 'yes'
    repo.setting.buildSetting.jobSecrets[0].value = 'CANARY-hand-invalid-7f3a'
    repo.setting.contributedSettings[0].apiToken = 'CANARY-hand-invalid-token-7f3a'
    await writeFile(file, JSON.stringify(document))
    const loaded = await loadSnapshot(file)
    expectNoCanary(JSON.stringify({...loaded, projectsById: [...loaded.projectsById.values()]}))
    expect(loaded.projectsById.get(2)!.setting).toBeNull()
    expect(loaded.errors.filter((e) => e.project?.id === 2)).toEqual([
      {kind: 'invalid-payload', message: expect.stringContaining('/branchProtections/0/enabled: expected boolean, got string'), project: {id: 2, path: repo.path}, pointer: '/branchProtections/0/enabled'},
    ])
    // The others as before: project 4 of the fixture is invalid itself.
    expect([...loaded.projectsById.values()].filter((p) => p.id !== 2 && p.id !== 4 && p.raw !== null).map((p) => p.setting !== null)).toEqual(Array(8).fill(true))
  })

  test('an invalid envelope is a one-line config error naming the pointer', async () => {
    const file = join(work, 'snap.json')
    await saveSnapshotFile(await buildModel(), file, tool)
    const document = JSON.parse(await readFile(file, 'utf8'))
    document.projects[3].id = '103'
    await writeFile(file, JSON.stringify(document))
    await expectSnapshotError(loadSnapshot(file), 'config', `${file}: /projects/3/id: expected integer, got string`)
    document.projects[3].id = 103
    document.snapshotVersion = 2
    await writeFile(file, JSON.stringify(document))
    await expectSnapshotError(loadSnapshot(file), 'config', `${file}: snapshot format 2 (written by onedev-audit 0.1.0) is newer than this onedev-audit reads (1): upgrade onedev-audit`)
    document.snapshotVersion = 0
    await writeFile(file, JSON.stringify(document))
    await expectSnapshotError(loadSnapshot(file), 'config', `${file}: snapshot format 0 (written by onedev-audit 0.1.0) is no longer read: collect the snapshot again`)
    delete document.snapshotVersion
    await writeFile(file, JSON.stringify(document))
    await expectSnapshotError(loadSnapshot(file), 'config', `${file}: not a snapshot written by onedev-audit collect (no snapshotVersion)`)
    document.snapshotVersion = 1
    document.projects[3].id = 2
    await writeFile(file, JSON.stringify(document))
    await expectSnapshotError(loadSnapshot(file), 'config', `${file}: /projects/3/id: duplicate project id 2`)
  })

  test('a file that cannot be written is an io error, and no temporary file is left behind', async () => {
    const file = join(work, 'missing-folder', 'snapshot.json')
    await expectSnapshotError(saveSnapshotFile(await buildModel(), file, tool), 'io', `${file}: cannot write the file (ENOENT: no such folder)`)
    expect(await readdir(work)).toEqual([])
  })

  test('unreadable or non-JSON files', async () => {
    await expectSnapshotError(loadSnapshot(join(work, 'missing.json')), 'io', `${join(work, 'missing.json')}: cannot read (ENOENT)`)
    const file = join(work, 'bad.json')
    await writeFile(file, '{"secret": "CANARY-notjson-7f3a"')
    await expectSnapshotError(loadSnapshot(file), 'config', `${file}:1:33: invalid JSON: unexpected end of input`)
  })
})

describe('snapshot folder', () => {
  test('model → folder → model gives the same model, from the folder or its snapshot.json', async () => {
    const model = await buildModel()
    const dir = join(work, 'inner', 'snap')
    await saveSnapshotDir(model, dir, tool)
    expect(await loadSnapshot(dir)).toEqual(model)
    expect(await loadSnapshot(join(dir, 'snapshot.json'))).toEqual(model)
  })

  test('files are the raw payloads pretty-printed exactly; the index validates against SnapshotIndex', async () => {
    const model = await buildModel()
    const dir = join(work, 'snap')
    await saveSnapshotDir(model, dir, tool)
    const repo = model.projectsById.get(2)!
    expect(await readFile(join(dir, 'projects', 'group', 'repo.json'), 'utf8')).toBe(JSON.stringify(repo.raw, null, 2) + '\n')
    expect(await readFile(join(dir, 'roles.json'), 'utf8')).toBe(JSON.stringify(model.rolesRaw, null, 2) + '\n')
    const index = JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8'))
    const validate = await schemaValidator('#/$defs/SnapshotIndex')
    expect(validate(index), JSON.stringify(validate.errors)).toBe(true)
    expect(index.projects.find((p: {id: number}) => p.id === 3)).toEqual({id: 3, path: 'group/secret-repo', name: 'secret-repo', parentId: 1, audited: true, settingFile: null})
    expect(index.projects.find((p: {id: number}) => p.id === 1).settingFile).toBe('projects/group.json')
    expect(index.errors).toEqual(model.errors)
    for (const file of await filesUnder(dir)) {
      expectNoCanary(await readFile(file, 'utf8'))
      expect((await stat(file)).mode & 0o777).toBe(0o600)
    }
  })

  test('hostile project paths stay inside the folder and round-trip', async () => {
    const model = await buildModel()
    const dir = join(work, 'inner', 'snap')
    await saveSnapshotDir(model, dir, tool)
    expect(await readdir(work)).toEqual(['inner'])
    expect(await readdir(join(work, 'inner'))).toEqual(['snap'])
    const files = (await filesUnder(dir)).map((file) => relative(dir, file).split('\\').join('/'))
    for (const file of files) expect(resolve(dir, file).startsWith(resolve(dir))).toBe(true)
    for (const path of HOSTILE_PATHS) expect(files).toContain(projectFilePath(path))
    // group, group/repo, group/broken (invalid, kept for inspection), the hostile ones, roles.json, snapshot.json
    expect(files).toHaveLength(3 + HOSTILE_PATHS.length + 2)
    const loaded = await loadSnapshot(dir)
    expect(loaded.projects.map((p) => p.path)).toEqual(model.projects.map((p) => p.path))
    expect(loaded.projectsById.get(103)!.setting!.branchProtections[0]!.branches).toBe('b3')
  })

  test('paths that differ only in case get distinct files', async () => {
    const errors: AuditError[] = []
    const a = await project(1, 'Repo', null, {branchProtections: [{branches: 'a'}]}, errors)
    const b = await project(2, 'repo', null, {branchProtections: [{branches: 'b'}]}, errors)
    const model: AuditModel = {server: null, projects: [a, b], projectsById: new Map([[1, a], [2, b]]), roles: [], rolesRaw: [], errors, collectedAt: '2026-11-22T04:00:00.000Z'}
    const dir = join(work, 'snap')
    await saveSnapshotDir(model, dir, tool)
    expect((await readdir(join(dir, 'projects'))).sort()).toEqual(['Repo.json', 'repo~2.json'])
    expect(await loadSnapshot(dir)).toEqual(model)
  })

  test('a folder inside the output folder that is a symbolic link is refused before anything is written; nothing there is removed', async () => {
    const model = await buildModel()
    const dir = join(work, 'snap')
    await saveSnapshotDir(model, dir, tool)
    const elsewhere = join(work, 'elsewhere')
    await mkdir(join(elsewhere, 'group'), {recursive: true})
    // A file the previous index lists, with the very hash it recorded, outside the folder.
    await writeFile(join(elsewhere, 'group', 'repo.json'), await readFile(join(dir, 'projects', 'group', 'repo.json')))
    const before = await readFile(join(dir, 'snapshot.json'), 'utf8')
    await rm(join(dir, 'projects'), {recursive: true})
    await symlink(elsewhere, join(dir, 'projects'))
    const smaller = {...model, projects: model.projects.slice(0, 1), projectsById: new Map([[2, model.projectsById.get(2)!]])}
    await expectSnapshotError(saveSnapshotDir(smaller, dir, tool), 'io', `${join(dir, 'projects')}: a symbolic link inside the output folder: refused, nothing is written through it (remove the link, or choose another --output-dir)`)
    expect(await readdir(join(elsewhere, 'group'))).toEqual(['repo.json'])
    expect(await readFile(join(dir, 'snapshot.json'), 'utf8')).toBe(before)
    // The same for a folder further down.
    await rm(join(dir, 'projects'))
    await mkdir(join(dir, 'projects'))
    await symlink(join(elsewhere, 'group'), join(dir, 'projects', 'group'))
    await expectSnapshotError(saveSnapshotDir(model, dir, tool), 'io', `${join(dir, 'projects', 'group')}: a symbolic link inside the output folder: refused, nothing is written through it (remove the link, or choose another --output-dir)`)
    expect(await readdir(join(elsewhere, 'group'))).toEqual(['repo.json'])
  })

  test('a file inside the output folder that is a symbolic link is replaced, never written through', async () => {
    const dir = join(work, 'snap')
    await mkdir(dir)
    const outside = join(work, 'outside.txt')
    await writeFile(outside, 'keep me')
    await symlink(outside, join(dir, 'roles.json'))
    await saveSnapshotDir(await buildModel(), dir, tool)
    expect(await readFile(outside, 'utf8')).toBe('keep me')
    expect(JSON.parse(await readFile(join(dir, 'roles.json'), 'utf8'))).toEqual((await buildModel()).rolesRaw)
  })

  test('a stale file is removed only when it is exactly as collect wrote it; files changed since, or listed by an index without hashes, are kept and named', async () => {
    const model = await buildModel()
    const smaller = {...model, projects: model.projects.slice(0, 1), projectsById: new Map([[2, model.projectsById.get(2)!]])}
    const dir = join(work, 'snap')
    await saveSnapshotDir(model, dir, tool)
    const edited = join(dir, projectFilePath('group'))
    await writeFile(edited, '{"kept": "a person edited this"}\n')
    const stale = (await filesUnder(join(dir, 'projects'))).map((file) => relative(dir, file).split('\\').join('/')).filter((file) => file !== 'projects/group/repo.json' && file !== projectFilePath('group'))
    expect(stale.length).toBeGreaterThan(0)
    expect(await saveSnapshotDir(smaller, dir, tool)).toEqual({kept: [projectFilePath('group')]})
    const left = (await filesUnder(dir)).map((file) => relative(dir, file).split('\\').join('/'))
    expect(left).toContain(projectFilePath('group'))
    for (const file of stale) expect(left).not.toContain(file)
    // An index written before the hashes were recorded proves nothing: its files are kept.
    await saveSnapshotDir(model, dir, tool)
    const index = JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8'))
    delete index.fileHashes
    await writeFile(join(dir, 'snapshot.json'), JSON.stringify(index))
    const {kept} = await saveSnapshotDir(smaller, dir, tool)
    expect(kept.sort()).toEqual([projectFilePath('group'), ...stale].sort())
  })

  test('saving again removes setting files the new snapshot no longer has', async () => {
    const model = await buildModel()
    const dir = join(work, 'snap')
    await saveSnapshotDir(model, dir, tool)
    await writeFile(join(dir, 'projects', 'mine.json'), '{}')
    const smaller = {...model, projects: model.projects.slice(0, 1), projectsById: new Map([[2, model.projectsById.get(2)!]])}
    await saveSnapshotDir(smaller, dir, tool)
    const files = (await filesUnder(dir)).map((file) => relative(dir, file))
    expect(files).toEqual(['projects/group/repo.json', 'projects/mine.json', 'roles.json', 'snapshot.json'].map((f) => join(...f.split('/'))).sort())
    expect(await loadSnapshot(dir)).toEqual(smaller)
  })

  test('a hand-edited setting file with secrets is redacted on load', async () => {
    const dir = join(work, 'snap')
    await saveSnapshotDir(await buildModel(), dir, tool)
    const file = join(dir, 'projects', 'group', 'repo.json')
    const setting = JSON.parse(await readFile(file, 'utf8'))
    setting.buildSetting.jobSecrets[1].value = 'CANARY-dir-hand-7f3a'
    setting.webHooks[1].headers = [{name: 'X-Token', value: 'CANARY-dir-header-7f3a'}]
    await writeFile(file, JSON.stringify(setting))
    const loaded = await loadSnapshot(dir)
    expectNoCanary(JSON.stringify([...loaded.projectsById.values()]))
    expect(loaded.projectsById.get(2)!.setting!.webHooks[1]!.headerNames).toEqual(['X-Token'])
  })

  test('an index naming a file outside projects/ is refused', async () => {
    const dir = join(work, 'snap')
    await saveSnapshotDir(await buildModel(), dir, tool)
    const index = JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8'))
    index.projects[0].settingFile = '../../../etc/passwd'
    await writeFile(join(dir, 'snapshot.json'), JSON.stringify(index))
    await expectSnapshotError(loadSnapshot(dir), 'config', 'snapshot.json: /projects/0/settingFile: not a file under projects/')
  })

  test('a setting file that is a symbolic link is refused', async () => {
    const dir = join(work, 'snap')
    await saveSnapshotDir(await buildModel(), dir, tool)
    const outside = join(work, 'outside.json')
    await writeFile(outside, '{"branchProtections": []}')
    await rm(join(dir, 'projects', 'group', 'repo.json'))
    await symlink(outside, join(dir, 'projects', 'group', 'repo.json'))
    await expectSnapshotError(loadSnapshot(dir), 'io', /^projects\/group\/repo\.json: cannot read \(ELOOP\)$/)
  })

  test('a missing setting file or a bad roles.json', async () => {
    const dir = join(work, 'snap')
    await saveSnapshotDir(await buildModel(), dir, tool)
    await writeFile(join(dir, 'roles.json'), '{}')
    await expectSnapshotError(loadSnapshot(dir), 'config', 'roles.json: (root): expected array')
    await writeFile(join(dir, 'roles.json'), '[]')
    await rm(join(dir, 'projects', 'group', 'repo.json'))
    await expectSnapshotError(loadSnapshot(dir), 'io', 'projects/group/repo.json: cannot read (ENOENT)')
    await mkdir(join(work, 'empty'))
    await expectSnapshotError(loadSnapshot(join(work, 'empty')), 'io', 'snapshot.json: cannot read (ENOENT)')
  })
})
