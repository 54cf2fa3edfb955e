/**
 * An ESLint-style rule tester: a table of cases where a rule must stay silent (`valid`) and cases
 * where it must report exactly the given findings (`invalid`). Each case is one vitest test.
 *
 *   ruleTester(rule, {
 *     valid: [{name: 'protected main', model: model({projects: [project({branchProtections: [{}]})]})}],
 *     invalid: [{name: 'no protection', model: model({projects: [project()]}),
 *                findings: [{subject: 'main', severity: 'high', pointer: '/branchProtections'}]}],
 *   })
 *
 * Expected findings are matched on the fields given (subject, severity, pointer, message substring
 * via `messageIncludes`, source project id), in order. Every case also checks that each finding's
 * pointer resolves in the payload it points into.
 */
import {describe, expect, it} from 'vitest'

import {type ActiveRule, evaluate} from '../../src/engine/evaluate.js'
import type {AuditSettings, Finding, Rule, Severity} from '../../src/engine/rule.js'
import type {IssueSetting} from '../../src/model/issue-setting.js'
import type {AuditModel} from '../../src/model/types.js'

export const DEFAULT_SETTINGS: AuditSettings = {
  branches: ['main'],
  tags: ['v1.0.0'],
  allowedAdminRoles: ['Project Owner'],
  protectionSemantics: 'first-match',
}

export interface RuleCase {
  name: string
  model: AuditModel
  settings?: Partial<AuditSettings>
  options?: Record<string, unknown>
  issueSetting?: IssueSetting
}

export interface ExpectedFinding {
  subject?: string
  severity?: Severity
  pointer?: string
  messageIncludes?: string | string[]
  /** id of the ancestor project whose setting decides, or null when it is the project's own */
  sourceId?: number | null
  projectId?: number
  roleName?: string
}

export interface InvalidCase extends RuleCase {
  findings: ExpectedFinding[]
}

/** Resolve an RFC 6901 pointer; undefined when it does not resolve. */
export function resolve(document: unknown, pointer: string): unknown {
  if (pointer === '') return document
  let current: any = document
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~')
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key)) return undefined
    current = current[key]
  }
  return current
}

export function runRule(rule: Rule<any>, testCase: RuleCase): Finding[] {
  const options = {...(rule.meta.defaultOptions ?? {}), ...(testCase.options ?? {})}
  const active: ActiveRule = {rule, options}
  const settings = {...DEFAULT_SETTINGS, ...(testCase.settings ?? {})}
  const issueSetting = testCase.issueSetting ? {setting: testCase.issueSetting, file: 'issue-setting.json'} : undefined
  const {findings, errors} = evaluate(testCase.model, [active], settings, issueSetting)
  expect(errors, 'the rule threw').toEqual([])
  return findings
}

/** The document a finding's pointer refers to. */
export function documentOf(finding: Finding, testCase: RuleCase): unknown {
  if (finding.document === 'server') return testCase.model.serverData
  if (finding.file !== undefined) return testCase.issueSetting?.raw
  if (finding.document === 'server') return testCase.model.serverData
  if (finding.role) return testCase.model.roles.find((r) => r.id === finding.role!.id)?.raw
  const projectId = finding.source?.id ?? finding.project?.id
  return projectId === undefined ? undefined : testCase.model.projectsById.get(projectId)?.raw
}

export function expectPointersResolve(findings: Finding[], testCase: RuleCase): void {
  for (const finding of findings) {
    expect(resolve(documentOf(finding, testCase), finding.pointer), `pointer ${finding.pointer} of ${finding.ruleId} resolves`).not.toBeUndefined()
  }
}

export function ruleTester(rule: Rule<any>, cases: {valid: RuleCase[]; invalid: InvalidCase[]}): void {
  describe(rule.meta.id, () => {
    for (const testCase of cases.valid) {
      it(`stays silent: ${testCase.name}`, () => {
        expect(runRule(rule, testCase).map((f) => `${f.subject}: ${f.message}`)).toEqual([])
      })
    }
    for (const testCase of cases.invalid) {
      it(`reports: ${testCase.name}`, () => {
        const findings = runRule(rule, testCase)
        expect(findings.map((f) => f.subject), 'subjects').toEqual(testCase.findings.map((f, i) => f.subject ?? findings[i]?.subject))
        testCase.findings.forEach((expected, i) => {
          const actual = findings[i]!
          if (expected.severity) expect(actual.severity, `severity of finding ${i}`).toBe(expected.severity)
          if (expected.pointer !== undefined) expect(actual.pointer, `pointer of finding ${i}`).toBe(expected.pointer)
          if (expected.sourceId !== undefined) expect(actual.source?.id ?? null, `source of finding ${i}`).toBe(expected.sourceId)
          if (expected.projectId !== undefined) expect(actual.project?.id, `project of finding ${i}`).toBe(expected.projectId)
          if (expected.roleName !== undefined) expect(actual.role?.name, `role of finding ${i}`).toBe(expected.roleName)
          for (const part of [expected.messageIncludes ?? []].flat()) expect(actual.message).toContain(part)
        })
        expectPointersResolve(findings, testCase)
      })
    }
  })
}
