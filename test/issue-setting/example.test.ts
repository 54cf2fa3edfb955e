import {readFile} from 'node:fs/promises'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {evaluate} from '../../src/engine/evaluate.js'
import type {Rule} from '../../src/engine/rule.js'
import {parseIssueSetting} from '../../src/model/issue-setting-file.js'
import {model} from '../helpers/model-builders.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'
import {ROOT} from '../helpers/cli.js'

describe('examples/issue-setting.json', () => {
  it('is a valid contract-shape workflow whose only finding is the reconciled notice', async () => {
    const {builtinRules} = await import('../../rules/index.js')
    const rules = (builtinRules as Rule[]).filter((rule) => rule.meta.scope === 'issue-setting')
    expect(rules.map((rule) => rule.meta.id).sort()).toEqual([
      'issue-setting/board-columns',
      'issue-setting/board-identify-field',
      'issue-setting/duplicate-name',
      'issue-setting/no-states',
      'issue-setting/not-reconciled',
      'issue-setting/omitted-key',
      'issue-setting/transition-any-user',
      'issue-setting/undefined-field',
      'issue-setting/undefined-state',
    ])
    const text = await readFile(join(ROOT, 'examples', 'issue-setting.json'), 'utf8')
    const parsed = parseIssueSetting(text, 'examples/issue-setting.json')
    if ('error' in parsed) throw new Error(parsed.error.message)
    expect(parsed.setting.transitions.every((t) => t.kind === 'legacy')).toBe(true)
    const {findings, errors} = evaluate(model(), rules.map((rule) => ({rule, options: {}})), DEFAULT_SETTINGS, {setting: parsed.setting, file: 'examples/issue-setting.json'})
    expect(errors).toEqual([])
    expect(findings.map((f) => `${f.ruleId} ${f.severity} ${f.pointer}`)).toEqual(['issue-setting/not-reconciled info /reconciled'])
  })
})
