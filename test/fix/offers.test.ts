/**
 * Each rule that declares `meta.fix` really offers a change of that kind with its findings, and each
 * change proves out when planned (the finding gone, nothing new, nothing weakened); no rule offers
 * one without declaring it.
 */
import {describe, expect, it} from 'vitest'

import {builtinRules} from '../../rules/index.js'
import {DEFAULT_NEW_PROTECTIONS} from '../../src/engine/fix.js'
import {planFixes} from '../../src/fix/plan.js'
import {FixJudge} from '../../src/fix/judge.js'
import type {AuditModel} from '../../src/model/types.js'
import {ALL_RULES, branchProtection, currentSetting, fixModel, rawProject, repository, settings, tagProtection} from '../helpers/fix-builders.js'

const withReviewersAndJobs = settings({fix: {...DEFAULT_NEW_PROTECTIONS, branch: {...DEFAULT_NEW_PROTECTIONS.branch, reviewRequirement: 'group(core-devs):2', jobNames: ['ci']}}})

/** A project whose setting makes `ruleId` report, with what the rule's fix should edit. */
const CASES: Array<{ruleId: string; model: AuditModel; edit: [string, string, unknown?]; settings?: typeof withReviewersAndJobs}> = [
  {ruleId: 'branch-protection/force-push-allowed', model: one({branchProtections: [branchProtection({preventForcedPush: false})]}), edit: ['replace', '/branchProtections/0/preventForcedPush', true]},
  {ruleId: 'branch-protection/deletion-allowed', model: one({branchProtections: [branchProtection({preventDeletion: false})]}), edit: ['replace', '/branchProtections/0/preventDeletion', true]},
  {ruleId: 'branch-protection/unprotected-branch', model: one({branchProtections: []}), edit: ['add', '/branchProtections/-']},
  {ruleId: 'branch-protection/signature-not-required', model: one({branchProtections: [branchProtection()]}), edit: ['replace', '/branchProtections/0/commitSignatureRequired', true]},
  {ruleId: 'branch-protection/review-not-required', model: one({branchProtections: [branchProtection()]}), edit: ['replace', '/branchProtections/0/reviewRequirement', 'group(core-devs):2'], settings: withReviewersAndJobs},
  {ruleId: 'branch-protection/build-not-required', model: one({branchProtections: [branchProtection()]}), edit: ['replace', '/branchProtections/0/jobNames', ['ci']], settings: withReviewersAndJobs},
  {ruleId: 'branch-protection/strict-builds-not-required', model: one({branchProtections: [branchProtection({jobNames: ['ci']})]}), edit: ['replace', '/branchProtections/0/requireStrictBuilds', true]},
  {
    ruleId: 'branch-protection/user-bypass',
    model: one({branchProtections: [branchProtection({userMatch: 'anyone except user(bob)'})]}),
    edit: ['replace', '/branchProtections/0/userMatch', 'anyone'],
  },
  {
    ruleId: 'branch-protection/disabled-rule',
    model: one({branchProtections: [branchProtection(), branchProtection({enabled: false, branches: 'hotfix/*'})]}),
    edit: ['replace', '/branchProtections/1/enabled', true],
  },
  {
    ruleId: 'branch-protection/shadowed-rule',
    model: one({branchProtections: [branchProtection({branches: '**'}), branchProtection({branches: 'main'})]}),
    edit: ['remove', '/branchProtections/1'],
  },
  {ruleId: 'tag-protection/update-allowed', model: one({tagProtections: [tagProtection({preventUpdate: false})]}), edit: ['replace', '/tagProtections/0/preventUpdate', true]},
  {ruleId: 'tag-protection/deletion-allowed', model: one({tagProtections: [tagProtection({preventDeletion: false})]}), edit: ['replace', '/tagProtections/0/preventDeletion', true]},
  {ruleId: 'tag-protection/signature-not-required', model: one({tagProtections: [tagProtection()]}), edit: ['replace', '/tagProtections/0/commitSignatureRequired', true]},
  {ruleId: 'tag-protection/unprotected-tags', model: one({tagProtections: []}), edit: ['add', '/tagProtections/-']},
  {
    ruleId: 'job-secret/broad-branches',
    model: one({buildSetting: {jobSecrets: [{name: 'token', value: 'x', authorization: 'on branch "**"', archived: false}]}}),
    edit: ['replace', '/buildSetting/jobSecrets/0/authorization', 'on branch "main"'],
  },
  {
    ruleId: 'notification/insecure-webhook',
    model: one({webHooks: [{postUrl: 'http://ci.internal/hook', eventTypes: ['CODE_PUSH'], secret: 'x', headers: []}]}),
    edit: ['set-scheme', '/webHooks/0/postUrl', 'https'],
  },
]

function one(parts: Record<string, unknown>) {
  return fixModel([rawProject(1, 'acme/app', currentSetting({branchProtections: [branchProtection()], tagProtections: [tagProtection()], ...parts}), {repository: repository('main', {tags: ['v1.0']})})])
}

describe('rules that declare a fix offer one, and it proves out', () => {
  it('the table covers every rule that declares meta.fix', () => {
    const declared = builtinRules.filter((r) => r.meta.fix).map((r) => r.meta.id).sort()
    expect(CASES.map((c) => c.ruleId).sort()).toEqual(declared)
  })

  for (const testCase of CASES) {
    it(`${testCase.ruleId} (${builtinRules.find((r) => r.meta.id === testCase.ruleId)?.meta.fix})`, () => {
      const rule = builtinRules.find((r) => r.meta.id === testCase.ruleId)!
      const used = testCase.settings ?? settings({tags: []})
      const project = testCase.model.projects[0]!
      const judged = new FixJudge(ALL_RULES, used).judgeProject(project, testCase.model, new Set([project.id])).filter((j) => j.finding.ruleId === testCase.ruleId)
      expect(judged.length).toBeGreaterThan(0)
      const [op, path, value] = testCase.edit
      const fix = judged[0]!.fixes[0]!
      expect(fix.kind).toBe(rule.meta.fix)
      expect(fix.edits[0]).toMatchObject(value === undefined ? {op, path} : {op, path, value})
      const plan = planFixes(testCase.model, {rules: ALL_RULES, settings: used, selection: {suggestions: true, rules: []}})
      const change = plan.projects.flatMap((p) => p.changes).find((c) => c.ruleId === testCase.ruleId)
      expect(change, plan.manual.filter((m) => m.finding.ruleId === testCase.ruleId).map((m) => m.reason).join('; ')).toBeDefined()
      expect(change!.clears.map((f) => f.ruleId)).toContain(testCase.ruleId)
    })
  }

  it('a change that makes a protection require builds requires them strictly, so that strict-builds-not-required does not report what it made', () => {
    // An existing protection (build-not-required) and a new one (unprotected-branch), with jobs configured.
    for (const [model, path, value] of [
      [one({branchProtections: [branchProtection()]}), '/branchProtections/0/requireStrictBuilds', true],
      [one({branchProtections: []}), '/branchProtections/-', expect.objectContaining({jobNames: ['ci'], requireStrictBuilds: true})],
    ] as const) {
      const plan = planFixes(model, {rules: ALL_RULES, settings: withReviewersAndJobs, selection: {suggestions: true, rules: []}})
      const edits = plan.projects.flatMap((p) => p.changes.flatMap((c) => c.edits))
      expect(edits).toContainEqual(expect.objectContaining({path, value}))
      expect(plan.manual.filter((m) => m.finding.ruleId === 'branch-protection/strict-builds-not-required')).toEqual([])
    }
  })

  it('no rule without meta.fix offers a change', () => {
    const undeclared = new Set(builtinRules.filter((r) => !r.meta.fix).map((r) => r.meta.id))
    for (const testCase of CASES) {
      const project = testCase.model.projects[0]!
      const judged = new FixJudge(ALL_RULES, testCase.settings ?? settings()).judgeProject(project, testCase.model, new Set([project.id]))
      expect(judged.filter((j) => undeclared.has(j.finding.ruleId) && j.fixes.length > 0)).toEqual([])
    }
  })
})

describe('names written into the server\'s little languages parse back to themselves', () => {
  it('a default branch with a quote and a backslash: job-match for current secrets, a pattern set for 8.x secrets and new protections', () => {
    const branch = 'we"ird\\name'
    const secret = (authorization: Record<string, unknown>) => ({buildSetting: {jobSecrets: [{name: 'token', value: 'x', archived: false, ...authorization}], buildPreservations: []}})
    const current = fixModel([rawProject(1, 'acme/app', currentSetting(secret({authorization: 'on branch "**"'})), {repository: repository(branch)})])
    const plan = planFixes(current, {rules: ALL_RULES, settings: settings(), selection: {suggestions: true, rules: []}})
    const edits = plan.projects.flatMap((p) => p.changes.flatMap((c) => c.edits))
    expect(edits).toContainEqual(expect.objectContaining({op: 'replace', path: '/buildSetting/jobSecrets/0/authorization', value: 'on branch "we\\"ird\\\\name"'}))
    expect(edits).toContainEqual(expect.objectContaining({op: 'add', path: '/branchProtections/-', value: expect.objectContaining({branches: '"we\\"ird\\\\name"'})}))
  })

  it('a branch name with a wildcard gets no new protection (its pattern would cover other branches)', () => {
    const project = rawProject(1, 'acme/app', currentSetting(), {repository: repository('rel*')})
    const judged = new FixJudge(ALL_RULES, settings()).judgeProject(project, fixModel([project]), new Set([1])).find((j) => j.finding.ruleId === 'branch-protection/unprotected-branch')!
    expect(judged.fixes).toEqual([])
  })
})
