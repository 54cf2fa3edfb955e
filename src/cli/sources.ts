/** A snapshot on disk as an audit's model (the live server is in collect-source.ts, loaded only when needed). */
import {resolve} from 'node:path'

import type {AuditModel} from '../model/types.js'
import type {Source} from '../types/report-types.js'
import {loadSnapshot} from '../snapshot/snapshot.js'
import type {Prepared} from './audit.js'
import type {AuditConfig} from '../engine/config-schema.js'
import {pathMatcher} from '../onedev/matchers.js'

export async function readSnapshot(path: string, prepared: Prepared): Promise<{model: AuditModel; source: Source}> {
  const model = await loadSnapshot(resolve(path))
  const filter = projectFilter(prepared.loaded.config)
  if (filter) model.projects = model.projects.filter((p) => filter(p.path))
  return {model, source: {kind: 'snapshot', snapshot: path, server: model.server, ...(model.collectedAt ? {collectedAt: model.collectedAt} : {})}}
}

/** The configuration's project include/exclude patterns as a predicate on project paths. */
export function projectFilter(config: AuditConfig): ((path: string) => boolean) | undefined {
  const include = config.projects?.include ?? []
  const exclude = config.projects?.exclude ?? []
  if (include.length === 0 && exclude.length === 0) return undefined
  return (path) =>
    (include.length === 0 || include.some((p) => pathMatcher(p, path))) && !exclude.some((p) => pathMatcher(p, path))
}
