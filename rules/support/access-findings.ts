/**
 * Shared wording for the access and role rules (rules/access, rules/role): how a
 * message names who holds a role or who can do something, and the lower severity of a finding about
 * something nobody holds. The judgements (who holds what, who can write) are in src/onedev/access.ts.
 */
import {oneLevelLower, type Severity} from '../../src/engine/rule.js'
import type {Role} from '../../src/model/types.js'
import type {PrincipalAccess, RoleHolding, RoleHoldings} from '../../src/onedev/access.js'

/** "every logged-in user on 2 projects, 1 group and 3 users": who holds a role, for messages. */
export function describeHolding(holding: RoleHolding | undefined): string {
  if (!holding) return 'held by nobody'
  const parts: string[] = []
  const n = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
  if (holding.base.size > 0) parts.push(`every logged-in user (base role of ${n(holding.base.size, 'project')})`)
  if (holding.groups.size > 0) parts.push(n(holding.groups.size, 'group'))
  const tokens = [...holding.users].filter((id) => id < 0).length
  const users = holding.users.size - tokens
  if (users > 0) parts.push(n(users, 'user'))
  if (tokens > 0) parts.push(n(tokens, 'access token'))
  const where = [...holding.projects].sort()
  const shown = where.slice(0, 5).join(', ') + (where.length > 5 ? ` and ${where.length - 5} more` : '')
  return `held by ${parts.join(', ')}${where.length > 0 ? ` on ${shown}` : ''}`
}

/**
 * For role findings: where the role is held and by how many principals (" It is held by ..."), and
 * the severity one level below `base` when nobody holds it. Nothing when holdings were not read
 * (`holdings`: the run's, `context.facts.roleHoldings`).
 */
export function holdingNote(holdings: RoleHoldings | undefined, role: Role, base: Severity): {text: string; severity: {severity?: Severity}} {
  if (!holdings) return {text: '', severity: {}}
  const holding = holdings.byRole.get(role.id)
  if (!holding) return {text: ` It is held by nobody in the ${holdings.projectsRead} project${holdings.projectsRead === 1 ? '' : 's'} read, so the finding is one level lower.`, severity: {severity: oneLevelLower(base)}}
  const principals = holding.groups.size + holding.users.size + (holding.base.size > 0 ? 1 : 0)
  return {text: ` It is ${describeHolding(holding)} (${principals} principal${principals === 1 ? '' : 's'}).`, severity: {}}
}

/**
 * Names of principals for a message, at most `max` then a count: every logged-in user first, then
 * groups (administrator groups left out: their members are named as administrators), users, and the
 * administrators together as `administrators (root, alice)`.
 */
export function describePrincipalList(principals: readonly PrincipalAccess[], max = 10): string {
  const names: string[] = []
  if (principals.some((p) => p.kind === 'everyone')) names.push('every logged-in user')
  const admins = principals.filter((p) => p.kind === 'administrator').map((p) => p.name)
  for (const p of principals) {
    if (p.kind === 'group' && !(admins.length > 0 && p.administrator?.startsWith('group '))) names.push(`group ${p.name}`)
  }
  for (const p of principals) if (p.kind === 'user') names.push(`user ${p.name}`)
  const shownAdmins = admins.slice(0, max)
  if (admins.length > 0) names.push(`administrator${admins.length === 1 ? '' : 's'} (${shownAdmins.join(', ')}${admins.length > max ? ` and ${admins.length - max} more` : ''})`)
  return names.length > max ? `${names.slice(0, max).join(', ')} and ${names.length - max} more` : names.join(', ')
}
