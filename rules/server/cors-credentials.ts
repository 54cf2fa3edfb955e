/**
 * CORS origins that receive credentials: OneDev answers each listed origin with
 * `Access-Control-Allow-Credentials: true` (onedev-access-reference.md §3.1, §9 item 13).
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {securitySettingOf} from '../../src/model/access-data.js'
import {systemSettingOf} from '../../src/model/admin-data.js'
import {joinPointer} from '../../src/model/pointer.js'
import {corsOriginIssue, type CorsOriginIssue, displayUrl} from '../../src/onedev/server-security.js'

const WHY: Record<CorsOriginIssue, string> = {
  'plain-http': 'it is plain http://, so anyone on the network path can inject script into it',
  'null': 'sandboxed iframes, data: and file: pages send the origin "null", so any web page can claim it',
  'foreign': 'it is not under the server\'s own domain',
}

export default defineRule({
  meta: {
    id: 'server/cors-credentials',
    shortDescription: 'A CORS origin that receives credentials is plain HTTP, null, or foreign',
    fullDescription:
      'Reports entries of *CORS Allowed Origins* that are `http://`, `null`, or hosts outside the server\'s own domain (from the server URL). ' +
      'OneDev answers a listed origin with `Access-Control-Allow-Credentials: true`, so a page served from that origin can call the REST API ' +
      'with the session of any OneDev user who visits it: read private code, change settings, create access tokens.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'Browsers send cookies with cross-origin requests when the server allows credentials for the requesting origin. Every origin in the list can',
      'therefore act as the visiting user. An `http://` origin can be hijacked by anyone on the network path, `null` is sent by sandboxed iframes',
      'and local files (any attacker page can produce it), and a third-party host is only as trustworthy as whoever runs it.',
      '',
      '## Fix',
      'In *Administration → Security Settings* remove the entry from *CORS Allowed Origins*, or replace it with the `https://` origin of a site you',
      'operate. The check takes the server\'s own domain from *Server URL* (`onedev.acme.example` → `acme.example`).',
      '',
      '## Example',
      '```json',
      '{"corsAllowedOrigins": ["http://portal.acme.example", "null", "https://tools.partner.example"]}   // three findings',
      '{"corsAllowedOrigins": ["https://portal.acme.example"]}                                          // fine',
      '```',
    ].join('\n'),
    tags: ['server', 'web', 'authentication'],
    scope: 'server',
    requires: ['/settings/security', '/settings/system'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const security = securitySettingOf(context.model)
    if (!security) return []
    const serverUrl = systemSettingOf(context.model)?.serverUrl ?? null
    const raw = security.raw.corsAllowedOrigins
    const drafts: FindingDraft[] = []
    if (!Array.isArray(raw)) return drafts
    raw.forEach((origin, index) => {
      if (typeof origin !== 'string') return
      const issue = corsOriginIssue(origin, serverUrl)
      if (issue === null) return
      const shown = displayUrl(origin)
      drafts.push({
        subject: shown,
        message:
          `CORS origin "${shown}" receives credentials (OneDev allows them for every listed origin), and ${WHY[issue]}: a page there can call the API as any visiting user. ` +
          'In Administration > Security Settings remove it from CORS Allowed Origins, or list only https:// origins you operate.',
        pointer: joinPointer(security.pointer, 'corsAllowedOrigins', index),
      })
    })
    return drafts
  },
})
