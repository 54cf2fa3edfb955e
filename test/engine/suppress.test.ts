import {describe, expect, it} from 'vitest'

import type {Finding} from '../../src/engine/rule.js'
import {applyBaseline, applySuppressions, baselineOf} from '../../src/engine/suppress.js'

function finding(overrides: Partial<Finding>): Finding {
  return {
    ruleId: 'notification/insecure-webhook',
    severity: 'medium',
    message: 'm',
    project: {id: 1, path: 'acme/app'},
    role: null,
    subject: 'ci.internal',
    pointer: '/webHooks/0',
    fingerprint: 'fp-1',
    ...overrides,
  }
}

describe('suppressions', () => {
  const a = finding({})
  const b = finding({project: {id: 2, path: 'other/app'}, fingerprint: 'fp-2'})
  const role = finding({ruleId: 'role/over-privileged', project: null, role: {id: 3, name: 'Ops'}, subject: 'Ops', fingerprint: 'fp-3'})

  it('suppresses by rule, project pattern and subject, keeping the justification', () => {
    const out = applySuppressions([a, b], [{rule: 'notification/*', project: 'acme/**', subject: 'ci.*', justification: 'internal only'}], '2026-11-22')
    expect(out.findings).toEqual([b])
    expect(out.suppressed).toEqual([{finding: a, reason: {kind: 'suppression', justification: 'internal only'}}])
    expect(out.notices).toEqual([])
  })

  it('a suppression with a project never matches a role finding', () => {
    const out = applySuppressions([role], [{rule: 'role/over-privileged', project: '**', justification: 'x'}], '2026-11-22')
    expect(out.findings).toEqual([role])
    expect(out.notices.map((n) => n.kind)).toEqual(['suppression-unused'])
  })

  it('is valid through its expiry day, then stops suppressing and is reported', () => {
    const s = [{rule: 'notification/insecure-webhook', justification: 'until the migration', expires: '2026-11-22'}]
    expect(applySuppressions([a], s, '2026-11-22').findings).toEqual([])
    const after = applySuppressions([a], s, '2026-11-23')
    expect(after.findings).toEqual([a])
    expect(after.notices).toEqual([
      {kind: 'suppression-expired', message: 'suppression #1 (rule notification/insecure-webhook) expired on 2026-11-22: its findings are reported again'},
    ])
  })

  it('reports a suppression that matched nothing as unused', () => {
    const out = applySuppressions([a], [{rule: 'job-secret/broad-branches', subject: 'npm-token', justification: 'x'}], '2026-11-22')
    expect(out.notices).toEqual([
      {kind: 'suppression-unused', message: 'suppression #1 (rule job-secret/broad-branches, subject npm-token) matched no finding: remove it if the problem is fixed'},
    ])
  })
})

describe('baseline', () => {
  it('keeps only new findings and marks the rest as baselined', () => {
    const old = finding({})
    const fresh = finding({fingerprint: 'fp-new', subject: 'new.host'})
    const out = applyBaseline({findings: [old, fresh], suppressed: [], notices: []}, new Set(['fp-1']))
    expect(out.findings).toEqual([fresh])
    expect(out.suppressed).toEqual([{finding: old, reason: {kind: 'baseline'}}])
  })

  it('is written sorted and without duplicates', () => {
    const base = baselineOf([finding({fingerprint: 'b', subject: 'z'}), finding({fingerprint: 'a', subject: 'a'}), finding({fingerprint: 'a', subject: 'a'})])
    expect(base).toEqual({
      baselineVersion: 2,
      findings: [
        {fingerprint: 'a', ruleId: 'notification/insecure-webhook', project: 'acme/app', subject: 'a'},
        {fingerprint: 'b', ruleId: 'notification/insecure-webhook', project: 'acme/app', subject: 'z'},
      ],
    })
  })
})
