/**
 * Judging a change again when it is applied: the plan's context (the projects its changes reach, as
 * planned, redacted) with the changed project's setting as the server holds it now, then as it sent it
 * back. As each project is applied, its setting as sent back replaces the planned one, so a child
 * applied after its parent is judged under the parent's new setting.
 *
 * Only project rules can judge here: the roles and the server-wide data are not in a plan, so rules
 * that need them (access/*) stay silent on both sides. They were judged when the plan was made.
 */
import type {ActiveRule} from '../engine/evaluate.js'
import type {AuditSettings, Finding} from '../engine/rule.js'
import {ingestProjectSettingNow} from '../model/ingest.js'
import type {AuditError, AuditModel, Project} from '../model/types.js'
import {childrenOf, FixJudge, reachedBy} from './judge.js'
import {cloneJson} from './patch.js'
import type {ContextProject} from './plan.js'

export class ContextJudge {
  private readonly model: AuditModel
  private readonly audited: ReadonlySet<number>
  private readonly children: Map<number, number[]>
  private readonly judge: FixJudge

  constructor(context: readonly ContextProject[], server: AuditModel['server'], rules: readonly ActiveRule[], settings: AuditSettings) {
    const projectsById = new Map<number, Project>()
    for (const entry of context) projectsById.set(entry.id, this.project(entry, entry.setting))
    this.children = childrenOf(context)
    const projects = context.filter((entry) => entry.audited).map((entry) => projectsById.get(entry.id)!)
    this.model = {server, projects, projectsById, roles: [], rolesRaw: [], errors: []}
    this.audited = new Set(projects.map((p) => p.id))
    this.judge = new FixJudge(rules, settings)
  }

  private project(entry: Pick<Project, 'id' | 'path' | 'name' | 'parentId' | 'repository'>, raw: unknown): Project {
    const base = {id: entry.id, path: entry.path, name: entry.name, parentId: entry.parentId, repository: entry.repository ?? null}
    if (raw === null || typeof raw !== 'object') return {...base, setting: null, raw: null}
    // Redacted and checked again: a plan's context is a file, and what the server sends back is hostile.
    const ingested = ingestProjectSettingNow(cloneJson(raw), {id: entry.id, path: entry.path}, {owned: true})
    return 'failed' in ingested ? {...base, setting: null, raw: ingested.failed} : {...base, setting: ingested.setting, raw: ingested.raw}
  }

  /**
   * The findings of every project the setting of `id` reaches, with `raw` (real or redacted: it is
   * redacted here) as that setting; an error when it is not a setting this tool can judge.
   */
  findings(id: number, raw: unknown): Finding[] | {error: string} {
    const known = this.model.projectsById.get(id)
    if (!known) return {error: `project #${id} is not in the plan's context`}
    const candidate = this.project(known, raw)
    if (!candidate.setting) return {error: 'the setting is not one this onedev-audit can judge (it does not pass the payload checks)'}
    this.model.projectsById.set(id, candidate)
    try {
      const errors: AuditError[] = []
      const findings = reachedBy(id, this.children, (member) => this.audited.has(member)).flatMap((member) => this.judge.judgeProject(this.model.projectsById.get(member)!, this.model, this.audited, errors).map((j) => j.finding))
      return errors.length > 0 ? {error: errors[0]!.message} : findings
    } finally {
      this.model.projectsById.set(id, known)
    }
  }

  /** The project's setting is now `raw` (as the server sent it back). */
  settle(id: number, raw: unknown): void {
    const known = this.model.projectsById.get(id)
    if (known) this.model.projectsById.set(id, this.project(known, raw))
  }
}
