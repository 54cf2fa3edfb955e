/**
 * The OSCAL formatter on hand-built inputs: the OneDev version in the metadata when the collection read
 * one (and nothing when not), hostile server text kept to one line in properties and escaped as
 * markdown in OSCAL's markup fields, an incomplete audit said in the result, uuids that follow the
 * findings' fingerprints, and the streamed text equal to the document built at once.
 */
import {describe, expect, it} from 'vitest'

import {FRAMEWORKS} from '../../rules/compliance/index.js'
import {type ComplianceDetail, emptyComplianceDetail, judgeCompliance} from '../../src/engine/compliance.js'
import {textOf} from '../../src/report/chunks.js'
import type {ReportInput} from '../../src/report/input.js'
import {buildOscal, OSCAL_UUID_NAMESPACE, oscalChunks} from '../../src/report/oscal.js'
import type {Finding} from '../../src/types/report-types.js'
import {URL_NAMESPACE, uuidV5} from '../../src/util/uuid.js'
import {OSCAL_SCHEMA_MISSING, oscalSchemaErrors, uuidProblems} from '../helpers/oscal.js'
import {CHILD, finding, findings, sampleInput} from './sample-input.js'


const HOSTILE = '</b>\n# title\r\n\u0000\u001b[2J\u202e  *bold* [x](javascript:alert(1)) @org/team\u2028'

/** The sample input judged against the real frameworks (rules of theirs the sample does not run are not evaluated). */
function judged(overrides: Partial<ReportInput> = {}): ReportInput {
  const input = sampleInput(overrides)
  const detail: ComplianceDetail = emptyComplianceDetail()
  const compliance = judgeCompliance(
    {
      frameworks: FRAMEWORKS,
      rules: input.rules.map((rule) => ({meta: rule.meta, enabled: rule.enabled})),
      findings: input.findings,
      suppressed: input.suppressed,
      unread: {endpoints: new Map(), failedRules: new Map(), settingMembers: new Set(), serverMembersMissing: new Map()},
      serverData: {},
      defaultBranches: new Map([[CHILD.id, 'develop']]),
    },
    detail,
  )
  return {...input, compliance, complianceDetail: detail}
}

const props = (item: {props?: Array<{name: string; value: string}>}) => Object.fromEntries((item.props ?? []).map((p) => [p.name, p.value]))

describe('the metadata', () => {
  it('names the tool, its version, the server and the OneDev version the collection read', () => {
    const input = judged({source: {kind: 'server', server: {url: 'https://bot:hunter2@onedev.example.com/', apiPrefix: '/~api', version: '16.5.6'} as never}})
    const doc = buildOscal(input)['assessment-results']
    expect(props(doc.metadata)).toMatchObject({'tool': 'onedev-audit', 'tool-version': '0.1.0', 'server': 'https://onedev.example.com/', 'onedev-version': '16.5.6'})
    expect(JSON.stringify(doc)).not.toContain('hunter2')
    const server = doc.results[0]!['local-definitions'].components[0]!
    expect(props(server)).toEqual({server: 'https://onedev.example.com/', 'onedev-version': '16.5.6'})
    expect(server.description).toContain('version 16.5.6')
  })

  it('says nothing of a version the collection could not read', () => {
    for (const version of [undefined, null]) {
      const doc = buildOscal(judged({source: {kind: 'server', server: {url: 'https://onedev.example.com', apiPrefix: '/~api', ...(version === null ? {version} : {})} as never}}))['assessment-results']
      expect(props(doc.metadata)['onedev-version']).toBeUndefined()
      expect(props(doc.results[0]!['local-definitions'].components[0]!)['onedev-version']).toBeUndefined()
    }
  })
})

describe('server text', () => {
  const hostile: Finding = finding({ruleId: 'branch-protection/force-push-allowed', severity: 'high', subject: HOSTILE, pointer: '/x', project: {id: 9, path: `acme/${HOSTILE}`}, message: `Branch ${HOSTILE} can be force-pushed.`})
  const input = judged({findings: [...findings, hostile], errors: [{kind: 'forbidden', message: `refused ${HOSTILE}`, path: '/~api/roles', status: 403}]})
  const doc = buildOscal(input)

  it(`is one line in properties, escaped markdown in markup fields${OSCAL_SCHEMA_MISSING ? '' : ', and the document validates against the schema'}`, () => {
    if (!OSCAL_SCHEMA_MISSING) expect(oscalSchemaErrors(doc)).toEqual([])
    expect(uuidProblems(doc)).toEqual([])
    const result = doc['assessment-results'].results[0]!
    const risk = result.risks!.find((r) => props(r)['project-path']?.startsWith('acme/</b>'))!
    const evidence = result.observations!.flatMap((o) => o['relevant-evidence'] ?? []).find((e) => props(e).fingerprint === props(risk).fingerprint)!
    for (const text of [evidence.description, risk.description, risk.title]) {
      expect(text).not.toMatch(/[<\u0000-\u0009\u000b-\u001f\u202e\u2028]/)
      expect(text).toContain('&lt;/b&gt;')
    }
    expect(evidence.description).toContain('\\*bold\\*')
    const subject = props(risk).subject!
    expect(subject).not.toMatch(/[\n\r\u0000\u001b\u202e\u2028]/)
    expect(subject).toBe(subject.trim())
    const item = result['local-definitions']['inventory-items']!.find((i) => props(i)['project-id'] === '9')!
    expect(item.description).not.toContain('<')
    expect(result.remarks).toMatch(/^Incomplete: 1 error; /)
    expect(result.remarks).not.toMatch(/[<\u0000\u001b\u202e]/)
    expect(props(result).complete).toBe('false')
  })
})

describe('uuids', () => {
  it('are version 5 uuids in our namespace, which is the URL namespace\'s uuid of https://onedev-audit.dev/ns/oscal', () => {
    expect(OSCAL_UUID_NAMESPACE).toBe(uuidV5(URL_NAMESPACE, 'https://onedev-audit.dev/ns/oscal'))
    const doc = buildOscal(judged())
    const {uuid} = doc['assessment-results']
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('follow the findings: a control whose findings change gets another uuid, the others keep theirs', () => {
    const byTarget = (input: ReportInput) => Object.fromEntries(buildOscal(input)['assessment-results'].results[0]!.findings!.map((f) => [f.target['target-id'], f.uuid]))
    const before = byTarget(judged())
    const moved = findings.map((f) => (f.ruleId === 'branch-protection/force-push-allowed' ? {...f, fingerprint: 'another-fingerprint'} : f))
    const after = byTarget(judged({findings: moved}))
    const changed = Object.keys(before).filter((id) => before[id] !== after[id])
    expect(changed.length).toBeGreaterThan(0)
    // Only controls the force-push rule evidences.
    const forcePush = new Set(FRAMEWORKS.flatMap((f) => f.controls.filter((c) => c.evidence.some((e) => e.rule === 'branch-protection/force-push-allowed')).map((c) => `${f.key}:${c.id}`)))
    expect(changed.every((id) => [...forcePush].some((key) => id === (key.startsWith('cis:') ? `cis-sscs-${key.slice(4)}` : key.slice(5).toLowerCase())))).toBe(true)
    // Another server, other uuids.
    const elsewhere = byTarget(judged({source: {kind: 'server', server: {url: 'https://other.example.com', apiPrefix: '/~api'}}}))
    expect(Object.keys(before).filter((id) => before[id] === elsewhere[id])).toEqual([])
  })
})

it('the streamed text is the document built at once, and ends with one newline', () => {
  const input = judged()
  const text = textOf(oscalChunks(input).chunks)
  expect(text.endsWith('}\n')).toBe(true)
  expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(buildOscal(input))))
})
