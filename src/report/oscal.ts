/**
 * `scan --format oscal`: the audit as an OSCAL 1.1.3 Assessment Results document (NIST's model of
 * an assessment's results, which compliance tools read), from the same compliance judgement as the
 * JSON report (src/engine/compliance.ts). docs/evidence.md says what each part means:
 *
 * - one result for the run (`start`: when it began, `end`: when the report was made); its
 *   `reviewed-controls` name every control of the frameworks shown, those judged automatically and the
 *   manual ones apart; its `local-definitions` the audited server (a component), the projects and roles
 *   with findings (inventory items) and the tool (an assessment asset);
 * - an observation per rule that judged a control (twice for a rule whose findings count for some
 *   controls on default branches only): the method (TEST against a server, EXAMINE of a snapshot), when
 *   the settings were collected, the projects, roles and server parts it found something about, and each
 *   finding's message as evidence;
 * - a risk per finding that counts for a control (active, in the baseline, or accepted by a suppression:
 *   `deviation-approved`);
 * - a finding per control judged automatically, its target the control (`cis-sscs-1.1.16`,
 *   `osps-ac-03.01`: prefixedControlId), `satisfied` only when the control passes; fail, exception and
 *   not evaluated are `not-satisfied`, with the reason in the status's remarks. Manual controls get no
 *   finding: they are listed, never satisfied.
 *
 * Every uuid is a version 5 uuid of what it names (the server, the control, the findings' fingerprints),
 * so two runs over the same snapshot give the same uuids; every uuid referenced is defined in the document.
 * Text that came from the server goes into OSCAL's markup fields (titles, descriptions, remarks)
 * escaped as markdown, and into properties as one line.
 */
import {CONTROL_STATUSES, prefixedControlId} from '../engine/compliance.js'
import type {RuleMeta} from '../engine/rule.js'
import type {ComplianceControl, ComplianceFramework, Finding, SuppressedFinding} from '../types/report-types.js'
import {escapeMarkdown, oneLine} from '../util/escape.js'
import {safeServerUrl} from '../util/server-url.js'
import {URL_NAMESPACE, uuidV5} from '../util/uuid.js'
import type {ReportChunks} from './chunks.js'
import type {ReportInput} from './input.js'
import {EAGER, jsonDocument, type JsonBuilder, LAZY} from './json-stream.js'
import type {
  OscalAssessmentResults,
  OscalComponent,
  OscalControlSelection,
  OscalEvidence,
  OscalFinding,
  OscalInventoryItem,
  OscalOrigin,
  OscalProperty,
  OscalRisk,
  OscalSubjectReference,
} from './oscal-types.js'
import {errorLine, messageOf} from './stylish.js'
import {plural} from './summary.js'

export const OSCAL_VERSION = '1.1.3'
/** The `$id` of NIST's released Assessment Results schema, version 1.1.3. */
export const OSCAL_SCHEMA_URI = 'http://csrc.nist.gov/ns/oscal/1.1.3/oscal-ar-schema.json'
/** The namespace of our property names (OSCAL's `ns`), and the name of the namespace of our uuids. */
export const OSCAL_NAMESPACE = 'https://onedev-audit.dev/ns/oscal'
/** The namespace of every uuid the document holds: the version 5 uuid of OSCAL_NAMESPACE in the URL namespace. */
export const OSCAL_UUID_NAMESPACE = uuidV5(URL_NAMESPACE, OSCAL_NAMESPACE)
/** What `import-ap` names: no OSCAL assessment plan document exists; the plan is the scan itself (docs/evidence.md). */
export const ASSESSMENT_PLAN_URN = 'urn:onedev-audit:assessment-plan:scan'

/** OSCAL 1.1.3's date-time with a time zone (DateTimeWithTimezoneDatatype, years 1900 to 2999). */
const DATE_TIME =
  /^(((2000|2400|2800|(19|2[0-9](0[48]|[2468][048]|[13579][26])))-02-29)|(((19|2[0-9])[0-9]{2})-02-(0[1-9]|1[0-9]|2[0-8]))|(((19|2[0-9])[0-9]{2})-(0[13578]|10|12)-(0[1-9]|[12][0-9]|3[01]))|(((19|2[0-9])[0-9]{2})-(0[469]|11)-(0[1-9]|[12][0-9]|30)))T(2[0-3]|[01][0-9]):([0-5][0-9]):([0-5][0-9])(\.[0-9]+)?(Z|(-((0[0-9]|1[0-2]):00|0[39]:30)|\+((0[0-9]|1[0-4]):00|(0[34569]|10):30|(0[58]|12):45)))$/

/** Longest property value written (a path or a name from the server), cut with `…`. */
const MAX_PROP = 1000

/** Text from the server (or the configuration) in an OSCAL markup field: markdown, escaped. */
const md = escapeMarkdown

/** A property of ours, its value on one line; none when nothing is left of it. */
function prop(name: string, value: string | number | boolean): OscalProperty[] {
  const line = oneLine(String(value), MAX_PROP)
  return line === '' ? [] : [{name, ns: OSCAL_NAMESPACE, value: line}]
}

/** The array, or nothing: OSCAL's arrays hold at least one item. */
function some<T>(items: readonly T[]): T[] | undefined {
  return items.length > 0 ? [...items] : undefined
}

/** What is still failing or excused about a finding: active, in the baseline, or accepted by a suppression. */
type FindingState = 'active' | 'baselined' | 'suppressed'

/** One observation: a rule's findings as one or more controls count them. */
interface Observed {
  uuid: string
  rule: string
  primaryBranchOnly: boolean
  findings: Finding[]
}

/** A finding that counts for a control, as a risk: its uuid, its state, the observations that hold it. */
interface Risk {
  finding: Finding
  uuid: string
  state: FindingState
  reason?: SuppressedFinding['reason']
  observations: Observed[]
}

/** A place a finding is about: the server, a project or a role. */
interface Subject {
  uuid: string
  type: 'component' | 'inventory-item'
  title: string
  item?: OscalInventoryItem
}

/** Everything the document refers to, worked out before it is written (uuids are derived from their contents). */
interface Plan {
  server: string
  collected: string
  method: 'TEST' | 'EXAMINE'
  origin: OscalOrigin[]
  serverComponent: OscalComponent
  toolComponent: OscalComponent
  platformUuid: string
  observations: Observed[]
  /** By control tag: the observations of the rules that judged it. */
  controlObservations: Map<string, Observed[]>
  /** By fingerprint, each finding that counts for some control (one risk per fingerprint), in the order first met. */
  risks: Map<string, Risk>
  subjects: Map<string, Subject>
  findings: Array<{framework: ComplianceFramework; control: ComplianceControl; uuid: string; counted: Finding[]}>
  metas: Map<string, RuleMeta>
}

function dateTime(value: string | undefined, fallback: string): string {
  return value !== undefined && DATE_TIME.test(value) ? value : fallback
}

/** The server's address without credentials, or how a snapshot without one is named. */
function serverName(input: ReportInput): string {
  return input.source.server ? safeServerUrl(input.source.server.url) : '(no server named)'
}

/** The OneDev version the collection read (GET /version/server), when it read one. */
function oneDevVersion(input: ReportInput): string | undefined {
  return input.source.server?.version ?? undefined
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function planOf(input: ReportInput): Plan {
  const detail = input.complianceDetail
  if (!detail) throw new Error('the OSCAL report needs the compliance detail (ReportInput.complianceDetail)')
  const server = serverName(input)
  const id = (...parts: string[]) => uuidV5(OSCAL_UUID_NAMESPACE, JSON.stringify(parts))
  const generated = dateTime(input.generatedAt, new Date().toISOString())
  const toolComponent: OscalComponent = {
    uuid: id('tool', input.tool.name, input.tool.version),
    type: 'software',
    title: `${input.tool.name} ${input.tool.version}`,
    description: 'The tool that read the settings and judged them with its rules.',
    props: [...prop('tool', input.tool.name), ...prop('tool-version', input.tool.version)],
    ...(input.tool.informationUri ? {links: [{href: input.tool.informationUri, rel: 'homepage'}]} : {}),
    status: {state: 'operational'},
  }
  const version = oneDevVersion(input)
  const serverComponent: OscalComponent = {
    uuid: id('server', server),
    type: 'service',
    title: `OneDev server ${md(server)}`,
    description: `The OneDev server audited${version ? `, version ${md(version)}` : ''}: its settings, roles and access, read through its REST interface.`,
    props: [...prop('server', server), ...(version ? prop('onedev-version', version) : [])],
    status: {state: 'operational'},
  }
  const suppressedReason = new Map<Finding, SuppressedFinding['reason']>()
  for (const {finding, reason} of input.suppressed) suppressedReason.set(finding, reason)

  // The observations: one per rule (and scope) that judged a control, with the findings that count.
  const observed = new Map<string, {rule: string; primaryBranchOnly: boolean; findings: Set<Finding>}>()
  const controlKeys = new Map<string, string[]>()
  const findings: Plan['findings'] = []
  for (const framework of input.compliance ?? []) {
    for (const control of framework.controls) {
      if (control.status === 'manual') continue
      const failing = detail.failing.get(control.tag) ?? []
      const excused = (detail.excused.get(control.tag) ?? []).map((s) => s.finding)
      const keys: string[] = []
      for (const rule of control.rules) {
        if (rule.status === 'not-evaluated') continue
        const key = JSON.stringify([rule.id, rule.primaryBranchOnly === true])
        let entry = observed.get(key)
        if (!entry) observed.set(key, (entry = {rule: rule.id, primaryBranchOnly: rule.primaryBranchOnly === true, findings: new Set()}))
        for (const finding of failing) if (finding.ruleId === rule.id) entry.findings.add(finding)
        for (const finding of excused) if (finding.ruleId === rule.id) entry.findings.add(finding)
        keys.push(key)
      }
      controlKeys.set(control.tag, keys)
      const counted = [...failing, ...excused]
      const fingerprints = counted.map((f) => f.fingerprint).sort(byText)
      const controlId = prefixedControlId(framework.framework, control.id)
      findings.push({framework, control, uuid: id('finding', server, controlId, ...fingerprints), counted})
    }
  }
  const observations = new Map<string, Observed>()
  for (const [key, entry] of observed) {
    const list = [...entry.findings]
    const fingerprints = list.map((f) => f.fingerprint).sort(byText)
    observations.set(key, {uuid: id('observation', server, entry.rule, entry.primaryBranchOnly ? 'primary-branch' : 'all', ...fingerprints), rule: entry.rule, primaryBranchOnly: entry.primaryBranchOnly, findings: list})
  }
  const controlObservations = new Map<string, Observed[]>()
  for (const [tag, keys] of controlKeys) controlObservations.set(tag, keys.map((key) => observations.get(key)!))

  // A risk per finding observed (one per fingerprint: two findings of one fingerprint are one risk).
  const risks: Plan['risks'] = new Map()
  const subjects = new Map<string, Subject>()
  for (const observation of observations.values()) {
    for (const finding of observation.findings) {
      const known = risks.get(finding.fingerprint)
      if (known) {
        if (!known.observations.includes(observation)) known.observations.push(observation)
        continue
      }
      const reason = suppressedReason.get(finding)
      const state: FindingState = reason === undefined ? 'active' : reason.kind === 'baseline' ? 'baselined' : 'suppressed'
      risks.set(finding.fingerprint, {finding, uuid: id('risk', server, finding.fingerprint), state, ...(reason ? {reason} : {}), observations: [observation]})
      const key = subjectKey(finding)
      if (!subjects.has(key)) subjects.set(key, subjectOf(finding, id, server, serverComponent))
    }
  }
  return {
    server,
    collected: dateTime(input.source.collectedAt, generated),
    method: input.source.kind === 'snapshot' ? 'EXAMINE' : 'TEST',
    origin: [{actors: [{type: 'tool', 'actor-uuid': toolComponent.uuid}]}],
    serverComponent,
    toolComponent,
    platformUuid: id('platform', input.tool.name, input.tool.version),
    observations: [...observations.values()],
    controlObservations,
    risks,
    subjects,
    findings,
    metas: new Map(input.rules.map((rule) => [rule.meta.id, rule.meta])),
  }
}

function subjectKey(finding: Finding): string {
  if (finding.project) return `project:${finding.project.id}`
  if (finding.role) return `role:${finding.role.id}`
  return 'server'
}

function subjectOf(finding: Finding, id: (...parts: string[]) => string, server: string, serverComponent: OscalComponent): Subject {
  if (finding.project) {
    const {id: projectId, path} = finding.project
    const uuid = id('project', server, String(projectId))
    const title = `project ${md(path)}`
    return {
      uuid,
      type: 'inventory-item',
      title,
      item: {uuid, description: `The OneDev project ${md(path)} (#${projectId}).`, props: [...prop('project-id', projectId), ...prop('project-path', path)], 'implemented-components': [{'component-uuid': serverComponent.uuid}]},
    }
  }
  if (finding.role) {
    const {id: roleId, name} = finding.role
    const uuid = id('role', server, String(roleId))
    return {
      uuid,
      type: 'inventory-item',
      title: `role ${md(name)}`,
      item: {uuid, description: `The OneDev role ${md(name)} (#${roleId}).`, props: [...prop('role-id', roleId), ...prop('role-name', name)], 'implemented-components': [{'component-uuid': serverComponent.uuid}]},
    }
  }
  return {uuid: serverComponent.uuid, type: 'component', title: 'the server'}
}

/** `project acme/web`, `role Code Writer`, `the server`: where a finding is, markdown-escaped. */
function whereOf(finding: Finding): string {
  if (finding.project) return `project ${md(finding.project.path)}`
  if (finding.role) return `role ${md(finding.role.name)}`
  return 'the server'
}

function suppressionText(reason: SuppressedFinding['reason']): string {
  return `${md(reason.justification ?? '(no justification given)')}${reason.expires ? ` (until ${md(reason.expires)})` : ''}`
}

/** A finding as evidence: its message, and its fingerprint, by which its risk (severity, state, where) is found. */
function evidenceOf(finding: Finding, state: FindingState, reason: SuppressedFinding['reason'] | undefined): OscalEvidence {
  return {
    description: md(messageOf(finding)),
    props: prop('fingerprint', finding.fingerprint),
    ...(state === 'suppressed' && reason ? {remarks: `Accepted by a suppression of the configuration: ${suppressionText(reason)}.`} : state === 'baselined' ? {remarks: 'In the baseline: known, not accepted.'} : {}),
  }
}

function observationOf(observation: Observed, plan: Plan, {list, object}: JsonBuilder): unknown {
  const meta = plan.metas.get(observation.rule)
  const count = observation.findings.length
  const scope = observation.primaryBranchOnly ? " on each project's default branch (the controls it evidences this way concern the primary branch)" : ''
  const subjects: OscalSubjectReference[] = []
  const seen = new Set<string>()
  for (const finding of observation.findings) {
    const subject = plan.subjects.get(subjectKey(finding))!
    if (seen.has(subject.uuid)) continue
    seen.add(subject.uuid)
    subjects.push({'subject-uuid': subject.uuid, type: subject.type, title: subject.title})
  }
  const evidence = (finding: Finding) => {
    const risk = plan.risks.get(finding.fingerprint)!
    return evidenceOf(finding, risk.state, risk.reason)
  }
  const described = count === 0 ? `The rule ran over everything it needs${scope} and found nothing.` : `${plural(count, 'finding')}${scope}, each listed as evidence with its message.`
  return object({
    uuid: observation.uuid,
    title: `${observation.rule}${meta ? `: ${meta.shortDescription}` : ''}`,
    description: described,
    props: [...prop('rule', observation.rule), ...(observation.primaryBranchOnly ? prop('scope', 'primary-branch') : []), ...prop('findings', count)],
    methods: [plan.method],
    types: [count > 0 ? 'finding' : 'control-objective'],
    origins: plan.origin,
    subjects: some(subjects),
    'relevant-evidence': count > 0 ? list(observation.findings, evidence) : undefined,
    collected: plan.collected,
  })
}

function riskOf(risk: Risk, plan: Plan): OscalRisk {
  const {finding} = risk
  const meta = plan.metas.get(finding.ruleId)
  const remarks =
    risk.state === 'suppressed' && risk.reason
      ? `Accepted by a suppression of the configuration: ${suppressionText(risk.reason)}.`
      : risk.state === 'baselined'
        ? 'In the baseline: known, not accepted.'
        : undefined
  return {
    uuid: risk.uuid,
    title: `${finding.ruleId} in ${whereOf(finding)}`,
    // A risk has no remarks: what the baseline or a suppression says of it follows the message.
    description: `${md(messageOf(finding))}${remarks ? `\n\n${remarks}` : ''}`,
    // What the rule finds, in a line: the rule's page (docs/rules/) has the whole of it.
    statement: meta?.shortDescription ?? finding.ruleId,
    props: [
      ...prop('rule', finding.ruleId),
      ...prop('severity', finding.severity),
      ...prop('state', risk.state),
      ...(finding.project ? prop('project-path', finding.project.path) : []),
      ...(finding.role ? prop('role-name', finding.role.name) : []),
      ...prop('subject', finding.subject),
      ...prop('fingerprint', finding.fingerprint),
    ],
    status: risk.state === 'suppressed' ? 'deviation-approved' : 'open',
    'related-observations': risk.observations.map((o) => ({'observation-uuid': o.uuid})),
  }
}

/** What the control's status says, as the reports' legends say it, with its counts. */
function statusDescription(control: ComplianceControl): string {
  const meaning = CONTROL_STATUSES.find((s) => s.status === control.status)!
  const counts: string[] = []
  if (control.findings > 0) counts.push(`${plural(control.findings, 'active finding')}`)
  if (control.baselined > 0) counts.push(`${control.baselined} in the baseline`)
  if (control.suppressed > 0) counts.push(`${control.suppressed} accepted by suppressions`)
  const where = control.projects.length > 0 ? ` in ${plural(control.projects.length, 'project')}` : ''
  return `${meaning.label[0]!.toUpperCase()}${meaning.label.slice(1)}: ${meaning.meaning}.${counts.length > 0 ? ` ${counts.join(', ')}${where}.` : ''}`
}

function findingOf(entry: Plan['findings'][number], plan: Plan): OscalFinding {
  const {framework, control} = entry
  const controlId = prefixedControlId(framework.framework, control.id)
  const status: OscalFinding['target']['status'] =
    control.status === 'pass'
      ? {state: 'satisfied', reason: 'pass'}
      : control.status === 'fail'
        ? {state: 'not-satisfied', reason: 'fail'}
        : control.status === 'exception'
          ? {state: 'not-satisfied', reason: 'other', remarks: `Exception: ${(control.exceptions ?? []).map((e) => `${e.rule}: ${suppressionText({kind: 'suppression', justification: e.justification, ...(e.expires ? {expires: e.expires} : {})})}, ${plural(e.findings, 'finding')}`).join('; ')}.`}
          : {state: 'not-satisfied', reason: 'other', remarks: `Not evaluated: ${control.rules.filter((r) => r.status === 'not-evaluated').map((r) => `${r.id}: ${md(r.notEvaluated ?? 'not judged')}`).join('; ')}.`}
  const observations = plan.controlObservations.get(control.tag) ?? []
  const risks = [...new Set(entry.counted.map((finding) => plan.risks.get(finding.fingerprint)?.uuid).filter((uuid): uuid is string => uuid !== undefined))]
  const approximate = control.rules.filter((r) => r.approximate !== undefined).map((r) => `${r.id} evidences it approximately: ${r.approximate}`)
  const remarks = [...approximate, ...(control.note ? [control.note] : [])]
  return {
    uuid: entry.uuid,
    title: `${controlId}: ${control.title}`,
    description: statusDescription(control),
    props: [...prop('framework', framework.framework), ...prop('control-id', control.id), ...prop('status', control.status), ...(control.approximate ? prop('approximate', 'true') : []), ...(control.level !== undefined ? prop('level', control.level) : [])],
    origins: plan.origin,
    target: {type: 'objective-id', 'target-id': controlId, title: control.title, status},
    ...(observations.length > 0 ? {'related-observations': [...new Set(observations)].map((o) => ({'observation-uuid': o.uuid}))} : {}),
    ...(risks.length > 0 ? {'related-risks': risks.map((uuid) => ({'risk-uuid': uuid}))} : {}),
    ...(remarks.length > 0 ? {remarks: remarks.join('\n\n')} : {}),
  }
}

function controlSelections(frameworks: readonly ComplianceFramework[]): OscalControlSelection[] {
  const selections: OscalControlSelection[] = []
  for (const framework of frameworks) {
    const link = {href: framework.source.repository, rel: 'reference', text: `${framework.name} ${framework.version}`}
    for (const manual of [false, true]) {
      const controls = framework.controls.filter((c) => (c.status === 'manual') === manual)
      if (controls.length === 0) continue
      selections.push({
        props: [...prop('framework', framework.framework), ...prop('judged', manual ? 'manually' : 'automatically')],
        links: [link],
        'include-controls': controls.map((c) => ({'control-id': prefixedControlId(framework.framework, c.id)})),
        ...(manual ? {remarks: 'No rule evidences these controls: a person judges them. The audit gives them no status and no finding.'} : {}),
      })
    }
  }
  return selections
}

function documentOf(input: ReportInput, builder: JsonBuilder): unknown {
  const {list, object} = builder
  const plan = planOf(input)
  const frameworks = input.compliance ?? []
  const generated = dateTime(input.generatedAt, new Date().toISOString())
  const start = dateTime(input.startedAt, generated)
  const findingUuids = plan.findings.map((f) => f.uuid).sort(byText)
  const id = (kind: string) => uuidV5(OSCAL_UUID_NAMESPACE, JSON.stringify([kind, plan.server, ...findingUuids]))
  const version = oneDevVersion(input)
  const complete = input.errors.length === 0
  const errors = input.errorCount ?? input.errors.length
  const shown = frameworks.map((f) => `${f.name} ${f.version}`).join(' and ')
  const read = input.source.kind === 'snapshot' ? `read from the snapshot ${md(input.source.snapshot ?? '')}${input.source.collectedAt ? ` collected at ${md(input.source.collectedAt)}` : ''}` : 'read through its REST interface'
  const items = [...plan.subjects.values()].flatMap((s) => (s.item ? [s.item] : []))
  const findingsOf = plan.findings
  const risks = [...plan.risks.values()]
  const result = {
    uuid: id('result'),
    title: `${input.tool.name} scan of ${md(plan.server)}`,
    description: `The settings, roles and access of the OneDev server ${md(plan.server)}, ${read}, judged by ${input.tool.name}'s rules against the controls of ${shown || 'no framework'}.`,
    start: start <= generated ? start : generated,
    end: generated,
    props: [...prop('complete', complete), ...prop('projects', input.counts.projects), ...prop('roles', input.counts.roles)],
    'local-definitions': object({
      components: [plan.serverComponent],
      'inventory-items': items.length > 0 ? list(items, (item) => item) : undefined,
      'assessment-assets': {components: [plan.toolComponent], 'assessment-platforms': [{uuid: plan.platformUuid, title: plan.toolComponent.title, 'uses-components': [{'component-uuid': plan.toolComponent.uuid}]}]},
    }),
    'reviewed-controls': {'control-selections': controlSelections(frameworks)},
    observations: plan.observations.length > 0 ? list(plan.observations, (observation) => observationOf(observation, plan, builder)) : undefined,
    risks: risks.length > 0 ? list(risks, (risk) => riskOf(risk, plan)) : undefined,
    findings: findingsOf.length > 0 ? list(findingsOf, (entry) => findingOf(entry, plan)) : undefined,
    ...(complete
      ? {}
      : {remarks: `Incomplete: ${plural(errors, 'error')}; what could not be read was not judged, and no control it concerns passes.\n\n${input.errors.map((error) => `- ${md(errorLine(error))}`).join('\n')}`}),
  }
  return object({
    $schema: OSCAL_SCHEMA_URI,
    'assessment-results': object({
      uuid: id('assessment-results'),
      metadata: {
        title: `${input.tool.name} assessment results: ${md(plan.server)}`,
        'last-modified': generated,
        version: plan.collected,
        'oscal-version': OSCAL_VERSION,
        props: [
          ...prop('tool', input.tool.name),
          ...prop('tool-version', input.tool.version),
          ...prop('server', plan.server),
          ...(version ? prop('onedev-version', version) : []),
          ...(input.source.kind === 'snapshot' && input.source.snapshot ? prop('snapshot', input.source.snapshot) : []),
          ...prop('collected', plan.collected),
        ],
      },
      'import-ap': {href: ASSESSMENT_PLAN_URN, remarks: `No OSCAL assessment plan document: the plan is ${input.tool.name}'s scan, its rules and their mapping to the controls, as its documentation describes them (docs/evidence.md, docs/compliance.md).`},
      results: list([result], (entry) => object(entry)),
    }),
  })
}

/** The whole document as a value (tests; the lazy writer below gives the same text). */
export function buildOscal(input: ReportInput): OscalAssessmentResults {
  return documentOf(input, EAGER) as OscalAssessmentResults
}

/** The document's text in pieces, its long lists (evidence, risks, inventory) written as they are made. */
export function oscalChunks(input: ReportInput): ReportChunks {
  return {chunks: jsonDocument(documentOf(input, LAZY)), warnings: []}
}
