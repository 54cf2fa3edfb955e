/**
 * Channel notifications and web hooks that post to plain `http://` URLs. Web hooks send their
 * secret as a request header with every delivery, so over http it is exposed as well.
 */
import {notificationKey, ownedKey, webHookKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {httpsFix} from '../support/fixes.js'
import {effectiveNotifications, hierarchyWebHooks, hostOf, memberPointer, reportedOwners} from '../../src/onedev/url.js'

export default defineRule({
  meta: {
    id: 'notification/insecure-webhook',
    shortDescription: 'A notification or web hook posts to a plain http:// URL',
    fullDescription:
      'Reports channel notifications (Slack, Discord, ntfy) and project web hooks whose URL uses http:// instead of https://. ' +
      'Their payloads describe issues, pull requests, builds and commits, and a web hook also sends its secret and custom headers with every delivery: over http all of it travels in clear text and can be read or altered in transit. ' +
      'Notifications and web hooks are inherited by child projects, so an ancestor\'s that is not audited itself is reported on each audited child.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'Anyone on the network path between OneDev and the receiver reads the event payloads (titles of confidential issues, commit',
      'messages, build results) and the web hook\'s secret header, and can replay or forge deliveries with it.',
      '',
      '## Fix',
      'In OneDev open *Project → Settings → Web Hooks* (or *Settings → Notification → Slack/Discord/Ntfy*) and change the URL to',
      'https://. If the receiver has no TLS endpoint yet, put a TLS-terminating proxy in front of it.',
      '',
      '## Example',
      '```',
      'http://ci.internal/hook    # reported',
      'https://ci.internal/hook   # fine',
      '```',
    ].join('\n'),
    tags: ['transport-security', 'webhooks', 'inheritance'],
    scope: 'project',
    fix: 'suggestion',
  },
  check(context) {
    if (context.scope !== 'project') return []
    const {project, ancestors} = context
    const chain = [project, ...ancestors]
    const owners = reportedOwners(project, ancestors, context.audited)
    const drafts: FindingDraft[] = []
    const inherited = (ownerId: number, path: string) => (ownerId === project.id ? '' : ` (inherited from ${path})`)
    for (const {item, owner} of effectiveNotifications(chain)) {
      if (!owners.has(owner.id) || item.url?.scheme !== 'http') continue
      const host = hostOf(item.url)
      drafts.push({
        subject: host,
        message:
          `${item.channel} notification to ${host}${inherited(owner.id, owner.path)} is posted over plain http://: ` +
          'its payloads travel in clear text and can be read or altered on the way. Use an https:// URL.',
        pointer: memberPointer(owner.raw, item.pointer, 'webhookUrl'),
        fixes: httpsFix(memberPointer(owner.raw, item.pointer, 'webhookUrl'), `the ${item.channel} notification to ${host}`),
        key: ownedKey(notificationKey(item), owner, project),
        ...(owner.id === project.id ? {} : {sourceProjectId: owner.id}),
      })
    }
    for (const {item, owner} of hierarchyWebHooks(chain)) {
      if (!owners.has(owner.id) || item.url?.scheme !== 'http') continue
      const host = hostOf(item.url)
      const extras = [item.hasSecret ? 'its secret (sent as a request header)' : '', item.headerNames.length > 0 ? `${item.headerNames.length} custom header(s)` : '']
        .filter(Boolean)
        .join(' and ')
      drafts.push({
        subject: host,
        message:
          `Web hook to ${host}${inherited(owner.id, owner.path)} posts over plain http://: ` +
          `the event payloads${extras ? ` and ${extras}` : ''} travel in clear text and can be read or altered on the way. Use an https:// URL.`,
        pointer: memberPointer(owner.raw, item.pointer, 'postUrl'),
        fixes: httpsFix(memberPointer(owner.raw, item.pointer, 'postUrl'), `the web hook to ${host}`),
        key: ownedKey(webHookKey(item), owner, project),
        ...(owner.id === project.id ? {} : {sourceProjectId: owner.id}),
      })
    }
    return drafts
  },
})
