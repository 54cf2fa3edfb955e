import {execFile} from 'node:child_process'
import {promisify} from 'node:util'

import {expect, it} from 'vitest'

// `npm test` builds dist/ first; the check compares every generated file with what the sources give now.
it('generated files (types, rules/index.ts, config schema, oclif manifest, docs) are up to date', async () => {
  const result = await promisify(execFile)(process.execPath, ['scripts/generate.mjs', '--check']).then(
    () => ({code: 0, stderr: ''}),
    (error: {code: number; stderr: string}) => ({code: error.code, stderr: error.stderr}),
  )
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
}, 60_000)
