/**
 * Server data the audit read but cannot understand is said as a not-evaluated notice, never passed
 * silently: a setting of another shape, a listing that is not a list, items of a listing left out.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {beforeAll, describe, expect, it} from 'vitest'

import {coverageOf} from '../../src/engine/coverage.js'
import type {ServerData} from '../../src/model/types.js'
import {ROOT, runCli} from '../helpers/cli.js'
import {model} from '../helpers/model-builders.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'
import {tempDir} from '../helpers/temp-dir.js'

const notices = (serverData: ServerData) => coverageOf({...model(), serverData}, DEFAULT_SETTINGS).notices.map((n) => `${n.kind}: ${n.message}`)

describe('server data of a shape the audit does not know', () => {
  it('a valid document says nothing', () => {
    expect(
      notices({
        'settings/security': {enableAnonymousAccess: false, passwordPolicy: {minLength: 12}},
        'settings/authenticator': null,
        groups: [{id: 1, name: 'admins', administrator: true}],
        'groups/1/memberships': [{id: 1, userId: 2, groupId: 1}],
        'projects/7/base-authorizations': [{id: 1, projectId: 7, roleId: 2}],
      }),
    ).toEqual([])
  })

  it('a whole setting of another shape: its checks were not evaluated', () => {
    expect(notices({'settings/security': {enableAnonymousAccess: 'yes'}, 'settings/system': 42, 'settings/authenticator': {ldapUrl: 'ldap://x'}})).toEqual([
      'not-evaluated: GET /settings/authenticator: its answer has a shape the audit does not know, so the checks that need it were not evaluated',
      'not-evaluated: GET /settings/security: its answer has a shape the audit does not know, so the checks that need it were not evaluated',
      'not-evaluated: GET /settings/system: its answer has a shape the audit does not know, so the checks that need it were not evaluated',
    ])
  })

  it('items left out of a listing are counted; answers of one endpoint for many projects make one notice', () => {
    expect(
      notices({
        groups: [{id: 1, name: 'admins'}, {name: 'no id'}, 'junk'],
        'projects/1/base-authorizations': [{roleId: 'two'}],
        'projects/2/base-authorizations': {not: 'a list'},
        'projects/3/base-authorizations': [{roleId: 2}, {roleId: null}],
      }),
    ).toEqual([
      'not-evaluated: GET /groups: 2 of 3 items have a shape the audit does not know and were left out of the checks',
      'not-evaluated: GET /projects/{id}/base-authorizations: 2 of its answers have a shape the audit does not know, so the checks that need them were not evaluated; 1 of 2 items have a shape the audit does not know and were left out of the checks',
    ])
  })
})

describe('scan of a snapshot whose security setting has another shape', () => {
  let dir: string
  beforeAll(async () => {
    dir = await tempDir('oda-coverage')
  })

  it('says the security checks were not evaluated, on stderr and in the report, and keeps the exit code', async () => {
    const example = JSON.parse(await readFile(join(ROOT, 'examples', 'snapshot.json'), 'utf8')) as {serverData: Record<string, unknown>}
    const snapshot = join(dir, 'snapshot.json')
    await writeFile(snapshot, JSON.stringify({...example, serverData: {...example.serverData, 'settings/security': {enableAnonymousAccess: 'yes-please'}}}))
    const [changed, original] = await Promise.all([
      runCli(['scan', '--snapshot', snapshot, '--format', 'json', '--fail-on', 'critical']),
      runCli(['scan', '--snapshot', 'examples/snapshot.json', '--format', 'json', '--fail-on', 'critical']),
    ])
    const notice = 'GET /settings/security: its answer has a shape the audit does not know, so the checks that need it were not evaluated'
    expect(JSON.parse(changed.stdout).notices).toEqual([{kind: 'not-evaluated', message: notice}])
    expect(changed.stderr).toBe(`onedev-audit: not-evaluated: ${notice}\n`)
    expect(JSON.parse(original.stdout).notices).toEqual([])
    expect(changed.code).toBe(original.code)
    expect(changed.code).toBe(1)
  }, 60_000)
})
