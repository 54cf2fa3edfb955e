import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, test} from 'vitest'

import {ingestProjectList, ingestProjectSetting, ingestRoles} from '../../src/model/ingest.js'
import {FIXTURES_DIR, expectNoCanary} from '../helpers/canaries.js'

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, name), 'utf8'))
}

describe('ingestProjectSetting errors', () => {
  test('a wrong type names the project and the pointer, and the setting is null', async () => {
    const result = await ingestProjectSetting({branchProtections: [{enabled: 'yes'}]}, {id: 12, path: 'group/repo'})
    expect(result.setting).toBeNull()
    expect(result.errors).toEqual([
      {
        kind: 'invalid-payload',
        message: 'project group/repo (#12): /branchProtections/0/enabled: expected boolean, got string',
        project: {id: 12, path: 'group/repo'},
        pointer: '/branchProtections/0/enabled',
      },
    ])
    expect(result.raw).toEqual({branchProtections: [{enabled: 'yes'}]})
  })

  test('all issues of a payload go into one message: the first five, then how many more', async () => {
    const raw = {
      branchProtections: 'all',
      tagProtections: [{enabled: 1}, 'v*', null],
      buildSetting: {jobSecrets: [{name: 7, value: 'CANARY-bad-secret-7f3a', archived: 'no'}]},
      webHooks: [{postUrl: 5, eventTypes: [1]}],
      contributedSettings: 'slack',
    }
    const [error] = (await ingestProjectSetting(raw, {id: 3, path: 'a'})).errors
    expect(error!.message).toBe(
      'project a (#3): /branchProtections: expected array, got string; /tagProtections/0/enabled: expected boolean, got integer; ' +
        '/tagProtections/1: expected object, got string; /tagProtections/2: expected object, got null; ' +
        '/buildSetting/jobSecrets/0/name: expected string, got integer; and 4 more',
    )
    expect(error!.pointer).toBe('/branchProtections')
    expectNoCanary(JSON.stringify(await ingestProjectSetting(raw, {id: 3, path: 'a'})))
  })

  test('a payload that is not an object', async () => {
    for (const [raw, got] of [[null, 'null'], [[], 'array'], ['x', 'string'], [1.5, 'number']] as const) {
      expect((await ingestProjectSetting(raw, {id: 1, path: 'p'})).errors[0]!.message).toBe(`project p (#1): (root): expected object, got ${got}`)
    }
  })

  test('contributed settings of the wrong shape', async () => {
    expect((await ingestProjectSetting({contributedSettings: 5}, {id: 1, path: 'p'})).errors[0]!.message).toBe(
      'project p (#1): /contributedSettings: expected array or object, got integer',
    )
    expect((await ingestProjectSetting({contributedSettings: [{'@type': 'SlackNotificationSetting', notifications: [{webhookUrl: 1}]}]}, {id: 1, path: 'p'})).errors[0]!.message).toBe(
      'project p (#1): /contributedSettings/0/notifications/0/webhookUrl: expected string, got integer',
    )
    expect((await ingestProjectSetting({contributedSettings: {'x.y': 'z'}}, {id: 1, path: 'p'})).errors[0]!.message).toBe(
      'project p (#1): /contributedSettings/x.y: expected object, got string',
    )
  })

  test('control characters of a hostile project path are escaped in the message', async () => {
    const [error] = (await ingestProjectSetting([], {id: 1, path: 'evil\n\u001b[31mred'})).errors
    expect(error!.message).toBe('project evil \\x1b[31mred (#1): (root): expected object, got array')
    expect(error!.project).toEqual({id: 1, path: 'evil\n\u001b[31mred'})
  })

  test('the returned raw is redacted even when the payload is invalid', async () => {
    const result = await ingestProjectSetting({branchProtections: 1, buildSetting: {jobSecrets: [{value: 'CANARY-invalid-7f3a'}]}}, {id: 1, path: 'p'})
    expect(result.setting).toBeNull()
    expectNoCanary(JSON.stringify(result.raw))
  })

  test('the input is never mutated', async () => {
    const raw = fixture('current/setting-full.json')
    const before = JSON.stringify(raw)
    await ingestProjectSetting(raw, {id: 1, path: 'p'})
    expect(JSON.stringify(raw)).toBe(before)
  })
})

describe('ingestRoles', () => {
  test('the current fixture: ten roles, flags and job privileges with pointers relative to the role', async () => {
    const {roles, errors, raw} = await ingestRoles(fixture('roles.json') as unknown[])
    expect(errors).toEqual([])
    expect(roles.map((r) => [r.index, r.id, r.name])).toEqual([
      [0, 3, 'Code Reader'],
      [1, 2, 'Code Writer'],
      [2, 9, 'Developer (legacy grant)'],
      [3, 7, 'Issue Manager'],
      [4, 4, 'Issue Reporter'],
      [5, 6, 'Package Reader'],
      [6, 5, 'Package Writer'],
      [7, 1, 'Project Owner'],
      [8, 10, 'Release Bot'],
      [9, 8, 'Workspace Creator'],
    ])
    const bot = roles[8]!
    expect(bot).toMatchObject({manageProject: true, createChildren: true, manageBuilds: true, codePrivilege: 'WRITE', packPrivilege: 'WRITE', uploadCache: false})
    expect(bot.jobPrivileges).toEqual([
      {pointer: '/jobPrivileges/0', jobNames: '*', manageJob: true, runJob: true, accessLog: true, accessPipeline: true, accessibleReports: '*'},
    ])
    expect(bot.raw).toBe(raw[8])
  })

  test('legacy roles: absent flags and privileges are false or null', async () => {
    const {roles, errors} = await ingestRoles(fixture('legacy/roles.json') as unknown[])
    expect(errors).toEqual([])
    // No uploadCache member before 10.1.0 (v10.1.0 Role.java:70): null, the server uploads no build cache.
    expect(roles[0]).toMatchObject({name: 'Code Reader', codePrivilege: null, packPrivilege: null, uploadCache: null})
    expect(roles[0]!.jobPrivileges[0]).toEqual({pointer: '/jobPrivileges/0', jobNames: '*', manageJob: false, runJob: false, accessLog: false, accessPipeline: false, accessibleReports: null})
  })

  test('a bad role is an error naming its index; the others are still ingested and keep their index', async () => {
    const {roles, errors, raw} = await ingestRoles([{id: 1, name: 'Owner', manageProject: true}, {id: '2', name: 'Bad', jobPrivileges: [{runJob: 'yes'}]}, 'role', {id: 3}])
    expect(roles.map((r) => [r.index, r.id, r.name])).toEqual([
      [0, 1, 'Owner'],
      [3, 3, '3'],
    ])
    expect(errors).toEqual([
      {kind: 'invalid-payload', message: 'role #1: /id: expected integer, got string; /jobPrivileges/0/runJob: expected boolean, got string', pointer: '/1/id'},
      {kind: 'invalid-payload', message: 'role #2: (root): expected object, got string', pointer: '/2'},
    ])
    expect(raw).toHaveLength(4)
  })

  test('secrets in roles are redacted too', async () => {
    const {raw} = await ingestRoles([{id: 1, name: 'x', description: 'https://u:CANARY-role-url-7f3a@x.example.com', apiToken: 'CANARY-role-token-7f3a'}])
    expectNoCanary(JSON.stringify(raw))
  })
})

describe('ingestProjectList', () => {
  test('id, parent, and the path falling back to the name, then the id', async () => {
    const {projects, errors} = await ingestProjectList([
      {id: 1, path: 'group', name: 'group', parentId: null},
      {id: 2, path: 'group/repo', name: 'repo', parentId: 1, description: 'x'},
      {id: 3, name: 'only-name'},
      {id: 4, path: '', name: null},
    ])
    expect(errors).toEqual([])
    expect(projects).toEqual([
      {id: 1, path: 'group', name: 'group', parentId: null},
      {id: 2, path: 'group/repo', name: 'repo', parentId: 1},
      {id: 3, path: 'only-name', name: 'only-name', parentId: null},
      {id: 4, path: '4', name: null, parentId: null},
    ])
  })

  test('bad items are errors with their index; good ones are kept', async () => {
    const {projects, errors} = await ingestProjectList([{id: 1.5}, null, {id: 2, parentId: 'x'}, {id: 3}])
    expect(projects).toEqual([{id: 3, path: '3', name: null, parentId: null}])
    expect(errors.map((e) => [e.message, e.pointer])).toEqual([
      ['project list item #0: /id: expected integer, got number', '/0/id'],
      ['project list item #1: (root): expected object, got null', '/1'],
      ['project list item #2: /parentId: expected integer, got string', '/2/parentId'],
    ])
  })
})

describe('roles with a repeated id', () => {
  test('keeps the first and reports the second as an invalid payload', async () => {
    const out = await ingestRoles([
      {id: 7, name: 'Ops'},
      {id: 7, name: 'Shadow', manageProject: true},
    ])
    expect(out.roles.map((r) => r.name)).toEqual(['Ops'])
    expect(out.errors).toEqual([{kind: 'invalid-payload', message: 'role #1: /id: duplicate role id 7 (left out)', pointer: '/1/id'}])
  })
})
