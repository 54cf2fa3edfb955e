/**
 * `scan --format oscal` through the CLI: the document validates against NIST's released schema
 * (test/helpers/oscal.ts: skipped, saying so, where the schema is absent), for the example snapshot
 * and for a server where every automated control passes; its statuses are the JSON report's compliance
 * judgement (satisfied only for pass, manual controls listed and never satisfied); every uuid it refers
 * to is defined in it; and two runs over the same snapshot give the same uuids.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {prefixedControlId} from '../../src/engine/compliance.js'
import {runCli} from '../helpers/cli.js'
import {cleanServerOptions, serverEnv} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {OSCAL_SCHEMA_MISSING, oscalSchemaErrors, uuidProblems} from '../helpers/oscal.js'
import {tempDir} from '../helpers/temp-dir.js'

const EXAMPLE = 'examples/snapshot.json'

let dir: string
/** A server where every control a rule judges passes: one strictly protected project, one role, hardened settings. */
let clean: OneDevServer

beforeAll(async () => {
  dir = await tempDir('oda-oscal')
  clean = await startOneDevServer(cleanServerOptions())
})

afterAll(async () => {
  await clean?.close()
})

/** The OSCAL document and the JSON report of the same scan arguments. */
async function scanBoth(args: string[], env: Record<string, string> = {}, name = 'scan'): Promise<{oscal: any; json: any; code: number}> {
  const oscalFile = join(dir, `${name}.oscal.json`)
  const jsonFile = join(dir, `${name}.json`)
  const oscal = await runCli(['scan', ...args, '--format', 'oscal', '--output', oscalFile, '--fail-on', 'none'], {env})
  expect(oscal.stderr).not.toMatch(/internal error/)
  const json = await runCli(['scan', ...args, '--format', 'json', '--output', jsonFile, '--fail-on', 'none'], {env})
  expect(json.code).toBe(oscal.code)
  return {oscal: JSON.parse(await readFile(oscalFile, 'utf8')), json: JSON.parse(await readFile(jsonFile, 'utf8')), code: oscal.code}
}

const resultOf = (doc: any) => doc['assessment-results'].results[0]

/** What the OSCAL document says of each control: its state and reason, or `manual` when it is listed as judged by hand. */
function oscalStatuses(doc: any): Record<string, string> {
  const result = resultOf(doc)
  const out: Record<string, string> = {}
  for (const finding of result.findings ?? []) out[finding.target['target-id']] = `${finding.target.status.state}/${finding.target.status.reason}`
  for (const selection of result['reviewed-controls']['control-selections']) {
    const manual = selection.props.some((p: any) => p.name === 'judged' && p.value === 'manually')
    for (const {'control-id': id} of selection['include-controls']) {
      if (manual) {
        expect(out[id], `${id} is manual and has a finding`).toBeUndefined()
        out[id] = 'manual'
      } else {
        expect(out[id], `${id} is judged automatically and has no finding`).toBeDefined()
      }
    }
  }
  return out
}

/** What the JSON report's compliance section says, in OSCAL's terms: satisfied only for pass. */
function expectedStatuses(report: any): Record<string, string> {
  const state: Record<string, string> = {pass: 'satisfied/pass', fail: 'not-satisfied/fail', exception: 'not-satisfied/other', 'not-evaluated': 'not-satisfied/other', manual: 'manual'}
  return Object.fromEntries(report.compliance.flatMap((f: any) => f.controls.map((c: any) => [prefixedControlId(f.framework, c.id), state[c.status]])))
}

describe('the example snapshot', () => {
  it.skipIf(OSCAL_SCHEMA_MISSING !== undefined)(`validates against NIST's OSCAL 1.1.3 Assessment Results schema${OSCAL_SCHEMA_MISSING ? ` (${OSCAL_SCHEMA_MISSING})` : ''}`, async () => {
    const {oscal} = await scanBoth(['--snapshot', EXAMPLE], {}, 'example')
    expect(oscalSchemaErrors(oscal)).toEqual([])
  }, 60_000)

  it('every uuid it refers to is defined in it, once; the statuses are the JSON report\'s; risks are the findings that count', async () => {
    const {oscal, json, code} = await scanBoth(['--snapshot', EXAMPLE], {}, 'example-statuses')
    expect(code).toBe(0)
    expect(uuidProblems(oscal)).toEqual([])
    expect(oscalStatuses(oscal)).toEqual(expectedStatuses(json))
    const result = resultOf(oscal)
    // EXAMINE: a snapshot was read; the settings' time is the snapshot's.
    expect(new Set(result.observations.map((o: any) => o.methods.join()))).toEqual(new Set(['EXAMINE']))
    expect(new Set(result.observations.map((o: any) => o.collected))).toEqual(new Set([json.collectedAt]))
    // Each control that fails names a risk per finding that fails it.
    for (const framework of json.compliance) {
      for (const control of framework.controls.filter((c: any) => c.status === 'fail')) {
        const finding = result.findings.find((f: any) => f.target['target-id'] === prefixedControlId(framework.framework, control.id))
        expect(finding['related-risks'].length, control.id).toBe(control.findings + control.baselined + control.suppressed)
      }
    }
    const metadata = oscal['assessment-results'].metadata
    expect(metadata.props.map((p: any) => [p.name, p.value])).toEqual([
      ['tool', 'onedev-audit'],
      ['tool-version', json.tool.version],
      ['server', 'https://onedev.example.com'],
      // The OneDev version the collection read (the example snapshot's server.version).
      ['onedev-version', json.server.version],
      ['snapshot', EXAMPLE],
      ['collected', json.collectedAt],
    ])
    expect(oscal['assessment-results']['import-ap'].href).toBe('urn:onedev-audit:assessment-plan:scan')
  }, 60_000)

  it('two runs give the same uuids, and the same document but for when it was made', async () => {
    const first = (await scanBoth(['--snapshot', EXAMPLE], {}, 'first')).oscal
    const second = (await scanBoth(['--snapshot', EXAMPLE], {}, 'second')).oscal
    const untimed = (doc: any) => {
      const copy = structuredClone(doc)
      delete copy['assessment-results'].metadata['last-modified']
      delete copy['assessment-results'].results[0].start
      delete copy['assessment-results'].results[0].end
      return copy
    }
    expect(first['assessment-results'].metadata['last-modified']).not.toBe(undefined)
    expect(untimed(second)).toEqual(untimed(first))
  }, 60_000)

  it('suppressions, a rule turned off and a baseline: exception and not evaluated are not satisfied, with why; baselined findings fail', async () => {
    const config = join(dir, 'config.json')
    await writeFile(
      config,
      JSON.stringify({
        rules: {'branch-protection/deletion-allowed': 'off'},
        suppressions: [{rule: 'server/two-factor-not-enforced', justification: 'SSO enforces MFA *upstream* <b>', expires: '2027-03-31'}],
      }),
    )
    const baseline = join(dir, 'baseline.json')
    expect((await runCli(['scan', '--snapshot', EXAMPLE, '--config', config, '--update-baseline', baseline, '--format', 'json', '--output', join(dir, 'b.json')])).code).toBe(0)
    const {oscal, json} = await scanBoth(['--snapshot', EXAMPLE, '--config', config, '--baseline', baseline], {}, 'configured')
    expect(uuidProblems(oscal)).toEqual([])
    const statuses = oscalStatuses(oscal)
    expect(statuses).toEqual(expectedStatuses(json))
    const findings = resultOf(oscal).findings
    const target = (id: string) => findings.find((f: any) => f.target['target-id'] === id).target
    expect(target('cis-sscs-1.3.5').status).toEqual({state: 'not-satisfied', reason: 'other', remarks: 'Exception: server/two-factor-not-enforced: SSO enforces MFA \\*upstream\\* &lt;b&gt; (until 2027-03-31), 1 finding.'})
    expect(target('cis-sscs-1.1.17').status).toEqual({state: 'not-satisfied', reason: 'other', remarks: 'Not evaluated: branch-protection/deletion-allowed: turned off in the configuration.'})
    // Everything in the baseline: the failing controls still fail, their risks are open and say so.
    expect(Object.values(statuses).filter((s) => s === 'not-satisfied/fail').length).toBeGreaterThan(0)
    const risks = resultOf(oscal).risks
    expect(new Set(risks.map((r: any) => `${r.status} ${r.props.find((p: any) => p.name === 'state').value}`))).toEqual(new Set(['open baselined', 'deviation-approved suppressed']))
    expect(risks.find((r: any) => r.status === 'deviation-approved').description).toMatch(/\n\nAccepted by a suppression of the configuration: SSO enforces MFA \\\*upstream\\\* &lt;b&gt; \(until 2027-03-31\)\.$/)
    if (!OSCAL_SCHEMA_MISSING) expect(oscalSchemaErrors(oscal)).toEqual([])
  }, 90_000)
})

describe('a server where every automated control passes', () => {
  it(`satisfies every control a rule judges, lists the manual ones unsatisfied${OSCAL_SCHEMA_MISSING ? `; the schema check is ${OSCAL_SCHEMA_MISSING}` : ', and validates against the schema'}`, async () => {
    const {oscal, json} = await scanBoth(['--all-projects'], serverEnv(clean), 'clean')
    const statuses = oscalStatuses(oscal)
    expect(statuses).toEqual(expectedStatuses(json))
    const automated = Object.entries(statuses).filter(([, status]) => status !== 'manual')
    expect(automated.length).toBeGreaterThan(20)
    expect(automated.filter(([, status]) => status !== 'satisfied/pass')).toEqual([])
    expect(Object.values(statuses).filter((s) => s === 'manual').length).toBeGreaterThan(50)
    const result = resultOf(oscal)
    // Nothing counts against a control: no risk; each rule that judged one is an observation that found nothing, by a TEST of the server.
    expect(result.risks).toBeUndefined()
    expect(result.observations.every((o: any) => o.methods[0] === 'TEST' && o['relevant-evidence'] === undefined && o.description.endsWith('found nothing.'))).toBe(true)
    expect(result.findings.every((f: any) => f['related-observations'].length > 0 && f['related-risks'] === undefined)).toBe(true)
    expect(uuidProblems(oscal)).toEqual([])
    if (!OSCAL_SCHEMA_MISSING) expect(oscalSchemaErrors(oscal)).toEqual([])
  }, 60_000)
})
