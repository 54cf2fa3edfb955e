import {describe, expect, it} from 'vitest'

import {closest, editDistance} from '../../src/util/suggest.js'

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
    expect(editDistance('scan', 'scan')).toBe(0)
    expect(editDistance('scna', 'scan')).toBe(1)
    expect(editDistance('brnches', 'branches')).toBe(1)
    expect(editDistance('branchess', 'branches')).toBe(1)
    expect(editDistance('brunches', 'branches')).toBe(1)
    expect(editDistance('', 'fix')).toBe(3)
    expect(editDistance('collect', 'scan')).toBe(7)
  })
})

describe('closest', () => {
  const commands = ['access', 'collect', 'diff', 'fix', 'issue-setting lint', 'rules', 'rules show', 'scan']

  it('names the candidate a slip of the keyboard was meant to be', () => {
    expect(closest('scna', commands)).toBe('scan')
    expect(closest('rule', commands)).toBe('rules')
    expect(closest('RULES', commands)).toBe('rules')
    expect(closest('issue-setting lnt', commands)).toBe('issue-setting lint')
    expect(closest('brnches', ['rules', 'branches', 'tags'])).toBe('branches')
  })

  it('names none when nothing is close: a third of the word may differ, at least one letter, at most three', () => {
    expect(closest('frobnicate', commands)).toBeUndefined()
    expect(closest('sc', commands)).toBeUndefined()
    expect(closest('xyz', commands)).toBeUndefined()
    expect(closest('fx', commands)).toBe('fix')
    expect(closest('issue-settings-lint-x', commands)).toBeUndefined()
  })
})
