/**
 * compareModels(before, after, settings) → what the settings mean that changed. Pure. Projects and
 * roles are identified by id (a new path or name for the same id is a rename); what they hold is
 * compared by meaning (protections.ts, owned.ts, roles.ts).
 */
import {ancestorsOf} from '../engine/evaluate.js'
import {ProjectFacts, ServerFacts} from '../engine/facts.js'
import type {AuditSettings} from '../engine/rule.js'
import type {AuditModel, Project} from '../model/types.js'
import {type Change, change, projectRef} from './change.js'
import {compareNotifications, compareSecrets, compareWebHooks} from './owned.js'
import {compareProtections} from './protections.js'
import {compareRoles} from './roles.js'

function projectAdded(project: Project, added: boolean): Change {
  return change({
    kind: 'project',
    change: added ? 'added' : 'removed',
    classification: 'neutral',
    project: projectRef(project),
    subject: project.path,
    aspect: 'project',
    before: added ? null : project.path,
    after: added ? project.path : null,
    message: `Project ${project.path} (#${project.id}) ${added ? 'added' : 'removed'}.`,
  })
}

/** Deep equality of parsed JSON values (key order ignored): about three times faster than comparing JSON.stringify texts. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key) || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false
  }
  return true
}

/**
 * Projects whose payload is the same on both sides (and whose parent is the same): nothing they
 * hold can mean anything different, so most of a large server is skipped without judging it.
 */
function sameSettings(before: AuditModel, after: AuditModel): (id: number) => boolean {
  const known = new Map<number, boolean>()
  return (id) => {
    let same = known.get(id)
    if (same === undefined) {
      const old = before.projectsById.get(id)
      const now = after.projectsById.get(id)
      same = old !== undefined && now !== undefined && old.parentId === now.parentId && old.raw !== null && sameJson(old.raw, now.raw)
      known.set(id, same)
    }
    return same
  }
}

/** `unread`: projects one side could not read (diff.ts): neither added nor removed. */
export function compareModels(before: AuditModel, after: AuditModel, settings: AuditSettings, unread: ReadonlySet<number> = new Set()): Change[] {
  const out: Change[] = []
  const unchanged = sameSettings(before, after)
  const facts = {before: new ServerFacts(before, settings), after: new ServerFacts(after, settings)}
  const beforeAudited = new Map(before.projects.map((p) => [p.id, p]))
  const afterAudited = new Map(after.projects.map((p) => [p.id, p]))
  for (const project of after.projects) if (!beforeAudited.has(project.id) && !unread.has(project.id)) out.push(projectAdded(project, true))
  for (const project of before.projects) if (!afterAudited.has(project.id) && !unread.has(project.id)) out.push(projectAdded(project, false))

  // Own items (secrets, web hooks, notifications) of every audited project and of the ancestors
  // they inherit from, each project once.
  const owners = new Set<number>()
  for (const now of after.projects) {
    const old = beforeAudited.get(now.id)
    if (!old) continue
    if (old.path !== now.path) {
      out.push(
        change({
          kind: 'project',
          change: 'renamed',
          classification: 'neutral',
          project: projectRef(now),
          subject: now.path,
          aspect: 'path',
          before: old.path,
          after: now.path,
          message: `Project #${now.id} renamed (or moved): ${old.path} -> ${now.path}.`,
        }),
      )
    }
    const beforeAncestors = ancestorsOf(old, before)
    const afterAncestors = ancestorsOf(now, after)
    for (const p of [now, ...afterAncestors, ...beforeAncestors]) owners.add(p.id)
    const sameHierarchy =
      unchanged(now.id) && beforeAncestors.length === afterAncestors.length && afterAncestors.every((a, i) => a.id === beforeAncestors[i]!.id && unchanged(a.id))
    // A project below one a side could not read: what it inherits there is unknown.
    if (old.setting && now.setting && !sameHierarchy && !unread.has(now.id)) {
      out.push(...compareProtections({before: new ProjectFacts(facts.before, old, beforeAncestors), after: new ProjectFacts(facts.after, now, afterAncestors)}, settings))
    }
  }
  for (const id of owners) {
    const old = before.projectsById.get(id)
    const now = after.projectsById.get(id)
    if (!old?.setting || !now?.setting || unchanged(id)) continue
    out.push(...compareSecrets(old, now), ...compareWebHooks(old, now), ...compareNotifications(old, now))
  }

  const beforeRoles = new Map(before.roles.map((r) => [r.id, r]))
  const afterRoles = new Map(after.roles.map((r) => [r.id, r]))
  for (const role of after.roles) {
    const old = beforeRoles.get(role.id)
    if (old) out.push(...compareRoles(old, role))
    else out.push(roleAdded(role, true))
  }
  for (const role of before.roles) if (!afterRoles.has(role.id)) out.push(roleAdded(role, false))
  return out
}

function roleAdded(role: {id: number; name: string}, added: boolean): Change {
  return change({
    kind: 'role',
    change: added ? 'added' : 'removed',
    classification: 'neutral',
    role: {id: role.id, name: role.name},
    subject: role.name,
    aspect: 'role',
    before: added ? null : role.name,
    after: added ? role.name : null,
    message: `Role "${role.name}" ${added ? 'added' : 'removed'}.`,
  })
}
