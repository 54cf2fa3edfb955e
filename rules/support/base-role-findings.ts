/**
 * Findings about base authorizations (default roles before 11.11), which give their role to every
 * logged-in user on the project and its descendants: which grants decide for a project, and how a
 * finding names and locates one (access/base-role-*).
 */
import type {FindingDraft, ProjectContext, Severity} from '../../src/engine/rule.js'
import {joinPointer} from '../../src/model/pointer.js'
import type {Project, Role} from '../../src/model/types.js'
import {projectChain} from '../../src/onedev/access.js'

export interface BaseRoleGrant {
  /** The project whose authorization it is: the judged one or an ancestor that is not audited. */
  owner: Project
  role: Role
  /** A default role (`defaultRoleId` of the project, servers before 12) rather than a base authorization. */
  legacy: boolean
  /** The authorization's pointer in the server data document (base authorizations only). */
  pointer: string
}

/**
 * The base roles that decide for the judged project: its own, and those of each ancestor that is not
 * audited itself (an audited ancestor reports its own, once).
 */
function baseRoleGrants(context: ProjectContext<unknown>): BaseRoleGrant[] {
  const {model, project, audited} = context
  const grants: BaseRoleGrant[] = []
  for (const owner of projectChain(model, project)) {
    if (owner !== project && audited.has(owner.id)) continue
    for (const authorization of context.facts.server.authorizationsOf(owner).base ?? []) {
      const role = model.roles.find((r) => r.id === authorization.roleId)
      if (role) grants.push({owner, role, legacy: authorization.kind === 'default-role', pointer: authorization.pointer})
    }
  }
  return grants
}

/** `Base role "Code Writer" of acme (inherited from acme)`: the grant, for the start of a message. */
export function describeBaseRole(context: ProjectContext<unknown>, grant: BaseRoleGrant): string {
  const inherited = grant.owner === context.project ? '' : ` (inherited from ${grant.owner.path})`
  return `${grant.legacy ? 'Default role' : 'Base role'} "${grant.role.name}" of ${grant.owner.path}${inherited}`
}

/** Where the grant is changed in OneDev: `Settings > Authorization > Base Authorization of acme`. */
export function baseRoleSetting(grant: BaseRoleGrant): string {
  return `${grant.legacy ? 'Settings > General > Default Roles' : 'Settings > Authorization > Base Authorization'} of ${grant.owner.path}`
}

/** What a rule says of one grant: its message (and severity, when not the rule's), or null when the grant is fine. */
export type BaseRoleJudgement = {message: string; severity?: Severity} | null

/** One finding per base role grant that decides for the project and that `judge` reports. */
export function baseRoleFindings(context: ProjectContext<unknown>, judge: (grant: BaseRoleGrant) => BaseRoleJudgement): FindingDraft[] {
  const findings: FindingDraft[] = []
  for (const grant of baseRoleGrants(context)) {
    const judged = judge(grant)
    if (judged) findings.push(baseRoleFinding(context, grant, judged.severity, judged.message))
  }
  return findings
}

/** A finding about a grant: named by its role, kept apart by the project that grants it, located at its role. */
function baseRoleFinding(context: ProjectContext<unknown>, grant: BaseRoleGrant, severity: Severity | undefined, message: string): FindingDraft {
  return {
    subject: grant.role.name,
    key: grant.owner.path,
    ...(severity ? {severity} : {}),
    ...(grant.legacy ? {pointer: ''} : {pointer: joinPointer(grant.pointer, 'roleId'), document: 'server' as const}),
    ...(grant.owner === context.project ? {} : {sourceProjectId: grant.owner.id}),
    message,
  }
}
