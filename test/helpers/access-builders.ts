/**
 * Access data for rule and model tests: a model whose server data document holds a security
 * setting, groups, memberships, users and per-project authorizations, in the current server shapes.
 */
import type {AuditModel, Project, Role} from '../../src/model/types.js'
import {model, role} from './model-builders.js'

export interface AccessInput {
  security?: Record<string, unknown>
  groups?: Array<{id: number; name: string; administrator?: boolean; createRootProjects?: boolean; enforce2FA?: boolean}>
  /** group id → user ids */
  members?: Record<number, number[]>
  users?: Array<{id: number; name: string; disabled?: boolean; type?: string}>
  /** project id → role ids */
  base?: Record<number, number[]>
  /** project id → [group id, role id] */
  groupGrants?: Record<number, Array<[number, number]>>
  /** project id → [user id, role id] */
  userGrants?: Record<number, Array<[number, number]>>
  /** group id → authorizations on every project ([project id, role id]) */
  groupAuthorizations?: Record<number, Array<[number, number]>>
}

export const ROLES: Role[] = [
  role({id: 1, name: 'Project Owner', manageProject: true, codePrivilege: 'WRITE'}),
  role({id: 2, name: 'Code Writer', codePrivilege: 'WRITE', jobPrivileges: [{jobNames: '*', runJob: true}]}, 1),
  role({id: 3, name: 'Code Reader', codePrivilege: 'READ'}, 2),
  role({id: 4, name: 'Issue Reporter', codePrivilege: 'NONE'}, 3),
  role({id: 5, name: 'Issue Manager', codePrivilege: 'READ', manageIssues: true}, 4),
  role({id: 6, name: 'Builder', codePrivilege: 'READ', manageBuilds: true}, 5),
]

/** The server data document for the input; every part given is present, every part omitted absent. */
export function serverData(input: AccessInput, projects: readonly Project[]): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  if (input.security) data['settings/security'] = input.security
  if (input.groups) {
    data.groups = input.groups.map((g) => ({description: null, administrator: false, createRootProjects: false, enforce2FA: false, ...g}))
    for (const g of input.groups) data[`groups/${g.id}/memberships`] = (input.members?.[g.id] ?? []).map((userId, i) => ({id: g.id * 100 + i, userId, groupId: g.id}))
  }
  if (input.users) data.users = input.users.map((u) => ({disabled: false, type: 'ORDINARY', fullName: null, notifyOwnEvents: false, ...u}))
  for (const [groupId, list] of Object.entries(input.groupAuthorizations ?? {})) {
    data[`groups/${groupId}/authorizations`] = list.map(([projectId, roleId], i) => ({id: i + 1, projectId, groupId: Number(groupId), roleId}))
  }
  if (input.base || input.groupGrants || input.userGrants) {
    for (const p of projects) {
      data[`projects/${p.id}/base-authorizations`] = (input.base?.[p.id] ?? []).map((roleId, i) => ({id: p.id * 100 + i, projectId: p.id, roleId}))
      data[`projects/${p.id}/group-authorizations`] = (input.groupGrants?.[p.id] ?? []).map(([groupId, roleId], i) => ({id: p.id * 100 + i, projectId: p.id, groupId, roleId}))
      data[`projects/${p.id}/user-authorizations`] = (input.userGrants?.[p.id] ?? []).map(([userId, roleId], i) => ({id: p.id * 100 + i, projectId: p.id, userId, roleId}))
    }
  }
  return data
}

/** A model of `projects` (audited) and `ancestors`, the ROLES (or `roles`), and the access data. */
export function accessModel(input: AccessInput & {projects: Project[]; ancestors?: Project[]; roles?: Role[]}): AuditModel {
  const built = model({projects: input.projects, ancestors: input.ancestors ?? [], roles: input.roles ?? ROLES})
  built.serverData = serverData(input, [...input.projects, ...(input.ancestors ?? [])])
  return built
}
