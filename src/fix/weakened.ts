/**
 * Whether a change of one project's setting weakens anything, judged the way `diff` judges two
 * snapshots (src/diff/compare.ts): the effective protection of every checked branch and tag for every
 * principal class (first match or merged, inheritance included), the reach of job secrets, web hooks
 * and notifications, in the project and every audited project that inherits from it.
 */
import {compareModels} from '../diff/compare.js'
import type {AuditSettings} from '../engine/rule.js'
import type {AuditModel, Project} from '../model/types.js'

/** Only the projects that can mean something different: the scope and the ancestors it inherits from. */
function restricted(model: AuditModel, scope: readonly number[], owner: number, version: Project): AuditModel {
  const projectsById = new Map<number, Project>()
  const pick = (id: number) => (id === owner ? version : model.projectsById.get(id))
  for (const id of scope) {
    const seen = new Set<number>()
    for (let project = pick(id); project && !seen.has(project.id); project = project.parentId === null ? undefined : pick(project.parentId)) {
      seen.add(project.id)
      projectsById.set(project.id, project)
    }
  }
  return {server: model.server, projects: scope.map((id) => projectsById.get(id)!), projectsById, roles: [], rolesRaw: [], errors: []}
}

/** The first weakening the change from `before` to `after` (both versions of `owner`) causes, as a message; null when none. */
export function diffChangesWeakened(model: AuditModel, scope: readonly number[], owner: number, before: Project, after: Project, settings: AuditSettings): string | null {
  const changes = compareModels(restricted(model, scope, owner, before), restricted(model, scope, owner, after), settings)
  return changes.find((change) => change.classification === 'weakened')?.message ?? null
}
