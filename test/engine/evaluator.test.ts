/**
 * Judging on arrival (src/engine/evaluator.ts): when each project is judged, when each raw payload
 * is released, and that `finish` gives exactly what evaluate() gives for the whole model.
 */
import {describe, expect, it} from 'vitest'

import {evaluate} from '../../src/engine/evaluate.js'
import {ArrivalEvaluator} from '../../src/engine/evaluator.js'
import {defineRule} from '../../src/engine/rule.js'
import type {AuditModel, Project} from '../../src/model/types.js'
import {createLane} from '../../src/util/lane.js'
import {model, project, role} from '../helpers/model-builders.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'

/** Reports each branch protection of the project and of its ancestors (pointing into the ancestor's payload), and each role. */
const rule = defineRule({
  meta: {id: 'test/protections', shortDescription: '', fullDescription: '', help: '', defaultSeverity: 'low', tags: [], scope: 'project'},
  check: (context) => {
    if (context.scope !== 'project') return []
    return [context.project, ...context.ancestors].flatMap((owner) =>
      owner.setting!.branchProtections.map((b) => ({
        subject: b.branches ?? '',
        message: `protection of ${owner.path}`,
        pointer: `${b.pointer}/branches`,
        ...(owner === context.project ? {} : {sourceProjectId: owner.id}),
      })),
    )
  },
})
const roleRule = defineRule({
  meta: {id: 'test/roles', shortDescription: '', fullDescription: '', help: '', defaultSeverity: 'high', tags: [], scope: 'role'},
  check: (context) => (context.scope === 'role' ? [{subject: context.role.name, message: 'role', pointer: ''}] : []),
})
const rules = [{rule, options: {}}, {rule: roleRule, options: {}}]

/**
 * acme (#1, not audited) ── acme/app (#2) ── acme/app/web (#3); acme (#1) ── acme/lib (#4); tools (#5).
 * Built afresh on each call: the evaluator releases the payloads of the projects it is given.
 */
function tree(): Project[] {
  return [
    project({id: 1, path: 'acme', branchProtections: [{branches: 'main'}]}),
    project({id: 2, path: 'acme/app', parentId: 1, branchProtections: [{branches: 'release/**'}, {branches: 'dev'}]}),
    project({id: 3, path: 'acme/app/web', parentId: 2, branchProtections: [{branches: 'main'}]}),
    project({id: 4, path: 'acme/lib', parentId: 1}),
    project({id: 5, path: 'tools', branchProtections: [{branches: 'main'}]}),
  ]
}

/** The final model: the audited projects sorted by path, every project by id. */
function whole(projects: Project[], audited: number[]): AuditModel {
  const m = model({projects: projects.filter((p) => audited.includes(p.id)), ancestors: projects, roles: [role({id: 1, name: 'Ops'}), role({id: 2, name: 'Ops'})]})
  m.projects.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.id - b.id))
  return m
}

describe('ArrivalEvaluator', () => {
  it('judges a project once it and its ancestors are in, and keeps an ancestor payload until its last audited descendant is judged', () => {
    const projects = tree()
    const byId = new Map(projects.map((p) => [p.id, p]))
    const live = whole([], [])
    const judged: string[] = []
    const seen: Array<{project: string; raws: number[]}> = []
    const evaluator = new ArrivalEvaluator({
      rules,
      settings: DEFAULT_SETTINGS,
      onJudged: (findings, projectRaw) => {
        const path = findings[0]?.project?.path ?? ''
        judged.push(path)
        // Every payload a finding points into is still there.
        seen.push({project: path, raws: [...new Set(findings.map((f) => f.source?.id ?? f.project!.id))].filter((id) => projectRaw(id) != null)})
      },
    })
    const add = (id: number) => {
      live.projectsById.set(id, byId.get(id)!)
      evaluator.add(byId.get(id)!)
    }
    for (const id of [2, 3, 4, 5]) evaluator.expect(id, byId.get(id)!.parentId)
    evaluator.ready(live)
    add(5)
    expect(judged).toEqual(['tools'])
    // Not released yet: a project listed later could be a child of it.
    expect(evaluator.holds(5)).toBe(true)
    evaluator.allExpected()
    // Still not: the parent of acme (not audited, not in yet) is unknown, and could be tools.
    expect(evaluator.holds(5)).toBe(true)

    add(3)
    add(2)
    // acme/app and acme/app/web wait for acme.
    expect(judged).toEqual(['tools'])
    expect([2, 3].map((id) => evaluator.holds(id))).toEqual([true, true])
    add(1)
    expect(judged.slice(1).sort()).toEqual(['acme/app', 'acme/app/web'])
    expect(evaluator.holds(5)).toBe(false)
    expect(byId.get(5)!.raw).toBeNull()
    expect(seen.find((s) => s.project === 'acme/app/web')!.raws.sort()).toEqual([1, 2, 3])
    // Their payloads go; acme's stays for acme/lib, not judged yet.
    expect([1, 2, 3].map((id) => evaluator.holds(id))).toEqual([true, false, false])
    add(4)
    expect(judged).toHaveLength(4)
    expect([1, 4].map((id) => evaluator.holds(id))).toEqual([false, false])
    expect(evaluator.released).toBe(5)
    expect(evaluator.judgedOnArrival).toBe(4)

    const expected = evaluate(whole(tree(), [2, 3, 4, 5]), rules, DEFAULT_SETTINGS)
    const final = whole(projects, [2, 3, 4, 5])
    expect(evaluator.finish(final)).toEqual(expected)
  })

  it('waits for a parent whose own parent is not known yet, and releases nothing while it waits', () => {
    const projects = tree()
    const byId = new Map(projects.map((p) => [p.id, p]))
    const live = whole([], [])
    const evaluator = new ArrivalEvaluator({rules, settings: DEFAULT_SETTINGS})
    // acme/app/web is asked for by id: its parent's parent is learnt when acme/app arrives.
    evaluator.expect(3, 2)
    evaluator.expect(5, null)
    evaluator.allExpected()
    evaluator.ready(live)
    for (const id of [5, 3]) {
      live.projectsById.set(id, byId.get(id)!)
      evaluator.add(byId.get(id)!)
    }
    expect(evaluator.judgedOnArrival).toBe(1)
    expect(evaluator.holds(5)).toBe(true)
    for (const id of [2, 1]) {
      live.projectsById.set(id, byId.get(id)!)
      evaluator.add(byId.get(id)!)
    }
    expect(evaluator.judgedOnArrival).toBe(2)
    expect([1, 2, 3, 5].map((id) => evaluator.holds(id))).toEqual([false, false, false, false])
    expect(evaluator.finish(whole(projects, [3, 5]))).toEqual(evaluate(whole(tree(), [3, 5]), rules, DEFAULT_SETTINGS))
  })

  it('numbers identical findings of projects sharing a path, and judges at finish what never became ready, as evaluate() does', () => {
    const twins = () => [project({id: 7, path: 'dup', branchProtections: [{branches: 'main'}]}), project({id: 6, path: 'dup', branchProtections: [{branches: 'main'}]}), ...tree()]
    const projects = twins()
    const live = whole([], [])
    const evaluator = new ArrivalEvaluator({rules, settings: DEFAULT_SETTINGS})
    for (const p of projects) if (p.id !== 1) evaluator.expect(p.id, p.parentId)
    evaluator.allExpected()
    evaluator.ready(live)
    // acme (#1) never arrives: its descendants are judged at finish.
    for (const p of projects.filter((p) => p.id !== 1)) {
      live.projectsById.set(p.id, p)
      evaluator.add(p)
    }
    expect(evaluator.judgedOnArrival).toBe(3)
    const audited = [2, 3, 4, 5, 6, 7]
    const final = whole(projects, audited)
    final.projectsById.delete(1)
    const reference = whole(twins(), audited)
    reference.projectsById.delete(1)
    const expected = evaluate(reference, rules, DEFAULT_SETTINGS)
    const result = evaluator.finish(final)
    expect(result).toEqual(expected)
    expect(new Set(result.findings.filter((f) => f.project?.path === 'dup').map((f) => f.fingerprint)).size).toBe(2)
  })

  it('a failure while judging on arrival (here, locating) is no crash: the rest is judged at finish, the findings are those of evaluate(), and an internal error says so', () => {
    const projects = tree()
    const live = whole([], [])
    let calls = 0
    const evaluator = new ArrivalEvaluator({
      rules,
      settings: DEFAULT_SETTINGS,
      onJudged: () => {
        calls++
        throw new Error('locating failed')
      },
    })
    for (const p of projects) if (p.id !== 1) evaluator.expect(p.id, p.parentId)
    evaluator.allExpected()
    evaluator.ready(live)
    for (const p of projects) {
      live.projectsById.set(p.id, p)
      expect(() => evaluator.add(p)).not.toThrow()
    }
    // Judging on arrival stopped at the first failure.
    expect(calls).toBe(1)
    const audited = [2, 3, 4, 5]
    const result = evaluator.finish(whole(projects, audited))
    const expected = evaluate(whole(tree(), audited), rules, DEFAULT_SETTINGS)
    expect(result.findings).toEqual(expected.findings)
    expect(result.errors).toEqual([
      {kind: 'internal', message: 'judging projects as they arrived failed (locating failed); the projects not judged by then were judged at the end', project: null},
    ])
  })

  describe('on a lane (issue 28): projects are judged one per turn, when no other work waits', () => {
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

    it('judges the projects ready at once (the roles came in after them) one per turn, and finish judges those still waiting', async () => {
      const projects = tree()
      const live = whole([], [])
      const evaluator = new ArrivalEvaluator({rules, settings: DEFAULT_SETTINGS, lane: createLane()})
      for (const p of projects) if (p.id !== 1) evaluator.expect(p.id, p.parentId)
      evaluator.allExpected()
      for (const p of projects) {
        live.projectsById.set(p.id, p)
        evaluator.add(p)
      }
      // Four projects are ready when the roles and server data come in: none is judged at once.
      evaluator.ready(live)
      expect(evaluator.judgedOnArrival).toBe(0)
      await nextTurn()
      expect(evaluator.judgedOnArrival).toBe(1)
      await nextTurn()
      expect(evaluator.judgedOnArrival).toBe(2)
      // The other two are still waiting for their turn when the collection ends: finish judges them, the same way.
      const audited = [2, 3, 4, 5]
      expect(evaluator.finish(whole(projects, audited))).toEqual(evaluate(whole(tree(), audited), rules, DEFAULT_SETTINGS))
      expect(evaluator.judgedOnArrival).toBe(4)
      expect(evaluator.released).toBe(5)
      // Their turns, when they come, find nothing left to do.
      await nextTurn()
      await nextTurn()
      expect(evaluator.judgedOnArrival).toBe(4)
    })

    it('judges a project and the descendants it completes in turns after its arrival, and releases payloads as without a lane', async () => {
      const projects = tree()
      const byId = new Map(projects.map((p) => [p.id, p]))
      const live = whole([], [])
      const evaluator = new ArrivalEvaluator({rules, settings: DEFAULT_SETTINGS, lane: createLane()})
      for (const id of [2, 3, 4, 5]) evaluator.expect(id, byId.get(id)!.parentId)
      evaluator.allExpected()
      evaluator.ready(live)
      for (const id of [5, 3, 2, 4, 1]) {
        live.projectsById.set(id, byId.get(id)!)
        evaluator.add(byId.get(id)!)
      }
      expect(evaluator.judgedOnArrival).toBe(0)
      expect(evaluator.holds(1)).toBe(true)
      for (let turn = 0; turn < 4; turn++) await nextTurn()
      expect(evaluator.judgedOnArrival).toBe(4)
      expect([1, 2, 3, 4, 5].map((id) => evaluator.holds(id))).toEqual([false, false, false, false, false])
      expect(evaluator.finish(whole(projects, [2, 3, 4, 5]))).toEqual(evaluate(whole(tree(), [2, 3, 4, 5]), rules, DEFAULT_SETTINGS))
    })
  })
})
