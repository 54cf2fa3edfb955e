/**
 * The reports OneDev's own steps read (issue 27; `node bench/run.mjs --reports`, or `--reports-only`):
 * the same `--offline-projects` snapshot as the offline target, written as a folder (checkstyle names
 * its files), scanned with `--format json`, `--format checkstyle` and `--format junit` in turn (whole
 * process, spawn to exit, median of the runs; each format's ratio to the JSON scan taken pair by pair),
 * each report's size, the time --debug gives for formatting and writing it, and each format's peak RSS.
 */
import {stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {snapshotOf} from './diff.mjs'
import {buildProjects, buildRoles, buildSetting} from './simulator.mjs'

const FORMATS = ['json', 'checkstyle', 'junit']

/** `tools`: run.mjs's timeCommand, peakRssMb, median and withTempDir. */
export function reportsBench(projectCount, roleCount, runs, tools) {
  return tools.withTempDir('oda-reports-bench-', (dir) => reportsBenchIn(dir, projectCount, roleCount, runs, tools))
}

async function reportsBenchIn(dir, projectCount, roleCount, runs, {timeCommand, peakRssMb, median}) {
  const file = join(dir, 'snapshot.json')
  await writeFile(file, JSON.stringify(snapshotOf(buildProjects(projectCount), buildRoles(roleCount), buildSetting)))
  // The folder collect --output-dir writes, from that file.
  const {loadSnapshot, saveSnapshotDir} = await import('../dist/src/snapshot/snapshot.js')
  const folder = join(dir, 'onedev')
  await saveSnapshotDir(await loadSnapshot(file), folder, {name: 'onedev-audit', version: 'bench'})
  const output = (format) => join(dir, `report.${format}`)
  const scan = (format, ...extra) => ['bin/run.js', 'scan', '--snapshot', folder, '--format', format, '--output', output(format), '--fail-on', 'none', ...extra]
  const samples = Object.fromEntries(FORMATS.flatMap((format) => [[`${format}Ms`, []], [`${format}WriteMs`, []], [`${format}Ratio`, []]]))
  let findings = 0
  for (let run = 0; run < runs; run++) {
    const times = {}
    for (const format of FORMATS) {
      const measured = await timeCommand(scan(format, '--debug'))
      times[format] = measured.ms
      samples[`${format}Ms`].push(measured.ms)
      samples[`${format}WriteMs`].push(Number(/formatted and wrote the \w+ report in (\d+)ms/.exec(measured.stderr)?.[1] ?? Number.NaN))
      findings = Number(/: (\d+) findings?/.exec(measured.stderr)?.[1] ?? 0)
    }
    for (const format of FORMATS) samples[`${format}Ratio`].push(times[format] / times.json)
  }
  const result = {projects: projectCount, roles: roleCount, findings}
  for (const format of FORMATS) {
    result[format] = {
      ms: median(samples[`${format}Ms`]),
      writeMs: median(samples[`${format}WriteMs`]),
      toJson: median(samples[`${format}Ratio`]),
      mb: (await stat(output(format))).size / 1024 / 1024,
      rssMb: await peakRssMb(scan(format)),
    }
  }
  return result
}

export function reportsLines(result, runs) {
  const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`
  return [
    `OneDev's reports: scan --snapshot DIR of ${result.projects} projects and ${result.roles} roles (${result.findings} findings), whole process from spawn to exit, median of ${runs}:`,
    ...FORMATS.map((format) => {
      const r = result[format]
      return `  --format ${format.padEnd(10)} ${ms(r.ms).padEnd(10)} (${r.toJson.toFixed(2)}x json; formatting and writing ${ms(r.writeMs)})   ${r.mb.toFixed(1)} MB   peak RSS ${r.rssMb.toFixed(0)} MB`
    }),
  ]
}
