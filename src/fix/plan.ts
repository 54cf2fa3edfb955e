/**
 * The planner: which changes of the projects' own settings clear the findings, each proven by the
 * rules themselves. Pure: a model in, a plan out.
 *
 * For each project that holds a setting some finding's fix edits (ancestors before descendants, so
 * a parent's change is in place when its children are planned), one fix at a time:
 *   1. apply its edits to a copy of the project's REDACTED payload (src/fix/patch.ts), refusing any
 *      edit of a secret (guard.ts), and normalize the result with the model's own code;
 *   2. judge again, with every active project rule, the project and every audited project below it
 *      (they inherit the setting);
 *   3. keep it only when the finding that offered it is gone, no other finding appears except what
 *      the cleared findings covered (proof.ts: about the same subject in the same project and area,
 *      or about an item the change adds: a branch protection added where there was none requires no
 *      reviewers, which only now can be said), and compareModels (src/diff/), which judges the
 *      effective protection per branch, tag and principal class as the server applies it, finds
 *      nothing weakened for the checked branches and tags; nor can it weaken a name the audit did not
 *      check (shadowing.ts: a protection that now applies ahead of a stricter one, or no longer applies).
 * A rule may offer alternatives (where a new protection goes, under first match): the first that
 * proves out is kept. The next fix is taken from the judgement of the state with the kept ones, so
 * its pointers are always those of the payload it edits; one change that clears several findings is
 * made once. Every finding left is a manual step, with where to change it and why it is not planned.
 */
import {type ActiveRule, compareFindings, judge, serverKey, wholeServerTargets} from '../engine/evaluate.js'
import {ServerFacts} from '../engine/facts.js'
import type {FixDraft} from '../engine/fix.js'
import type {AuditSettings, Finding} from '../engine/rule.js'
import {detectGeneration, normalizeProjectSetting, projectSettingPasses} from '../model/normalize.js'
import type {AuditError, AuditModel, Project} from '../model/types.js'
import {editProblem} from './guard.js'
import {childrenOf, FixJudge, type Judged, reachedBy} from './judge.js'
import {cloneJson, planEdits} from './patch.js'
import type {Change, ContextProject, Edit, FindingRef, ManualStep, PlannedProject} from './plan-types.js'
import {type AddedItems, judgeChange} from './proof.js'
import {uncheckedNamesWeakened} from './shadowing.js'
import {diffChangesWeakened} from './weakened.js'
import {whereToChange} from './where.js'
import {pushTo} from '../util/collections.js'

export interface FixSelection {
  /** Plan suggestions too (`--suggestions`). */
  suggestions: boolean
  /** Only these rules' findings (`--rule`), their suggestions included; empty: every rule. */
  rules: readonly string[]
}

export interface PlanOptions {
  /** The active rules of this run (every scope: roles and the server give manual steps). */
  rules: readonly ActiveRule[]
  settings: AuditSettings
  selection: FixSelection
  /** Findings the configuration accepts (suppressions): never changed, never listed. */
  suppressed?: (finding: Finding) => boolean
  /**
   * Applying a plan (replanProject): whether the plan approves a change the planner would keep. One it
   * does not approve is not made (and its finding gets no other change: the first alternative that
   * proves out is what the tool plans), so the ones after it are planned on the setting without it.
   */
  approved?: (change: Change) => boolean
}

export type {Change, ContextProject, FindingRef, ManualStep, PlannedProject}

export interface ProposedPlan {
  projects: PlannedProject[]
  manual: ManualStep[]
  context: ContextProject[]
  /** Rules that failed while judging: the plan is incomplete. */
  errors: AuditError[]
}

/** How many fixes one project may try: a rule offering fixes that never settle cannot loop forever. */
const MAX_TRIES_PER_PROJECT = 1000

export function findingRef(finding: Finding): FindingRef {
  return {
    ruleId: finding.ruleId,
    severity: finding.severity,
    project: finding.project,
    ...(finding.role ? {role: finding.role} : {}),
    subject: finding.subject,
    message: finding.message,
    fingerprint: finding.fingerprint,
  }
}

type Trial = {accepted: true; project: Project; after: Map<number, Judged[]>; change: Change} | {accepted: false; reason: string}

class Planner {
  private readonly current: Map<number, Project>
  private readonly working: AuditModel
  private readonly audited: ReadonlySet<number>
  private readonly children: Map<number, number[]>
  private readonly scopes = new Map<number, number[]>()
  private readonly judge: FixJudge
  /** Each audited project's findings in the working state. */
  private readonly latest = new Map<number, Judged[]>()
  /** Why the fixes of a finding (by fingerprint) were not planned. */
  private readonly refused = new Map<string, Pick<ManualStep, 'why' | 'reason'>>()
  private readonly planned = new Map<number, Change[]>()
  /** Changes the planner would have kept that the plan does not approve (replanProject), in order. */
  readonly unapproved: Change[] = []
  readonly errors: AuditError[] = []

  constructor(
    private readonly model: AuditModel,
    private readonly options: PlanOptions,
  ) {
    this.current = new Map(model.projectsById)
    for (const project of model.projects) if (!this.current.has(project.id)) this.current.set(project.id, project)
    this.working = {...model, projectsById: this.current}
    this.audited = new Set(model.projects.map((p) => p.id))
    this.children = childrenOf(this.current.values())
    this.judge = new FixJudge(options.rules, options.settings)
  }

  run(): ProposedPlan {
    for (const project of this.model.projects) this.latest.set(project.id, this.judge.judgeProject(project, this.working, this.audited, this.errors))
    for (const owner of this.owners()) this.planOwner(owner)
    return {projects: this.plannedProjects(), manual: this.manualSteps(), context: this.context(), errors: this.errors}
  }

  /** The changes of one owner's setting, judged on the projects it reaches only (replanProject). */
  runOwner(owner: number): Replanned {
    const scope = this.scope(owner)
    for (const id of scope) this.latest.set(id, this.judge.judgeProject(this.current.get(id)!, this.working, this.audited, this.errors))
    const findings = () => scope.flatMap((id) => this.latest.get(id) ?? []).map((j) => j.finding)
    const before = findings()
    if (this.errors.length === 0) this.planOwner(owner)
    return {changes: this.planned.get(owner) ?? [], unapproved: this.unapproved, before, after: this.current.get(owner)!, afterFindings: findings(), errors: this.errors}
  }

  private selected(judged: Judged): boolean {
    const {rules} = this.options.selection
    if (rules.length > 0 && !rules.includes(judged.finding.ruleId)) return false
    return !this.options.suppressed?.(judged.finding)
  }

  private kindSelected(fix: FixDraft, ruleId: string): boolean {
    return fix.kind === 'fix' || this.options.selection.suggestions || this.options.selection.rules.includes(ruleId)
  }

  /** Projects some selected finding's fixes edit, ancestors first (then in the model's order). */
  private owners(): number[] {
    const order = new Map<number, number>()
    for (const judged of [...this.latest.values()].flat()) {
      if (judged.fixes.length === 0 || !this.selected(judged) || order.has(judged.owner) || !this.current.get(judged.owner)?.setting) continue
      order.set(judged.owner, order.size)
    }
    const depth = (id: number) => this.chain(id).length
    return [...order.keys()].sort((a, b) => depth(a) - depth(b) || order.get(a)! - order.get(b)!)
  }

  /** A project and its known ancestors, nearest first (stops on a cycle or an unknown parent). */
  private chain(id: number): number[] {
    const out: number[] = []
    const seen = new Set<number>()
    for (let project = this.current.get(id); project && !seen.has(project.id); project = project.parentId === null ? undefined : this.current.get(project.parentId)) {
      seen.add(project.id)
      out.push(project.id)
    }
    return out
  }

  /** The audited projects (with a setting) that inherit `owner`'s setting: itself and those below it. */
  private scope(owner: number): number[] {
    let ids = this.scopes.get(owner)
    if (!ids) this.scopes.set(owner, (ids = reachedBy(owner, this.children, (id) => this.audited.has(id) && this.current.get(id)?.setting != null)))
    return ids
  }

  private planOwner(owner: number): void {
    const scope = this.scope(owner)
    for (let tries = 0; tries < MAX_TRIES_PER_PROJECT; tries++) {
      const target = this.nextTarget(owner, scope)
      if (!target) return
      const selected = target.fixes.filter((fix) => this.kindSelected(fix, target.finding.ruleId))
      const reasons: string[] = []
      let kept: Trial | undefined
      for (const fix of selected) {
        const trial = this.trial(owner, scope, target, fix)
        if (trial.accepted) {
          kept = trial
          break
        }
        reasons.push(selected.length > 1 ? `${fix.description}: ${trial.reason}` : trial.reason)
      }
      if (kept?.accepted && this.options.approved && !this.options.approved(kept.change)) {
        this.unapproved.push(kept.change)
        this.refused.set(target.finding.fingerprint, {why: 'not-proven', reason: 'not planned: the plan does not approve this change'})
      } else if (kept?.accepted) this.keep(owner, kept)
      else this.refused.set(target.finding.fingerprint, selected.length === 0 ? suggestionReason(target.finding.ruleId) : {why: 'not-proven', reason: `not planned: ${reasons.join('; ')}`})
    }
  }

  /** The most severe selected finding of the scope whose fixes edit `owner` and were not tried yet. */
  private nextTarget(owner: number, scope: number[]): Judged | undefined {
    let best: Judged | undefined
    for (const id of scope) {
      for (const judged of this.latest.get(id) ?? []) {
        if (judged.owner !== owner || judged.fixes.length === 0 || this.refused.has(judged.finding.fingerprint) || !this.selected(judged)) continue
        if (!best || compareFindings(judged.finding, best.finding) < 0) best = judged
      }
    }
    return best
  }

  private trial(owner: number, scope: number[], target: Judged, fix: FixDraft): Trial {
    const before = this.current.get(owner)!
    if (fix.edits.length === 0) return {accepted: false, reason: 'it has no edits'}
    const planned = planEdits(before.raw, fix.edits, editProblem)
    if ('problem' in planned) return {accepted: false, reason: planned.problem}
    const {edits, result: view, added} = planned
    if (!projectSettingPasses(view)) return {accepted: false, reason: 'the edited setting would not be a valid setting'}
    const generation = before.setting!.generation
    if (detectGeneration(view) !== generation) return {accepted: false, reason: `the edits are not in the ${generation} payload generation of this setting`}
    const project: Project = {...before, raw: view, setting: normalizeProjectSetting(view)}

    this.current.set(owner, project)
    try {
      const after = new Map<number, Judged[]>()
      const errors: AuditError[] = []
      for (const id of scope) after.set(id, this.judge.judgeProject(this.current.get(id)!, this.working, this.audited, errors))
      if (errors.length > 0) return {accepted: false, reason: errors[0]!.message}
      const verdict = this.verdict(scope, after, target, {holder: owner, paths: added})
      if ('reason' in verdict) return {accepted: false, reason: verdict.reason}
      const weakened = diffChangesWeakened(this.working, scope, owner, before, project, this.options.settings)
      if (weakened) return {accepted: false, reason: `it would weaken what applies: ${weakened}`}
      // The rules and compareModels judge the checked names only.
      const ancestors = this.chain(owner).slice(1).map((id) => this.current.get(id)!)
      const unchecked = uncheckedNamesWeakened(before, project, ancestors, this.options.settings.protectionSemantics)
      if (unchecked) return {accepted: false, reason: `it could weaken what applies to branches or tags the audit did not check: ${unchecked}`}
      return {
        accepted: true,
        project,
        after,
        change: {kind: fix.kind, ruleId: target.finding.ruleId, description: fix.description, edits: nonEmpty(edits as Edit[]), clears: nonEmpty(verdict.cleared), reveals: verdict.revealed, judged: scope.length},
      }
    } finally {
      this.current.set(owner, before)
    }
  }

  /** Cleared and newly reported findings of the scope; a reason when the change does not prove out. */
  private verdict(scope: number[], after: Map<number, Judged[]>, target: Judged, added: AddedItems): {cleared: FindingRef[]; revealed: FindingRef[]} | {reason: string} {
    const before = scope.flatMap((id) => this.latest.get(id) ?? []).map((j) => j.finding)
    const verdict = judgeChange(before, [...after.values()].flat().map((j) => j.finding), [target.finding.fingerprint], added)
    if ('reason' in verdict) return verdict
    return {cleared: verdict.cleared.map(findingRef), revealed: verdict.revealed.map(findingRef)}
  }

  private keep(owner: number, trial: Trial & {accepted: true}): void {
    this.current.set(owner, trial.project)
    for (const [id, judged] of trial.after) this.latest.set(id, judged)
    pushTo(this.planned, owner, trial.change)
  }

  private plannedProjects(): PlannedProject[] {
    return [...this.planned].map(([id, changes]) => {
      const project = this.current.get(id)!
      return {id, path: project.path, generation: project.setting!.generation, audited: this.audited.has(id), changes: nonEmpty(changes)}
    })
  }

  private manualSteps(): ManualStep[] {
    const steps: ManualStep[] = []
    for (const project of this.model.projects) {
      for (const judged of this.latest.get(project.id) ?? []) {
        if (!this.selected(judged)) continue
        steps.push({finding: findingRef(judged.finding), where: whereToChange(judged.finding), ...this.reasonFor(judged)})
      }
    }
    // Roles and the server: global settings, changed by hand.
    const findings: Finding[] = []
    const rules = this.options.rules.filter((a) => a.rule.meta.scope === 'role' || a.rule.meta.scope === 'server')
    for (const target of wholeServerTargets(this.options.settings, new ServerFacts(this.model, this.options.settings))) judge(target, rules, this.model, serverKey(this.model), undefined, findings, this.errors)
    for (const finding of findings) {
      if (!this.selected({finding, fixes: [], owner: -1})) continue
      const reason = finding.ruleId.startsWith('role/')
        ? 'roles are global: a change applies in every project that grants the role'
        : 'server settings, users and groups are changed by an administrator'
      steps.push({finding: findingRef(finding), where: whereToChange(finding), why: 'global', reason})
    }
    const rank = new Map(steps.map((s, i) => [s, i]))
    return steps.sort((a, b) => compareRefs(a.finding, b.finding) || rank.get(a)! - rank.get(b)!)
  }

  private reasonFor(judged: Judged): Pick<ManualStep, 'why' | 'reason'> {
    const refused = this.refused.get(judged.finding.fingerprint)
    if (refused) return refused
    if (judged.fixes.length === 0) {
      const offers = this.options.rules.find((a) => a.rule.meta.id === judged.finding.ruleId)?.rule.meta.fix
      return {why: 'no-change', reason: offers ? `no change to offer for this one (see onedev-audit rules show ${judged.finding.ruleId})` : 'no automatic change for this rule'}
    }
    if (!judged.fixes.some((fix) => this.kindSelected(fix, judged.finding.ruleId))) return suggestionReason(judged.finding.ruleId)
    return {why: 'unreadable', reason: 'not planned: its change edits a project whose setting could not be read'}
  }

  /**
   * The projects a change is judged on again when it is applied (its scope, and their ancestors), as
   * planned. A project's setting is kept when another project's change is judged on it; a changed
   * project's own setting is read fresh when it is applied.
   */
  private context(): ContextProject[] {
    const members = new Set<number>()
    const needed = new Set<number>()
    for (const owner of this.planned.keys()) {
      for (const id of this.scope(owner)) {
        for (const member of this.chain(id)) {
          members.add(member)
          if (member !== owner) needed.add(member)
        }
      }
    }
    const out: ContextProject[] = []
    for (const id of [...members].sort((a, b) => a - b)) {
      const project = this.model.projectsById.get(id) ?? this.current.get(id)!
      out.push({
        id,
        path: project.path,
        name: project.name,
        parentId: project.parentId,
        audited: this.audited.has(id),
        repository: project.repository ?? null,
        setting: needed.has(id) && project.raw !== null && typeof project.raw === 'object' ? (cloneJson(project.raw) as Record<string, unknown>) : null,
      })
    }
    return out
  }
}

/** A list the schema says has at least one item (a change has edits, and clears the finding that offered it). */
function nonEmpty<T>(list: T[]): [T, ...T[]] {
  if (list.length === 0) throw new Error('a planned change without edits or cleared findings')
  return list as [T, ...T[]]
}

function suggestionReason(ruleId: string): Pick<ManualStep, 'why' | 'reason'> {
  return {why: 'suggestion', reason: `a suggestion: plan it with --suggestions or --rule ${ruleId}`}
}

function compareRefs(a: FindingRef, b: FindingRef): number {
  const severity = ['critical', 'high', 'medium', 'low', 'info']
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)
  return (
    severity.indexOf(a.severity) - severity.indexOf(b.severity) ||
    text(a.project?.path ?? '', b.project?.path ?? '') ||
    text(a.role?.name ?? '', b.role?.name ?? '') ||
    text(a.ruleId, b.ruleId) ||
    text(a.subject, b.subject)
  )
}

export function planFixes(model: AuditModel, options: PlanOptions): ProposedPlan {
  return new Planner(model, options).run()
}

/** What planning one owner's setting gives (replanProject). */
export interface Replanned {
  /** The changes kept, in order: each one the plan approves. */
  changes: Change[]
  /** Changes the planner would have kept that the plan does not approve, in order. */
  unapproved: Change[]
  /** The findings of the projects it judged (below), before any change. */
  before: Finding[]
  /** The owner as it is with the changes kept (its redacted setting). */
  after: Project
  /** The findings of the same projects with the changes kept. */
  afterFindings: Finding[]
  /** Rules that failed while judging: nothing can be said. */
  errors: AuditError[]
}

/**
 * The changes the planner makes now of `owner`'s own setting in `model` (what applying re-derives from
 * the live setting: a plan is an approval list, not a program). Only the projects its setting reaches
 * are judged; `options.approved` says which changes the plan approves.
 */
export function replanProject(model: AuditModel, owner: number, options: PlanOptions): Replanned {
  return new Planner(model, options).runOwner(owner)
}
