/**
 * Grouped not-evaluated notices (src/report/notices.ts): every notice the group counts is said in one
 * of its lines, including one of no known family (a snapshot of a newer version, a future endpoint).
 */
import {describe, expect, it} from 'vitest'

import {noticeLine, shownNotices} from '../../src/report/notices.js'

describe('grouped notices', () => {
  it('a notice of no known family has an "other checks" line: counted and said, never dropped', () => {
    const shown = shownNotices(
      [
        {kind: 'not-evaluated', message: 'GET /settings/security: not offered', group: {families: ['access model', 'server hardening'], reason: 'not offered'}},
        {kind: 'not-evaluated', message: 'GET /settings/new-thing: not offered', group: {families: [], reason: 'not offered'}},
        {kind: 'not-evaluated', message: 'GET /settings/other-thing: another shape', group: {families: [], reason: 'answers of another shape'}},
      ],
      false,
    )
    expect(shown.map(noticeLine)).toEqual([
      'some checks were not evaluated, so none of them passed (--verbose lists the 3 notices one by one, as the JSON report does): ' +
        'access model: 1 endpoint the server does not offer; ' +
        'server hardening: 1 endpoint the server does not offer; ' +
        'other checks: 1 endpoint the server does not offer; 1 endpoint whose answers have a shape the audit does not know',
    ])
  })
})
