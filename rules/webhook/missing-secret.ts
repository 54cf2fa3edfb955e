/** Project web hooks without a secret: the receiver cannot tell OneDev's deliveries from forged ones. */
import {ownedKey, webHookKey} from '../../src/engine/identity.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {hierarchyWebHooks, hostOf, memberPointer, reportedOwners} from '../../src/onedev/url.js'

export default defineRule({
  meta: {
    id: 'webhook/missing-secret',
    shortDescription: 'A web hook has no secret',
    fullDescription:
      'OneDev sends a web hook\'s secret as a request header with every delivery, so the receiver can check that a request came from OneDev. ' +
      'Without a secret anyone who knows or guesses the receiver\'s URL can post forged push, pull request or build events to it, for example to trigger a deployment. ' +
      'Web hooks are inherited by child projects; an ancestor\'s that is not audited itself is reported on each audited child.',
    defaultSeverity: 'medium',
    help: [
      '## Risk',
      'Receivers of OneDev web hooks often act on them: start a deployment, sync a mirror, post to chat. Without a shared secret they',
      'must trust any request that reaches them.',
      '',
      '## Fix',
      'In OneDev open *Project → Settings → Web Hooks*, edit the web hook and set a long random *Secret*; make the receiver reject',
      'requests whose secret header does not match. Use an https:// URL so the secret does not travel in clear text.',
      '',
      '## Example',
      '```json',
      '{"postUrl": "https://ci.example.com/hook", "secret": null}        // reported',
      '{"postUrl": "https://ci.example.com/hook", "secret": "<random>"}  // fine',
      '```',
    ].join('\n'),
    tags: ['webhooks', 'authentication', 'inheritance'],
    scope: 'project',
  },
  check(context) {
    if (context.scope !== 'project') return []
    const {project, ancestors} = context
    const owners = reportedOwners(project, ancestors, context.audited)
    const drafts: FindingDraft[] = []
    for (const {item, owner} of hierarchyWebHooks([project, ...ancestors])) {
      if (!owners.has(owner.id) || item.hasSecret) continue
      const host = hostOf(item.url)
      const inherited = owner.id === project.id ? '' : ` (inherited from ${owner.path})`
      drafts.push({
        subject: host,
        message:
          `Web hook to ${host}${inherited} has no secret: the receiver cannot verify that a delivery came from OneDev, so anyone who can reach it can forge events. ` +
          'Set a random secret and have the receiver check it.',
        pointer: memberPointer(owner.raw, item.pointer, 'secret'),
        key: ownedKey(webHookKey(item), owner, project),
        ...(owner.id === project.id ? {} : {sourceProjectId: owner.id}),
      })
    }
    return drafts
  },
})
