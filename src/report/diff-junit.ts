/**
 * `diff --format junit`: what weakened since the last audit as test results for OneDev's JUnit Report
 * step (junit-xml.ts says what OneDev reads). One suite `weakened` with a failed case per weakening: each
 * weakened setting (named by where it is, what it is and which aspect changed, for whom) and each new
 * finding (named by where it is, its rule and subject); and the suite `audit` whose case `complete` is an
 * error when either side is incomplete. Strengthened and neutral changes are not tests: the other
 * formats list them.
 */
import type {Change} from '../diff/diff-types.js'
import type {Finding} from '../types/report-types.js'
import {type DiffReportInput, weakenedChanges} from './diff-input.js'
import {AUDIT_SUITE, completeCase} from './junit.js'
import {type JunitCase, junitDocument} from './junit-xml.js'
import {messageOf, subjectOf} from './stylish.js'

export const WEAKENED_SUITE = 'weakened'

function where(item: {project: {path: string} | null; role: {name: string} | null}): string {
  return item.project ? item.project.path : item.role ? `role ${item.role.name}` : 'server'
}

function changeCase(change: Change): JunitCase {
  const whom = change.principals && change.principals.length > 0 ? ` (${change.principals.join(', ')})` : ''
  const severity = change.severity ?? 'info'
  return {
    name: `${where(change)}: ${change.kind} ${change.subject}: ${change.aspect}${whom}`,
    outcome: {
      kind: 'failure',
      message: change.message,
      text: () => [
        `weakened (${severity}): ${change.message}`,
        `before: ${change.before ?? '(none)'}`,
        `after: ${change.after ?? '(none)'}`,
        ...(change.ruleId ? [`rule: ${change.ruleId}`] : []),
      ],
    },
  }
}

function newFindingCase(finding: Finding): JunitCase {
  return {
    name: `${where(finding)}: ${finding.ruleId} ${subjectOf(finding)}`,
    outcome: {kind: 'failure', message: `new ${finding.severity} finding`, text: () => [`new ${finding.severity} finding: ${messageOf(finding)}`, `rule: ${finding.ruleId}`]},
  }
}

export function diffJunitChunks(input: DiffReportInput): Iterable<string> {
  const {result} = input
  const errors = result.errors.map((error) => `${error.side.toUpperCase()}: ${error.path ?? error.project?.path ?? ''}${error.path ?? error.project ? ': ' : ''}${error.message}`)
  return junitDocument(input.tool.name, [
    {name: WEAKENED_SUITE, cases: [...weakenedChanges(result.changes).map(changeCase), ...result.findings.new.map(newFindingCase)]},
    {name: AUDIT_SUITE, cases: [completeCase(errors)]},
  ])
}
