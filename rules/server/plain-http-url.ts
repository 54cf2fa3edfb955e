/**
 * The server URL is `http://`: clone URLs, links in notifications and the OAuth callback all use it
 * (onedev-access-reference.md §3.2, §9 item 15).
 */
import {defineRule} from '../../src/engine/rule.js'
import {systemSettingOf} from '../../src/model/admin-data.js'
import {memberPointer} from '../../src/model/pointer.js'
import {displayUrl, isPlainHttp} from '../../src/onedev/server-security.js'

export default defineRule({
  meta: {
    id: 'server/plain-http-url',
    shortDescription: 'The server URL is plain http://',
    fullDescription:
      'Reports a server whose URL (*Administration → System Settings → Server URL*) is `http://`. OneDev builds clone URLs, links in emails and ' +
      'notifications, and SSO callback addresses from it, so users and tools send passwords and access tokens over plain HTTP.',
    defaultSeverity: 'low',
    help: [
      '## Risk',
      'Git over HTTP and the REST API authenticate with HTTP Basic: over `http://` the password or access token is readable by anyone on the path.',
      'Even behind a TLS-terminating proxy, an `http://` server URL makes OneDev hand out plain-HTTP clone and callback URLs.',
      '',
      '## Fix',
      'Serve OneDev over HTTPS (its own TLS setting or a reverse proxy), then set *Server URL* in *Administration → System Settings* to the `https://` address.',
      '',
      '## Example',
      '```json',
      '{"serverUrl": "http://onedev.acme.example"}    // reported',
      '{"serverUrl": "https://onedev.acme.example"}   // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'tls'],
    scope: 'server',
    requires: ['/settings/system'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const system = systemSettingOf(context.model)
    if (!system || system.serverUrl === null || !isPlainHttp(system.serverUrl)) return []
    const url = displayUrl(system.serverUrl)
    return [
      {
        subject: url,
        message:
          `The server URL ${url} is plain HTTP: clone URLs and links handed out by OneDev send passwords and access tokens in clear. ` +
          'Serve OneDev over HTTPS and set Server URL in Administration > System Settings to the https:// address.',
        pointer: memberPointer(context.model.serverData, system.pointer, 'serverUrl'),
      },
    ]
  },
})
