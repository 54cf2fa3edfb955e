/**
 * The hostile corpus: values a server, a file or a colleague may hand the tool, in one place, read by
 * the redaction tests, the server-text tests, and the collect, fix and scan tests. Every secret in it
 * is fake but shaped as its issuer documents it, and holds `CANARY` or `-7f3a` so that the canary
 * checks (canaries.ts `findCanaries`, `expectNoCanary`) find any piece of it in any output.
 *
 * One section per category, each a named export; add a new category as a new section at the end.
 *
 *   SECRET URLS          receivers' URLs with a credential in them (`SECRET_URLS`)
 *   KEYED SECRETS        values under keys that name a credential (`SECRET_KEYED_VALUES`, `SECRET_STRINGS`)
 *   NOT SECRETS          look-alikes redaction must leave as they are (`NOT_SECRETS`)
 *   A HOSTILE SETTING    a project setting holding all of the above (`hostileSetting`)
 *   SERVER ANSWERS       error answers that quote a secret in a form that once passed (`serverAnswers`)
 *   ODD INPUT            numbers, keys, charsets, depth and listings JSON.parse or a client does not carry exactly
 *   WRITE PATH           what an edited plan or undo record, or a colleague between POST and read-back,
 *                        tries to make `fix --apply` send (`WRITE_PATH`)
 *   SERVER SETTINGS      administration answers holding credentials, in the shapes OneDev writes at each
 *                        version (`SERVER_SETTING_SECRETS`): mail passwords, OAuth secrets and refresh
 *                        tokens, agent tokens, AI API keys, SSO client secrets, LDAP and registry passwords
 *   ISSUES OTHERS OPEN   issues a project member opens to look like notify's (`LOOKALIKE_ISSUES`)
 */
import {Buffer} from 'node:buffer'

import * as P from './server-payloads.js'

// ------------------------------------------------------------------ SECRET URLS

export interface SecretUrl {
  /** What it is, as a test name. */
  name: string
  /** Where its format is documented (the receiver's own documentation). */
  source: string
  url: string
  /** The secret parts: none may appear in any output, in any piece (the canary checks look for pieces too). */
  secrets: string[]
  /** Whether redaction must report it as carrying credentials (UrlFacts: user info, or a credential query or path parameter). */
  credentials: boolean
}

const TELEGRAM_TOKEN = '7302518846:AAECANARYtelegram7f3aQ9wXz2Lm5Nb8Vc'
const SLACK_TOKEN = 'CANARYslack7f3aHookXy9Zq'
const DISCORD_TOKEN = 'CANARY-discord-7f3a_Zq0Lw9xYc8bVn7mA6sD5fG4hJ3kL2pO1iU9yT8rE7wQ6aS5dF4gH3j'

export const SECRET_URLS: readonly SecretUrl[] = [
  {
    name: 'a Telegram bot token in the path',
    source: 'Telegram Bot API, "Making requests": https://api.telegram.org/bot<token>/METHOD_NAME (core.telegram.org/bots/api)',
    url: `https://api.telegram.org/bot${TELEGRAM_TOKEN}/sendMessage?chat_id=-1001234567890`,
    secrets: [TELEGRAM_TOKEN, 'AAECANARYtelegram7f3a'],
    credentials: false,
  },
  {
    name: 'a Slack incoming web hook',
    source: 'Slack, "Sending messages using incoming webhooks": https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX (api.slack.com/messaging/webhooks)',
    url: `https://hooks.slack.com/services/T0CANARY1/B0CANARY2/${SLACK_TOKEN}`,
    secrets: [SLACK_TOKEN, 'T0CANARY1', 'B0CANARY2'],
    credentials: false,
  },
  {
    name: 'a Discord web hook',
    source: 'Discord, "Execute Webhook": POST /webhooks/{webhook.id}/{webhook.token} (discord.com/developers/docs/resources/webhook)',
    url: `https://discord.com/api/webhooks/1234567890123456789/${DISCORD_TOKEN}`,
    secrets: [DISCORD_TOKEN],
    credentials: false,
  },
  {
    name: 'an ntfy.sh topic (whoever knows it reads and posts)',
    source: 'ntfy, "Publishing": https://ntfy.sh/<topic>; topics are public, choose one nobody can guess (docs.ntfy.sh/publish)',
    url: 'https://ntfy.sh/CANARY-ntfy-topic-7f3a',
    secrets: ['CANARY-ntfy-topic-7f3a'],
    credentials: false,
  },
  {
    name: 'ntfy credentials in the auth query parameter',
    source: 'ntfy, "Query param": ?auth=<base64 of the Authorization header> (docs.ntfy.sh/publish/#query-param)',
    url: 'https://ntfy.example.com/alerts?auth=QmFzaWMgCANARYbnRmeTpwYXNz7f3a',
    secrets: ['QmFzaWMgCANARYbnRmeTpwYXNz7f3a'],
    credentials: true,
  },
  {
    name: 'a Microsoft Teams workflow URL (sig)',
    source: 'Microsoft Teams, "Create incoming webhooks with Workflows": ...logic.azure.com:443/workflows/<id>/triggers/manual/paths/invoke?api-version=...&sig=<sig> (learn.microsoft.com)',
    url: 'https://prod-12.westeurope.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=CANARY-teams-sig-7f3aXyZ0123456789abcdefghij',
    secrets: ['CANARY-teams-sig-7f3aXyZ0123456789abcdefghij'],
    credentials: true,
  },
  {
    name: 'a Microsoft Teams connector URL (ids joined by @)',
    source: 'Microsoft Teams incoming webhook connector: https://<tenant>.webhook.office.com/webhookb2/<group>@<tenant>/IncomingWebhook/<id>/<owner> (learn.microsoft.com)',
    url: 'https://acme.webhook.office.com/webhookb2/3f2504e0-4f89-11d3-7f3a-0305e82c3301@72f988bf-86f1-41af-91ab-2d7cd011db47/IncomingWebhook/CANARYteams7f3a0123456789abcdef01/a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    secrets: ['3f2504e0-4f89-11d3-7f3a-0305e82c3301', 'CANARYteams7f3a0123456789abcdef01'],
    credentials: false,
  },
  {
    name: 'a Google Chat web hook (key and token)',
    source: 'Google Chat, "Send messages with incoming webhooks": https://chat.googleapis.com/v1/spaces/SPACE/messages?key=KEY&token=TOKEN (developers.google.com/workspace/chat)',
    url: 'https://chat.googleapis.com/v1/spaces/AAAAqwErTy0/messages?key=CANARY-gchat-key-7f3a&token=CANARY-gchat-token-7f3a',
    secrets: ['CANARY-gchat-key-7f3a', 'CANARY-gchat-token-7f3a'],
    credentials: true,
  },
  {
    name: 'a DingTalk robot (access_token)',
    source: 'DingTalk custom robot: https://oapi.dingtalk.com/robot/send?access_token=XXXXXX (open.dingtalk.com)',
    url: 'https://oapi.dingtalk.com/robot/send?access_token=CANARYdingtalk7f3a0123456789abcdef0123456789abcdef0123456789ab',
    secrets: ['CANARYdingtalk7f3a0123456789abcdef0123456789abcdef0123456789ab'],
    credentials: true,
  },
  {
    name: 'a WeCom group robot (key)',
    source: 'WeCom group robot: https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=KEY (developer.work.weixin.qq.com)',
    url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7f3a-4fc4-CANARY-wecom',
    secrets: ['693a91f6-7f3a-4fc4-CANARY-wecom'],
    credentials: true,
  },
  {
    name: 'a Feishu bot hook (a UUID in the path)',
    source: 'Feishu custom bot: https://open.feishu.cn/open-apis/bot/v2/hook/<uuid> (open.feishu.cn)',
    url: 'https://open.feishu.cn/open-apis/bot/v2/hook/3f2504e0-4f89-11d3-9a0c-CANARY7f3a01',
    secrets: ['3f2504e0-4f89-11d3-9a0c-CANARY7f3a01'],
    credentials: false,
  },
  {
    name: 'a Mattermost incoming web hook',
    source: 'Mattermost, "Incoming webhooks": https://your-mattermost-server.com/hooks/xxx-generatedkey-xxx (developers.mattermost.com)',
    url: 'https://mattermost.example.com/hooks/q4xcanary9z-7f3ab8mz2kw5c1nd',
    secrets: ['q4xcanary9z-7f3ab8mz2kw5c1nd'],
    credentials: false,
  },
  {
    name: 'a Rocket.Chat integration (id and token)',
    source: 'Rocket.Chat incoming integration: https://chat.example.com/hooks/<id>/<token> (docs.rocket.chat)',
    url: 'https://chat.example.com/hooks/5f8a7f3aCANARY01x/CANARYrocket7f3aZq0Lw9xYc8bVn7mA6sD5fG4hJ3kL2pO1',
    secrets: ['5f8a7f3aCANARY01x', 'CANARYrocket7f3aZq0Lw9xYc8bVn7mA6sD5fG4hJ3kL2pO1'],
    credentials: false,
  },
  {
    name: 'a Zapier catch hook (short ids after /hooks/)',
    source: 'Zapier "Webhooks by Zapier" catch hook: https://hooks.zapier.com/hooks/catch/<account>/<hook>/ (help.zapier.com)',
    url: 'https://hooks.zapier.com/hooks/catch/1234567/CANARY7/',
    secrets: ['CANARY7'],
    credentials: false,
  },
  {
    name: 'a Gotify application token',
    source: 'Gotify, "Push messages": https://gotify.example/message?token=<apptoken> (gotify.net/docs/pushmsg)',
    url: 'https://gotify.example.com/message?token=CANARY-gotify-7f3a',
    secrets: ['CANARY-gotify-7f3a'],
    credentials: true,
  },
  {
    name: 'hmac= and pat= query values',
    source: 'the issue (25): query values such as hmac= and pat= reached the snapshot',
    url: 'https://ci.example.com/onedev?hmac=CANARY-hmac-7f3a&pat=CANARY-pat-7f3a&ref=main',
    secrets: ['CANARY-hmac-7f3a', 'CANARY-pat-7f3a'],
    credentials: true,
  },
  {
    name: 'a secret under a name nobody can recognise',
    source: 'any receiver: a query value is a secret as often as not',
    url: 'https://ci.example.com/notify?project=acme&x=CANARY-x-7f3a',
    secrets: ['CANARY-x-7f3a'],
    credentials: false,
  },
  {
    name: 'a URL-encoded nested URL with credentials',
    source: 'the issue (25): next=https%3A%2F%2Fbot%3Apw%40…',
    url: 'https://sso.example.com/login?next=https%3A%2F%2Fbot%3ACANARY-nested-pw-7f3a%40ci.example.com%2Fhook',
    secrets: ['CANARY-nested-pw-7f3a'],
    credentials: true,
  },
  {
    name: 'a URL-encoded nested URL with credentials in a path segment',
    source: 'redirectors that take the target as a path segment',
    url: 'https://r.example.com/go/https%3A%2F%2Fbot%3ACANARY-pathpw-7f3a%40ci.example.com',
    secrets: ['CANARY-pathpw-7f3a'],
    credentials: false,
  },
  {
    name: 'a token in the fragment',
    source: 'OAuth 2.0 implicit grant (RFC 6749 §4.2.2): #access_token=...&state=...',
    url: 'https://app.example.com/cb#access_token=CANARY-frag-7f3a&state=xyz',
    secrets: ['CANARY-frag-7f3a'],
    credentials: false,
  },
  {
    name: 'user info',
    source: 'RFC 3986 §3.2.1: user:password@host (deprecated, still used)',
    url: 'https://deployer:CANARY-userinfo-7f3a@deploy.example.com/hook',
    secrets: ['CANARY-userinfo-7f3a'],
    credentials: true,
  },
  {
    // Issue 33: the `;token=` parameter reached the printed plan, the plan file and the snapshot (its values are not token-like, so no segment rule caught them).
    name: 'path parameters (a token and a value nobody can recognise)',
    source: 'RFC 3986 §3.3: a path segment may carry parameters after ";" (`;jsessionid=` of Java servlet containers); receivers read `;token=` as they read `?token=`',
    url: 'https://hooks.example.com/notify;token=CANARY.pathparam.7f3a;x=CANARY~param~7f3a/deliver',
    secrets: ['CANARY.pathparam.7f3a', 'CANARY~param~7f3a'],
    credentials: true,
  },
]

/** The same receivers over http:// where that is a fix `fix` offers (notification/insecure-webhook moves them to https://). */
export const INSECURE_SECRET_URLS: readonly SecretUrl[] = SECRET_URLS.map((entry) => ({...entry, url: entry.url.replace(/^https:/, 'http:')}))

// ------------------------------------------------------------------ KEYED SECRETS

/** Values under keys that name a credential, in the cases and spellings payloads use: each value a secret. */
export const SECRET_KEYED_VALUES: Readonly<Record<string, string>> = {
  accessKey: 'AKIACANARYACCESS7f3a',
  ACCESS_KEY: 'CANARY-ACCESS_KEY-7f3a',
  secret_access_key: 'CANARY-secret-access-key-7f3a',
  sshKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAACANARYssh7f3a\n-----END OPENSSH PRIVATE KEY-----',
  signingKey: 'CANARY-signingKey-7f3a',
  encryptionKey: 'CANARY-encryptionKey-7f3a',
  authorization: 'Bearer CANARY-authorization-7f3a',
  'Proxy-Authorization': 'Basic CANARY-proxy-7f3a',
  cookie: 'JSESSIONID=CANARY-cookie-7f3a',
  'Set-Cookie': 'rememberMe=CANARY-set-cookie-7f3a; HttpOnly',
  'x-api-key': 'CANARY-x-api-key-7f3a',
  'X-Auth-Token': 'CANARY-x-auth-token-7f3a',
  pat: 'CANARY-pat-key-7f3a',
  passphrase: 'CANARY-passphrase-7f3a',
  hmacKey: 'CANARY-hmacKey-7f3a',
  session_id: 'CANARY-session-id-7f3a',
}

/** Values whose shape says they are credentials, under keys that do not (the key is given). */
export const SECRET_STRINGS: ReadonlyArray<{name: string; key: string; value: unknown; secrets: string[]}> = [
  {name: 'a header map', key: 'headers', value: {Authorization: 'Bearer CANARY-header-map-7f3a', 'X-Custom': 'CANARY-custom-header-7f3a'}, secrets: ['CANARY-header-map-7f3a', 'CANARY-custom-header-7f3a']},
  {name: 'a list of header lines', key: 'httpHeaders', value: ['Authorization: Bearer CANARY-header-line-7f3a'], secrets: ['CANARY-header-line-7f3a']},
  {name: 'an scp-style remote with a password', key: 'remote', value: 'git:CANARY-scp-pw-7f3a@git.example.com:acme/app.git', secrets: ['CANARY-scp-pw-7f3a']},
  {name: 'an scp-style address inside text', key: 'description', value: 'mirror to deploy:CANARY-scp-text-7f3a@mirror.example.com:acme.git nightly', secrets: ['CANARY-scp-text-7f3a']},
  {name: 'a bearer credential as a whole value', key: 'note', value: 'Bearer CANARY-bearer-7f3a.eyJzdWIiOiJjaSJ9', secrets: ['CANARY-bearer-7f3a']},
  // Issue 33: a Docker executor's free-text options reached the snapshot verbatim. OneDev passes them
  // to `docker run` ("Multiple options should be separated by space, and single option containing
  // spaces should be quoted": v16.5.6 server-plugin/server-plugin-executor-serverdocker/src/main/java/io/onedev/server/plugin/executor/serverdocker/ServerDockerExecutor.java:237-241).
  {
    name: "a Docker executor's run options: environment assignments and a password option",
    key: 'runOptions',
    value: '--privileged --cap-add SYS_ADMIN -e NPM_TOKEN=CANARY-runoptions-npm-7f3a -e TZ=UTC --env=API_KEY=CANARY-runoptions-apikey-7f3a --password CANARY-runoptions-password-7f3a -e "GH_TOKEN=CANARY runoptions quoted 7f3a" --memory 2g',
    secrets: ['CANARY-runoptions-npm-7f3a', 'CANARY-runoptions-apikey-7f3a', 'CANARY-runoptions-password-7f3a', 'CANARY runoptions quoted 7f3a'],
  },
  // `docker network create` options (ServerDockerExecutor.java:249-252; --driver is reserved).
  {name: "a Docker executor's network options: a label named like a credential", key: 'networkOptions', value: '--opt com.docker.network.driver.mtu=1400 --label deploy_secret=CANARY-netoptions-label-7f3a', secrets: ['CANARY-netoptions-label-7f3a']},
]

// ------------------------------------------------------------------ NOT SECRETS

/** What redaction must keep exactly (rules read them, or they name no secret). Each: a payload and where it sits. */
export const NOT_SECRETS: ReadonlyArray<{name: string; path: (string | number)[]; value: unknown}> = [
  {name: "a job secret's authorization (a job-match expression)", path: ['buildSetting', 'jobSecrets', 0], value: {name: 'deploy-token', value: null, authorization: 'on branch "main"'}},
  {name: 'the password policy (rules, not a password)', path: [], value: {passwordPolicy: {minLength: 12, mustContainUppercase: true}}},
  {name: "an LDAP authenticator's SSH key attribute (an attribute name)", path: [], value: {userSshKeyAttribute: 'sshPublicKey', userEmailAttribute: 'mail'}},
  {name: "a project's key and a groovy script's job authorization", path: [], value: {key: 'ACME', jobAuthorization: 'on branch "main"', authorizations: [{roleId: 1}]}},
  {name: 'harmless query values and a plain git remote', path: [], value: {link: 'https://ci.example.com/job?ref=main&page=2', remote: 'git@github.com:acme/app.git', contact: 'mailto:ops@example.com'}},
  {name: 'text about tokens and basic settings', path: [], value: {description: 'Token required. Basic authentication is off; bearer tokens expire.', hint: 'Bearer tokens only'}},
  {name: 'run options the executor rules judge, with a harmless environment variable', path: ['settings', 'job-executors', 0], value: {runOptions: '--privileged --cap-add SYS_ADMIN --network host --security-opt seccomp=unconfined -e TZ=UTC -v /var/run/docker.sock:/var/run/docker.sock'}},
]

// ------------------------------------------------------------------ A HOSTILE SETTING

/**
 * A project setting (current payload generation) holding every value of this corpus where a server
 * may hold it: web hooks and Slack/Discord/ntfy notifications with the secret URLs over http:// (so
 * that `fix` plans to move them to https://), unknown keys with the keyed secrets and strings.
 */
export function hostileSetting(base: Record<string, unknown>): Record<string, unknown> {
  const urls = INSECURE_SECRET_URLS
  return {
    ...base,
    webHooks: urls.map((entry) => ({postUrl: entry.url, eventTypes: ['BUILD'], secret: null, headers: []})),
    contributedSettings: {
      'io.onedev.server.plugin.notification.slack.SlackNotificationSetting': {
        '@type': 'SlackNotificationSetting',
        notifications: urls.map((entry) => ({webhookUrl: entry.url, issueQuery: null, pullRequestQuery: null, buildQuery: null, packQuery: null, commitQuery: null})),
      },
    },
    integration: {...SECRET_KEYED_VALUES, ...Object.fromEntries(SECRET_STRINGS.map((entry) => [entry.key, entry.value]))},
  }
}

/**
 * The job executors of the administration fixture with the corpus's free-text options (SECRET_STRINGS
 * whose key ends in `Options`) in each Docker executor, as OneDev writes them (RemoteDockerExecutor
 * extends ServerDockerExecutor: v16.5.6 server-plugin/server-plugin-executor-remotedocker/src/main/java/io/onedev/server/plugin/executor/remotedocker/RemoteDockerExecutor.java:38).
 */
export function hostileExecutors(executors: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  const options = Object.fromEntries(SECRET_STRINGS.filter((entry) => entry.key.endsWith('Options')).map((entry) => [entry.key, entry.value]))
  return executors.map((executor) => (/DockerExecutor$/.test(String(executor['@type'])) ? {...executor, ...options} : executor))
}

/** Every secret of the corpus's URLs, keyed values and strings: none may appear in any output. */
export const CORPUS_SECRETS: readonly string[] = [
  ...SECRET_URLS.flatMap((entry) => entry.secrets),
  ...Object.values(SECRET_KEYED_VALUES).flatMap((value) => value.split('\n').filter((line) => line.includes('CANARY'))),
  ...SECRET_STRINGS.flatMap((entry) => entry.secrets),
]

// ------------------------------------------------------------------ SERVER ANSWERS

export interface HostileAnswer {
  name: string
  /** Why it once passed. */
  why: string
  /** The secret it quotes (the audit's token, or a secret of the setting posted). */
  secret: string
  contentType: string
  body: Buffer
}

/** A secret with letters outside ASCII (named entities, NFD, ISO-8859-1 need them). */
export const UMLAUT_SECRET = 'CANARY-pässwörd-Äß-7f3a'
/** A multi-line secret (a PEM key as a job secret value): one line of it is enough to leak. */
export const MULTI_LINE_SECRET = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEICANARYmultiLineSecretLine7f3aOAoGCCqGSM49\nAwEHoUQDQgAE7f3aCANARYsecondLineOfTheKeyZ9\n-----END EC PRIVATE KEY-----'
/** A job secret a server quotes broken by whitespace (brokenAnswers): no half of it is token-like, so nothing but finding it whole masks it. */
export const SPLIT_SECRET = 'CANARY-jobsecret-quoted-over-two-lines-7f3a'
/** Secrets shorter than four characters: once never looked for. */
export const SHORT_SECRETS: readonly string[] = ['x', 'q7', 'z9!']

const text = (body: string): Buffer => Buffer.from(body, 'utf8')

/**
 * Error answers quoting `secret` (and, by name, the other corpus secrets) in each form that once
 * passed the judgement of server text (issue 25): the client must show none of their text.
 */
export function serverAnswers(secret: string): HostileAnswer[] {
  const plain = 'text/plain;charset=utf-8'
  return [
    {name: 'padded past the read limit', why: '65,496 spaces then the secret: cut at 64 KiB, whitespace collapsed, the start of the secret shown', secret, contentType: plain, body: text(`${' '.repeat(65_496)}${secret} was refused`)},
    {name: 'UTF-16LE', why: 'the charset was ignored: every other byte NUL, the secret not found', secret, contentType: 'text/plain; charset=utf-16le', body: Buffer.from(`the token ${secret} was refused`, 'utf16le')},
    {name: 'UTF-16LE without a charset', why: 'read as UTF-8: NULs between the letters, shown escaped', secret, contentType: 'text/plain', body: Buffer.from(`the token ${secret} was refused`, 'utf16le')},
    {name: 'UTF-16BE with a byte-order mark', why: 'the byte-order mark was ignored', secret, contentType: 'text/plain', body: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(`the token ${secret} was refused`, 'utf16le').swap16()])},
    {name: 'cased otherwise', why: 'compared case-sensitively', secret, contentType: plain, body: text(`TOKEN ${secret.toUpperCase()} REFUSED`)},
    {name: 'broken by zero-width spaces', why: 'invisible format characters between the letters', secret, contentType: plain, body: text(`token ${[...secret].join('\u200b')} refused`)},
    ...brokenAnswers(secret),
  ]
}

/**
 * Answers quoting `secret` broken by whitespace the server inserted (issue 33): only the unbroken
 * secret was looked for, and a text that showed all of it but a line break passed.
 */
export function brokenAnswers(secret: string): HostileAnswer[] {
  const plain = 'text/plain;charset=utf-8'
  const at = Math.ceil((secret.length * 2) / 3)
  const third = Math.ceil(secret.length / 3)
  return [
    {name: 'broken by a line break', why: 'a server that wraps long values put a line break two thirds into it', secret, contentType: plain, body: text(`value "${secret.slice(0, at)}\n${secret.slice(at)}" is not valid`)},
    {
      name: 'broken by runs of whitespace',
      why: 'a CRLF, indentation and spaces inside the quoted value',
      secret,
      contentType: plain,
      body: text(`value "${secret.slice(0, third)}\r\n\t  ${secret.slice(third, at)}   ${secret.slice(at)}" is not valid`),
    },
  ]
}

/** Answers that quote UMLAUT_SECRET in forms that need its letters outside ASCII. */
export function umlautAnswers(secret = UMLAUT_SECRET): HostileAnswer[] {
  const entities = secret.replace(/ä/g, '&auml;').replace(/ö/g, '&ouml;').replace(/Ä/g, '&Auml;').replace(/ß/g, '&szlig;')
  return [
    {name: 'named HTML entities beyond six (&auml;)', why: 'only amp, lt, gt, quot, apos and nbsp were decoded', secret, contentType: 'text/plain;charset=utf-8', body: text(`value "${entities}" is not valid`)},
    {name: 'named HTML entities without their semicolon (&auml)', why: 'browsers read legacy entities without the semicolon', secret, contentType: 'text/plain;charset=utf-8', body: text(`value "${secret.replace(/ä/g, '&auml').replace(/ö/g, '&ouml')}" is not valid`)},
    {name: 'NFD-normalized', why: 'compared code unit by code unit: a decomposed ä is another string', secret, contentType: 'text/plain;charset=utf-8', body: text(`value "${secret.normalize('NFD')}" is not valid`)},
    {name: 'ISO-8859-1', why: 'read as UTF-8: ä became U+FFFD', secret, contentType: 'text/plain; charset=ISO-8859-1', body: Buffer.from(`value "${secret}" is not valid`, 'latin1')},
  ]
}

/** An answer quoting one line of MULTI_LINE_SECRET. */
export function multiLineAnswer(secret = MULTI_LINE_SECRET): HostileAnswer {
  const line = secret.split('\n')[1]!
  return {name: 'one line of a multi-line secret', why: 'only the whole secret was looked for', secret, contentType: 'text/plain;charset=utf-8', body: text(`line 2 of the key is not base64: ${line}`)}
}

/** Answers quoting each of SHORT_SECRETS. */
export function shortAnswers(): HostileAnswer[] {
  return SHORT_SECRETS.map((secret) => ({name: `a secret of ${secret.length} character${secret.length > 1 ? 's' : ''}`, why: 'secrets shorter than 4 characters were not looked for', secret, contentType: 'text/plain;charset=utf-8', body: text(`value ${secret} is not valid`)}))
}

// ------------------------------------------------------------------ ODD INPUT
// Resources and odd input (issue 25): numbers and keys that JSON.parse/JSON.stringify do not carry
// exactly, charsets other than UTF-8, values nested deeper than any setting, listings without end.

/**
 * Number tokens a Java server may write (Jackson writes a double as `1.0`; a long beyond 2^53, or any
 * token a proxy or a hand-edited setting holds) and what JSON.stringify(JSON.parse(token)) makes of each.
 */
export const NUMBER_TOKENS: ReadonlyArray<{token: string; roundTrip: string; why: string}> = [
  {token: '12345678901234567891e0', roundTrip: '12345678901234567000', why: 'an integer beyond 2^53 in exponent form (the issue\'s maxArtifactBytes)'},
  {token: '9007199254740993', roundTrip: '9007199254740992', why: '2^53 + 1: a Java long JavaScript rounds to its neighbour'},
  {token: '1.0', roundTrip: '1', why: 'how Jackson writes a double holding a whole number'},
  {token: '1E2', roundTrip: '100', why: 'an exponent in capitals'},
  {token: '-0', roundTrip: '0', why: 'negative zero'},
  {token: '0.1000000000000000055511151231257827', roundTrip: '0.1', why: 'more digits than a double keeps'},
  {token: '1e400', roundTrip: 'null', why: 'beyond a double: JSON.stringify writes null'},
]

/** An object whose keys look like numbers: JavaScript moves them to the front of the object. */
export const NUMBER_LIKE_KEYS_TEXT = '{"zeta": 1, "10": "ten", "alpha": 2, "2": "two"}'

/** A secret only ISO-8859-1 carries in one byte a character: served as ISO-8859-1, decoded as UTF-8 it becomes U+FFFD. */
export const LATIN1_SECRET = 'pÄSS-wörd'

/** `text` in the given charset, as a server that honours its own Content-Type would send it. */
export function encodeAs(text: string, charset: 'iso-8859-1' | 'utf-16be-bom' | 'utf-16le'): Buffer {
  if (charset === 'iso-8859-1') return Buffer.from(text, 'latin1')
  if (charset === 'utf-16le') return Buffer.from(text, 'utf16le')
  // Java's "UTF-16" encoder: big-endian with a byte-order mark.
  const le = Buffer.from(text, 'utf16le')
  const be = Buffer.alloc(le.length + 2)
  be[0] = 0xfe
  be[1] = 0xff
  for (let i = 0; i < le.length; i += 2) {
    be[i + 2] = le[i + 1]!
    be[i + 3] = le[i]!
  }
  return be
}

/** A charset label no decoder knows. */
export const UNKNOWN_CHARSET = 'x-klingon-1'

/** Bytes that are not UTF-8 (a lone continuation byte, an overlong slash), in a body that says it is. */
export const INVALID_UTF8 = Buffer.from([0x22, 0x61, 0x80, 0xc0, 0xaf, 0x22])

/** A JSON value nested `depth` levels deep (lists within objects), as text: JSON.parse reads it, recursive code overflows its stack. */
export function deeplyNested(depth = 3000, leaf = '"bottom"'): string {
  return '{"a":['.repeat(depth) + leaf + ']}'.repeat(depth)
}

/**
 * One page of a listing that never ends: `count` distinct roles at `offset`, each padded so that the
 * page is about `pageBytes` long (the issue's pages were 600 KB). Every page differs from the last.
 */
export function endlessRolesPage(offset: number, count: number, pageBytes = 600 * 1024): string {
  const padding = 'x'.repeat(Math.max(0, Math.floor(pageBytes / Math.max(1, count)) - 80))
  const roles = Array.from({length: count}, (_, i) => ({id: offset + i + 1, name: `endless-${offset + i + 1}`, description: padding, manageProject: false}))
  return JSON.stringify(roles)
}

// ------------------------------------------------------------------ WRITE PATH

/** A JSON Patch edit as a plan or undo file holds it, with what it expects to find first. */
export interface FileEdit {
  op: 'replace' | 'add' | 'remove'
  path: string
  value?: unknown
  expect: Array<{path: string; value: unknown}>
}

/**
 * Issue 25, "the write path": each edit satisfies its own expectations (it names what the setting holds
 * now), so only judging it against what the tool plans itself can refuse it.
 */
export const WRITE_PATH = {
  /** Where an edited plan points a web hook: it would receive the hook's secret and header values. `.invalid` is never a real host (RFC 2606). */
  attackerHookUrl: 'https://collector.attacker.invalid/onedev',
  /** A web hook pointed at another host, added by hand to a reviewed plan. */
  webHookElsewhere(index: number, current: string): FileEdit {
    return {op: 'replace', path: `/webHooks/${index}/postUrl`, value: WRITE_PATH.attackerHookUrl, expect: [{path: `/webHooks/${index}/postUrl`, value: current}]}
  },
  /** A protection switched off, slipped into a change that strengthens another one. */
  protectionDisabled(index: number): FileEdit {
    return {op: 'replace', path: `/branchProtections/${index}/enabled`, value: false, expect: [{path: `/branchProtections/${index}/enabled`, value: true}]}
  },
  /** A job secret authorization that lets a job of any branch read it. */
  everyBranch: 'on branch "**"',
  /** A job secret's authorization widened, as a plan's value or an undo record's restore. */
  secretOpened(index: number, current: unknown, member = 'authorization'): FileEdit {
    const path = `/buildSetting/jobSecrets/${index}/${member}`
    return {op: 'replace', path, value: WRITE_PATH.everyBranch, expect: [{path, value: current}]}
  },
  /** What a job secret is rotated to right after our POST (it must stay as the server has it, and never show). */
  rotatedSecret: 'CANARY-jobsecret-rotated-after-the-post-7f3a',
  /**
   * The hole sealed undo records close: an undo record's `applied` and `restore` lists rewritten
   * together, as if a fix had switched Prevent Forced Push on where a person did. The tool itself would
   * plan that very change from the state the record claims, so judging the restore cannot tell it
   * from a record the tool wrote: only the seal can.
   */
  forcedPushSwitchedOff(index: number): {applied: {op: 'replace'; path: string; old: boolean; new: boolean}; restore: FileEdit} {
    const path = `/branchProtections/${index}/preventForcedPush`
    return {applied: {op: 'replace', path, old: false, new: true}, restore: {op: 'replace', path, value: false, expect: [{path, value: true}]}}
  },
  /** The undo key of someone else (an attacker's own onedev-audit, which seals what they write): 32 bytes. */
  otherUndoKey: Buffer.from('CANARY-not-your-undo-key-7f3a-32', 'utf8'),
  /** A colleague's edit right after our POST: the web hook also sent on builds. */
  colleagueEdit(setting: {webHooks: Array<{eventTypes: string[]}>}): void {
    setting.webHooks[0]!.eventTypes.push('BUILD')
  },
} as const

// ------------------------------------------------------------------ SERVER SETTINGS

export interface ServerSettingSecrets {
  name: string
  /** The OneDev versions and where the shape is read (test/helpers/server-payloads.ts says more). */
  source: string
  /** The endpoint path under the API prefix, as the audit asks it. */
  path: string
  payload: unknown
  /** Every credential it holds: none may appear in any output. */
  secrets: string[]
}

/** A password a person chose: no token shape, so only redaction by key keeps it out (`CANARY` lets the canary checks find it). */
const chosen = (place: string) => `Tr0ub4dor&3 ${place} CANARY 7f3a`
/** A UUID-like agent token, as OneDev generates one (`UUID.randomUUID()`, v16.5.6 server-core/src/main/java/io/onedev/server/model/AgentToken.java:25). */
const agentTokenValue = (n: number) => `c4a7e1f0-7f3a-4c1d-9e2b-CANARY00000${n}`

/**
 * Issue 34's endpoints (and the administration answers around them) holding credentials, at each
 * version with its own shape. Served by a loopback server (test/cli/hostile-corpus.test.ts) and
 * redacted one by one (test/model/redact.test.ts).
 */
export const SERVER_SETTING_SECRETS: readonly ServerSettingSecrets[] = [
  {
    name: 'SMTP/IMAP mail service, 16.x',
    source: 'v13.0.8+ SmtpImapConnector (server-plugin/server-plugin-mail-smtpimap/.../SmtpImapConnector.java:26-40)',
    path: '/settings/mail-service',
    payload: P.smtpImapConnector16('SmtpWithoutSsl', 'ImapWithoutSsl', {smtpPassword: chosen('smtp-16'), imapPassword: chosen('imap-16')}),
    secrets: [chosen('smtp-16'), chosen('imap-16')],
  },
  {
    name: 'SMTP/IMAP mail service, 10.x',
    source: 'v10.0.0 – v13.0.7 SmtpImapMailService (server-plugin/server-plugin-mailservice-smtpimap/.../SmtpImapMailService.java:27-39)',
    path: '/settings/mail-service',
    payload: P.smtpImapMailService10('SmtpWithoutSsl', 'ImapWithoutSsl', {smtpPassword: chosen('smtp-10'), imapPassword: chosen('imap-10')}),
    secrets: [chosen('smtp-10'), chosen('imap-10')],
  },
  {
    name: 'SMTP/IMAP mail setting, 8.x',
    source: 'v8.0.0 – v8.6.13 OtherMailSetting (server-core/.../mailsetting/OtherMailSetting.java:18-30, OtherInboxPollSetting.java:13-21)',
    path: '/settings/mail',
    payload: P.otherMailSetting8(false, false, {smtpPassword: chosen('smtp-8'), imapPassword: chosen('imap-8')}),
    secrets: [chosen('smtp-8'), chosen('imap-8')],
  },
  {
    name: 'Gmail, 16.x (OAuth client secret and refresh token)',
    source: 'v16.5.6 GmailConnector.java:37-51',
    path: '/settings/mail-service',
    payload: P.gmailConnector16(chosen('gmail-client-secret'), 'CANARY-1//0gGmailRefreshToken-7f3a'),
    secrets: [chosen('gmail-client-secret'), 'CANARY-1//0gGmailRefreshToken-7f3a'],
  },
  {
    name: 'Office 365, 16.x (OAuth client secret and refresh token)',
    source: 'v16.5.6 Office365Connector.java:33-49',
    path: '/settings/mail-service',
    payload: P.office365Connector16(chosen('o365-client-secret'), 'CANARY-0.AXoA365RefreshToken-7f3a'),
    secrets: [chosen('o365-client-secret'), 'CANARY-0.AXoA365RefreshToken-7f3a'],
  },
  {
    name: 'Gmail, 8.x',
    source: 'v8.0.0 GmailSetting.java:31-39',
    path: '/settings/mail',
    payload: P.gmailSetting8(chosen('gmail-8-client-secret'), 'CANARY-1//0gGmail8RefreshToken-7f3a'),
    secrets: [chosen('gmail-8-client-secret'), 'CANARY-1//0gGmail8RefreshToken-7f3a'],
  },
  {
    name: 'agent tokens',
    source: 'v8.0.0+ AgentToken {id, value} (server-core/src/main/java/io/onedev/server/model/AgentToken.java:24-25)',
    path: '/agent-tokens',
    payload: [P.agentToken(1, agentTokenValue(1)), P.agentToken(2, agentTokenValue(2))],
    secrets: [agentTokenValue(1), agentTokenValue(2)],
  },
  {
    name: 'an AI user\'s API key',
    source: 'v15.1.7+ UserData.aiSetting.modelSetting.apiKey (server-core/.../rest/resource/UserResource.java:118-119, AiModelSetting.java:48)',
    path: '/users',
    payload: [P.aiUser16(7, 'assistant', true, 'sk-proj-CANARYaiApiKey7f3aXq9Zt')],
    secrets: ['sk-proj-CANARYaiApiKey7f3aXq9Zt'],
  },
  {
    name: 'SSO provider client secrets, 16.x',
    source: 'v13.1.7+ SsoProvider.connector.clientSecret (server-core/src/main/java/io/onedev/server/model/SsoProvider.java:37)',
    path: '/sso-providers',
    payload: [P.ssoProvider16(1, 'okta', 1, chosen('okta-client-secret'))],
    secrets: [chosen('okta-client-secret')],
  },
  {
    name: 'SSO connector client secrets, 8.x – 12.0.8',
    source: 'v8.0.0 server-core/.../sso/SsoConnector.java:17-19, server-plugin/server-plugin-sso-openid/.../OpenIdConnector.java:62',
    path: '/settings/sso-connectors',
    payload: [P.ssoConnector8('keycloak', 'Administrators', chosen('keycloak-client-secret'))],
    secrets: [chosen('keycloak-client-secret')],
  },
  {
    name: 'the LDAP manager password (written with @class)',
    source: 'v16.5.6 Authenticator.java:14 (@JsonTypeInfo(use=Id.CLASS)), LdapAuthenticator.managerPassword',
    path: '/settings/authenticator',
    payload: P.ldapAuthenticator('Administrators', chosen('ldap-manager')),
    secrets: [chosen('ldap-manager')],
  },
  {
    name: 'registry logins of a job executor',
    source: 'v16.5.6 server-core/src/main/java/io/onedev/server/model/support/administration/jobexecutor/RegistryLogin.java:29',
    path: '/settings/job-executors',
    payload: [{'@type': 'RemoteDockerExecutor', enabled: true, name: 'agents', htmlReportPublishEnabled: false, sitePublishEnabled: false, jobMatch: null, agentQuery: null, registryLogins: [{registryUrl: 'https://registry.acme.example', userName: 'robot', password: chosen('registry')}], mountDockerSock: false}],
    secrets: [chosen('registry')],
  },
]

/** Every secret of SERVER_SETTING_SECRETS. */
export const SERVER_SETTING_SECRET_VALUES: readonly string[] = SERVER_SETTING_SECRETS.flatMap((entry) => entry.secrets)

// ------------------------------------------------------------------ ISSUES OTHERS OPEN

/** An issue as a project member opens it (test/helpers/issue-store.ts StoredIssue's fields). */
export interface LookalikeIssue {
  title: string
  description: string
  confidential: boolean
  state?: string
}

/**
 * Issue 33: anyone who may open an issue in a project can copy notify's title or its marker. Each
 * shape, given notify's title (`ISSUE_TITLES`) and a marker (`formatMarker`), is what a member opens:
 * notify must never write it, never let it block or steer an output, and name it once.
 */
export const LOOKALIKE_ISSUES = {
  /**
   * Before notify's first run, confidential: OneDev lets the submitter of a confidential issue read
   * it and subscribes them, so findings written into it reach that member and every update mails them.
   */
  confidentialBeforeFirstRun: (title: string): LookalikeIssue => ({title, description: 'Reserved for the audit. @member-7f3a', confidential: true}),
  /** The same, not confidential: notify refusing to write it must not stop the project's owners being told. */
  publicBeforeFirstRun: (title: string): LookalikeIssue => ({title, description: '', confidential: false}),
  /** After notify's own issue was closed: a new one carrying notify's marker (copied from the page source). */
  copiedMarker: (title: string, marker: string): LookalikeIssue => ({title, description: `${marker}\n\nFindings go here now.`, confidential: true}),
  /** Newer issues whose title contains notify's: enough of them to push its own issue off the first page of the default order (newest activity first). */
  newerTitleText: (title: string, index: number): LookalikeIssue => ({title: `Re: ${title} (${index})`, description: '', confidential: false}),
} as const
