/**
 * The judgement of a change by its findings (src/fix/proof.ts), as planning and verification make it:
 * a finding that appears must be explained by the change itself, never by its being about the same
 * branch in the same rule area as one it clears (issue 25: a protection switched off inside the
 * force-push change made the branch "unprotected", and that passed as part of the gap it closed).
 */
import {describe, expect, it} from 'vitest'

import type {Finding} from '../../src/engine/rule.js'
import {judgeChange} from '../../src/fix/proof.js'

const project = {id: 2, path: 'acme/app'}

function finding(ruleId: string, subject: string, fields: Partial<Finding> = {}): Finding {
  return {ruleId, severity: 'low', message: `${ruleId} on ${subject}`, project, role: null, subject, pointer: '/branchProtections/0', fingerprint: `${ruleId}|${subject}|${fields.pointer ?? ''}`, ...fields}
}

describe('judgeChange', () => {
  const forcePush = finding('branch-protection/force-push-allowed', 'main')

  it('refuses a finding of another rule about the same branch in the same area: the branch made unprotected is not the force-push gap closed', () => {
    const unprotected = finding('branch-protection/unprotected-branch', 'main', {severity: 'high'})
    expect(judgeChange([forcePush], [unprotected], [forcePush.fingerprint])).toEqual({
      reason: 'it makes branch-protection/unprotected-branch report "main" (branch-protection/unprotected-branch on main)',
    })
  })

  it('accepts the same finding keyed anew (the same rule, subject and project, no more severe): a URL moved to https:// changes the fingerprint of a finding about it', () => {
    const before = finding('notification/credentials-in-url', 'ntfy.example.com', {severity: 'high', fingerprint: 'http-url'})
    const after = finding('notification/credentials-in-url', 'ntfy.example.com', {severity: 'high', fingerprint: 'https-url'})
    const insecure = finding('notification/insecure-webhook', 'ntfy.example.com', {severity: 'medium'})
    expect(judgeChange([before, insecure], [after], [insecure.fingerprint])).toEqual({cleared: [before, insecure], revealed: [after]})
  })

  it('refuses the same rule on the same subject when it comes back more severe, or in another project', () => {
    const worse = finding('branch-protection/force-push-allowed', 'main', {severity: 'high', fingerprint: 'worse'})
    expect(judgeChange([forcePush], [worse], [forcePush.fingerprint])).toHaveProperty('reason')
    const elsewhere = finding('branch-protection/force-push-allowed', 'main', {project: {id: 3, path: 'legacy/tool'}, fingerprint: 'elsewhere'})
    expect(judgeChange([forcePush], [elsewhere], [forcePush.fingerprint])).toHaveProperty('reason')
  })

  it('accepts a finding about an item the change adds (a new protection asks for no reviewers)', () => {
    const unprotected = finding('branch-protection/unprotected-branch', 'main', {severity: 'high'})
    const noReviews = finding('branch-protection/review-not-required', 'main', {pointer: '/branchProtections/1'})
    expect(judgeChange([unprotected], [noReviews], [unprotected.fingerprint], {holder: 2, paths: ['/branchProtections/1']})).toEqual({cleared: [unprotected], revealed: [noReviews]})
  })
})
