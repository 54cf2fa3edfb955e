/**
 * `onedev-audit access` output: the principals × capabilities table for people, and JSON
 * (schemas/access.schema.json). Server strings are escaped; nothing here holds an email or a secret.
 */
import {describePrincipalAccess} from '../onedev/access.js'
import {escapeControl} from '../util/escape.js'
import type {AccessReport} from './access-types.js'
import {incompleteLead} from './summary.js'

export type {AccessReport}

function via(capability: AccessReport['principals'][number]['capabilities'][number]): string {
  return capability.via.map((v) => (v.project === null ? v.role : `${v.role} @ ${v.project}`)).join(', ')
}

const principalLabel = describePrincipalAccess

/** A plain-text table: one row per capability, the principal named on its first row. */
export function formatAccessTable(report: AccessReport): string {
  const lines: string[] = []
  // An answer with errors says so before the table: what could not be read is missing from it.
  const lead = incompleteLead(report, 'Answer')
  if (lead !== null) lines.push(`${lead} (listed below): what could not be read (principals, memberships, grants) is missing from this table.`, '')
  const branch = report.branch === null ? 'no branch (repository not initialized)' : `branch ${escapeControl(report.branch)}`
  lines.push(`Project ${escapeControl(report.project.path)} (#${report.project.id}), ${branch}`, '')
  const rows: [string, string, string][] = [['PRINCIPAL', 'CAPABILITY', 'VIA (ROLE @ PROJECT)']]
  for (const principal of report.principals) {
    if (principal.capabilities.length === 0) rows.push([principalLabel(principal), '(nothing)', ''])
    principal.capabilities.forEach((capability, index) => rows.push([index === 0 ? principalLabel(principal) : '', capability.id, via(capability)]))
  }
  const safe = rows.map((row) => row.map(escapeControl) as [string, string, string])
  const widths = [0, 1].map((i) => Math.max(...safe.map((row) => row[i]!.length)))
  for (const row of safe) lines.push(`${row[0].padEnd(widths[0]!)}  ${row[1].padEnd(widths[1]!)}  ${row[2]}`.trimEnd())
  if (report.principals.length === 0) lines.push('(no principal matches)')
  for (const entry of report.notEvaluated) lines.push('', `not evaluated: ${entry.checks} (${entry.endpoint} answered ${entry.status})`)
  for (const error of report.errors) lines.push(`error: ${escapeControl(error)}`)
  return lines.join('\n') + '\n'
}

export function formatAccessJson(report: AccessReport): string {
  return JSON.stringify(report, null, 2) + '\n'
}
