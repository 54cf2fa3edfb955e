/**
 * What a project's own setting holds, compared item by item: job secrets by name, web hooks by
 * (redacted) URL and events, channel notifications by (redacted) URL and events, and by channel
 * where both sides know it. Positions never
 * identify anything, so reordering is no change. Secret values are never compared (the model never
 * holds them); endpoints are named by scheme and host only, never by path, query or user info.
 */
import type {ChannelNotification, JobSecret, Project, UrlFacts, WebHook} from '../model/types.js'
import {assessSecretAuthorization, compareReach} from '../onedev/job-match.js'
import {hostOf} from '../onedev/url.js'
import {type Change, change, projectRef} from './change.js'
import {pushTo} from '../util/collections.js'

/** Pairs items of two lists: first by `keys` in turn (each pass on what earlier passes left), in list order. */
export function pairUp<T>(before: T[], after: T[], keys: ((item: T) => string)[]): {pairs: [T, T][]; removed: T[]; added: T[]} {
  let left = [...before]
  let right = [...after]
  const pairs: [T, T][] = []
  for (const key of keys) {
    const waiting = new Map<string, T[]>()
    for (const item of right) pushTo(waiting, key(item), item)
    const unpaired: T[] = []
    const taken = new Set<T>()
    for (const item of left) {
      const match = waiting.get(key(item))?.shift()
      if (match === undefined) unpaired.push(item)
      else {
        pairs.push([item, match])
        taken.add(match)
      }
    }
    left = unpaired
    right = right.filter((item) => !taken.has(item))
  }
  return {pairs, removed: left, added: right}
}

// ---------------------------------------------------------------- job secrets

function authorizationText(secret: JobSecret): string {
  const {authorization} = secret
  if (authorization.kind === 'branches') return authorization.branches === null || authorization.branches.trim() === '' ? 'every branch (empty)' : `branches "${authorization.branches}"`
  return authorization.expression === null || authorization.expression.trim() === '' ? 'any job (empty)' : authorization.expression
}

const isBroad = (secret: JobSecret) => {
  const breadth = assessSecretAuthorization(secret.authorization).breadth
  return breadth === 'any-job' || breadth === 'arbitrary-branches'
}

const SECRET_RULE = 'job-secret/broad-branches'

export function compareSecrets(before: Project, after: Project): Change[] {
  const project = projectRef(after)
  const {pairs, removed, added} = pairUp(before.setting?.jobSecrets ?? [], after.setting?.jobSecrets ?? [], [(s) => s.name])
  const out: Change[] = []
  const base = (secret: JobSecret) => ({kind: 'job-secret' as const, project, subject: secret.name, ruleId: SECRET_RULE})
  for (const secret of added) {
    const broad = isBroad(secret)
    out.push(
      change({
        ...base(secret),
        change: 'added',
        classification: broad ? 'weakened' : 'neutral',
        aspect: 'secret',
        before: null,
        after: authorizationText(secret),
        message: `Job secret "${secret.name}" added, authorized for ${authorizationText(secret)}${broad ? ': builds of branches anyone can create can read it' : ''}.`,
      }),
    )
  }
  for (const secret of removed) {
    out.push(
      change({
        ...base(secret),
        project: projectRef(before),
        change: 'removed',
        classification: isBroad(secret) ? 'strengthened' : 'neutral',
        aspect: 'secret',
        before: authorizationText(secret),
        after: null,
        message: `Job secret "${secret.name}" removed (it was authorized for ${authorizationText(secret)}).`,
      }),
    )
  }
  for (const [old, now] of pairs) {
    const reach = compareReach(assessSecretAuthorization(old.authorization), assessSecretAuthorization(now.authorization))
    if (reach !== 'same') {
      const classification = reach === 'widened' ? 'weakened' : reach === 'narrowed' ? 'strengthened' : 'neutral'
      const verb = reach === 'changed' ? 'changed (neither provably wider nor narrower)' : reach
      out.push(
        change({
          ...base(now),
          change: 'changed',
          classification,
          aspect: 'authorization',
          before: authorizationText(old),
          after: authorizationText(now),
          message: `Job secret "${now.name}": authorization ${verb}: ${authorizationText(old)} -> ${authorizationText(now)}.`,
        }),
      )
    }
    if (old.archived !== now.archived) {
      const state = (archived: boolean) => (archived ? 'archived' : 'active')
      out.push(
        change({
          ...base(now),
          change: 'changed',
          classification: 'neutral',
          aspect: 'archived',
          before: state(old.archived),
          after: state(now.archived),
          message: `Job secret "${now.name}": ${state(old.archived)} -> ${state(now.archived)} (an archived secret is still handed to the jobs its authorization admits).`,
        }),
      )
    }
  }
  return out
}

// ---------------------------------------------------------------- web hooks and notifications

/** Scheme and host: all of an endpoint that is ever printed. */
function endpointText(url: UrlFacts | null): string {
  return url?.scheme ? `${url.scheme}://${hostOf(url)}` : hostOf(url)
}

/** What an endpoint's URL itself gets wrong, as the rules judge it (credentials first: the worse). */
function endpointRisk(url: UrlFacts | null): {ruleId: string; what: string} | null {
  if (url && (url.hadUserInfo || url.secretQueryParams.length > 0 || (url.secretPathParams?.length ?? 0) > 0)) return {ruleId: 'notification/credentials-in-url', what: 'carries credentials in its URL'}
  if (url?.scheme === 'http') return {ruleId: 'notification/insecure-webhook', what: 'posts over plain http://'}
  return null
}

interface Endpoint {
  kind: 'web-hook' | 'notification'
  label: string
  url: UrlFacts | null
  urlText: string | null
  /** Web hooks only. */
  hasSecret?: boolean
  events?: string
  /** Notifications only: the channel when the payload said it, null when it was guessed (the contract's list carries none). */
  channel?: string | null
}

function hookEndpoint(hook: WebHook): Endpoint {
  return {kind: 'web-hook', label: 'Web hook', url: hook.url, urlText: hook.postUrl, hasSecret: hook.hasSecret, events: [...hook.eventTypes].sort().join(', ')}
}

function notificationEndpoint(item: ChannelNotification): Endpoint {
  return {kind: 'notification', label: `${item.channel} notification`, url: item.url, urlText: item.webhookUrl, events: item.events.join(', '), channel: item.channelKnown ? item.channel : null}
}

/**
 * How notifications of two states are paired, strongest first. The channel counts only where both
 * sides know it alike: across a server upgrade the contract's list (no channel) becomes `@type`d
 * contributed settings, and the same URL with the same events is the same notification. Then the
 * same URL (its events changed), then the same channel (pointed elsewhere).
 */
const NOTIFICATION_KEYS: ((e: Endpoint) => string)[] = [
  (e) => `${e.channel ?? ''}\n${e.urlText ?? ''}\n${e.events}`,
  (e) => `${e.urlText ?? ''}\n${e.events}`,
  (e) => `${e.channel ?? ''}\n${e.urlText ?? ''}`,
  (e) => e.urlText ?? '',
  (e) => e.label,
]

function compareEndpoint(project: ReturnType<typeof projectRef>, old: Endpoint, after: Endpoint): Change[] {
  // Named by the channel one side knows, when the other had to guess it.
  const now = after.channel === null && old.channel ? {...after, label: old.label} : after
  const out: Change[] = []
  const subject = hostOf(now.url)
  const base = {kind: now.kind, project, subject, change: 'changed' as const}
  if (old.channel && now.channel && old.channel !== now.channel) {
    out.push(change({...base, classification: 'neutral', aspect: 'channel', before: old.channel, after: now.channel, message: `Notification to ${subject}: channel ${old.channel} -> ${now.channel}.`}))
  }
  if (old.urlText !== now.urlText) {
    const before = endpointText(old.url)
    // http:// → https:// of the same host is the same receiver, now reached over TLS.
    const upgraded = old.url?.scheme === 'http' && now.url?.scheme === 'https' && hostOf(old.url) === hostOf(now.url)
    const sameEndpoint = before === endpointText(now.url) || upgraded
    const after = sameEndpoint && !upgraded ? `${endpointText(now.url)} (another path)` : endpointText(now.url)
    const risk = endpointRisk(now.url)
    const oldRisk = endpointRisk(old.url)
    // Deliveries (and a web hook's secret) now go to a receiver that was not trusted before.
    const weakened = !sameEndpoint || (risk !== null && risk.ruleId !== oldRisk?.ruleId)
    const ruleId = risk?.ruleId ?? 'notification/insecure-webhook'
    out.push(
      change({
        ...base,
        classification: weakened ? 'weakened' : oldRisk && !risk ? 'strengthened' : 'neutral',
        ruleId,
        aspect: 'url',
        before,
        after,
        message: `${now.label} now posts to ${after} (was ${before})${risk ? `; it ${risk.what}` : ''}.`,
      }),
    )
  }
  if (old.hasSecret !== undefined && now.hasSecret !== undefined && old.hasSecret !== now.hasSecret) {
    const text = (has: boolean) => (has ? 'set' : 'none')
    out.push(
      change({
        ...base,
        classification: now.hasSecret ? 'strengthened' : 'weakened',
        ruleId: 'webhook/missing-secret',
        aspect: 'secret',
        before: text(old.hasSecret),
        after: text(now.hasSecret),
        message: now.hasSecret ? `${now.label} to ${subject} now has a secret.` : `${now.label} to ${subject} lost its secret: the receiver can no longer tell OneDev's deliveries from forged ones.`,
      }),
    )
  }
  if (old.events !== now.events) {
    out.push(change({...base, classification: 'neutral', aspect: 'events', before: old.events ?? '', after: now.events ?? '', message: `${now.label} to ${subject}: events ${old.events || 'none'} -> ${now.events || 'none'}.`}))
  }
  return out
}

function addedEndpoint(project: ReturnType<typeof projectRef>, item: Endpoint): Change {
  const risk = endpointRisk(item.url) ?? (item.hasSecret === false ? {ruleId: 'webhook/missing-secret', what: 'has no secret'} : null)
  return change({
    kind: item.kind,
    project,
    subject: hostOf(item.url),
    change: 'added',
    classification: risk ? 'weakened' : 'neutral',
    ...(risk ? {ruleId: risk.ruleId} : {}),
    aspect: item.kind,
    before: null,
    after: endpointText(item.url),
    message: `${item.label} to ${endpointText(item.url)} added${risk ? `; it ${risk.what}` : ''}.`,
  })
}

function removedEndpoint(project: ReturnType<typeof projectRef>, item: Endpoint): Change {
  return change({
    kind: item.kind,
    project,
    subject: hostOf(item.url),
    change: 'removed',
    classification: 'neutral',
    aspect: item.kind,
    before: endpointText(item.url),
    after: null,
    message: `${item.label} to ${endpointText(item.url)} removed.`,
  })
}

function compareEndpoints(before: Project, after: Project, old: Endpoint[], now: Endpoint[], keys: ((e: Endpoint) => string)[]): Change[] {
  const {pairs, removed, added} = pairUp(old, now, keys)
  return [
    ...added.map((item) => addedEndpoint(projectRef(after), item)),
    ...removed.map((item) => removedEndpoint(projectRef(before), item)),
    ...pairs.flatMap(([o, n]) => compareEndpoint(projectRef(after), o, n)),
  ]
}

export function compareWebHooks(before: Project, after: Project): Change[] {
  const url = (e: Endpoint) => e.urlText ?? ''
  return compareEndpoints(before, after, (before.setting?.webHooks ?? []).map(hookEndpoint), (after.setting?.webHooks ?? []).map(hookEndpoint), [
    (e) => `${url(e)}\n${e.events}`,
    url,
    // Same events, another URL: the same web hook pointed elsewhere.
    (e) => e.events ?? '',
  ])
}

export function compareNotifications(before: Project, after: Project): Change[] {
  return compareEndpoints(before, after, (before.setting?.notifications ?? []).map(notificationEndpoint), (after.setting?.notifications ?? []).map(notificationEndpoint), NOTIFICATION_KEYS)
}

/**
 * OLD's notifications, each with the channel NEW gives the same notification (same URL) when either
 * side had to guess it: so that their findings keep their fingerprints across a server upgrade.
 * The same list when nothing changes.
 */
export function notificationsNamedAsIn(before: ChannelNotification[], after: ChannelNotification[]): ChannelNotification[] {
  if (before.length === 0 || after.length === 0) return before
  const endpoints = new Map(before.map((item) => [notificationEndpoint(item), item]))
  const afterByEndpoint = new Map(after.map((item) => [notificationEndpoint(item), item]))
  const {pairs} = pairUp([...endpoints.keys()], [...afterByEndpoint.keys()], NOTIFICATION_KEYS.slice(0, -1))
  const renamed = new Map<ChannelNotification, ChannelNotification>()
  for (const [old, now] of pairs) {
    const item = endpoints.get(old)!
    const named = afterByEndpoint.get(now)!
    if (item.channel !== named.channel && !(item.channelKnown && named.channelKnown)) renamed.set(item, {...item, channel: named.channel, channelKnown: named.channelKnown})
  }
  return renamed.size === 0 ? before : before.map((item) => renamed.get(item) ?? item)
}
