/**
 * Which branches and tags of a project the comparison judges. Today the configured `branches` and
 * `tags` settings; the project's real default branch and branch list can take their place here
 * without touching the comparison.
 */
import type {AuditSettings} from '../engine/rule.js'
import type {Project} from '../model/types.js'

export function checkedBranchesOf(_project: Project, settings: AuditSettings): readonly string[] {
  return settings.branches
}

export function checkedTagsOf(_project: Project, settings: AuditSettings): readonly string[] {
  return settings.tags
}

/** Both sides' names, each once, OLD's order first. */
export function unionOf(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])]
}
