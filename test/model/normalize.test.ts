import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, test} from 'vitest'

import {ingestProjectSetting} from '../../src/model/ingest.js'
import {detectGeneration} from '../../src/model/normalize.js'
import {escapePointerToken, hasPointer, joinPointer, parsePointer, resolvePointer} from '../../src/model/pointer.js'
import type {ProjectSetting} from '../../src/model/types.js'
import {FIXTURES_DIR} from '../helpers/canaries.js'

const ref = {id: 12, path: 'group/repo'}

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, name), 'utf8'))
}

async function ingest(raw: unknown): Promise<{raw: unknown; setting: ProjectSetting}> {
  const result = await ingestProjectSetting(raw, ref)
  expect(result.errors).toEqual([])
  return {raw: result.raw, setting: result.setting!}
}

/** Every pointer of the model, with whether it must name an existing member (signature and authorization may be defaults). */
function pointersOf(setting: ProjectSetting): {pointer: string; mayBeAbsent: boolean}[] {
  const out: {pointer: string; mayBeAbsent: boolean}[] = []
  const add = (pointer: string, mayBeAbsent = false) => out.push({pointer, mayBeAbsent})
  for (const p of setting.branchProtections) {
    add(p.pointer)
    add(p.signaturePointer, true)
    for (const f of p.fileProtections) add(f.pointer)
  }
  for (const p of setting.tagProtections) {
    add(p.pointer)
    add(p.signaturePointer, true)
  }
  for (const s of setting.jobSecrets) {
    add(s.pointer)
    add(s.authorization.pointer, true)
  }
  for (const a of setting.actionAuthorizations ?? []) add(a.pointer)
  for (const n of setting.notifications) add(n.pointer)
  for (const w of setting.webHooks) add(w.pointer)
  return out
}

function expectPointersResolve(raw: unknown, setting: ProjectSetting): void {
  for (const {pointer, mayBeAbsent} of pointersOf(setting)) {
    if (mayBeAbsent) {
      const parent = pointer.slice(0, pointer.lastIndexOf('/'))
      expect(hasPointer(raw, parent), `${pointer}'s object`).toBe(true)
    } else {
      expect(hasPointer(raw, pointer), pointer).toBe(true)
    }
  }
}

describe('pointers', () => {
  test('tokens are escaped and unescaped per RFC 6901', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c')
    expect(joinPointer('/x', 'a/b', 0, '~')).toBe('/x/a~1b/0/~0')
    expect(parsePointer('/x/a~1b/0/~0')).toEqual(['x', 'a/b', '0', '~'])
    expect(parsePointer('')).toEqual([])
    expect(parsePointer('x')).toBeNull()
    expect(parsePointer('/a~2')).toBeNull()
  })

  test('resolvePointer reads own members only', () => {
    const doc = JSON.parse('{"a/b": [10, {"~": null}], "__proto__": {"x": 1}}')
    expect(resolvePointer(doc, '/a~1b/0')).toBe(10)
    expect(resolvePointer(doc, '/a~1b/1/~0')).toBeNull()
    expect(hasPointer(doc, '/a~1b/1/~0')).toBe(true)
    expect(resolvePointer(doc, '/__proto__/x')).toBe(1)
    expect(hasPointer({}, '/constructor')).toBe(false)
    expect(hasPointer({}, '/__proto__')).toBe(false)
    expect(hasPointer([1], '/01')).toBe(false)
    expect(hasPointer([1], '/1')).toBe(false)
    expect(resolvePointer(doc, '')).toBe(doc)
  })
})

describe('normalization of the fixtures', () => {
  test('current fixture: protections, secrets, hooks and notifications with pointers', async () => {
    const {raw, setting} = await ingest(fixture('current/setting-full.json'))
    expect(setting.generation).toBe('current')
    expect(setting.branchProtections.map((p) => [p.branches, p.userMatch, p.enabled, p.preventForcedPush, p.signatureRequired])).toEqual([
      ['main release/**', 'anyone except group(release-bots)', true, true, true],
      ['develop', 'anyone', true, false, false],
      ['hotfix/*', 'anyone', false, true, false],
      ['**', 'anyone except user(admin)', true, true, false],
    ])
    expect(setting.branchProtections[0]!.fileProtections).toEqual([
      {pointer: '/branchProtections/0/fileProtections/0', paths: '.onedev-buildspec.yml', reviewRequirement: 'group(devops)', jobNames: []},
      {pointer: '/branchProtections/0/fileProtections/1', paths: 'deploy/** -deploy/docs/**', reviewRequirement: null, jobNames: ['deploy-lint']},
    ])
    expect(setting.jobSecrets.map((s) => [s.name, s.archived, s.authorization])).toEqual([
      ['deploy-token', false, {kind: 'job-match', expression: 'on branch "main"', pointer: '/buildSetting/jobSecrets/0/authorization'}],
      ['npm-token', false, {kind: 'job-match', expression: null, pointer: '/buildSetting/jobSecrets/1/authorization'}],
      ['sonar-login', false, {kind: 'job-match', expression: 'on branch "**"', pointer: '/buildSetting/jobSecrets/2/authorization'}],
      ['old-registry-password', true, {kind: 'job-match', expression: 'on branch "release/**" or on branch "main"', pointer: '/buildSetting/jobSecrets/3/authorization'}],
    ])
    expect(setting.webHooks).toEqual([
      {
        pointer: '/webHooks/0',
        postUrl: 'http://ci.internal/hook',
        url: {scheme: 'http', host: 'ci.internal', hadUserInfo: false, secretQueryParams: [], secretPath: false},
        hasSecret: true,
        headerNames: ['Authorization', 'X-Api-Key'],
        eventTypes: ['CODE_PUSH', 'PULL_REQUEST'],
      },
      {
        pointer: '/webHooks/1',
        postUrl: 'https://REDACTED@deploy.example.com/hooks/onedev',
        url: {scheme: 'https', host: 'deploy.example.com', hadUserInfo: true, secretQueryParams: [], secretPath: false},
        hasSecret: false,
        headerNames: [],
        eventTypes: ['BUILD'],
      },
      {
        pointer: '/webHooks/2',
        postUrl: 'https://jenkins.example.com/generic-webhook-trigger/invoke?token=REDACTED&job=web',
        url: {scheme: 'https', host: 'jenkins.example.com', hadUserInfo: false, secretQueryParams: ['token'], secretPath: false},
        hasSecret: true,
        headerNames: ['X-Trace'],
        eventTypes: ['CODE_PUSH'],
      },
    ])
    expect(setting.notifications.map((n) => [n.pointer, n.channel, n.webhookUrl])).toEqual([
      ['/contributedSettings/0/notifications/0', 'Slack', 'https://hooks.slack.com/services/REDACTED'],
      ['/contributedSettings/1/notifications/0', 'Discord', 'https://discord.com/api/webhooks/112233445566778899/REDACTED'],
      ['/contributedSettings/2/notifications/0', 'Ntfy', 'http://ntfy.example.com/onedev-builds?auth=REDACTED'],
    ])
    // A current server sends no action authorizations at all (removed in 8.0.5): not an empty list.
    expect(setting.actionAuthorizations).toBeNull()
    expectPointersResolve(raw, setting)
  })

  test('legacy fixture: signatureRequired, authorizedBranches, action authorizations, both notification places', async () => {
    const {raw, setting} = await ingest(fixture('legacy/setting-full.json'))
    expect(setting.generation).toBe('legacy')
    expect(setting.branchProtections[0]).toMatchObject({signatureRequired: true, signaturePointer: '/branchProtections/0/signatureRequired'})
    expect(setting.jobSecrets.map((s) => s.authorization)).toEqual([
      {kind: 'branches', branches: 'main', pointer: '/buildSetting/jobSecrets/0/authorizedBranches'},
      {kind: 'branches', branches: null, pointer: '/buildSetting/jobSecrets/1/authorizedBranches'},
      {kind: 'branches', branches: '**', pointer: '/buildSetting/jobSecrets/2/authorizedBranches'},
    ])
    expect(setting.actionAuthorizations).toEqual([
      {pointer: '/buildSetting/actionAuthorizations/0', type: 'CloseMilestoneAuthorization', authorizedBranches: null, names: null},
      {pointer: '/buildSetting/actionAuthorizations/1', type: 'CreateTagAuthorization', authorizedBranches: 'main', names: 'v*'},
    ])
    expect(setting.notifications.map((n) => [n.pointer, n.channel, n.webhookUrl])).toEqual([
      ['/notifications/0/channelNotification', 'Slack', 'https://hooks.slack.com/services/REDACTED'],
      [
        '/contributedSettings/io.onedev.server.plugin.notification.slack.SlackNotificationSetting/notifications/0/channelNotification',
        'Slack',
        'https://hooks.slack.com/services/REDACTED',
      ],
      [
        '/contributedSettings/io.onedev.server.plugin.notification.discord.DiscordNotificationSetting/notifications/0/channelNotification',
        'Discord',
        'https://discordapp.com/api/webhooks/998877665544332211/REDACTED',
      ],
    ])
    expectPointersResolve(raw, setting)
  })
})

describe('both generations mean the same thing', () => {
  const legacy = {
    branchProtections: [{branches: 'main', userMatch: null, preventForcedPush: false, signatureRequired: true, jobNames: ['ci'], fileProtections: []}],
    tagProtections: [{tags: 'v*', signatureRequired: false}],
    buildSetting: {jobSecrets: []},
    contributedSettings: {
      'io.onedev.server.plugin.notification.slack.SlackNotificationSetting': {
        '@type': 'SlackNotificationSetting',
        notifications: [{channelNotification: {webhookUrl: 'https://hooks.slack.com/services/T/B/X', issues: true}}],
      },
    },
  }
  const current = {
    branchProtections: [{branches: 'main', userMatch: 'anyone', preventForcedPush: false, commitSignatureRequired: true, jobNames: ['ci'], fileProtections: []}],
    tagProtections: [{tags: 'v*', commitSignatureRequired: false}],
    buildSetting: {jobSecrets: []},
    contributedSettings: [{'@type': 'SlackNotificationSetting', notifications: [{webhookUrl: 'https://hooks.slack.com/services/T/B/Y', issues: true}]}],
  }

  test('equal models apart from generation and pointers', async () => {
    const strip = (setting: ProjectSetting) =>
      JSON.parse(JSON.stringify({...setting, generation: undefined}, (key, value) => (key === 'pointer' || key === 'signaturePointer' ? undefined : value)))
    const a = (await ingest(legacy)).setting
    const b = (await ingest(current)).setting
    expect(a.generation).toBe('legacy')
    expect(b.generation).toBe('current')
    expect(strip(a)).toEqual(strip(b))
    expect(a.branchProtections[0]).toMatchObject({preventDeletion: true, preventCreation: true, userMatch: 'anyone', signatureRequired: true, reviewRequirement: null})
  })

  test('secrets: legacy branch sets and current job-match expressions keep their own kind', async () => {
    expect((await ingest({buildSetting: {jobSecrets: [{name: 'a', value: 'x', authorizedBranches: null}]}})).setting.jobSecrets[0]!.authorization).toEqual({
      kind: 'branches',
      branches: null,
      pointer: '/buildSetting/jobSecrets/0/authorizedBranches',
    })
    expect((await ingest({buildSetting: {jobSecrets: [{name: 'a', value: 'x', authorization: null}]}})).setting.jobSecrets[0]!.authorization).toEqual({
      kind: 'job-match',
      expression: null,
      pointer: '/buildSetting/jobSecrets/0/authorization',
    })
  })
})

describe('defaults and generation markers', () => {
  test('an empty protection takes the server defaults', async () => {
    const {setting} = await ingest({branchProtections: [{}], tagProtections: [{enabled: null, userMatch: ''}]})
    expect(setting.branchProtections[0]).toEqual({
      pointer: '/branchProtections/0',
      enabled: true,
      branches: null,
      userMatch: 'anyone',
      preventForcedPush: true,
      preventDeletion: true,
      preventCreation: true,
      signatureRequired: false,
      signaturePointer: '/branchProtections/0', // the payload has no signature member
      reviewRequirement: null,
      jobNames: [],
      fileProtections: [],
      requireStrictBuilds: false, // the field's initializer (v16.5.6 BranchProtection.java:76)
    })
    expect(setting.tagProtections[0]).toEqual({
      pointer: '/tagProtections/0',
      enabled: true,
      tags: null,
      userMatch: 'anyone',
      preventUpdate: true,
      preventDeletion: true,
      preventCreation: true,
      signatureRequired: false,
      signaturePointer: '/tagProtections/0',
    })
  })

  test('an empty payload is a current setting with nothing in it', async () => {
    expect((await ingest({})).setting).toEqual({
      generation: 'current',
      branchProtections: [],
      tagProtections: [],
      jobSecrets: [],
      actionAuthorizations: null,
      notifications: [],
      webHooks: [],
    })
  })

  test.each([
    [{branchProtections: [{signatureRequired: false}]}, 'legacy'],
    [{tagProtections: [{signatureRequired: null}]}, 'legacy'],
    [{buildSetting: {jobSecrets: [{authorizedBranches: null}]}}, 'legacy'],
    [{buildSetting: {actionAuthorizations: []}}, 'legacy'],
    [{notifications: []}, 'legacy'],
    [{contributedSettings: {}}, 'legacy'],
    [{contributedSettings: [{'@type': 'SlackNotificationSetting', notifications: [{channelNotification: {}}]}]}, 'legacy'],
    [{contributedSettings: []}, 'current'],
    [{branchProtections: [{commitSignatureRequired: false}], buildSetting: {jobSecrets: [{authorization: null}]}}, 'current'],
  ])('%j is %s', (raw, generation) => {
    expect(detectGeneration(raw)).toBe(generation)
  })

  test('action authorizations: a list (empty when the payload has it empty or null) only when the payload has the member', async () => {
    expect((await ingest({buildSetting: {actionAuthorizations: []}})).setting.actionAuthorizations).toEqual([])
    expect((await ingest({buildSetting: {actionAuthorizations: null}})).setting.actionAuthorizations).toEqual([])
    expect((await ingest({buildSetting: {jobSecrets: []}})).setting.actionAuthorizations).toBeNull()
  })

  test('a secret with neither key follows its siblings, else the generation', async () => {
    const siblings = (await ingest({buildSetting: {jobSecrets: [{name: 'a', authorization: 'on branch "main"'}, {name: 'b'}]}})).setting
    expect(siblings.jobSecrets[1]!.authorization).toEqual({kind: 'job-match', expression: null, pointer: '/buildSetting/jobSecrets/1'})
    const legacy = (await ingest({buildSetting: {jobSecrets: [{name: 'b'}], actionAuthorizations: []}})).setting
    expect(legacy.jobSecrets[0]!.authorization).toEqual({kind: 'branches', branches: null, pointer: '/buildSetting/jobSecrets/0'})
    const current = (await ingest({buildSetting: {jobSecrets: [{name: 'b'}]}})).setting
    expect(current.jobSecrets[0]!.authorization.kind).toBe('job-match')
  })

  test('contributed map keys with / and ~ are escaped in pointers, and those pointers resolve', async () => {
    const raw = {contributedSettings: {'a/b~c.SlackNotificationSetting': {notifications: [{channelNotification: {webhookUrl: 'https://hooks.slack.com/services/x'}}]}}}
    const {raw: redacted, setting} = await ingest(raw)
    expect(setting.notifications).toEqual([
      {
        pointer: '/contributedSettings/a~1b~0c.SlackNotificationSetting/notifications/0/channelNotification',
        channel: 'Slack',
        channelKnown: true,
        webhookUrl: 'https://hooks.slack.com/services/REDACTED',
        url: {scheme: 'https', host: 'hooks.slack.com', hadUserInfo: false, secretQueryParams: [], secretPath: true},
        events: [],
      },
    ])
    expectPointersResolve(redacted, setting)
  })

  test('other plugins in contributedSettings are ignored, whatever their shape', async () => {
    const {setting} = await ingest({contributedSettings: [{'@type': 'JiraSetting', notifications: 'not a list'}, null, {'@type': 'NtfyNotificationSetting', notifications: null}]})
    expect(setting.notifications).toEqual([])
  })

  test('top-level notifications without a type are named after their host, and known to be guessed', async () => {
    const {setting} = await ingest({notifications: [{channelNotification: {webhookUrl: 'https://discord.com/api/webhooks/1/t'}}, {channelNotification: {webhookUrl: null}}]})
    expect(setting.notifications.map((n) => [n.channel, n.channelKnown, n.webhookUrl, n.url])).toEqual([
      ['Discord', false, 'https://discord.com/api/webhooks/1/REDACTED', {scheme: 'https', host: 'discord.com', hadUserInfo: false, secretQueryParams: [], secretPath: true}],
      ['Unknown', false, null, null],
    ])
  })

  test('the events a notification is sent for, in both places and both shapes; anything but true is off', async () => {
    const events = {issues: true, issueQuery: 'state is "Open"', pullRequests: 'yes', builds: true, buildQuery: null, codePush: false, codeComments: true}
    const {setting} = await ingest({
      notifications: [{channelNotification: {webhookUrl: 'https://chat.example.com/a', ...events}}],
      contributedSettings: [{'@type': 'NtfyNotificationSetting', notifications: [{webhookUrl: 'https://ntfy.example.com/b', pullRequests: true}]}],
    })
    expect(setting.notifications.map((n) => [n.channel, n.channelKnown, n.events])).toEqual([
      ['Unknown', false, ['issues', 'builds', 'code comments']],
      ['Ntfy', true, ['pull requests']],
    ])
  })
})
