/**
 * Disabled users who still hold user authorizations or group memberships (dead grants).
 */
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {memberPointer} from '../../src/model/pointer.js'
import {listPhrase} from '../support/protection-findings.js'

const USER_AUTHORIZATIONS = /^projects\/(\d+)\/user-authorizations$/

export default defineRule({
  meta: {
    id: 'access/disabled-user-grants',
    shortDescription: 'A disabled user still holds authorizations or group memberships',
    fullDescription:
      'A disabled user holds nothing while disabled, but their user authorizations and memberships stay: enabling the account again (by mistake, or by an administrator who does not know its history) restores all of them at once. ' +
      'The rule lists disabled users with user authorizations (in the projects read) or memberships.',
    defaultSeverity: 'low',
    help: [
      '## Risk',
      'Dead grants hide who could get access back. An account disabled when someone left keeps its roles and groups, ready to come back with the account.',
      '',
      '## Fix',
      'In OneDev open *Administration → Users*, the disabled user, and remove their group memberships and project authorizations (or delete the account).',
      '',
      '## Example',
      'User `former-dev` is disabled and still a member of `Developers` and holds `Code Writer` on `acme/api`: reported.',
    ].join('\n'),
    tags: ['access-control', 'hygiene'],
    scope: 'server',
    requires: ['/groups', '/groups/{id}/memberships', '/users', '/users/{id}', '/projects', '/projects/{id}/user-authorizations'],
  },
  check(context) {
    if (context.scope !== 'server') return []
    const {model} = context
    const {data, groups: groupsById, groupIdsByUser} = context.facts.access
    if (!data.users || !data.groups) return []
    const disabled = data.users.filter((u) => u.disabled && u.id !== null)
    if (disabled.length === 0) return []
    const authorizations = new Map<number, string[]>()
    for (const [key, value] of Object.entries(model.serverData ?? {})) {
      const match = USER_AUTHORIZATIONS.exec(key)
      if (!match || !Array.isArray(value)) continue
      const path = model.projectsById.get(Number(match[1]))?.path ?? `#${match[1]}`
      for (const item of value) {
        const userId = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).userId : undefined
        if (typeof userId !== 'number') continue
        const list = authorizations.get(userId) ?? []
        if (!list.includes(path)) list.push(path)
        authorizations.set(userId, list)
      }
    }
    const findings: FindingDraft[] = []
    for (const user of disabled) {
      const groups = (groupIdsByUser.get(user.id!) ?? []).map((id) => groupsById.get(id)!.name)
      const projects = (authorizations.get(user.id!) ?? []).sort()
      if (groups.length === 0 && projects.length === 0) continue
      const held: string[] = []
      if (groups.length > 0) held.push(`memberships of ${listPhrase(groups)}`)
      if (projects.length > 0) held.push(`user authorizations on ${listPhrase(projects)}`)
      findings.push({
        subject: user.name,
        pointer: memberPointer(model.serverData, user.pointer, 'disabled'),
        message: `User ${user.name} is disabled but still holds ${held.join(' and ')}: enabling the account again restores them all. Remove them in Administration > Users.`,
      })
    }
    return findings
  },
})
