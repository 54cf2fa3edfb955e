/**
 * What the audit could not judge as asked, said once instead of passing silently: projects whose
 * repository has no commit yet (nothing to judge on branches and tags), and projects whose default
 * branch the server did not say (judged on configured names or `main`), optional endpoints the
 * server does not offer, and server data of a shape the audit does not know (the checks that need
 * them are not evaluated, never passed).
 */
import {checkedBranches, checkedTags} from '../onedev/checked-refs.js'
import {unreadableServerData} from '../model/server-data-check.js'
import type {AuditModel} from '../model/types.js'
import type {Notice, ProjectRef} from '../types/report-types.js'
import {endpointOf} from './availability.js'
import type {AuditSettings} from './rule.js'

export interface Coverage {
  /** Audited projects whose repository is not initialized, by path. */
  uninitialized: ProjectRef[]
  notices: Notice[]
}

function names(refs: {name: string}[]): string {
  return refs.map((ref) => `"${ref.name}"`).join(', ')
}

export function coverageOf(model: AuditModel, settings: AuditSettings): Coverage {
  const uninitialized: ProjectRef[] = []
  let unknown = 0
  let audited = 0
  for (const project of model.projects) {
    if (!project.setting) continue
    audited++
    if (project.repository === null || project.repository === undefined) unknown++
    else if (project.repository.defaultBranch === null) uninitialized.push({id: project.id, path: project.path})
  }
  const notices: Notice[] = []
  if (unknown > 0) {
    const branches = names(checkedBranches(null, settings.branches))
    const tags = names(checkedTags(null, settings.tags))
    notices.push({
      kind: 'not-evaluated',
      message:
        `default branches were unknown for ${unknown} of ${audited} projects (the server does not offer GET /repositories/{id}/default-branch, or the snapshot predates it): ` +
        `their branch protections were judged for ${branches} and their tag protections for ${tags} instead of the branches and tags that exist`,
    })
  }
  for (const entry of model.notEvaluated ?? []) {
    notices.push({kind: 'not-evaluated', message: `GET ${entry.endpoint}: the server does not offer it (${entry.status}), so ${entry.checks} were not evaluated`})
  }
  notices.push(...unreadableNotices(model))
  return {uninitialized, notices}
}

/**
 * One notice per endpoint whose answers the audit could not read (wholly or some of their items); the
 * answers of one endpoint for many projects, groups or users make one notice with counts.
 */
function unreadableNotices(model: AuditModel): Notice[] {
  const byEndpoint = new Map<string, {answers: number; whole: number; items: number; total: number}>()
  for (const found of unreadableServerData(model.serverData)) {
    const endpoint = endpointOf(found.key)
    const entry = byEndpoint.get(endpoint) ?? {answers: 0, whole: 0, items: 0, total: 0}
    entry.answers++
    if (found.extent === 'whole') entry.whole++
    else {
      entry.items += found.unreadable
      entry.total += found.total
    }
    byEndpoint.set(endpoint, entry)
  }
  const notices: Notice[] = []
  for (const [endpoint, entry] of byEndpoint) {
    const parts: string[] = []
    if (entry.whole > 0) {
      parts.push(
        entry.answers === 1 && entry.items === 0
          ? 'its answer has a shape the audit does not know, so the checks that need it were not evaluated'
          : `${entry.whole} of its answers ha${entry.whole === 1 ? 's' : 've'} a shape the audit does not know, so the checks that need them were not evaluated`,
      )
    }
    if (entry.items > 0) parts.push(`${entry.items} of ${entry.total} items have a shape the audit does not know and were left out of the checks`)
    notices.push({kind: 'not-evaluated', message: `GET ${endpoint}: ${parts.join('; ')}`})
  }
  return notices
}
