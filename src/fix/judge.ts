/**
 * Judging projects the way the audit does (the same engine, every active rule), keeping what the
 * engine drops: the fixes the rules offer with each finding. The planner judges a project before and
 * after a change; applying judges it again on what the server sends back.
 */
import {type ActiveRule, judge, projectTarget, serverKey} from '../engine/evaluate.js'
import {ServerFacts} from '../engine/facts.js'
import type {FixDraft} from '../engine/fix.js'
import type {AuditSettings, Finding, FindingDraft} from '../engine/rule.js'
import type {AuditError, AuditModel, Project} from '../model/types.js'
import {pushTo} from '../util/collections.js'

/** A finding, and the changes its rule offers to clear it (none when it offers nothing). */
export interface Judged {
  finding: Finding
  fixes: FixDraft[]
  /** The project whose own setting the fixes edit: the finding's source, else its project. */
  owner: number
}

/**
 * The project-scope rules, each recording the drafts it returns: the engine turns every draft of a
 * rule into one finding, in order, so the n-th draft recorded belongs to the n-th finding.
 */
export class FixJudge {
  private readonly recording: ActiveRule[]
  private drafts: FindingDraft[] = []
  /**
   * The facts of the model being judged (src/engine/facts.ts), shared by every project judged in it:
   * what they derive is server-wide (access index, authorizations, parsed texts), and a plan changes
   * project settings only. A project's own facts are new each time it is judged.
   */
  private facts: ServerFacts | undefined

  constructor(
    rules: readonly ActiveRule[],
    private readonly settings: AuditSettings,
  ) {
    this.recording = rules
      .filter((active) => active.rule.meta.scope === 'project')
      .map((active) => ({
        ...active,
        rule: {
          meta: active.rule.meta,
          check: (context) => {
            const drafts = active.rule.check(context)
            for (const draft of drafts) this.drafts.push(draft)
            return drafts
          },
        },
      }))
  }

  /** Every finding of one audited project (with a setting) in `model`, with the fixes offered. */
  judgeProject(project: Project, model: AuditModel, audited: ReadonlySet<number>, errors: AuditError[] = []): Judged[] {
    if (!project.setting) return []
    const findings: Finding[] = []
    this.drafts = []
    if (this.facts?.model !== model) this.facts = new ServerFacts(model, this.settings)
    judge(projectTarget(project, audited, this.settings, this.facts), this.recording, model, serverKey(model), undefined, findings, errors)
    const drafts = this.drafts
    this.drafts = []
    return findings.map((finding, i) => ({finding, fixes: drafts[i]?.fixes ?? [], owner: drafts[i]?.sourceProjectId ?? project.id}))
  }
}

/** Each project's children, by id. */
export function childrenOf(projects: Iterable<{id: number; parentId: number | null}>): Map<number, number[]> {
  const children = new Map<number, number[]>()
  for (const {id, parentId} of projects) {
    if (parentId !== null) pushTo(children, parentId, id)
  }
  return children
}

/**
 * The projects a project's own setting reaches (it is inherited): the project and every one below
 * it, those that `counts` keeps (the audited ones with a setting). Stops on a cycle.
 */
export function reachedBy(id: number, children: ReadonlyMap<number, readonly number[]>, counts: (id: number) => boolean): number[] {
  const out: number[] = []
  const seen = new Set<number>()
  const stack = [id]
  while (stack.length > 0) {
    const next = stack.pop()!
    if (seen.has(next)) continue
    seen.add(next)
    if (counts(next)) out.push(next)
    for (const child of children.get(next) ?? []) stack.push(child)
  }
  return out
}
