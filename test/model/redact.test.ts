import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, test} from 'vitest'

import {REDACTED, redactDeep, redactOwned, redactProjectSetting, redactServerPayload, redactText, redactUrl, secretsOf} from '../../src/model/redact.js'
import {CANARIES, FIXTURES_DIR, expectNoCanary} from '../helpers/canaries.js'
import {brokenAnswers, CORPUS_SECRETS, hostileSetting, NOT_SECRETS, SECRET_KEYED_VALUES, SECRET_STRINGS, SECRET_URLS, SERVER_SETTING_SECRETS, SPLIT_SECRET} from '../helpers/hostile.js'

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, name), 'utf8'))
}

describe('redactProjectSetting', () => {
  test.each(['current/setting-full.json', 'legacy/setting-full.json'])('removes every canary of %s and keeps the rest', (name) => {
    const raw = fixture(name)
    const before = JSON.stringify(raw)
    const redacted = redactProjectSetting(raw)
    expectNoCanary(JSON.stringify(redacted))
    expect(JSON.stringify(raw)).toBe(before)
    expect(redactProjectSetting(redacted)).toEqual(redacted)
  })

  test('the fixtures hold a canary in every secret place', () => {
    expect(CANARIES.length).toBeGreaterThanOrEqual(24)
    expect(CANARIES).toContain('CANARY-jobsecret-npm-token-7f3a')
    expect(CANARIES).toContain('CANARY-legacy-discord-token-7f3a')
  })

  test('job secrets: value masked, null kept, name and authorization untouched', () => {
    const out = redactProjectSetting({
      buildSetting: {
        jobSecrets: [
          {name: 'deploy-token', value: 's3cr3t', authorization: 'on branch "main"', archived: false},
          {name: 'npm-token', value: null, authorization: null},
          {name: 'legacy', value: 'x', authorizedBranches: 'main'},
        ],
      },
    })
    expect(out).toEqual({
      buildSetting: {
        jobSecrets: [
          {name: 'deploy-token', value: REDACTED, authorization: 'on branch "main"', archived: false},
          {name: 'npm-token', value: null, authorization: null},
          {name: 'legacy', value: REDACTED, authorizedBranches: 'main'},
        ],
      },
    })
  })

  test('web hooks: secret masked (null stays null), header values masked, names kept', () => {
    const out = redactProjectSetting({
      webHooks: [
        {postUrl: 'http://ci.internal/hook', secret: 'wh', headers: [{name: 'Authorization', value: 'Bearer abc'}], eventTypes: ['BUILD']},
        {postUrl: 'http://ci.internal/other', secret: null, headers: []},
      ],
    })
    expect(out).toEqual({
      webHooks: [
        {postUrl: 'http://ci.internal/hook', secret: REDACTED, headers: [{name: 'Authorization', value: REDACTED}], eventTypes: ['BUILD']},
        {postUrl: 'http://ci.internal/other', secret: null, headers: []},
      ],
    })
  })

  test('keys named like credentials are masked; look-alikes that are not secrets are kept', () => {
    const out = redactDeep({
      password: 'p',
      passwd: 'p',
      apiToken: 't',
      api_key: 'k',
      'api-key': 'k',
      clientSecret: 's',
      credentials: ['a', 'b'],
      privateKey: {pem: '-----BEGIN'},
      private_key: 5,
      secretEnabled: true,
      token: '',
      name: 'deploy-token',
      jobAuthorization: 'on branch "**"',
      description: 'a token is needed',
      jobNames: ['token-refresh'],
    })
    expect(out).toEqual({
      password: REDACTED,
      passwd: REDACTED,
      apiToken: REDACTED,
      api_key: REDACTED,
      'api-key': REDACTED,
      clientSecret: REDACTED,
      credentials: REDACTED,
      privateKey: REDACTED,
      private_key: REDACTED,
      secretEnabled: true,
      token: '',
      name: 'deploy-token',
      jobAuthorization: 'on branch "**"',
      description: 'a token is needed',
      jobNames: ['token-refresh'],
    })
  })

  test('the password policy of the security setting is kept: it holds rules, not a password', () => {
    const policy = {minLength: 12, mustContainUppercase: true, mustContainLowercase: true, mustContainNumber: true, mustContainSpecial: false}
    expect(redactServerPayload('settings/security', {passwordPolicy: policy, enforce2FA: false}, true)).toEqual({passwordPolicy: policy, enforce2FA: false})
    expect(redactServerPayload('settings/security', {passwordPolicy: null})).toEqual({passwordPolicy: null})
    // A policy that is not an object is not the server's shape: masked whole, like any credential-named value.
    expect(redactServerPayload('settings/security', {passwordPolicy: 'hunter2', nested: {passwordPolicy: {password: 'x'}}})).toEqual({passwordPolicy: REDACTED, nested: {passwordPolicy: {password: REDACTED}}})
  })

  test('a name/value pair whose name looks like a credential has its value masked', () => {
    expect(redactDeep({jobProperties: [{name: 'registry-password', value: 'hunter2'}, {name: 'registry', value: 'r.example.com'}]})).toEqual({
      jobProperties: [{name: 'registry-password', value: REDACTED}, {name: 'registry', value: 'r.example.com'}],
    })
  })

  test('a wrongly typed secret place is masked whole', () => {
    expect(redactProjectSetting({buildSetting: {jobSecrets: 'CANARY-x-7f3a'}, webHooks: [{secret: {nested: 'CANARY-y-7f3a'}}]})).toEqual({
      buildSetting: {jobSecrets: REDACTED},
      webHooks: [{secret: REDACTED}],
    })
  })

  test('the path argument places a sub-tree: a job secret given alone is still masked', () => {
    expect(redactDeep({name: 'a', value: 'v'}, ['buildSetting', 'jobSecrets', 3])).toEqual({name: 'a', value: REDACTED})
    expect(redactDeep({name: 'a', value: 'v'}, ['buildSetting', 'jobProperties', 3])).toEqual({name: 'a', value: 'v'})
  })

  test('URLs anywhere are redacted, also inside text', () => {
    expect(
      redactDeep({
        webhookUrl: 'https://hooks.slack.com/services/T1/B2/abc',
        description: 'see https://bob:pw@wiki.example.com/page for details',
        link: 'https://x.example.com/?token=abc',
      }),
    ).toEqual({
      webhookUrl: 'https://hooks.slack.com/services/REDACTED',
      description: 'see https://REDACTED@wiki.example.com/page for details',
      link: 'https://x.example.com/?token=REDACTED',
    })
  })

  test('__proto__ and constructor keys are copied as data and pollute nothing', () => {
    const raw = JSON.parse('{"__proto__": {"polluted": "yes", "password": "p"}, "constructor": {"prototype": {"polluted": "yes"}}}')
    const out = redactDeep(raw) as Record<string, unknown>
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect((out as {polluted?: string}).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":"yes","password":"<redacted>"},"constructor":{"prototype":{"polluted":"yes"}}}')
  })

  test('a hostile depth is cut instead of overflowing the stack', () => {
    let deep: unknown = 'CANARY-deep-7f3a'
    for (let i = 0; i < 10_000; i++) deep = [deep]
    const out = JSON.stringify(redactDeep({a: deep}))
    expectNoCanary(out)
    expect(out).toContain(REDACTED)
  })
})

/** Fails naming any corpus secret (or canary piece) a text still holds. */
function expectNoCorpusSecret(text: string): void {
  expectNoCanary(text)
  expect(CORPUS_SECRETS.filter((secret) => text.includes(secret))).toEqual([])
}

describe('the hostile corpus (test/helpers/hostile.ts)', () => {
  test.each(SECRET_URLS.map((entry) => [entry.name, entry] as const))('%s: no piece of its secret is left, the facts say whether it carries credentials, and it is stable', (_, entry) => {
    const out = redactUrl(entry.url)
    expectNoCorpusSecret(out.url)
    for (const secret of entry.secrets) expect(out.url).not.toContain(secret)
    expect(out.facts.hadUserInfo || out.facts.secretQueryParams.length > 0 || (out.facts.secretPathParams ?? []).length > 0).toBe(entry.credentials)
    expect(out.facts.host).toBe(new URL(entry.url).hostname)
    expect(redactUrl(out.url)).toEqual(out)
    // The same URL inside text, and as a value of any key.
    expectNoCorpusSecret(JSON.stringify(redactDeep({description: `posts to ${entry.url} nightly`, link: entry.url, webhookUrl: entry.url})))
  })

  test('what the corpus URLs become: names and harmless values kept, every other value hidden, credentials masked', () => {
    const out = Object.fromEntries(SECRET_URLS.map((entry) => [entry.name, redactUrl(entry.url).url]))
    expect(out).toMatchObject({
      'a Telegram bot token in the path': 'https://api.telegram.org/REDACTED/sendMessage?chat_id=HIDDEN',
      'an ntfy.sh topic (whoever knows it reads and posts)': 'https://ntfy.sh/REDACTED',
      'hmac= and pat= query values': 'https://ci.example.com/onedev?hmac=REDACTED&pat=REDACTED&ref=main',
      'a secret under a name nobody can recognise': 'https://ci.example.com/notify?project=HIDDEN&x=HIDDEN',
      'a URL-encoded nested URL with credentials': 'https://sso.example.com/login?next=REDACTED',
      'a URL-encoded nested URL with credentials in a path segment': 'https://r.example.com/go/REDACTED',
      'a Zapier catch hook (short ids after /hooks/)': 'https://hooks.zapier.com/hooks/catch/REDACTED/REDACTED/',
      'path parameters (a token and a value nobody can recognise)': 'https://hooks.example.com/notify;token=REDACTED;x=HIDDEN/deliver',
      'a Microsoft Teams workflow URL (sig)':
        'https://prod-12.westeurope.logic.azure.com/workflows/REDACTED/triggers/manual/paths/invoke?api-version=2016-06-01&sp=HIDDEN&sv=HIDDEN&sig=REDACTED',
    })
  })

  test.each(Object.entries(SECRET_KEYED_VALUES))('a value under %s is masked', (key, value) => {
    expect(redactDeep({[key]: value})).toEqual({[key]: REDACTED})
    expect(redactDeep({integration: [{[key]: value}]})).toEqual({integration: [{[key]: REDACTED}]})
    // A name/value pair named so.
    expect(redactDeep({jobProperties: [{name: key, value}]})).toEqual({jobProperties: [{name: key, value: REDACTED}]})
  })

  test.each(SECRET_STRINGS.map((entry) => [entry.name, entry] as const))('%s: no piece of its secret is left', (_, entry) => {
    const out = JSON.stringify(redactDeep({[entry.key]: entry.value}))
    expectNoCorpusSecret(out)
    expect(redactDeep(JSON.parse(out))).toEqual(JSON.parse(out))
  })

  test('what the corpus strings become', () => {
    expect(redactDeep(Object.fromEntries(SECRET_STRINGS.map((entry) => [entry.key, entry.value])))).toEqual({
      headers: {Authorization: REDACTED, 'X-Custom': REDACTED},
      httpHeaders: [REDACTED],
      remote: 'REDACTED@git.example.com:acme/app.git',
      description: 'mirror to REDACTED@mirror.example.com:acme.git nightly',
      note: REDACTED,
      runOptions: '--privileged --cap-add SYS_ADMIN -e NPM_TOKEN=<redacted> -e TZ=UTC --env=API_KEY=<redacted> --password <redacted> -e "GH_TOKEN=<redacted>" --memory 2g',
      networkOptions: '--opt com.docker.network.driver.mtu=1400 --label deploy_secret=<redacted>',
    })
  })

  test('free-text options keep every word but the values of credentials, however they are written (issue 33)', () => {
    const redacted = (runOptions: string) => (redactServerPayload('settings/job-executors', [{'@type': 'ServerDockerExecutor', runOptions}]) as Array<{runOptions: string}>)[0]!.runOptions
    expect(redacted("-eNPM_TOKEN='CANARY a b 7f3a' --label=com.acme.api_key=CANARY-label-7f3a --build-arg npm_token=CANARY-arg-7f3a")).toBe("-eNPM_TOKEN='<redacted>' --label=com.acme.api_key=<redacted> --build-arg npm_token=<redacted>")
    expect(redacted('--registry-password=CANARY-eq-7f3a --secret "CANARY quoted 7f3a" --password-stdin --privileged')).toBe('--registry-password=<redacted> --secret "<redacted>" --password-stdin --privileged')
    expect(redacted('-e DATABASE_URL=postgres://ci:CANARY-dburl-7f3a@db.internal/ci -e HOME=/root')).toBe('-e DATABASE_URL=postgres://REDACTED@db.internal/ci -e HOME=/root')
    expect(redacted('-e NPM_TOKEN=')).toBe('-e NPM_TOKEN=')
  })

  test.each(NOT_SECRETS.map((entry) => [entry.name, entry] as const))('%s stays as it is', (_, entry) => {
    expect(redactDeep(entry.value, entry.path)).toEqual(entry.value)
  })

  test.each(['current/setting-full.json', 'legacy/setting-full.json'])('a setting holding the whole corpus (%s) keeps none of it, in a copy and in place', (name) => {
    const raw = hostileSetting(fixture(name) as Record<string, unknown>)
    const copy = redactProjectSetting(raw)
    expectNoCorpusSecret(JSON.stringify(copy))
    expect(redactProjectSetting(copy)).toEqual(copy)
    const owned = structuredClone(raw)
    expect(redactOwned(owned)).toEqual(copy)
  })
})

describe('redactUrl', () => {
  test.each([
    ['https://hooks.slack.com/services/T0A1B2C3D/B0E4F5G6H/xoxo', 'https://hooks.slack.com/services/REDACTED', {secretPath: true}],
    ['https://discord.com/api/webhooks/112233/tok-en', 'https://discord.com/api/webhooks/112233/REDACTED', {secretPath: true}],
    ['https://discordapp.com/api/v10/webhooks/1/abc/github', 'https://discordapp.com/api/v10/webhooks/1/REDACTED/github', {secretPath: true}],
    ['https://deployer:pw@deploy.example.com/hook', 'https://REDACTED@deploy.example.com/hook', {hadUserInfo: true}],
    ['https://user@deploy.example.com/hook', 'https://REDACTED@deploy.example.com/hook', {hadUserInfo: true}],
    ['https://j.example.com/invoke?token=abc&job=web', 'https://j.example.com/invoke?token=REDACTED&job=web', {secretQueryParams: ['token']}],
    ['https://j.example.com/invoke?id=42&chat=ops', 'https://j.example.com/invoke?id=HIDDEN&chat=HIDDEN', {secretQueryParams: []}],
    ['https://j.example.com/invoke?ref=main&page=2&ref=a%20b&branch=x%3Ay', 'https://j.example.com/invoke?ref=main&page=2&ref=a%20b&branch=HIDDEN', {secretQueryParams: []}],
    ['https://x.example.com/?access_token=a&api_key=b&sig=c&X-Amz-Signature=d', 'https://x.example.com/?access_token=REDACTED&api_key=REDACTED&sig=REDACTED&X-Amz-Signature=REDACTED', {secretQueryParams: ['access_token', 'api_key', 'sig', 'X-Amz-Signature']}],
    ['https://x.example.com/?token=&page=2', 'https://x.example.com/?token=&page=2', {secretQueryParams: []}],
    ['https://x.example.com/a/Zk29aL1qW8xXc3vB7nM2pQ/b', 'https://x.example.com/a/REDACTED/b', {secretPath: true}],
    ['https://x.example.com/generic-webhook-trigger/invoke', 'https://x.example.com/generic-webhook-trigger/invoke', {secretPath: false}],
    ['https://x.example.com/cb#access_token=abc&state=1', 'https://x.example.com/cb#access_token=REDACTED&state=HIDDEN', {}],
    ['https://x.example.com/doc#section-2', 'https://x.example.com/doc#section-2', {secretPath: false}],
    ['http://ci.internal/hook', 'http://ci.internal/hook', {scheme: 'http', host: 'ci.internal', hadUserInfo: false, secretQueryParams: [], secretPath: false}],
  ])('%s → %s', (input, url, facts) => {
    const out = redactUrl(input)
    expect(out.url).toBe(url)
    expect(out.facts).toMatchObject(facts)
    expect(redactUrl(out.url)).toEqual(out)
  })

  test('an unparseable URL is replaced whole and its facts are unknown', () => {
    for (const input of ['not a url', 'ci.internal/hook', '', 'http://[::1', '<redacted-url>']) {
      expect(redactUrl(input)).toEqual({url: '<redacted-url>', facts: {scheme: null, host: null, hadUserInfo: false, secretQueryParams: [], secretPath: false}})
    }
  })

  test('facts name the scheme and host', () => {
    expect(redactUrl('HTTPS://Hooks.Slack.com/services/a').facts).toEqual({scheme: 'https', host: 'hooks.slack.com', hadUserInfo: false, secretQueryParams: [], secretPath: true})
  })
})

describe('redactText', () => {
  test('replaces every given secret and its URL-encoded form, longest first', () => {
    expect(redactText('token a/b+c and a%2Fb%2Bc and a/b', ['a/b+c', 'a/b', ''])).toBe('token <redacted> and <redacted> and <redacted>')
  })

  test('redacts credentials of URLs in the text', () => {
    expect(redactText('GET https://u:p@x.example.com/?token=t failed', [])).toBe('GET https://REDACTED@x.example.com/?token=REDACTED failed')
  })

  test('finds a secret broken by a line break or runs of whitespace the server inserted (issue 33), and a multi-line secret with its lines joined otherwise', () => {
    for (const answer of brokenAnswers(SPLIT_SECRET)) {
      expect(redactText(answer.body.toString('utf8'), [SPLIT_SECRET]), answer.name).toBe('value "<redacted>" is not valid')
    }
    expect(redactText('key: -----BEGIN KEY----- abc -----END KEY----- refused', ['-----BEGIN KEY-----\nabc\n-----END KEY-----'])).toBe('key: <redacted> refused')
    // Regular-expression syntax in a secret is literal.
    expect(redactText('p.*s(w)o[r]d|$1 and pxxsword', ['p.*s(w)o[r]d|$1'])).toBe('<redacted> and pxxsword')
  })
})

describe('the administration answers of the hostile corpus (SERVER SETTINGS)', () => {
  test.each(SERVER_SETTING_SECRETS.map((entry) => [entry.name, entry] as const))('%s: every credential masked where it is stored, and known to mask a text that quotes it', (_, entry) => {
    const key = entry.path.slice(1)
    const stored = JSON.stringify(redactServerPayload(key, structuredClone(entry.payload)))
    expectNoCanary(stored)
    for (const secret of entry.secrets) expect(stored).not.toContain(secret)
    // Loading a snapshot redacts again: the same.
    expect(redactServerPayload(key, JSON.parse(stored))).toEqual(JSON.parse(stored))
    // What redaction removes is what an error text quoting it is judged against (secretsOf).
    const known = secretsOf(entry.payload, (raw) => redactServerPayload(key, raw))
    for (const secret of entry.secrets) expect(known).toContain(secret)
  })

  test('what the checks read is kept: an agent\'s token id, SSL setting types, entitlements, default groups', () => {
    const keep = (path: string, payload: unknown) => redactServerPayload(path, structuredClone(payload))
    expect(keep('agents', [{id: 7, tokenId: 1, name: 'builder-1'}])).toEqual([{id: 7, tokenId: 1, name: 'builder-1'}])
    // Only the agents listing's numeric token id: anywhere else a token is a token.
    expect(keep('settings/system', {tokenId: 1})).toEqual({tokenId: REDACTED})
    expect(keep('agents', [{tokenId: 'c4a7e1f0-7f3a'}])).toEqual([{tokenId: REDACTED}])
    const mail = SERVER_SETTING_SECRETS.find((entry) => entry.name === 'SMTP/IMAP mail service, 16.x')!
    expect(keep('settings/mail-service', mail.payload)).toMatchObject({smtpHost: 'mail.acme.example', sslSetting: {'@type': 'SmtpWithoutSsl', port: 25}, smtpPassword: REDACTED, inboxPollSetting: {sslSetting: {'@type': 'ImapWithoutSsl'}, imapPassword: REDACTED}})
    const legacy = SERVER_SETTING_SECRETS.find((entry) => entry.name === 'SMTP/IMAP mail setting, 8.x')!
    expect(keep('settings/mail', legacy.payload)).toMatchObject({enableStartTLS: false, otherInboxPollSetting: {enableSSL: false, imapPassword: REDACTED}})
    const ai = SERVER_SETTING_SECRETS.find((entry) => entry.path === '/users')!
    expect(keep('users', ai.payload)).toMatchObject([{aiSetting: {entitleToAll: true, modelSetting: {apiKey: REDACTED}}}])
    const sso = SERVER_SETTING_SECRETS.find((entry) => entry.path === '/sso-providers')!
    expect(keep('sso-providers', sso.payload)).toMatchObject([{defaultGroupId: 1, connector: {clientSecret: REDACTED}}])
  })
})
