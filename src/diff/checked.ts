/**
 * Which branches and tags of a project the comparison judges: the ones the rules judge
 * (src/onedev/checked-refs.ts: the default branch and the existing branches and tags matching the
 * `branches` and `tags` settings, or the configured names when the snapshot does not say which exist).
 * The comparison takes the union of both sides'.
 */
import type {AuditSettings} from '../engine/rule.js'
import type {Project} from '../model/types.js'
import {checkedBranches, checkedTags} from '../onedev/checked-refs.js'

export function checkedBranchesOf(project: Project, settings: AuditSettings): readonly string[] {
  return checkedBranches(project.repository, settings.branches).map((ref) => ref.name)
}

export function checkedTagsOf(project: Project, settings: AuditSettings): readonly string[] {
  return checkedTags(project.repository, settings.tags).map((ref) => ref.name)
}

/** Both sides' names, each once, OLD's order first. */
export function unionOf(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])]
}
