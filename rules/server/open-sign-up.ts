/**
 * Self sign-up open to any email address while base roles (or the default group) give new accounts something.
 */
import {defineRule, type Severity} from '../../src/engine/rule.js'
import {groupAuthorizationsOf, securitySettingOf} from '../../src/model/access-data.js'
import {memberPointer} from '../../src/model/pointer.js'
import {type Breadth, roleBreadth} from '../../src/onedev/access.js'
import {examplesPhrase} from '../support/protection-findings.js'

const STRONG: ReadonlySet<Breadth> = new Set(['manage', 'write', 'jobs'])

export default defineRule({
  meta: {
    id: 'server/open-sign-up',
    shortDescription: 'Anyone can sign up and get what base roles give every logged-in user',
    fullDescription:
      'Self sign-up is on (the default of a fresh install) and no allowed email domain limits it: anyone who reaches the server can create an account and gets the base roles of every project, and the memberships of the default group. ' +
      'Critical when those write code, run jobs or manage a project somewhere (or the default group is an administrator group); high when they only read.',
    defaultSeverity: 'critical',
    help: [
      '## Risk',
      'An account is one form away. Base roles are given to every logged-in user, so a stranger who signs up can do whatever they allow: push code, run jobs that receive secrets, manage projects.',
      '',
      '## Fix',
      'In OneDev open *Administration → Security Settings* and clear *Enable Self Sign-Up*, or set *Allowed Self Sign-Up Email Domain* to your own domain(s).',
      'Narrow base roles in each project\'s *Settings → Authorization*.',
      '',
      '## Example',
      '```json',
      '{"enableSelfRegister": true, "allowedSelfRegisterEmailDomain": null}   // with base role "Code Writer" somewhere: critical',
      '{"enableSelfRegister": true, "allowedSelfRegisterEmailDomain": "*.acme.example"}   // fine',
      '```',
    ].join('\n'),
    tags: ['access-control', 'authentication'],
    scope: 'server',
    requires: ['/settings/security', '/roles', '/projects', '/projects/{id}/base-authorizations', '/groups', '/groups/{id}/authorizations'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const {model, facts} = context
    const security = securitySettingOf(model)
    if (!security || !security.enableSelfRegister || security.allowedSelfRegisterEmailDomain !== null) return []
    const strong: string[] = []
    const weak: string[] = []
    let anyBaseKnown = false
    for (const project of model.projects) {
      const chain = facts.chainAuthorizations(project)
      if (chain.missing.has('base')) continue
      anyBaseKnown = true
      const breadths = chain.base.flatMap((e) => model.roles.filter((r) => r.id === e.authorization.roleId).map(roleBreadth))
      if (breadths.some((b) => STRONG.has(b))) strong.push(project.path)
      else if (breadths.length > 0) weak.push(project.path)
    }
    const {data} = facts.access
    const defaultGroup = security.defaultGroupName ? data.groups?.find((g) => g.name === security.defaultGroupName) : undefined
    const groupHolds = defaultGroup ? (groupAuthorizationsOf(model, defaultGroup.id) ?? []).length > 0 : false
    if (!anyBaseKnown && !defaultGroup) return []
    const reasons: string[] = []
    let severity: Severity | null = null
    if (defaultGroup?.administrator) {
      severity = 'critical'
      reasons.push(`every new account joins the default group ${defaultGroup.name}, an administrator group`)
    }
    if (strong.length > 0) {
      severity = 'critical'
      reasons.push(`base roles write code, run jobs or manage ${strong.length} project${strong.length === 1 ? '' : 's'} (${examplesPhrase(strong)})`)
    } else if (weak.length > 0) {
      severity ??= 'high'
      reasons.push(`base roles read ${weak.length} project${weak.length === 1 ? '' : 's'} (${examplesPhrase(weak)})`)
    }
    if (groupHolds && defaultGroup && !defaultGroup.administrator) {
      severity ??= 'high'
      reasons.push(`every new account joins the default group ${defaultGroup.name}, which holds project authorizations`)
    }
    if (severity === null) return []
    return [
      {
        subject: 'self sign-up',
        pointer: memberPointer(model.serverData, security.pointer, 'enableSelfRegister'),
        severity,
        message:
          `Self sign-up is on with no allowed email domain, so anyone who reaches the server can create an account, and ${reasons.join('; ')}. ` +
          'Turn off self sign-up or limit it to your email domain in Administration > Security Settings.',
      },
    ]
  },
})
