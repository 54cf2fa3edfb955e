/**
 * The JSON report: exactly the AuditReport type (schemas/report.schema.json), with every object's
 * keys in one stable order and nothing the schema does not know.
 */
import type {AuditError} from '../model/types.js'
import type {ReportInput} from './input.js'
import {EAGER, jsonDocument, type JsonBuilder, LAZY} from './json-stream.js'
import type {AuditReport, Finding, Notice, ProjectRef, Source, SuppressedFinding} from './report-types.js'
import {safeServerUrl, summaryOf} from './summary.js'

export const REPORT_SCHEMA_URI = 'https://onedev-audit.dev/schemas/report.schema.json'

const projectRef = (ref: ProjectRef): ProjectRef => ({id: ref.id, path: ref.path})

/** Where the settings came from, as the report spells it: `server`, then `snapshot`, `file`, `collectedAt` when known. */
function originOf(source: Source): Pick<AuditReport, 'server' | 'snapshot' | 'file' | 'collectedAt'> {
  const out: Pick<AuditReport, 'server' | 'snapshot' | 'file' | 'collectedAt'> = {
    server: source.server ? {url: safeServerUrl(source.server.url), apiPrefix: source.server.apiPrefix} : null,
  }
  if (source.snapshot !== undefined) out.snapshot = source.snapshot
  if (source.file !== undefined) out.file = source.file
  if (source.collectedAt !== undefined) out.collectedAt = source.collectedAt
  return out
}

export function findingOf(finding: Finding): Finding {
  return {
    ruleId: finding.ruleId,
    severity: finding.severity,
    message: finding.message,
    project: finding.project ? projectRef(finding.project) : null,
    role: finding.role ? {id: finding.role.id, name: finding.role.name} : null,
    subject: finding.subject,
    pointer: finding.pointer,
    ...(finding.source ? {source: projectRef(finding.source)} : {}),
    ...(finding.file === undefined ? {} : {file: finding.file}),
    ...(finding.document === undefined ? {} : {document: finding.document}),
    fingerprint: finding.fingerprint,
  }
}

function suppressedOf(suppressed: SuppressedFinding): SuppressedFinding {
  const reason: SuppressedFinding['reason'] = {kind: suppressed.reason.kind}
  if (suppressed.reason.justification !== undefined) reason.justification = suppressed.reason.justification
  if (suppressed.reason.expires !== undefined) reason.expires = suppressed.reason.expires
  return {finding: findingOf(suppressed.finding), reason}
}

function errorOf(error: AuditError): AuditError {
  const out: AuditError = {kind: error.kind, message: error.message}
  if (error.project !== undefined) out.project = error.project ? projectRef(error.project) : null
  if (error.path !== undefined) out.path = error.path
  if (error.status !== undefined) out.status = error.status
  if (error.pointer !== undefined) out.pointer = error.pointer
  return out
}

const noticeOf = (notice: Notice): Notice => ({kind: notice.kind, message: notice.message})

/** The report's properties in their order, with its lists made by `list`. */
function jsonReport(input: ReportInput, {list}: JsonBuilder): Record<string, unknown> {
  return {
    $schema: REPORT_SCHEMA_URI,
    reportVersion: 1,
    tool: {name: input.tool.name, version: input.tool.version},
    generatedAt: input.generatedAt,
    ...originOf(input.source),
    complete: input.errors.length === 0,
    findings: list(input.findings, findingOf),
    suppressed: list(input.suppressed, suppressedOf),
    errors: list(input.errors, errorOf),
    notices: list(input.notices, noticeOf),
    uninitializedProjects: (input.uninitialized ?? []).map(projectRef),
    summary: summaryOf(input),
  }
}

export function buildJsonReport(input: ReportInput): AuditReport {
  return jsonReport(input, EAGER) as unknown as AuditReport
}

/** The JSON report's text in pieces, each finding serialized when it is written. */
export function jsonChunks(input: ReportInput): Iterable<string> {
  return jsonDocument(LAZY.object(jsonReport(input, LAZY)))
}
