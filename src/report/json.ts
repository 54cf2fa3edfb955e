/**
 * The JSON report: exactly the AuditReport type (schemas/report.schema.json), with every object's
 * keys in one stable order and nothing the schema does not know.
 */
import type {AuditError} from '../model/types.js'
import type {ReportInput} from './input.js'
import {EAGER, indentOf, jsonDocument, type JsonBuilder, jsonNumber, jsonString, LAZY} from './json-stream.js'
import type {AuditReport, ComplianceControl, Finding, Notice, ProjectRef, Source, SuppressedFinding} from '../types/report-types.js'
import {summaryOf} from './summary.js'
import {safeServerUrl} from '../util/server-url.js'

export const REPORT_SCHEMA_URI = 'https://onedev-audit.dev/schemas/report.schema.json'

const projectRef = (ref: ProjectRef): ProjectRef => ({id: ref.id, path: ref.path})

/** Where the settings came from, as the report spells it: `server`, then `snapshot`, `file`, `collectedAt` when known. */
function originOf(source: Source): Pick<AuditReport, 'server' | 'snapshot' | 'file' | 'collectedAt'> {
  const out: Pick<AuditReport, 'server' | 'snapshot' | 'file' | 'collectedAt'> = {
    // The version the audit judged by: null when it is unknown (not read, or a snapshot that predates it).
    server: source.server ? {url: safeServerUrl(source.server.url), apiPrefix: source.server.apiPrefix, version: source.server.version ?? null} : null,
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

const isRef = (ref: unknown, name: 'path' | 'name'): ref is Record<string, unknown> =>
  ref !== null && typeof ref === 'object' && typeof (ref as Record<string, unknown>).id === 'number' && typeof (ref as Record<string, unknown>)[name] === 'string'

/**
 * The text JSON.stringify gives `findingOf(finding)` at `depth` of a pretty-printed document, written
 * by hand (53,594 findings: about a third less time than serializing each object); undefined when
 * a field is not of its usual type (then the object is serialized).
 */
export function findingText(finding: Finding, depth: number): string | undefined {
  const {ruleId, severity, message, project, role, subject, pointer, source, file, document, fingerprint} = finding
  if (typeof ruleId !== 'string' || typeof severity !== 'string' || typeof message !== 'string' || typeof subject !== 'string') return undefined
  if (typeof pointer !== 'string' || typeof fingerprint !== 'string') return undefined
  if ((project !== null && !isRef(project, 'path')) || (role !== null && !isRef(role, 'name')) || (source && !isRef(source, 'path'))) return undefined
  if ((file !== undefined && typeof file !== 'string') || (document !== undefined && typeof document !== 'string')) return undefined
  const end = indentOf(depth)
  const at = indentOf(depth + 1)
  const inner = indentOf(depth + 2)
  const ref = (r: {id: number; path?: string; name?: string}, key: 'path' | 'name') =>
    `{${inner}"id": ${jsonNumber(r.id)},${inner}"${key}": ${jsonString(r[key]!)}${at}}`
  let text =
    `{${at}"ruleId": ${jsonString(ruleId)},${at}"severity": ${jsonString(severity)},${at}"message": ${jsonString(message)},` +
    `${at}"project": ${project ? ref(project, 'path') : 'null'},${at}"role": ${role ? ref(role, 'name') : 'null'},` +
    `${at}"subject": ${jsonString(subject)},${at}"pointer": ${jsonString(pointer)},`
  if (source) text += `${at}"source": ${ref(source, 'path')},`
  if (file !== undefined) text += `${at}"file": ${jsonString(file)},`
  if (document !== undefined) text += `${at}"document": ${jsonString(document)},`
  text = `${text}${at}"fingerprint": ${jsonString(fingerprint)}${end}}`
  text.charCodeAt(0)
  return text
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
  if (error.rule !== undefined) out.rule = error.rule
  return out
}

const noticeOf = (notice: Notice): Notice => ({kind: notice.kind, message: notice.message})

/** The report's properties in their order, with its lists made by `list`. */
function jsonReport(input: ReportInput, {list, object}: JsonBuilder): Record<string, unknown> {
  // A control that a whole large server fails lists thousands of projects: written one by one.
  const controlOf = (control: ComplianceControl) => object({...control, projects: list(control.projects, projectRef)})
  return {
    $schema: REPORT_SCHEMA_URI,
    reportVersion: 1,
    tool: {name: input.tool.name, version: input.tool.version},
    generatedAt: input.generatedAt,
    ...originOf(input.source),
    complete: input.errors.length === 0,
    findings: list(input.findings, findingOf, findingText),
    suppressed: list(input.suppressed, suppressedOf),
    errors: list(input.errors, errorOf),
    notices: list(input.notices, noticeOf),
    uninitializedProjects: (input.uninitialized ?? []).map(projectRef),
    summary: summaryOf(input),
    ...(input.compliance ? {compliance: list(input.compliance, (framework) => object({...framework, controls: list(framework.controls, controlOf)}))} : {}),
  }
}

export function buildJsonReport(input: ReportInput): AuditReport {
  return jsonReport(input, EAGER) as unknown as AuditReport
}

/** The JSON report's text in pieces, each finding serialized when it is written. */
export function jsonChunks(input: ReportInput): Iterable<string> {
  return jsonDocument(LAZY.object(jsonReport(input, LAZY)))
}
