import {describe, expect, it} from 'vitest'

import rule from '../../../rules/branch-protection/disabled-rule.js'
import {model, project} from '../../helpers/model-builders.js'
import {ruleTester, runRule} from '../../helpers/rule-tester.js'

ruleTester(rule, {
  valid: [
    {name: 'all enabled', model: model({projects: [project({branchProtections: [{}, {branches: '**'}]})]})},
    {
      name: 'a disabled protection of an ancestor is not the child’s finding',
      model: model({projects: [project({id: 71, parentId: 70})], ancestors: [project({id: 70, branchProtections: [{enabled: false}]})]}),
    },
  ],
  invalid: [
    {
      name: 'disabled protection',
      model: model({projects: [project({branchProtections: [{}, {branches: 'release/**', enabled: false}]})]}),
      findings: [{subject: 'release/**', severity: 'info', pointer: '/branchProtections/1/enabled', messageIncludes: 'is disabled, so OneDev skips it'}],
    },
  ],
})

describe('branch-protection/disabled-rule fingerprints', () => {
  const disabled = (protections: Array<Record<string, unknown>>) => runRule(rule, {name: '', model: model({projects: [project({id: 5, path: 'acme/app', branchProtections: protections})]})})

  it('two disabled protections with the same branches stay distinct', () => {
    const findings = disabled([{enabled: false}, {enabled: false}])
    expect(findings.map((f) => f.pointer).sort()).toEqual(['/branchProtections/0/enabled', '/branchProtections/1/enabled'])
    expect(new Set(findings.map((f) => f.fingerprint)).size).toBe(2)
  })

  it('a disabled protection is known by its branches and user match, not by its position', () => {
    const [before] = disabled([{}, {branches: 'release/**', enabled: false}])
    const after = disabled([{branches: 'hotfix/**'}, {}, {branches: 'release/**', userMatch: 'user(bot)', enabled: false}, {branches: 'release/**', enabled: false}])
    expect(after.map((f) => f.pointer)).toContain('/branchProtections/3/enabled')
    expect(after.find((f) => f.pointer === '/branchProtections/3/enabled')!.fingerprint).toBe(before!.fingerprint)
    expect(after.find((f) => f.pointer === '/branchProtections/2/enabled')!.fingerprint).not.toBe(before!.fingerprint)
  })
})
