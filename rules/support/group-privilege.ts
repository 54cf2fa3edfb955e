/**
 * What a group hands every member, for the rules about groups every new account joins (the default
 * group of new users, an identity provider's or directory's default group): an administrator group
 * makes them site administrators; project authorizations or the right to create root projects give
 * them that much. How the rules word and locate it.
 */
import type {ServerContext} from '../../src/engine/rule.js'
import {type Group, groupAuthorizationsOf} from '../../src/model/access-data.js'
import {memberPointer} from '../../src/model/pointer.js'

export type GroupPrivilege =
  /** `administrator`: every member is a site administrator. */
  | {kind: 'administrator'; pointer: string}
  /** Project authorizations or root project creation, in words (`holds 2 project authorizations and may create root projects`). */
  | {kind: 'privileged'; pointer: string; reasons: string}

/** What the group gives its members; null when nothing (no project authorization, no root projects). */
export function groupPrivilege(context: ServerContext<unknown>, group: Group): GroupPrivilege | null {
  const {model, facts} = context
  if (group.administrator) return {kind: 'administrator', pointer: memberPointer(model.serverData, group.pointer, 'administrator')}
  const reasons: string[] = []
  let held = groupAuthorizationsOf(model, group.id)?.length ?? 0
  if (held === 0) {
    for (const project of model.projects) held += (facts.authorizationsOf(project).group ?? []).filter((a) => a.groupId === group.id).length
  }
  if (held > 0) reasons.push(`holds ${held} project authorization${held === 1 ? '' : 's'}`)
  if (group.createRootProjects) reasons.push('may create root projects')
  if (reasons.length === 0) return null
  return {
    kind: 'privileged',
    pointer: group.createRootProjects && held === 0 ? memberPointer(model.serverData, group.pointer, 'createRootProjects') : group.pointer,
    reasons: reasons.join(' and '),
  }
}
