/**
 * notify's decision per target (src/engine/notify.ts): every way an issue can stand, and what is
 * done with it. The rule under test: a write only when the findings changed, never a second issue.
 */
import {describe, expect, it} from 'vitest'

import {decide, decideDuplicate, type DecisionInput, findingsDigest, NO_FINDINGS, notifyTargets, type NotifyTarget, ownIssue} from '../../src/engine/notify.js'
import type {Finding, Severity} from '../../src/engine/rule.js'
import {formatMarker, ISSUE_TITLES, type ServerIssue} from '../../src/model/issue.js'
import {readIssueWorkflow} from '../../src/model/issue-workflow.js'
import {DEFAULT_WORKFLOW} from '../helpers/issue-store.js'

function finding(fingerprint: string, severity: Severity = 'high', project: {id: number; path: string} | null = {id: 2, path: 'acme/app'}, message = `message of ${fingerprint}`): Finding {
  return {ruleId: `rule/${fingerprint.slice(0, 1)}`, severity, message, project, role: null, subject: fingerprint, pointer: '', fingerprint}
}

const APP = {id: 2, path: 'acme/app'}
/** notify's account, and a project member's. */
const ME = 1
const MEMBER = 7

function target(findings: Finding[]): NotifyTarget {
  return {scope: {kind: 'project', id: 2}, project: APP, findings}
}

function issue(overrides: Partial<ServerIssue> & {digest?: string | null} = {}): ServerIssue {
  const {digest = null, ...rest} = overrides
  return {
    id: 50,
    number: 7,
    projectId: 2,
    title: ISSUE_TITLES.project,
    description: digest === null ? 'no marker' : `${formatMarker({scope: {kind: 'project', id: 2}, findings: digest})}\n\ntext`,
    state: 'Open',
    confidential: true,
    submitterId: ME,
    ...rest,
  }
}

const workflow = readIssueWorkflow(DEFAULT_WORKFLOW)
const view = {workflow, transitions: workflow.transitions}

function input(findings: Finding[], existing: ServerIssue | null, overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {target: target(findings), issue: existing, workflow: view, closedState: 'Closed', fields: {}, ...overrides}
}

const two = [finding('a1'), finding('b1', 'critical')]
const digestOfTwo = findingsDigest(two)

describe('findingsDigest', () => {
  it('is the same for the same findings in any order and with any wording, and differs when one is added, removed or changes severity', () => {
    expect(findingsDigest([...two].reverse())).toBe(digestOfTwo)
    expect(findingsDigest([finding('a1', 'high', APP, 'reworded'), finding('b1', 'critical', APP, 'also reworded')])).toBe(digestOfTwo)
    expect(findingsDigest([finding('a1')])).not.toBe(digestOfTwo)
    expect(findingsDigest([...two, finding('c1')])).not.toBe(digestOfTwo)
    expect(findingsDigest([finding('a1', 'medium'), finding('b1', 'critical')])).not.toBe(digestOfTwo)
    expect(digestOfTwo).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(findingsDigest([])).toBe(NO_FINDINGS)
  })
})

describe('decide', () => {
  it('opens an issue for findings without one, and does nothing without findings or issue', () => {
    expect(decide(input(two, null))).toEqual({kind: 'open', digest: digestOfTwo})
    expect(decide(input([], null))).toEqual({kind: 'none'})
  })

  it('leaves an open issue alone while its findings are the same: no write', () => {
    expect(decide(input(two, issue({digest: digestOfTwo})))).toEqual({kind: 'unchanged', issue: issue({digest: digestOfTwo})})
    expect(decide(input([...two].reverse(), issue({digest: digestOfTwo, state: 'In Progress'}))).kind).toBe('unchanged')
  })

  it('updates it when the findings changed, or when its marker was edited away', () => {
    const existing = issue({digest: findingsDigest([finding('a1')])})
    expect(decide(input(two, existing))).toEqual({kind: 'update', issue: existing, digest: digestOfTwo, was: findingsDigest([finding('a1')])})
    expect(decide(input(two, issue({digest: null})))).toMatchObject({kind: 'update', was: null})
    // It said none was left (a transition that failed last time), and findings came back.
    expect(decide(input(two, issue({digest: NO_FINDINGS})))).toMatchObject({kind: 'update', was: NO_FINDINGS})
  })

  it('closes it when no finding is left: a manual transition to Closed, then the description (unless it already says so)', () => {
    const closing = decide(input([], issue({digest: digestOfTwo, state: 'In Progress'})))
    expect(closing).toMatchObject({kind: 'close', describe: true, transition: {conditional: false, transition: {pointer: '/transitionSpecs/1'}}, fields: {}})
    expect(decide(input([], issue({digest: NO_FINDINGS})))).toMatchObject({kind: 'close', describe: false})
  })

  it('leaves a closed issue closed without findings, and reopens it (to the first state) when they come back', () => {
    expect(decide(input([], issue({digest: NO_FINDINGS, state: 'Closed'})))).toMatchObject({kind: 'unchanged'})
    // Closed, but its description still lists findings (the description after the transition failed): it says none is left now.
    const stale = issue({digest: digestOfTwo, state: 'Closed'})
    expect(decide(input([], stale))).toEqual({kind: 'update', issue: stale, digest: NO_FINDINGS, was: digestOfTwo})
    expect(decide(input(two, issue({digest: NO_FINDINGS, state: 'Closed'})))).toMatchObject({kind: 'reopen', toState: 'Open', digest: digestOfTwo, transition: {conditional: false}})
  })

  it('leaves closed an issue someone closed while the same findings remain, and reopens it when they change', () => {
    const closedByHand = decide(input(two, issue({digest: digestOfTwo, state: 'Closed'})))
    expect(closedByHand).toMatchObject({kind: 'unchanged', note: expect.stringContaining('left closed')})
    expect(decide(input([...two, finding('c1')], issue({digest: digestOfTwo, state: 'Closed'})))).toMatchObject({kind: 'reopen'})
  })

  it('never writes findings into an issue that is not confidential', () => {
    const open = decide(input(two, issue({digest: NO_FINDINGS, confidential: false})))
    expect(open).toMatchObject({kind: 'refused', reason: expect.stringContaining('issue #7 is not confidential')})
    expect(decide(input(two, issue({digest: NO_FINDINGS, confidential: false, state: 'Closed'})))).toMatchObject({kind: 'refused'})
    // Closing writes no finding: allowed.
    expect(decide(input([], issue({digest: digestOfTwo, confidential: false})))).toMatchObject({kind: 'close'})
  })

  it('refuses to close or reopen without a transition that leads there, or without the state, naming what is missing', () => {
    const noManual = readIssueWorkflow({...DEFAULT_WORKFLOW, transitionSpecs: [{'@type': 'ManualSpec', fromStates: ['Open'], toStates: ['In Progress'], authorizedRoles: []}]})
    const refused = decide(input([], issue({digest: digestOfTwo}), {workflow: {workflow: noManual, transitions: noManual.transitions}}))
    expect(refused).toEqual({kind: 'refused', issue: issue({digest: digestOfTwo}), reason: 'cannot close issue #7: no manual transition of the issue workflow leads from "Open" to "Closed"; add one (Administration → Issue Settings → State Transitions)'})
    expect(decide(input([], issue({digest: digestOfTwo}), {closedState: 'Done'}))).toMatchObject({kind: 'refused', reason: 'cannot close issue #7: the issue workflow has no state "Done" (set notify.closedState to the state notify closes its issues in)'})
    expect(decide(input(two, issue({state: 'Closed', digest: NO_FINDINGS}), {workflow: null}))).toMatchObject({kind: 'refused', reason: expect.stringContaining('could not be read')})
  })

  it('opens and updates without the workflow (nothing to judge), but cannot close', () => {
    expect(decide(input(two, null, {workflow: null}))).toMatchObject({kind: 'open'})
    expect(decide(input(two, issue({digest: NO_FINDINGS}), {workflow: null}))).toMatchObject({kind: 'update'})
    expect(decide(input([], issue({digest: digestOfTwo}), {workflow: null}))).toMatchObject({kind: 'refused'})
  })

  it('refuses to open an issue the server would refuse for a required field without default, naming the field, unless the configuration fills it', () => {
    const strict = readIssueWorkflow({...DEFAULT_WORKFLOW, fieldSpecs: [...DEFAULT_WORKFLOW.fieldSpecs, {'@type': 'TextField', name: 'Severity', allowEmpty: false}]})
    const strictView = {workflow: strict, transitions: strict.transitions}
    expect(decide(input(two, null, {workflow: strictView}))).toEqual({
      kind: 'refused',
      issue: null,
      reason: 'cannot open an issue: the issue field "Severity" is required and has no default value; set notify.fields["Severity"] in the configuration',
    })
    expect(decide(input(two, null, {workflow: strictView, fields: {Severity: ['High']}}))).toMatchObject({kind: 'open'})
  })

  it("fills a transition's prompt fields from the configuration, and refuses one it cannot fill", () => {
    const prompting = readIssueWorkflow({
      ...DEFAULT_WORKFLOW,
      fieldSpecs: [...DEFAULT_WORKFLOW.fieldSpecs, {'@type': 'TextField', name: 'Resolution', allowEmpty: false, promptUponIssueOpen: false}],
      transitionSpecs: [{'@type': 'ManualSpec', fromStates: [], toStates: [], authorizedRoles: [], promptFields: ['Resolution']}],
    })
    const promptingView = {workflow: prompting, transitions: prompting.transitions}
    expect(decide(input([], issue({digest: digestOfTwo}), {workflow: promptingView}))).toMatchObject({kind: 'refused', reason: expect.stringContaining('cannot close issue #7: the issue field "Resolution" is required')})
    expect(decide(input([], issue({digest: digestOfTwo}), {workflow: promptingView, fields: {Resolution: ['Fixed'], Type: ['Task']}}))).toMatchObject({kind: 'close', fields: {Resolution: ['Fixed']}})
  })
})

describe('ownIssue', () => {
  it("takes only the issues notify's account opened: the oldest one whose marker names the target, or with notify's title and no marker", () => {
    const t = target(two)
    const marked = issue({id: 60, number: 9, digest: digestOfTwo})
    const markedClosed = issue({id: 61, number: 3, digest: digestOfTwo, state: 'Closed'})
    const titled = issue({id: 62, number: 1, digest: null})
    const otherTitle = issue({id: 63, number: 2, digest: null, title: 'onedev-audit: security findings elsewhere'})
    const otherProject = issue({id: 64, number: 4, digest: digestOfTwo, projectId: 3})
    const serverMarker = issue({id: 65, number: 5, description: formatMarker({scope: {kind: 'server'}, findings: NO_FINDINGS})})
    expect(ownIssue([titled, otherTitle, markedClosed, marked, otherProject, serverMarker], t, ME, 'Closed')).toEqual({issue: titled, duplicates: [marked], lookalikes: []})
    expect(ownIssue([marked, markedClosed], t, ME, 'Closed')).toEqual({issue: markedClosed, duplicates: [marked], lookalikes: []})
    expect(ownIssue([otherTitle, otherProject, serverMarker], t, ME, 'Closed')).toEqual({issue: null, duplicates: [], lookalikes: []})
    expect(ownIssue([serverMarker], {scope: {kind: 'server'}, project: APP, findings: []}, ME, 'Closed').issue).toBe(serverMarker)
  })

  it("never takes another account's issue, whatever it copies (title, marker, confidential or not), nor one whose submitter is unknown: they are look-alikes", () => {
    const t = target(two)
    const mine = issue({id: 70, number: 5, digest: digestOfTwo, state: 'Closed'})
    const copiedMarker = issue({id: 71, number: 6, digest: digestOfTwo, submitterId: MEMBER})
    const copiedTitle = issue({id: 72, number: 2, digest: null, submitterId: MEMBER, confidential: false})
    const nobodys = issue({id: 73, number: 7, digest: digestOfTwo, submitterId: null})
    expect(ownIssue([copiedMarker, nobodys, mine, copiedTitle], t, ME, 'Closed')).toEqual({issue: mine, duplicates: [], lookalikes: [copiedTitle, copiedMarker, nobodys]})
    // An account that opened no issue yet has none.
    expect(ownIssue([mine, copiedMarker], t, null, 'Closed')).toEqual({issue: null, duplicates: [], lookalikes: [mine, copiedMarker]})
  })
})

describe('decideDuplicate', () => {
  const kept = issue({id: 80, number: 1, digest: digestOfTwo})
  const second = issue({id: 81, number: 2, digest: digestOfTwo})
  const context = {target: target(two), workflow: view, closedState: 'Closed', fields: {}}

  it('closes the newer of two issues of notify through a manual transition, unless the issue kept changes state this run (one transition per run)', () => {
    expect(decideDuplicate(context, second, decide(input(two, kept)))).toMatchObject({kind: 'close', issue: second, toState: 'Closed', transition: {conditional: false}})
    expect(decideDuplicate(context, second, decide(input([], kept)))).toEqual({kind: 'later', issue: second})
  })

  it('says why it cannot close one', () => {
    const noManual = readIssueWorkflow({...DEFAULT_WORKFLOW, transitionSpecs: []})
    expect(decideDuplicate({...context, workflow: {workflow: noManual, transitions: []}}, second, decide(input(two, kept)))).toEqual({
      kind: 'refused',
      issue: second,
      reason: 'cannot close the duplicate issue #2: no manual transition of the issue workflow leads from "Open" to "Closed"; add one (Administration → Issue Settings → State Transitions)',
    })
  })
})

describe('notifyTargets', () => {
  it('gives every judged project a target (with its findings at or above the threshold, or none), and the server-wide findings one in the configured project', () => {
    const server = finding('s1', 'critical', null)
    const low = finding('l1', 'low')
    const elsewhere = finding('x1', 'high', {id: 9, path: 'not/judged'})
    const projects = [APP, {id: 4, path: 'acme/empty'}]
    const {targets, unrouted} = notifyTargets([...two, server, low, elsewhere], {threshold: 'high', projects, serverProject: {id: 1, path: 'acme'}, serverJudged: true})
    expect(targets.map((t) => [t.scope, t.project.path, t.findings.map((f) => f.fingerprint)])).toEqual([
      [{kind: 'project', id: 2}, 'acme/app', ['a1', 'b1']],
      [{kind: 'project', id: 4}, 'acme/empty', []],
      [{kind: 'server'}, 'acme', ['s1']],
    ])
    expect(unrouted).toEqual([])
    const unconfigured = notifyTargets([...two, server], {threshold: 'critical', projects, serverProject: null, serverJudged: true})
    expect(unconfigured.unrouted).toEqual([server])
    expect(unconfigured.targets[0]!.findings).toEqual([two[1]])
    expect(notifyTargets([server], {threshold: 'high', projects, serverProject: {id: 1, path: 'acme'}, serverJudged: false}).targets.map((t) => t.scope.kind)).toEqual(['project', 'project'])
  })
})
