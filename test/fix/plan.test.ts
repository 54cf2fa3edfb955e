/** The planner, pure: which changes it keeps, where it puts them, and why it refuses the others. */
import {describe, expect, it} from 'vitest'

import {defineRule} from '../../src/engine/rule.js'
import type {ActiveRule} from '../../src/engine/evaluate.js'
import {DEFAULT_NEW_PROTECTIONS, type FixDraft} from '../../src/engine/fix.js'
import type {AuditSettings} from '../../src/engine/rule.js'
import {planFixes, type ProposedPlan} from '../../src/fix/plan.js'
import {
  ALL_RULES,
  branchProtection,
  currentSetting,
  fixModel,
  legacyBranchProtection,
  legacySetting,
  rawProject,
  repository,
  settings,
  tagProtection,
} from '../helpers/fix-builders.js'

const FIXES_ONLY = {suggestions: false, rules: []}
const WITH_SUGGESTIONS = {suggestions: true, rules: []}

function edits(plan: ProposedPlan): Array<[number, string, string, unknown]> {
  return plan.projects.flatMap((p) => p.changes.flatMap((c) => c.edits.map((e): [number, string, string, unknown] => [p.id, e.op, e.path, 'value' in e ? e.value : undefined])))
}

/** A plugin rule that reports one finding on every project and offers `fix` for it. */
function offering(fix: FixDraft, id = 'acme/offers'): ActiveRule {
  return {
    rule: defineRule({
      meta: {id, shortDescription: 's', fullDescription: 'f', help: 'h', defaultSeverity: 'high', tags: [], scope: 'project', fix: fix.kind},
      // Reported while main's first protection does not prevent creation: an edit of that flag clears it.
      check: (context) =>
        context.scope === 'project' && context.project.setting?.branchProtections[0]?.preventCreation === false ? [{subject: 'x', message: 'm', pointer: '', fixes: [fix]}] : [],
    }),
    options: {},
  }
}

describe('both payload generations', () => {
  it('writes the edits in the payload\'s own generation: signatureRequired and authorizedBranches on 8.x, commitSignatureRequired and authorization on 16.x', () => {
    const legacy = rawProject(1, 'legacy/tool', legacySetting({
      branchProtections: [legacyBranchProtection({preventForcedPush: false})],
      buildSetting: {jobSecrets: [{name: 'token', value: 's3cr3t', authorizedBranches: '**'}], buildPreservations: [], actionAuthorizations: []},
    }))
    const current = rawProject(2, 'acme/app', currentSetting({
      branchProtections: [branchProtection({preventDeletion: false})],
      buildSetting: {jobSecrets: [{name: 'token', value: 's3cr3t', authorization: null, archived: false}], buildPreservations: []},
    }))
    const plan = planFixes(fixModel([legacy, current]), {rules: ALL_RULES, settings: settings(), selection: WITH_SUGGESTIONS})
    expect(plan.projects.map((p) => [p.id, p.generation])).toEqual([[1, 'legacy'], [2, 'current']])
    expect(edits(plan)).toEqual(
      expect.arrayContaining([
        [1, 'replace', '/branchProtections/0/preventForcedPush', true],
        [1, 'replace', '/branchProtections/0/signatureRequired', true],
        [1, 'replace', '/buildSetting/jobSecrets/0/authorizedBranches', 'main'],
        [2, 'replace', '/branchProtections/0/preventDeletion', true],
        [2, 'replace', '/branchProtections/0/commitSignatureRequired', true],
        [2, 'replace', '/buildSetting/jobSecrets/0/authorization', 'on branch "main"'],
      ]),
    )
    expect(edits(plan).some(([, , path]) => path.endsWith('/value'))).toBe(false)
  })

  it('a new protection carries the generation\'s signature member; a branch name that needs quoting is quoted so that it parses back', () => {
    const legacy = rawProject(1, 'legacy/tool', legacySetting(), {repository: repository('rel 1')})
    const plan = planFixes(fixModel([legacy]), {rules: ALL_RULES, settings: settings(), selection: FIXES_ONLY})
    const added = plan.projects[0]!.changes.find((c) => c.ruleId === 'branch-protection/unprotected-branch')!.edits[0]!
    expect(added).toMatchObject({op: 'add', path: '/branchProtections/-', value: {branches: '"rel 1"', userMatch: 'anyone', preventForcedPush: true, preventDeletion: true, signatureRequired: false}})
    expect((added as {value?: unknown}).value).not.toHaveProperty('commitSignatureRequired')
  })
})

describe('inheritance', () => {
  const parentSetting = currentSetting({branchProtections: [branchProtection({branches: 'main', preventForcedPush: false})]})

  it('a fix of an inherited protection edits the parent that holds it, once for all the children it clears', () => {
    const parent = rawProject(1, 'acme', parentSetting)
    const a = rawProject(2, 'acme/a', currentSetting(), {parentId: 1})
    const b = rawProject(3, 'acme/b', currentSetting(), {parentId: 1})
    const plan = planFixes(fixModel([a, b], [parent]), {rules: ALL_RULES, settings: settings(), selection: FIXES_ONLY})
    expect(plan.projects.map((p) => [p.id, p.audited, p.changes.length])).toEqual([[1, false, 1]])
    const change = plan.projects[0]!.changes[0]!
    expect(change.edits.map((e) => [e.op, e.path])).toEqual([['replace', '/branchProtections/0/preventForcedPush']])
    expect(change.clears.map((f) => [f.ruleId, f.project?.path])).toEqual([
      ['branch-protection/force-push-allowed', 'acme/a'],
      ['branch-protection/force-push-allowed', 'acme/b'],
    ])
    expect(change.judged).toBe(2)
    // To judge it again when applied: the children's settings, and the parent's own read fresh.
    expect(plan.context.map((c) => [c.id, c.audited, c.setting !== null])).toEqual([[1, false, false], [2, true, true], [3, true, true]])
  })

  it('ancestors are planned before descendants, the order they are applied in', () => {
    const parent = rawProject(1, 'acme', parentSetting)
    const child = rawProject(2, 'acme/a', currentSetting({tagProtections: [tagProtection({preventUpdate: false})]}), {parentId: 1, repository: repository('main', {tags: ['v1.0']})})
    const plan = planFixes(fixModel([child, parent]), {rules: ALL_RULES, settings: settings(), selection: FIXES_ONLY})
    expect(plan.projects.map((p) => p.id)).toEqual([1, 2])
  })
})

describe('a new branch protection under first match', () => {
  it('goes before the broader protection of the project that named users would otherwise keep winning, so it applies to them too', () => {
    // group(devs) has its own weak protection of every branch; everyone else has none on main.
    const project = rawProject(1, 'acme/app', currentSetting({branchProtections: [branchProtection({branches: '**', userMatch: 'group(devs)', preventForcedPush: false, preventDeletion: false})]}))
    const plan = planFixes(fixModel([project]), {rules: ALL_RULES, settings: settings(), selection: FIXES_ONLY})
    const change = plan.projects[0]!.changes.find((c) => c.ruleId === 'branch-protection/unprotected-branch')!
    expect(change.edits.map((e) => [e.op, e.path])).toEqual([['add', '/branchProtections/0']])
    // Placed after it, the broader one would win for group(devs): a bypass. Placed before, there is none.
    expect(change.reveals.map((f) => f.ruleId)).not.toContain('branch-protection/user-bypass')
    expect(change.clears.map((f) => f.ruleId)).toEqual(['branch-protection/unprotected-branch'])
  })

  it('goes after it when going first would take something from those users (here: the reviews their protection requires)', () => {
    const project = rawProject(1, 'acme/app', currentSetting({branchProtections: [branchProtection({branches: '**', userMatch: 'group(devs)', reviewRequirement: 'group(leads)'})]}))
    const plan = planFixes(fixModel([project]), {rules: ALL_RULES, settings: settings(), selection: FIXES_ONLY})
    const change = plan.projects[0]!.changes.find((c) => c.ruleId === 'branch-protection/unprotected-branch')!
    expect(change.edits.map((e) => [e.op, e.path])).toEqual([['add', '/branchProtections/-']])
  })

  it('what the new protection does not require is said after it is added, as what the unprotected branch covered', () => {
    const project = rawProject(1, 'acme/app', currentSetting())
    const plan = planFixes(fixModel([project]), {rules: ALL_RULES, settings: settings(), selection: FIXES_ONLY})
    const change = plan.projects[0]!.changes.find((c) => c.ruleId === 'branch-protection/unprotected-branch')!
    expect(change.reveals.map((f) => `${f.ruleId} ${f.subject}`).sort()).toEqual([
      'branch-protection/build-not-required main',
      'branch-protection/review-not-required main',
      'branch-protection/signature-not-required main',
      'file-protection/buildspec-unprotected main',
    ])
  })

  it('a setting whose list is null gets one, and what the new item lacks is said after it', () => {
    const project = rawProject(1, 'acme/app', currentSetting({branchProtections: [branchProtection()], tagProtections: null}), {repository: repository('main', {tags: ['v1.0']})})
    const plan = planFixes(fixModel([project]), {rules: ALL_RULES, settings: settings(), selection: FIXES_ONLY})
    const change = plan.projects[0]!.changes.find((c) => c.ruleId === 'tag-protection/unprotected-tags')!
    expect(change.edits.map((e) => [e.op, e.path])).toEqual([['replace', '/tagProtections']])
    expect(change.reveals.map((f) => `${f.ruleId} ${f.subject}`)).toEqual(['tag-protection/signature-not-required v*'])
  })

  it('a new tag protection prevents update and deletion but not creation (OneDev has no bypass for it: no one, CI included, could push a new release tag); the configuration may prevent it', () => {
    const project = rawProject(1, 'acme/app', currentSetting({branchProtections: [branchProtection()]}), {repository: repository('main', {tags: ['v1.0']})})
    const added = (fix?: AuditSettings['fix']) => {
      const plan = planFixes(fixModel([project]), {rules: ALL_RULES, settings: settings(fix ? {fix} : {}), selection: FIXES_ONLY})
      return (plan.projects[0]!.changes.find((c) => c.ruleId === 'tag-protection/unprotected-tags')!.edits[0] as {value: unknown}).value
    }
    expect(added()).toMatchObject({tags: 'v*', userMatch: 'anyone', preventUpdate: true, preventDeletion: true, preventCreation: false})
    expect(added({...DEFAULT_NEW_PROTECTIONS, tag: {...DEFAULT_NEW_PROTECTIONS.tag, userMatch: 'anyone except group(release-bots)', preventCreation: true}})).toMatchObject({userMatch: 'anyone except group(release-bots)', preventCreation: true})
  })

  it('a tag protection for tags its pattern does not cover is not planned, and the manual step says why', () => {
    const project = rawProject(1, 'acme/app', currentSetting(), {repository: repository('main', {tags: ['v1.0', 'nightly-1']})})
    const plan = planFixes(fixModel([project]), {rules: ALL_RULES, settings: settings(), selection: FIXES_ONLY})
    expect(plan.projects.flatMap((p) => p.changes).map((c) => c.ruleId)).not.toContain('tag-protection/unprotected-tags')
    const step = plan.manual.find((m) => m.finding.ruleId === 'tag-protection/unprotected-tags')!
    expect(step.reason).toMatch(/^not planned: tag-protection\/unprotected-tags on "tags" is still reported \(No enabled tag protection applies to tag "nightly-1"/)
    expect(step.where).toBe('acme/app: Project Settings > Tag Protection')
    expect(step.why).toBe('not-proven')
  })
})

describe('what is refused', () => {
  const project = () => rawProject(1, 'acme/app', currentSetting({
    branchProtections: [branchProtection({preventCreation: false, reviewRequirement: 'group(core)', jobNames: ['ci', 'lint']})],
    buildSetting: {jobSecrets: [{name: 'token', value: 'CANARY-plan-7f3a', authorization: 'on branch "main"', archived: false}], buildPreservations: []},
    webHooks: [{postUrl: 'https://ci.example.com/hook', eventTypes: ['CODE_PUSH'], secret: null, headers: []}],
  }))
  const plan = (fix: FixDraft) => planFixes(fixModel([project()]), {rules: [...ALL_RULES, offering(fix)], settings: settings(), selection: WITH_SUGGESTIONS})
  const reason = (result: ProposedPlan) => result.manual.find((m) => m.finding.ruleId === 'acme/offers')!.reason
  const creation = {op: 'replace' as const, path: '/branchProtections/0/preventCreation', value: true}

  it('a change the rules prove is kept', () => {
    expect(edits(plan({kind: 'fix', description: 'd', edits: [creation]}))).toContainEqual([1, 'replace', '/branchProtections/0/preventCreation', true])
  })

  it('editing a field that holds a secret, or writing one', () => {
    expect(reason(plan({kind: 'fix', description: 'd', edits: [creation, {op: 'replace', path: '/buildSetting/jobSecrets/0/value', value: 'other'}]}))).toContain('/buildSetting/jobSecrets/0/value: it holds a secret, which a plan never changes')
    expect(reason(plan({kind: 'fix', description: 'd', edits: [creation, {op: 'replace', path: '/webHooks/0/secret', value: 'new-secret'}]}))).toContain('/webHooks/0/secret: the new value would be a secret, which a plan never holds')
    expect(reason(plan({kind: 'fix', description: 'd', edits: [creation, {op: 'remove', path: '/buildSetting/jobSecrets/0'}]}))).toContain('it holds a secret')
  })

  it('opening a job secret to every job (null or empty authorization)', () => {
    for (const value of [null, '', ' ']) {
      expect(reason(plan({kind: 'fix', description: 'd', edits: [creation, {op: 'replace', path: '/buildSetting/jobSecrets/0/authorization', value}]}))).toContain(
        "a job secret's authorization must stay a non-empty text (null or empty opens the secret to every job)",
      )
    }
  })

  it('a change that weakens what applies though no rule reports it (here it also drops a required build)', () => {
    expect(reason(plan({kind: 'fix', description: 'd', edits: [creation, {op: 'replace', path: '/branchProtections/0/jobNames', value: ['ci']}]}))).toContain(
      'it would weaken what applies: Branch "main" (everyone else): required builds "ci", "lint" -> "ci".',
    )
  })

  it('a change that makes another finding appear', () => {
    expect(reason(plan({kind: 'fix', description: 'd', edits: [creation, {op: 'replace', path: '/webHooks/0/postUrl', value: 'http://ci.example.com/hook'}]}))).toMatch(/it makes notification\/insecure-webhook report "ci\.example\.com"/)
  })

  it('a change whose path does not fit, or that leaves the finding', () => {
    expect(reason(plan({kind: 'fix', description: 'd', edits: [{op: 'replace', path: '/branchProtections/7/preventCreation', value: true}]}))).toContain('/branchProtections/7/preventCreation: no such item')
    expect(reason(plan({kind: 'fix', description: 'd', edits: [{op: 'replace', path: '/branchProtections/0/preventDeletion', value: true}]}))).toContain('acme/offers on "x" is still reported')
  })

  it('a suggestion without --suggestions, unless its rule is named', () => {
    const fix = {kind: 'suggestion' as const, description: 'Prevent creation', edits: [creation]}
    const rules = [...ALL_RULES, offering(fix)]
    const unselected = planFixes(fixModel([project()]), {rules, settings: settings(), selection: FIXES_ONLY})
    expect(reason(unselected)).toBe('a suggestion: plan it with --suggestions or --rule acme/offers')
    expect(unselected.manual.find((m) => m.finding.ruleId === 'acme/offers')!.why).toBe('suggestion')
    const named = planFixes(fixModel([project()]), {rules, settings: settings(), selection: {suggestions: false, rules: ['acme/offers']}})
    expect(edits(named)).toEqual([[1, 'replace', '/branchProtections/0/preventCreation', true]])
    expect(named.manual.every((m) => m.finding.ruleId === 'acme/offers')).toBe(true)
  })

  it('a finding the configuration suppresses is left alone and not listed', () => {
    const result = planFixes(fixModel([project()]), {rules: [...ALL_RULES, offering({kind: 'fix', description: 'd', edits: [creation]})], settings: settings(), selection: FIXES_ONLY, suppressed: (f) => f.ruleId === 'acme/offers'})
    expect(edits(result)).toEqual([])
    expect(result.manual.some((m) => m.finding.ruleId === 'acme/offers')).toBe(false)
  })
})

describe('names the audit did not check (first match: what a protection enabled, added or removed does to every name its pattern matches)', () => {
  const WEAK = {preventForcedPush: false, preventDeletion: false, preventCreation: false}
  const only = (ruleId: string) => ({suggestions: false, rules: [ruleId]})
  const planOf = (protections: Array<Record<string, unknown>>, ruleId: string) =>
    planFixes(fixModel([rawProject(1, 'acme/app', currentSetting({branchProtections: protections}), {repository: repository('main', {branches: ['main', 'release/1']})})]), {rules: ALL_RULES, settings: settings(), selection: only(ruleId)})

  it('enabling a weaker disabled "**" ahead of a strict "release/*" is not planned (release/1 is not checked), and the manual step says why (here a rule tells)', () => {
    const plan = planOf([branchProtection(), branchProtection({enabled: false, branches: '**', ...WEAK}), branchProtection({branches: 'release/*'})], 'branch-protection/disabled-rule')
    expect(plan.projects).toEqual([])
    expect(plan.manual.map((m) => [m.finding.ruleId, m.finding.subject, m.why, m.reason])).toEqual([
      [
        'branch-protection/disabled-rule',
        '**',
        'not-proven',
        'not planned: it makes branch-protection/shadowed-rule report "release/*" (The branch protection /branchProtections/2 ("release/*") never applies: the branch protection /branchProtections/1 ("**") comes first and matches every branch and user it matches, so its settings are never used. Move it above the broader protection or narrow that one in Project Settings > Branch Protection.)',
      ],
    ])
  })

  it('the same where no finding would tell (the enabled pattern does not surely cover the later one), and for a protection of a parent project', () => {
    const plan = planOf([branchProtection(), branchProtection({enabled: false, branches: '*/*', ...WEAK}), branchProtection({branches: 'release/*'})], 'branch-protection/disabled-rule')
    expect(plan.projects).toEqual([])
    expect(plan.manual[0]!.reason).toBe(
      'not planned: it could weaken what applies to branches or tags the audit did not check: the branch protection "*/*" would apply ahead of the branch protection "release/*", without its Prevent Forced Push, Prevent Deletion, Prevent Creation',
    )
    const parent = rawProject(1, 'acme', currentSetting({branchProtections: [branchProtection({branches: 'release/*', reviewRequirement: 'group(leads)'})]}))
    const child = rawProject(2, 'acme/app', currentSetting({branchProtections: [branchProtection(), branchProtection({enabled: false, branches: '*/*'})]}), {parentId: 1})
    const inherited = planFixes(fixModel([child], [parent]), {rules: ALL_RULES, settings: settings(), selection: only('branch-protection/disabled-rule')})
    expect(inherited.projects).toEqual([])
    expect(inherited.manual[0]!.reason).toBe(
      'not planned: it could weaken what applies to branches or tags the audit did not check: the branch protection "*/*" would apply ahead of the branch protection "release/*" of project acme, without its Required Reviewers',
    )
  })

  it('enabling one at least as strict as every later protection it may overlap is planned; one that overlaps no later protection too', () => {
    const strict = planOf([branchProtection(), branchProtection({enabled: false, branches: '*/*'}), branchProtection({branches: 'release/*'})], 'branch-protection/disabled-rule')
    expect(edits(strict)).toEqual([[1, 'replace', '/branchProtections/1/enabled', true]])
    expect(strict.manual).toEqual([])
    // A literal name the later protection does not match: nothing is shadowed.
    const apart = planOf([branchProtection(), branchProtection({enabled: false, branches: 'develop', ...WEAK}), branchProtection({branches: 'release/*'})], 'branch-protection/disabled-rule')
    expect(edits(apart)).toEqual([[1, 'replace', '/branchProtections/1/enabled', true]])
  })

  it('a pattern ending in "/" is no literal name: the server reads "release/" as "release/**", so it may shadow "release/9"', () => {
    const ahead = (branches: string) => planOf([branchProtection(), branchProtection({enabled: false, branches, ...WEAK}), branchProtection({branches: 'release/9 feature/x'})], 'branch-protection/disabled-rule')
    const refusal = (pattern: string) =>
      `not planned: it could weaken what applies to branches or tags the audit did not check: the branch protection "${pattern}" would apply ahead of the branch protection "release/9 feature/x", without its Prevent Forced Push, Prevent Deletion, Prevent Creation`
    for (const pattern of ['release/**', 'release/']) {
      const plan = ahead(pattern)
      expect(plan.projects).toEqual([])
      expect(plan.manual.map((m) => [m.finding.ruleId, m.why, m.reason])).toEqual([['branch-protection/disabled-rule', 'not-proven', refusal(pattern)]])
    }
    // Literal names on both sides, none in common: planned.
    expect(edits(ahead('release/8'))).toEqual([[1, 'replace', '/branchProtections/1/enabled', true]])
  })

  it('the same for tags: a new protection for "release/" ahead of a parent\'s stricter "release/9" is not planned; one for the literal "release/1" is', () => {
    const parent = rawProject(1, 'acme', currentSetting({tagProtections: [tagProtection({tags: 'release/9', commitSignatureRequired: true})]}))
    const child = rawProject(2, 'acme/app', currentSetting({branchProtections: [branchProtection()]}), {parentId: 1, repository: repository('main', {tags: ['release/1']})})
    const planned = (tags: string) =>
      planFixes(fixModel([child], [parent]), {
        rules: ALL_RULES,
        settings: settings({fix: {...DEFAULT_NEW_PROTECTIONS, tag: {...DEFAULT_NEW_PROTECTIONS.tag, tags}}}),
        selection: only('tag-protection/unprotected-tags'),
      })
    const refused = planned('release/')
    expect(refused.projects).toEqual([])
    expect(refused.manual.map((m) => [m.why, m.reason])).toEqual([
      [
        'not-proven',
        'not planned: it could weaken what applies to branches or tags the audit did not check: the tag protection "release/" would apply ahead of the tag protection "release/9" of project acme, without its Prevent Creation, Signature Required',
      ],
    ])
    expect(edits(planned('release/1')).map(([id, op, path]) => [id, op, path])).toEqual([[2, 'add', '/tagProtections/-']])
  })

  it('servers that merge every matching protection: enabling one only adds what it asks', () => {
    const project = rawProject(1, 'acme/app', currentSetting({branchProtections: [branchProtection(), branchProtection({enabled: false, branches: '**', ...WEAK}), branchProtection({branches: 'release/*'})]}))
    const plan = planFixes(fixModel([project]), {rules: ALL_RULES, settings: settings({protectionSemantics: 'merged'}), selection: only('branch-protection/disabled-rule')})
    expect(edits(plan)).toEqual([[1, 'replace', '/branchProtections/1/enabled', true]])
  })

  it('a new tag protection ahead of a parent\'s stricter one for tags the audit did not check is not planned; as strict as it, it is', () => {
    const parent = rawProject(1, 'acme', currentSetting({tagProtections: [tagProtection({tags: 'v2*', commitSignatureRequired: true})]}))
    const child = rawProject(2, 'acme/app', currentSetting({branchProtections: [branchProtection()]}), {parentId: 1, repository: repository('main', {tags: ['v1.0']})})
    const planned = (fix?: AuditSettings['fix']) => planFixes(fixModel([child], [parent]), {rules: ALL_RULES, settings: settings(fix ? {fix} : {}), selection: only('tag-protection/unprotected-tags')})
    const refused = planned()
    expect(refused.projects).toEqual([])
    expect(refused.manual.map((m) => [m.why, m.reason])).toEqual([
      [
        'not-proven',
        'not planned: it could weaken what applies to branches or tags the audit did not check: the tag protection "v*" would apply ahead of the tag protection "v2*" of project acme, without its Prevent Creation, Signature Required',
      ],
    ])
    expect(edits(planned({...DEFAULT_NEW_PROTECTIONS, tag: {...DEFAULT_NEW_PROTECTIONS.tag, preventCreation: true, signatureRequired: true}})).map(([id, op, path]) => [id, op, path])).toEqual([[2, 'add', '/tagProtections/-']])
  })

  it('removing a protection that never applies is planned: an unchanged protection ahead of it matches every name and user it does', () => {
    const plan = planOf([branchProtection({branches: '**'}), branchProtection({branches: 'release/*', ...WEAK})], 'branch-protection/shadowed-rule')
    expect(edits(plan)).toEqual([[1, 'remove', '/branchProtections/1', undefined]])
  })
})
