/**
 * Evidence for auditors (issue 35; `node bench/run.mjs --evidence`, or `--evidence-only`): the same
 * `--offline-projects` snapshot as the offline target, scanned per run with `--format json`,
 * `--format oscal` and `--format json --attest … --signing-key …` (an Ed25519 key) in turn, whole
 * process, spawn to exit. Each ratio is taken pair by pair within a run (oscal / json, attested json /
 * json), then the median of the runs with their min and max. Also each report's size, the time --debug
 * gives for formatting and writing it and for hashing the report and signing the attestation, what one
 * SHA-256 of the report's bytes costs alone (streamed from the file and hashed in this process), and each format's peak RSS.
 */
import {createHash, generateKeyPairSync} from 'node:crypto'
import {createReadStream} from 'node:fs'
import {readFile, stat, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {performance} from 'node:perf_hooks'

import {snapshotOf} from './diff.mjs'
import {buildProjects, buildRoles, buildSetting} from './simulator.mjs'

/** `tools`: run.mjs's timeCommand, peakRssMb, median and withTempDir. */
export function evidenceBench(projectCount, roleCount, runs, tools) {
  return tools.withTempDir('oda-evidence-bench-', (dir) => evidenceBenchIn(dir, projectCount, roleCount, runs, tools))
}

const spread = (values, median) => ({median: median(values), min: Math.min(...values), max: Math.max(...values)})

async function evidenceBenchIn(dir, projectCount, roleCount, runs, {timeCommand, peakRssMb, median}) {
  const file = join(dir, 'snapshot.json')
  await writeFile(file, JSON.stringify(snapshotOf(buildProjects(projectCount), buildRoles(roleCount), buildSetting)))
  const key = join(dir, 'signing.pem')
  await writeFile(key, generateKeyPairSync('ed25519').privateKey.export({type: 'pkcs8', format: 'pem'}), {mode: 0o600})
  const output = (name) => join(dir, name)
  const scan = (format, name, ...extra) => ['bin/run.js', 'scan', '--snapshot', file, '--format', format, '--output', output(name), '--fail-on', 'none', ...extra]
  const variants = {
    json: scan('json', 'report.json', '--debug'),
    oscal: scan('oscal', 'report.oscal.json', '--debug'),
    attested: scan('json', 'attested.json', '--attest', output('attested.intoto.json'), '--signing-key', key, '--debug'),
  }
  const samples = {json: [], oscal: [], attested: [], jsonCpu: [], oscalCpu: [], attestedCpu: [], jsonWrite: [], oscalWrite: [], attestedWrite: [], signMs: [], oscalRatio: [], attestedRatio: [], oscalCpuRatio: [], attestedCpuRatio: [], hashMs: []}
  let findings = 0
  // Not timed: on Node 22 and later, the first start of a build fills Node's compile cache (bin/run.js).
  await timeCommand(['bin/run.js', '--version'])
  for (let run = 0; run < runs; run++) {
    const times = {}
    const cpu = {}
    for (const [name, args] of Object.entries(variants)) {
      const measured = await timeCommand(args, {cpu: true})
      times[name] = measured.ms
      cpu[name] = measured.cpuMs
      samples[name].push(measured.ms)
      samples[`${name}Cpu`].push(measured.cpuMs)
      samples[`${name}Write`].push(Number(/formatted and wrote the \w+ report in (\d+)ms/.exec(measured.stderr)?.[1] ?? Number.NaN))
      if (name === 'attested') samples.signMs.push(Number(/hashed the report and signed the attestation in (\d+)ms/.exec(measured.stderr)?.[1] ?? Number.NaN))
      findings = Number(/: (\d+) findings?/.exec(measured.stderr)?.[1] ?? findings)
    }
    samples.oscalRatio.push(times.oscal / times.json)
    samples.attestedRatio.push(times.attested / times.json)
    samples.oscalCpuRatio.push(cpu.oscal / cpu.json)
    samples.attestedCpuRatio.push(cpu.attested / cpu.json)
    // One SHA-256 of the report's bytes, streamed from the file, as the attestation does it.
    const started = performance.now()
    const hash = createHash('sha256')
    for await (const chunk of createReadStream(output('attested.json'))) hash.update(chunk)
    hash.digest('hex')
    samples.hashMs.push(performance.now() - started)
  }
  const envelope = JSON.parse(await readFile(output('attested.intoto.json'), 'utf8'))
  return {
    projects: projectCount,
    roles: roleCount,
    findings,
    json: {ms: median(samples.json), cpuMs: median(samples.jsonCpu), writeMs: median(samples.jsonWrite), mb: (await stat(output('report.json'))).size / 1024 / 1024, rssMb: await peakRssMb(scan('json', 'rss.json'))},
    oscal: {ms: median(samples.oscal), cpuMs: median(samples.oscalCpu), cpuToJson: spread(samples.oscalCpuRatio, median), writeMs: median(samples.oscalWrite), mb: (await stat(output('report.oscal.json'))).size / 1024 / 1024, rssMb: await peakRssMb(scan('oscal', 'rss.oscal.json')), toJson: spread(samples.oscalRatio, median)},
    attested: {ms: median(samples.attested), cpuMs: median(samples.attestedCpu), cpuToJson: spread(samples.attestedCpuRatio, median), signMs: median(samples.signMs), hashMs: median(samples.hashMs), toJson: spread(samples.attestedRatio, median), subjects: JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')).subject.length, envelopeKb: (await stat(output('attested.intoto.json'))).size / 1024},
  }
}

export function evidenceLines(result, runs) {
  const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`
  const ratio = (r) => `${r.median.toFixed(2)}x (min ${r.min.toFixed(2)}, max ${r.max.toFixed(2)})`
  const {json, oscal, attested} = result
  return [
    `evidence (issue 35): scan --snapshot of ${result.projects} projects and ${result.roles} roles (${result.findings} findings), whole process from spawn to exit, median of ${runs}, ratios paired per run:`,
    `  --format json      wall ${ms(json.ms).padEnd(10)} CPU ${ms(json.cpuMs).padEnd(10)} formatting and writing ${ms(json.writeMs).padEnd(9)} ${json.mb.toFixed(1)} MB   peak RSS ${json.rssMb.toFixed(0)} MB`,
    `  --format oscal     wall ${ms(oscal.ms).padEnd(10)} CPU ${ms(oscal.cpuMs).padEnd(10)} formatting and writing ${ms(oscal.writeMs).padEnd(9)} ${oscal.mb.toFixed(1)} MB (${(oscal.mb / json.mb).toFixed(2)}x)   peak RSS ${oscal.rssMb.toFixed(0)} MB`,
    `     oscal / json: wall ${ratio(oscal.toJson)}, CPU ${ratio(oscal.cpuToJson)}`,
    `  --format json --attest: wall ${ms(attested.ms)}, CPU ${ms(attested.cpuMs)}; attested / json: wall ${ratio(attested.toJson)}, CPU ${ratio(attested.cpuToJson)}`,
    `     hashing the report and signing (--debug) ${ms(attested.signMs)}, of which one SHA-256 of the ${json.mb.toFixed(1)} MB report streamed alone ${ms(attested.hashMs)}; ${attested.subjects} subject, envelope ${attested.envelopeKb.toFixed(1)} KB`,
  ]
}
