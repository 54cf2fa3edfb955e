/**
 * Property tests: whatever a server sends, ingest never throws, never lets a planted secret through,
 * and every pointer of the model names a member of the redacted raw payload.
 */
import fc from 'fast-check'
import {describe, expect, test} from 'vitest'
import type {z} from 'zod'

import {checkName} from '../../src/model/fast-validate.js'
import {ingestProjectList, ingestProjectSetting, ingestProjectSettingNow, ingestRoles} from '../../src/model/ingest.js'
import {hasPointer} from '../../src/model/pointer.js'
import {redactDeep, redactOwned, redactUrl} from '../../src/model/redact.js'
import * as checks from '../../src/model/payload-checks.js'
import * as schemas from '../../src/model/schemas.js'
import * as serverSchemas from '../../src/model/server-schemas.js'
import type {ProjectSetting} from '../../src/model/types.js'
import {expectNoCanary, findCanaries} from '../helpers/canaries.js'
import {INSECURE_SECRET_URLS, SECRET_KEYED_VALUES, SECRET_URLS} from '../helpers/hostile.js'

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/)
const canary = word.map((w) => `CANARY-${w}-7f3a`)
const host = fc.constantFrom('ci.example.com', 'hooks.slack.com', 'discord.com', 'discordapp.com', '10.0.0.7', 'ntfy.sh', 'xn--bcher-kva.example')
const secretParam = fc.constantFrom('token', 'access_token', 'key', 'api_key', 'apikey', 'secret', 'password', 'pass', 'sig', 'signature', 'auth', 'code', 'hash', 'private_token', 'X-Amz-Signature', 'Token')
const secretKey = fc.constantFrom('password', 'Password', 'passwd', 'apiToken', 'token', 'secret', 'clientSecret', 'api_key', 'apiKey', 'API-KEY', 'credentials', 'privateKey', 'private_key', ...Object.keys(SECRET_KEYED_VALUES))

/** URLs holding a canary where a credential would be, or clean ones. */
const url = fc.oneof(
  fc.tuple(fc.constantFrom('http', 'https', 'ftp', 'ssh'), word, canary, host, word).map(([s, u, c, h, p]) => `${s}://${u}:${c}@${h}/${p}`),
  fc.tuple(canary, host).map(([c, h]) => `https://${c}@${h}/hook`),
  fc.tuple(host, word, secretParam, canary).map(([h, p, n, c]) => `https://${h}/${p}?page=1&${n}=${c}&x`),
  fc.tuple(host, secretParam, canary).map(([h, n, c]) => `https://${h}/cb#${n}=${c}`),
  canary.map((c) => `https://hooks.slack.com/services/T0123ABC/B0456DEF/${c}`),
  fc.tuple(fc.stringMatching(/^[0-9]{5,19}$/), canary).map(([id, c]) => `https://discord.com/api/webhooks/${id}/${c}`),
  fc.tuple(host, canary).map(([h, c]) => `https://${h}/hooks/${c}x9x9x9x9/trigger`),
  fc.tuple(fc.constantFrom('http', 'https'), host, word).map(([s, h, p]) => `${s}://${h}/${p}`),
  // The receivers' own URL formats, with their tokens (the hostile corpus).
  fc.constantFrom(...SECRET_URLS.map((entry) => entry.url), ...INSECURE_SECRET_URLS.map((entry) => entry.url)),
)

/** Any JSON-ish value that does not belong there (the server is hostile). */
const junk = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}), fc.array(fc.string(), {maxLength: 2}))
const sometimes = <T>(good: fc.Arbitrary<T>) => fc.oneof({weight: 8, arbitrary: good}, {weight: 1, arbitrary: junk})
const text = sometimes(fc.oneof(word, fc.constant(null), fc.string()))
const flag = sometimes(fc.oneof(fc.boolean(), fc.constant(null)))
const names = sometimes(fc.array(word, {maxLength: 3}))
/** What sits in a secret place: a canary, or null, empty, or a canary in the wrong type. */
const secretValue = fc.oneof(
  {weight: 6, arbitrary: canary},
  {weight: 1, arbitrary: fc.constant(null)},
  {weight: 1, arbitrary: fc.constant('')},
  {weight: 1, arbitrary: canary.map((c) => ({nested: c}))},
  {weight: 1, arbitrary: canary.map((c) => [c])},
)
const record = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) => fc.record(shape, {requiredKeys: []})

const fileProtection = sometimes(record({paths: text, reviewRequirement: text, jobNames: names}))
const branchProtection = sometimes(
  record({
    enabled: flag,
    branches: text,
    userMatch: text,
    preventForcedPush: flag,
    preventDeletion: flag,
    preventCreation: flag,
    signatureRequired: flag,
    commitSignatureRequired: flag,
    reviewRequirement: text,
    jobNames: names,
    fileProtections: sometimes(fc.array(fileProtection, {maxLength: 2})),
  }),
)
const tagProtection = sometimes(record({enabled: flag, tags: text, userMatch: text, preventUpdate: flag, signatureRequired: flag, commitSignatureRequired: flag}))
const jobSecret = sometimes(record({name: text, value: secretValue, authorization: text, authorizedBranches: text, archived: flag}))
const header = sometimes(record({name: text, value: secretValue}))
const webHook = sometimes(record({postUrl: sometimes(url), eventTypes: names, secret: secretValue, headers: sometimes(fc.array(header, {maxLength: 3}))}))
const notificationFields = record({webhookUrl: sometimes(url), issues: flag, issueQuery: text})
const notificationEntry = fc.oneof(notificationFields, record({channelNotification: sometimes(notificationFields)}))
const channelType = fc.constantFrom('SlackNotificationSetting', 'DiscordNotificationSetting', 'NtfyNotificationSetting')
const notificationSetting = record({'@type': channelType, notifications: sometimes(fc.array(notificationEntry, {maxLength: 2}))})
const pluginSetting = fc.tuple(word, secretKey, secretValue, url).map(([type, key, value, link]) => ({'@type': `${type}Setting`, [key]: value, serverUrl: link}))
const contributed = fc.oneof(
  fc.array(fc.oneof(notificationSetting, pluginSetting), {maxLength: 3}),
  fc.dictionary(fc.oneof(fc.constantFrom('io.onedev.slack.SlackNotificationSetting', 'io.onedev.discord.DiscordNotificationSetting', 'a/b~c.SlackNotificationSetting'), word), fc.oneof(notificationSetting, pluginSetting), {maxKeys: 3}),
  junk,
)

const setting = sometimes(
  record({
    branchProtections: sometimes(fc.array(branchProtection, {maxLength: 3})),
    tagProtections: sometimes(fc.array(tagProtection, {maxLength: 2})),
    buildSetting: sometimes(
      record({
        jobSecrets: sometimes(fc.array(jobSecret, {maxLength: 3})),
        jobProperties: fc.array(fc.record({name: secretKey, value: secretValue}), {maxLength: 2}),
        actionAuthorizations: sometimes(fc.array(record({'@type': text, authorizedBranches: text, tagNames: text, milestoneNames: text}), {maxLength: 2})),
      }),
    ),
    notifications: sometimes(fc.array(notificationEntry, {maxLength: 2})),
    contributedSettings: contributed,
    webHooks: sometimes(fc.array(webHook, {maxLength: 3})),
    description: url.map((u) => `see ${u} for details`),
  }),
)

function settingPointers(s: ProjectSetting): {pointer: string; mayBeAbsent: boolean}[] {
  return [
    ...s.branchProtections.flatMap((p) => [
      {pointer: p.pointer, mayBeAbsent: false},
      {pointer: p.signaturePointer, mayBeAbsent: true},
      ...p.fileProtections.map((f) => ({pointer: f.pointer, mayBeAbsent: false})),
    ]),
    ...s.tagProtections.flatMap((p) => [
      {pointer: p.pointer, mayBeAbsent: false},
      {pointer: p.signaturePointer, mayBeAbsent: true},
    ]),
    ...s.jobSecrets.flatMap((j) => [
      {pointer: j.pointer, mayBeAbsent: false},
      {pointer: j.authorization.pointer, mayBeAbsent: true},
    ]),
    ...[...(s.actionAuthorizations ?? []), ...s.notifications, ...s.webHooks].map((x) => ({pointer: x.pointer, mayBeAbsent: false})),
  ]
}

async function checkIngest(raw: unknown): Promise<void> {
  const result = await ingestProjectSetting(raw, {id: 7, path: 'group/repo'})
  expect(findCanaries(JSON.stringify(result))).toEqual([])
  // The path without waiting (snapshot loading) gives the same, or hands over a setting that is invalid.
  const now = ingestProjectSettingNow(raw, {id: 7, path: 'group/repo'})
  if ('failed' in now) {
    expect(result.setting).toBeNull()
    expect(now.failed).toEqual(result.raw)
  } else {
    expect(now).toEqual(result)
  }
  if (result.setting === null) {
    expect(result.errors).toHaveLength(1)
    expect(result.errors[0]!.kind).toBe('invalid-payload')
    expect(result.errors[0]!.message).not.toMatch(/[\n\r]/)
    return
  }
  expect(result.errors).toEqual([])
  for (const {pointer, mayBeAbsent} of settingPointers(result.setting)) {
    const target = mayBeAbsent ? pointer.slice(0, pointer.lastIndexOf('/')) : pointer
    expect(hasPointer(result.raw, target), pointer).toBe(true)
  }
  // Re-ingesting the redacted raw (what a snapshot stores) gives the same model.
  expect(await ingestProjectSetting(result.raw, {id: 7, path: 'group/repo'})).toEqual(result)
}

describe('ingestProjectSetting over generated payloads', () => {
  test('structured payloads with canaries in every secret place and junk in any field', async () => {
    await fc.assert(fc.asyncProperty(setting, checkIngest), {numRuns: 400})
  })

  test('anything at all', async () => {
    await fc.assert(fc.asyncProperty(fc.anything({withNullPrototype: true, withObjectString: true, maxDepth: 4}), checkIngest), {numRuns: 300})
  })

  test('the generators do plant canaries (the test above could fail)', () => {
    const samples = fc.sample(setting, {numRuns: 50, seed: 42})
    expect(samples.filter((s) => findCanaries(JSON.stringify(s)).length > 0).length).toBeGreaterThan(30)
    expect(() => expectNoCanary(JSON.stringify(samples))).toThrow(/secret canary leaked: CANARY-/)
  })
})

describe('roles and project lists over generated payloads', () => {
  const role = sometimes(
    record({
      id: sometimes(fc.integer()),
      name: text,
      manageProject: flag,
      description: url,
      jobPrivileges: sometimes(fc.array(sometimes(record({jobNames: text, runJob: flag, accessibleReports: text})), {maxLength: 2})),
      apiToken: secretValue,
    }),
  )

  test('ingestRoles never throws, keeps every position, leaks nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(role, fc.anything()), {maxLength: 6}), async (raw) => {
        const result = await ingestRoles(raw)
        expect(result.raw).toHaveLength(raw.length)
        expect(result.roles.length + result.errors.length).toBe(raw.length)
        for (const r of result.roles) expect(r.raw).toBe(result.raw[r.index])
        expect(findCanaries(JSON.stringify(result))).toEqual([])
      }),
      {numRuns: 200},
    )
  })

  test('ingestProjectList never throws and accounts for every item', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(record({id: sometimes(fc.integer()), parentId: sometimes(fc.integer()), path: text, name: text}), fc.anything()), {maxLength: 6}), async (items) => {
        const result = await ingestProjectList(items)
        expect(result.projects.length + result.errors.length).toBe(items.length)
        for (const p of result.projects) expect(typeof p.path).toBe('string')
      }),
      {numRuns: 200},
    )
  })
})

describe('redaction is idempotent', () => {
  test('redactUrl on web URLs, generated credential URLs and arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({withQueryParameters: true, withFragments: true, authoritySettings: {withUserInfo: true, withPort: true}}), url, fc.string(), fc.string().map((s) => `https://${s}`)), (input) => {
        const once = redactUrl(input)
        expect(redactUrl(once.url)).toEqual(once)
        expect(findCanaries(once.url)).toEqual([])
      }),
      {numRuns: 500},
    )
  })

  test('redactOwned redacts in place exactly as redactDeep copies', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({maxDepth: 4}), setting), (value) => {
        const owned = JSON.parse(JSON.stringify(value ?? null)) as unknown
        const copied = redactDeep(owned)
        const result = redactOwned(owned)
        expect(result).toBe(owned)
        expect(result).toEqual(copied)
        expect(findCanaries(JSON.stringify(result))).toEqual([])
      }),
      {numRuns: 300},
    )
  })

  test('redactDeep on anything and on generated settings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything({maxDepth: 4}), setting), (value) => {
        const once = redactDeep(value)
        expect(redactDeep(once)).toEqual(once)
      }),
      {numRuns: 300},
    )
  })
})

describe('the generated checks (payload-checks.ts) agree with zod', () => {
  const all = Object.entries({...schemas, ...serverSchemas}).filter(([name]) => name.endsWith('Schema')) as [string, z.ZodType][]
  const generated = checks as Record<string, (value: unknown) => boolean>

  test('every schema has its check', () => {
    expect(all.map(([name]) => [name, typeof generated[checkName(name)]])).toEqual(all.map(([name]) => [name, 'function']))
  })

  test.each(all)('%s', (name, schema) => {
    const check = generated[checkName(name)]!
    const near = fc.oneof(setting, branchProtection, jobSecret, webHook, notificationSetting, fc.anything({maxDepth: 3}), record({id: sometimes(fc.integer()), parentId: fc.oneof(fc.integer(), fc.double()), name: text}))
    fc.assert(
      fc.property(near, (value) => {
        expect(check(value)).toBe(schema.safeParse(value).success)
      }),
      {numRuns: 300},
    )
  })
})
