/**
 * Notification and web hook URLs that carry credentials: user info (`user:password@`) or
 * token-like query or path parameters (`/notify;token=…`). Slack- and Discord-style secret paths are how those services work
 * and are not reported on their own.
 */
import {notificationKey, ownedKey, webHookKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import type {UrlFacts} from '../../src/model/types.js'
import {effectiveNotifications, hierarchyWebHooks, hostOf, memberPointer, reportedOwners} from '../../src/onedev/url.js'

/** What the URL carried, by kind and parameter name only, never by value. */
function carried(url: UrlFacts | null): string | null {
  if (!url) return null
  const parts: string[] = []
  if (url.hadUserInfo) parts.push('user info (user:password@)')
  if (url.secretQueryParams.length > 0) {
    const names = [...new Set(url.secretQueryParams)].map((name) => `"${name}"`).join(', ')
    parts.push(`the query parameter${url.secretQueryParams.length > 1 ? 's' : ''} ${names}`)
  }
  const pathParams = url.secretPathParams ?? []
  if (pathParams.length > 0) parts.push(`the path parameter${pathParams.length > 1 ? 's' : ''} ${pathParams.map((name) => `"${name}"`).join(', ')}`)
  return parts.length > 0 ? parts.join(' and ') : null
}

export default defineRule({
  meta: {
    id: 'notification/credentials-in-url',
    shortDescription: 'A notification or web hook URL carries credentials',
    fullDescription:
      'Reports channel notification and web hook URLs that contain user info (`user:password@host`) or query or path parameters (`?token=…`, `/notify;token=…`) that look like credentials (token, key, secret, password, signature). ' +
      'Credentials stored in a URL end up in proxy and server logs, are shown to everyone who can see the project settings, and are returned in clear text by the settings API. ' +
      'Secret path segments of Slack and Discord webhook URLs are how those services authenticate and are not reported by themselves. Inherited URLs of ancestors that are not audited are reported on each audited child.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'A URL such as `https://deploy:s3cret@hooks.example.com/x` or `https://hooks.example.com/x?token=...` is logged by every proxy',
      'on the way and by the receiver, and anyone with access to the project settings sees the credential.',
      '',
      '## Fix',
      'For a web hook, remove the credential from the URL and authenticate with the web hook *Secret* (sent as a header with every',
      'delivery) or a custom header in *Project → Settings → Web Hooks*; have the receiver check it. Rotate the exposed credential.',
      'For channel notifications, use the URL the service issues without extra credentials.',
      '',
      '## Example',
      '```',
      'https://user:pass@hooks.example.com/onedev        # reported',
      'https://hooks.example.com/onedev?token=...        # reported',
      'https://hooks.slack.com/services/T000/B000/XXXX   # fine: Slack\'s own secret path',
      '```',
    ].join('\n'),
    tags: ['secrets', 'webhooks', 'inheritance'],
    scope: 'project',
  },
  check(context) {
    if (context.scope !== 'project') return []
    const {project, ancestors} = context
    const chain = [project, ...ancestors]
    const owners = reportedOwners(project, ancestors, context.audited)
    const drafts: FindingDraft[] = []
    const inherited = (ownerId: number, path: string) => (ownerId === project.id ? '' : ` (inherited from ${path})`)
    const fix = 'Remove the credential from the URL, rotate it, and authenticate with a secret header instead.'
    for (const {item, owner} of effectiveNotifications(chain)) {
      const what = owners.has(owner.id) ? carried(item.url) : null
      if (!what) continue
      const host = hostOf(item.url)
      drafts.push({
        subject: host,
        message: `${item.channel} notification URL to ${host}${inherited(owner.id, owner.path)} carries ${what}: credentials in a URL are logged by proxies and shown in the settings. ${fix}`,
        pointer: memberPointer(owner.raw, item.pointer, 'webhookUrl'),
        key: ownedKey(notificationKey(item), owner, project),
        ...(owner.id === project.id ? {} : {sourceProjectId: owner.id}),
      })
    }
    for (const {item, owner} of hierarchyWebHooks(chain)) {
      const what = owners.has(owner.id) ? carried(item.url) : null
      if (!what) continue
      const host = hostOf(item.url)
      drafts.push({
        subject: host,
        message: `Web hook URL to ${host}${inherited(owner.id, owner.path)} carries ${what}: credentials in a URL are logged by proxies and shown in the settings. ${fix}`,
        pointer: memberPointer(owner.raw, item.pointer, 'postUrl'),
        key: ownedKey(webHookKey(item), owner, project),
        ...(owner.id === project.id ? {} : {sourceProjectId: owner.id}),
      })
    }
    return drafts
  },
})
