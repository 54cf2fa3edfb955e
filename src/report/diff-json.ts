/** The diff's JSON report: exactly DiffReport (schemas/diff.schema.json), keys in a stable order. */
import type {Change, DiffReport, Side, SideError} from '../diff/diff-types.js'
import {diffSummary, type DiffReportInput} from './diff-input.js'
import {findingOf} from './json.js'
import {safeServerUrl} from '../util/server-url.js'

export const DIFF_SCHEMA_URI = 'https://onedev-audit.dev/schemas/diff.schema.json'

function sideOf(side: Side): Side {
  const out: Side = {server: side.server ? {url: safeServerUrl(side.server.url), apiPrefix: side.server.apiPrefix, version: side.server.version ?? null} : null}
  if (side.snapshot !== undefined) out.snapshot = side.snapshot
  if (side.collectedAt !== undefined) out.collectedAt = side.collectedAt
  if (side.projects !== undefined) out.projects = side.projects
  if (side.roles !== undefined) out.roles = side.roles
  return out
}

function errorOf(error: SideError): SideError {
  const out: SideError = {side: error.side, kind: error.kind, message: error.message}
  if (error.project !== undefined) out.project = error.project ? {id: error.project.id, path: error.project.path} : null
  if (error.path !== undefined) out.path = error.path
  if (error.status !== undefined) out.status = error.status
  if (error.pointer !== undefined) out.pointer = error.pointer
  return out
}

function changeOf(change: Change): Change {
  return {
    kind: change.kind,
    change: change.change,
    classification: change.classification,
    ...(change.severity === undefined ? {} : {severity: change.severity}),
    ...(change.ruleId === undefined ? {} : {ruleId: change.ruleId}),
    project: change.project ? {id: change.project.id, path: change.project.path} : null,
    role: change.role ? {id: change.role.id, name: change.role.name} : null,
    subject: change.subject,
    aspect: change.aspect,
    ...(change.principals === undefined ? {} : {principals: [...change.principals]}),
    before: change.before,
    after: change.after,
    message: change.message,
    id: change.id,
  }
}

export function buildDiffJson(input: DiffReportInput): DiffReport {
  const {result} = input
  return {
    $schema: DIFF_SCHEMA_URI,
    diffVersion: 1,
    tool: {name: input.tool.name, version: input.tool.version},
    generatedAt: input.generatedAt,
    old: sideOf(input.old),
    new: sideOf(input.new),
    complete: result.errors.length === 0,
    changes: result.changes.map(changeOf),
    findings: {
      new: result.findings.new.map(findingOf),
      fixed: result.findings.fixed.map(findingOf),
      unchanged: result.findings.unchanged.map(findingOf),
    },
    errors: result.errors.map(errorOf),
    notices: result.notices.map((n) => ({kind: n.kind, message: n.message})),
    summary: diffSummary(result),
  }
}

export function formatDiffJson(input: DiffReportInput): string {
  return `${JSON.stringify(buildDiffJson(input), null, 2)}\n`
}
