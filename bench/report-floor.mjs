#!/usr/bin/env node
/**
 * The floor of any tool that reads the offline snapshot and writes a report of the offline scan's size
 * (issue 28: "the best bare alternative"): read the snapshot and JSON.parse it, make `FINDINGS` findings
 * of the JSON report's shape (ruleId, severity, message, project, role, subject, pointer, fingerprint)
 * from its projects, and JSON.stringify the report (pretty, as the scan writes it) into OUT, `BYTES`
 * long give or take one byte per finding. Nothing judged, redacted, validated, sorted or hashed.
 *
 *   node bench/report-floor.mjs SNAPSHOT OUT FINDINGS BYTES
 */
import {readFileSync, writeFileSync} from 'node:fs'

const [file, out, findingCount, bytes] = [process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5])]
const snapshot = JSON.parse(readFileSync(file, 'utf8'))
const projects = snapshot.projects
const finding = (i, message, project = projects[i % projects.length]) => ({
  ruleId: 'branch-protection/review-not-required',
  severity: 'high',
  message,
  project: {id: project.id, path: project.path},
  role: null,
  subject: 'main',
  pointer: `/branchProtections/${i % 7}/reviewRequirement`,
  fingerprint: ((i * 2654435761) >>> 0).toString(16).padStart(32, '0'),
})
const report = (findings) => ({reportVersion: 1, server: snapshot.server, findings})
// The message length that makes the text BYTES long, from the sizes of two tiny reports (no stringify of the whole twice).
const blank = {id: 0, path: ''}
const one = JSON.stringify(report([finding(0, '', blank)]), null, 2).length
const each = JSON.stringify(report([finding(0, '', blank), finding(0, '', blank)]), null, 2).length - one
let varying = 0
for (let i = 0; i < findingCount; i++) {
  const project = projects[i % projects.length]
  varying += project.path.length + String(project.id).length - 1
}
const length = Math.max(0, Math.round((bytes - 1 - one - (findingCount - 1) * each - varying) / findingCount))
const message = 'Changes can reach branch main without review: '.padEnd(length, '.').slice(0, length)
const findings = []
for (let i = 0; i < findingCount; i++) findings.push(finding(i, message))
writeFileSync(out, `${JSON.stringify(report(findings), null, 2)}\n`)
