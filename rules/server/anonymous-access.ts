/**
 * Anonymous access with base roles that let anonymous users read code (or at least see projects).
 */
import {defineRule} from '../../src/engine/rule.js'
import {securitySettingOf} from '../../src/model/access-data.js'
import {memberPointer} from '../../src/model/pointer.js'
import {roleReadsCode} from '../../src/onedev/access.js'
import {examplesPhrase} from '../support/protection-findings.js'

export default defineRule({
  meta: {
    id: 'server/anonymous-access',
    shortDescription: 'Anonymous users can read code (or see projects) through base roles',
    fullDescription:
      'With anonymous access on, users who are not logged in get the base (default) roles of every project and its ancestors, limited to read-type permissions. ' +
      'The rule reports (high) when the base roles of some audited project, own or inherited, read code, and (medium) when they only make projects visible.',
    defaultSeverity: 'high',
    help: [
      '## Risk',
      'Anyone on the network (or the internet) can browse and clone the code of projects whose base roles read code, without an account.',
      '',
      '## Fix',
      'In OneDev open *Administration → Security Settings* and clear *Enable Anonymous Access*, or remove the base roles of the projects',
      'that must not be public in *Project Settings → Authorization → Base Authorization* (or *General → Default Roles*); base roles of a parent project apply to its children.',
      '',
      '## Example',
      '```json',
      '{"enableAnonymousAccess": true}   // with base role "Code Reader" on acme: reported (high)',
      '```',
    ].join('\n'),
    tags: ['access-control'],
    scope: 'server',
    requires: ['/settings/security', '/roles', '/projects', '/projects/{id}/base-authorizations'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const {model, facts} = context
    const security = securitySettingOf(model)
    if (!security?.enableAnonymousAccess) return []
    const readable: string[] = []
    const visible: string[] = []
    for (const project of model.projects) {
      const chain = facts.chainAuthorizations(project)
      if (chain.missing.has('base')) continue
      const roles = chain.base.flatMap((e) => model.roles.filter((r) => r.id === e.authorization.roleId))
      if (roles.some(roleReadsCode)) readable.push(project.path)
      else if (chain.base.length > 0) visible.push(project.path)
    }
    if (readable.length === 0 && visible.length === 0) return []
    const pointer = memberPointer(model.serverData, security.pointer, 'enableAnonymousAccess')
    const fix = 'Turn off anonymous access in Administration > Security Settings, or remove the base roles of projects that must not be public.'
    if (readable.length > 0) {
      return [{subject: 'anonymous access', pointer, message: `Anonymous access is on and base roles let users who are not logged in read the code of ${readable.length} project${readable.length === 1 ? '' : 's'} (${examplesPhrase(readable)}). ${fix}`}]
    }
    return [{subject: 'anonymous access', pointer, severity: 'medium', message: `Anonymous access is on and base roles let users who are not logged in see ${visible.length} project${visible.length === 1 ? '' : 's'} (${examplesPhrase(visible)}), though not their code. ${fix}`}]
  },
})
