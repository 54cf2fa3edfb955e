/**
 * The diff measurement (`node bench/run.mjs --diff`, or `--diff-only`): two snapshots of
 * `--offline-projects` projects built from the simulator's settings, the second with 1 % of the
 * projects changed (a force push allowed, a job secret widened, a web hook's secret removed, one
 * project renamed), compared by `onedev-audit diff OLD NEW --format json` in a fresh process, against
 * a plain `scan --snapshot OLD --format json` of one of them. Wall time from spawn to exit (median of
 * the runs, alternating) and peak RSS from GNU time, both measured by run.mjs's own helpers.
 */
import {readFile, stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {buildProjects, buildRoles, buildSetting} from './simulator.mjs'

/** A snapshot of these projects and roles, each project's setting made by `settingOf` (also bench/html.mjs). */
export function snapshotOf(projects, roles, settingOf) {
  return {
    snapshotVersion: 1,
    tool: {name: 'onedev-audit', version: 'bench'},
    server: {url: 'https://onedev.example.com', apiPrefix: '/~api'},
    collectedAt: new Date().toISOString(),
    projects: projects.map((p) => ({id: p.id, path: p.path, name: p.name, parentId: p.parentId, audited: true, setting: settingOf(p)})),
    roles,
    errors: [],
  }
}

/** One project in a hundred changed, each in a way the diff must judge. */
function changed(project) {
  const setting = buildSetting(project)
  if (project.id % 100 !== 20) return setting
  if (setting.branchProtections[0]) setting.branchProtections[0].preventForcedPush = false
  setting.buildSetting.jobSecrets[0].authorization = 'on branch "**"'
  for (const hook of setting.webHooks) hook.secret = null
  return setting
}

/**
 * `tools`: run.mjs's timeCommand (spawn to exit, with stderr), peakRssMb (GNU time), median and
 * withTempDir (both snapshots and the reports are removed afterwards).
 */
export function diffBench(projectCount, roleCount, runs, tools) {
  return tools.withTempDir('oda-diff-bench-', (dir) => diffBenchIn(dir, projectCount, roleCount, runs, tools))
}

async function diffBenchIn(dir, projectCount, roleCount, runs, {timeCommand, peakRssMb, median}) {
  const projects = buildProjects(projectCount)
  const roles = buildRoles(roleCount)
  const oldFile = join(dir, 'old.json')
  const newFile = join(dir, 'new.json')
  await writeFile(oldFile, JSON.stringify(snapshotOf(projects, roles, buildSetting)))
  const renamed = projects.map((p) => (p.id === 17 ? {...p, path: `${p.path}-renamed`} : p))
  await writeFile(newFile, JSON.stringify(snapshotOf(renamed, roles, changed)))
  const scan = ['bin/run.js', 'scan', '--snapshot', oldFile, '--format', 'json', '--output', join(dir, 'scan.json'), '--fail-on', 'none']
  const diff = ['bin/run.js', 'diff', oldFile, newFile, '--format', 'json', '--output', join(dir, 'diff.json'), '--fail-on', 'none']
  const samples = {scanMs: [], diffMs: [], compareMs: []}
  for (let i = 0; i < runs; i++) {
    samples.scanMs.push((await timeCommand(scan)).ms)
    const measured = await timeCommand([...diff, '--debug'])
    samples.diffMs.push(measured.ms)
    samples.compareMs.push(Number(/compared: .* in (\d+)ms/.exec(measured.stderr)?.[1] ?? Number.NaN))
  }
  const report = JSON.parse(await readFile(join(dir, 'diff.json'), 'utf8'))
  return {
    projects: projectCount,
    roles: roleCount,
    changedProjects: projects.filter((p) => p.id % 100 === 20).length + 1,
    snapshotMb: (await stat(oldFile)).size / 1024 / 1024,
    scanMs: median(samples.scanMs),
    diffMs: median(samples.diffMs),
    compareMs: median(samples.compareMs),
    scanRssMb: await peakRssMb(scan),
    diffRssMb: await peakRssMb(diff),
    changes: report.changes.length,
    weakened: report.summary.weakened,
    newFindings: report.summary.findings.new,
    fixedFindings: report.summary.findings.fixed,
    unchangedFindings: report.summary.findings.unchanged,
  }
}

export function diffLines(result, runs) {
  const ms = (value) => `${Math.round(value)} ms`
  return [
    `diff: two snapshots of ${result.projects} projects and ${result.roles} roles (${result.snapshotMb.toFixed(1)} MB each), ${result.changedProjects} projects changed, whole process from spawn to exit, median of ${runs}:`,
    `  scan --snapshot OLD --format json: ${ms(result.scanMs)}   peak RSS ${result.scanRssMb.toFixed(0)} MB`,
    `  diff OLD NEW --format json: ${ms(result.diffMs)} (both evaluations and the comparison ${ms(result.compareMs)})   peak RSS ${result.diffRssMb.toFixed(0)} MB   (${(result.diffMs / result.scanMs).toFixed(2)}x the scan's time, ${(result.diffRssMb / result.scanRssMb).toFixed(2)}x its memory)`,
    `  ${result.changes} changes (${result.weakened} weakened incl. new findings); findings: ${result.newFindings} new, ${result.fixedFindings} fixed, ${result.unchangedFindings} unchanged`,
  ]
}
