/**
 * The engine's part of a fingerprint: rule, server, owner, subject and key, and the order among
 * findings identical in all of those. (What rules put in subject and key is tested by the property
 * tests in test/rules/fingerprints.test.ts.)
 */
import {describe, expect, it} from 'vitest'

import {evaluate, fingerprintOf} from '../../src/engine/evaluate.js'
import {defineRule, type FindingDraft} from '../../src/engine/rule.js'
import {model, project, role} from '../helpers/model-builders.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'

/** A rule reporting the drafts it is given, on every target of its scope. */
function reporting(scope: 'project' | 'role', drafts: Array<Pick<FindingDraft, 'subject' | 'key'>>) {
  return defineRule({
    meta: {id: 'test/reporting', shortDescription: '', fullDescription: '', help: '', defaultSeverity: 'low', tags: [], scope},
    check: (context) => (context.scope === scope ? drafts.map((d) => ({...d, pointer: '', message: d.subject})) : []),
  })
}

const run = (rule: ReturnType<typeof reporting>, m: ReturnType<typeof model>) =>
  evaluate({...m, server: {url: 'https://onedev.example.com', apiPrefix: '/~api'}}, [{rule, options: {}}], DEFAULT_SETTINGS).findings
const identity = (owner: string, draft: Pick<FindingDraft, 'subject' | 'key'>) => ({ruleId: 'test/reporting', server: 'onedev.example.com', owner, ...draft})

describe('fingerprintOf', () => {
  it('is what it was before identities replaced positions, for a finding without a twin (alerts and baselines of it stay)', () => {
    // Values of the previous release.
    expect(fingerprintOf({ruleId: 'branch-protection/force-push-allowed', server: 'onedev.example.com', owner: 'project:acme/app', subject: 'main'})).toBe('d7c13ad37714f7dc5c81e4918ae9276b')
    expect(fingerprintOf({ruleId: 'job-secret/broad-branches', server: 'onedev.example.com', owner: 'project:acme/app', subject: 'npm-token', key: 'from:acme'})).toBe('a989d61f1b99ddbf9bb403aab7156161')
    expect(fingerprintOf({ruleId: 'r', server: 's', owner: 'o', subject: 'x', occurrence: 1})).toBe(fingerprintOf({ruleId: 'r', server: 's', owner: 'o', subject: 'x'}))
  })
})

describe('identical findings', () => {
  it('of one rule on one target are told apart by their order among themselves; the first keeps the fingerprint it has alone', () => {
    const hook = {subject: 'hook.example.com', key: 'k'}
    const alone = run(reporting('project', [hook]), model({projects: [project({id: 1, path: 'acme/app'})]}))
    const three = run(reporting('project', [hook, {subject: 'other'}, hook, hook]), model({projects: [project({id: 1, path: 'acme/app'})]}))
    const prints = three.filter((f) => f.subject === 'hook.example.com').map((f) => f.fingerprint)
    const base = identity('project:acme/app', hook)
    expect(alone.map((f) => f.fingerprint)).toEqual([fingerprintOf(base)])
    expect(prints.sort()).toEqual([fingerprintOf(base), fingerprintOf({...base, occurrence: 2}), fingerprintOf({...base, occurrence: 3})].sort())
  })

  it('of two roles with the same name, or two projects with the same path, get distinct fingerprints', () => {
    const roles = run(reporting('role', [{subject: 'Ops'}]), model({roles: [role({id: 1, name: 'Ops'}), role({id: 2, name: 'Ops'}), role({id: 3, name: 'Dev'})]}))
    expect(new Set(roles.map((f) => f.fingerprint)).size).toBe(3)
    const projects = run(reporting('project', [{subject: 'main'}]), model({projects: [project({id: 1, path: 'acme/app'}), project({id: 2, path: 'acme/app'})]}))
    expect(new Set(projects.map((f) => f.fingerprint)).size).toBe(2)
  })

  it('are only those with the same subject, key and owner: the others are not numbered', () => {
    const drafts = [{subject: 'a'}, {subject: 'a', key: 'x'}, {subject: 'b'}]
    const findings = run(reporting('project', drafts), model({projects: [project({id: 1, path: 'acme/app'}), project({id: 2, path: 'acme/lib'})]}))
    const expected = ['project:acme/app', 'project:acme/lib'].flatMap((owner) => drafts.map((d) => fingerprintOf(identity(owner, d))))
    expect(findings.map((f) => f.fingerprint).sort()).toEqual(expected.sort())
  })
})
