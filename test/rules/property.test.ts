/**
 * Every built-in rule, fed random settings of both payload generations through the real ingest
 * (./arbitraries.ts: random hierarchies, pattern sets, userMatch and job-match expressions, plus junk
 * where the server is hostile): no rule throws, every finding's pointer resolves in the payload it points into, and no
 * planted secret reaches a finding.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {evaluate} from '../../src/engine/evaluate.js'
import {resolvePointer} from '../../src/model/pointer.js'
import {builtinRules} from '../../rules/index.js'
import {expectNoCanary} from '../helpers/canaries.js'
import {modelOf, settingsOf, world} from './arbitraries.js'

const rules = builtinRules

describe('every built-in rule on random settings', () => {
  it('never throws, points into the payload, and leaks no secret', async () => {
    const active = rules.map((rule) => ({rule, options: {...(rule.meta.defaultOptions ?? {})}}))
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const model = await modelOf(w)
        const {findings, errors} = evaluate(model, active, settingsOf(w))
        expect(errors).toEqual([])
        for (const f of findings) {
          const owner = f.role ? model.roles.find((r) => r.id === f.role!.id)?.raw : model.projectsById.get(f.source?.id ?? f.project!.id)?.raw
          expect(resolvePointer(owner, f.pointer), `${f.ruleId} ${f.pointer}`).not.toBeUndefined()
        }
        expectNoCanary(JSON.stringify(findings))
      }),
      {numRuns: 500},
    )
  })
})
