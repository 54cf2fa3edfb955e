/**
 * Fingerprints name what a finding is about, never where it sits: for random servers of both payload
 * generations (./arbitraries.ts), changing the order of every list whose order the server gives no
 * meaning to (everything but branch, tag and file protections), and putting an unrelated item at the
 * front of each, keeps every fingerprint; the only new fingerprints are those of findings about the
 * inserted items. Protection lists keep their order (the first match decides); a protection appended
 * at the end keeps every fingerprint too. The same for the issue setting's lists.
 */
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {type ActiveRule, evaluate} from '../../src/engine/evaluate.js'
import type {AuditSettings, Finding} from '../../src/engine/rule.js'
import {normalizeIssueSetting} from '../../src/model/issue-setting.js'
import type {PayloadGeneration} from '../../src/model/types.js'
import {builtinRules} from '../../rules/index.js'
import {model} from '../helpers/model-builders.js'
import {modelOf, settingsOf, wellFormedWorld, world} from './arbitraries.js'

const rules = builtinRules
/** Mostly well-formed servers (they reach every rule), some hostile ones. */
const servers = fc.oneof({weight: 3, arbitrary: wellFormedWorld}, {weight: 1, arbitrary: world})
const active: ActiveRule[] = rules.map((rule) => ({rule, options: {...(rule.meta.defaultOptions ?? {})}}))

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)
const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** A deterministic random source from a fast-check seed (mulberry32), so a failure replays. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Changes a payload in place and records the pointers of what it added. */
class Changer {
  readonly added: string[] = []
  constructor(private readonly random: () => number) {}

  shuffle(list: unknown[]): void {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1))
      ;[list[i], list[j]] = [list[j], list[i]]
    }
  }

  /** Shuffles `object[key]` when it is a list, and puts `item` (if any) first. Returns the list. */
  reorder(object: Json, key: string, base: string, item?: unknown): unknown[] {
    const list = object[key]
    if (!Array.isArray(list)) return []
    this.shuffle(list)
    if (item !== undefined) {
      list.unshift(item)
      this.added.push(`${base}/${escapeToken(key)}/0`)
    }
    return list
  }

  /** Appends `item` to `object[key]` (a new list when there is none). */
  append(object: Json, key: string, base: string, item: unknown): void {
    if (object[key] === undefined) object[key] = []
    const list = object[key]
    if (!Array.isArray(list)) return
    this.added.push(`${base}/${escapeToken(key)}/${list.length}`)
    list.push(item)
  }

  /** Whether `pointer` is in something this changer added. */
  owns(pointer: string): boolean {
    return this.added.some((added) => pointer === added || pointer.startsWith(`${added}/`))
  }
}

/** Every unordered list of a project setting reordered, an unrelated item first in each. */
function reorderProject(raw: unknown, generation: PayloadGeneration, id: number, changer: Changer): unknown {
  const copy = structuredClone(raw)
  if (!isObject(copy)) return copy
  const name = `zz-inserted-p${id}`
  const url = (path: string) => `http://${name}.example.net/${path}`
  const build = copy['buildSetting']
  if (isObject(build)) {
    const secret = generation === 'legacy' ? {name, value: 'inserted', authorizedBranches: '**'} : {name, value: 'inserted', authorization: 'on branch "**"'}
    changer.reorder(build, 'jobSecrets', '/buildSetting', secret)
    changer.reorder(build, 'actionAuthorizations', '/buildSetting', {'@type': 'CreateTagAuthorization', authorizedBranches: '**', tagNames: `${name}-*`})
  }
  for (const hook of changer.reorder(copy, 'webHooks', '', {postUrl: url('hook'), eventTypes: ['BUILD', 'CODE_PUSH'], secret: null, headers: []})) {
    if (!isObject(hook)) continue
    changer.reorder(hook, 'eventTypes', '')
    changer.reorder(hook, 'headers', '')
  }
  const contributed = copy['contributedSettings']
  if (Array.isArray(contributed)) {
    changer.reorder(copy, 'contributedSettings', '', {'@type': 'DiscordNotificationSetting', notifications: [{webhookUrl: url('discord'), issues: true}]})
    contributed.forEach((entry, i) => {
      if (i > 0 && isObject(entry)) changer.reorder(entry, 'notifications', `/contributedSettings/${i}`, {webhookUrl: url('slack'), issues: true})
    })
  } else if (isObject(contributed)) {
    const keys = Object.keys(contributed)
    changer.shuffle(keys)
    const discord = 'io.onedev.server.plugin.notification.discord.DiscordNotificationSetting'
    const reordered: Json = {[discord]: {'@type': 'DiscordNotificationSetting', notifications: [{channelNotification: {webhookUrl: url('discord')}}]}}
    changer.added.push(`/contributedSettings/${escapeToken(discord)}`)
    for (const key of keys) {
      const entry = contributed[key]
      reordered[key] = entry
      if (isObject(entry)) changer.reorder(entry, 'notifications', `/contributedSettings/${escapeToken(key)}`, {channelNotification: {webhookUrl: url('slack'), issues: true}})
    }
    copy['contributedSettings'] = reordered
  }
  // Inside a protection, the required jobs are a set.
  for (const protection of Array.isArray(copy['branchProtections']) ? copy['branchProtections'] : []) {
    if (!isObject(protection)) continue
    changer.reorder(protection, 'jobNames', '')
    for (const file of Array.isArray(protection['fileProtections']) ? protection['fileProtections'] : []) if (isObject(file)) changer.reorder(file, 'jobNames', '')
  }
  return copy
}

/** The roles listing reordered with a new role first; each role's job privileges reordered with a new one first. */
function reorderRoles(roles: unknown[], changer: Changer): unknown[] {
  const copy = structuredClone(roles)
  changer.shuffle(copy)
  for (const role of copy) if (isObject(role)) changer.reorder(role, 'jobPrivileges', '', {jobNames: 'zz-inserted-*', runJob: true})
  copy.unshift({id: 999, name: 'zz-inserted-role', manageProject: true, manageBuilds: true})
  return copy
}

/** A protection appended at the end of each protection list (and a file protection in each branch protection), matching no checked name. */
function appendProtections(raw: unknown, changer: Changer, random: () => number): unknown {
  const copy = structuredClone(raw)
  if (!isObject(copy)) return copy
  const flag = () => random() < 0.5
  const branches = copy['branchProtections']
  if (Array.isArray(branches)) {
    branches.forEach((protection, i) => {
      if (isObject(protection) && Array.isArray(protection['fileProtections'])) changer.append(protection, 'fileProtections', `/branchProtections/${i}`, {paths: 'zz-appended/**', reviewRequirement: null})
    })
  }
  const common = {userMatch: 'anyone', enabled: flag(), preventDeletion: flag(), preventCreation: flag(), commitSignatureRequired: flag(), signatureRequired: flag()}
  changer.append(copy, 'branchProtections', '', {...common, branches: 'zz-appended/**', preventForcedPush: flag(), reviewRequirement: flag() ? 'group(devs)' : null, jobNames: flag() ? ['ci'] : []})
  changer.append(copy, 'tagProtections', '', {...common, tags: 'zz-appended-*', preventUpdate: flag()})
  return copy
}

const describeFinding = (f: Finding) => `${f.ruleId} ${f.project?.path ?? f.role?.name ?? ''} ${f.subject} ${f.pointer}`

function uniqueFingerprints(findings: Finding[]): Set<string> {
  const prints = new Set(findings.map((f) => f.fingerprint))
  expect(prints.size, 'fingerprints are unique').toBe(findings.length)
  return prints
}

/** Every old fingerprint is kept; every new one belongs to a finding `isAdded` says is about an added item. */
function expectStable(before: Finding[], after: Finding[], isAdded: (f: Finding) => boolean): void {
  const beforePrints = uniqueFingerprints(before)
  const afterPrints = uniqueFingerprints(after)
  expect(before.filter((f) => !afterPrints.has(f.fingerprint)).map(describeFinding), 'lost fingerprints').toEqual([])
  expect(after.filter((f) => !beforePrints.has(f.fingerprint) && !isAdded(f)).map(describeFinding), 'new fingerprints not about an added item').toEqual([])
}

describe('fingerprints of random servers', () => {
  it('survive reordered lists and an unrelated item first in each (projects, roles, job privileges; branch and tag lists reordered)', async () => {
    await fc.assert(
      fc.asyncProperty(servers, fc.integer(), async (generated, seed) => {
        // Role ids are unique on a server (ingest leaves a second role with the same id out, whichever comes second).
        const w = {...generated, roles: generated.roles.filter((role, i) => generated.roles.findIndex((r) => r.id === role.id) === i)}
        const settings = settingsOf(w)
        const before = evaluate(await modelOf(w), active, settings)
        const random = randomOf(seed)
        const projectChangers = w.projects.map(() => new Changer(random))
        const raws = w.projects.map(([p], i) => reorderProject(p.raw, p.generation, i + 1, projectChangers[i]!))
        const roleChanger = new Changer(random)
        // The server's branch and tag lists are sets too (which branches and tags exist).
        const repositories = w.projects.map(([, , , repository]) => {
          if (!repository) return repository
          const copy = structuredClone(repository)
          if (copy.branches) roleChanger.shuffle(copy.branches)
          if (copy.tags) roleChanger.shuffle(copy.tags)
          return copy
        })
        const after = evaluate(await modelOf(w, raws, reorderRoles(w.roles, roleChanger), repositories), active, settings)
        expect(after.errors).toEqual([])
        expectStable(before.findings, after.findings, (f) =>
          f.role ? f.role.id === 999 || roleChanger.owns(f.pointer) : projectChangers[(f.source?.id ?? f.project!.id) - 1]!.owns(f.pointer),
        )
      }),
      {numRuns: 400},
    )
  })

  it('survive a protection appended at the end of every protection list', async () => {
    await fc.assert(
      fc.asyncProperty(servers, fc.integer(), async (w, seed) => {
        const settings = settingsOf(w)
        const before = evaluate(await modelOf(w), active, settings)
        const random = randomOf(seed)
        const changers = w.projects.map(() => new Changer(random))
        const raws = w.projects.map(([p], i) => appendProtections(p.raw, changers[i]!, random))
        const after = evaluate(await modelOf(w, raws), active, settings)
        expect(after.errors).toEqual([])
        expectStable(before.findings, after.findings, (f) => changers[(f.source?.id ?? f.project!.id) - 1]!.owns(f.pointer))
      }),
      {numRuns: 300},
    )
  })
})

// ---------------------------------------------------------------------------------------------
// The issue setting: states, fields, transitions (both shapes), boards.

const pick = <T>(...values: T[]) => fc.constantFrom(...values)
const rec = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) => fc.record(shape, {requiredKeys: []})
const stateName = pick('Open', 'In Review', 'Closed', 'Ghost')
const fieldName = pick('Type', 'Priority', 'Assignee', 'State', 'Missing')
const roles = fc.array(pick('Developer', 'Reporter', '{Assignee}', '{Missing}'), {maxLength: 2})

const issueSetting = rec({
  // Field names are unique: a duplicate field makes every reference to it ambiguous (duplicate-name reports it).
  fieldSpecs: fc.uniqueArray(
    rec({
      '@type': pick('ChoiceField', 'TextField', 'UserChoiceField'),
      name: pick('Type', 'Priority', 'Assignee'),
      allowMultiple: fc.boolean(),
      choiceProvider: fc.record({'@type': fc.constant('SpecifiedChoices'), choices: fc.array(fc.record({value: pick('Bug', 'Task', 'High')}), {maxLength: 3})}),
      showCondition: fc.record({inputName: fieldName}),
    }),
    {selector: (field) => field.name, maxLength: 3},
  ),
  stateSpecs: fc.array(rec({name: stateName, color: fc.constant('#fff')}), {maxLength: 4}),
  transitionSpecs: fc.array(
    fc.oneof(
      rec({
        '@type': pick('ManualSpec', 'BranchUpdatedSpec', 'BuildSuccessfulSpec'),
        fromStates: fc.array(stateName, {maxLength: 2}),
        toStates: fc.array(stateName, {maxLength: 2}),
        toState: stateName,
        removeFields: fc.array(fieldName, {maxLength: 2}),
        promptFields: fc.array(fieldName, {maxLength: 2}),
        authorizedRoles: roles,
      }),
      rec({
        fromStates: fc.array(stateName, {maxLength: 2}),
        toState: stateName,
        removeFields: fc.array(fieldName, {maxLength: 2}),
        trigger: rec({'@type': pick('PressButtonTrigger', 'StateTransitionTrigger'), authorizedRoles: roles, promptFields: fc.array(fieldName, {maxLength: 1})}),
      }),
    ),
    {maxLength: 4},
  ),
  boardSpecs: fc.array(
    rec({name: pick('Default', 'Triage'), identifyField: fieldName, columns: fc.array(fc.oneof(stateName, pick('Bug', 'Task'), fc.constant(null)), {maxLength: 3}), displayFields: fc.array(fieldName, {maxLength: 2})}),
    {maxLength: 3},
  ),
  listFields: fc.array(fieldName, {maxLength: 3}),
  namedQueries: fc.array(fc.record({name: pick('Open', 'Mine'), query: fc.constant('')}), {maxLength: 2}),
  listLinks: fc.constant([]),
  issueTemplates: fc.constant([]),
  reconciled: fc.boolean(),
})

/**
 * Every list reordered. Lists that are a set of names defined elsewhere (a transition's removed and
 * prompted fields, a board's displayed fields, the listed fields) and the top-level lists get an
 * unrelated item first; lists whose content is the identity or the finding itself (a transition's
 * states and roles, a board's columns, an empty state list) are only reordered.
 */
function reorderIssueSetting(raw: Json, changer: Changer): Json {
  const copy = structuredClone(raw)
  const states = copy['stateSpecs']
  const defined = Array.isArray(states) && states.some((state) => isObject(state) && typeof state['name'] === 'string')
  changer.reorder(copy, 'stateSpecs', '', defined ? {name: 'zz-inserted-state'} : undefined)
  for (const field of changer.reorder(copy, 'fieldSpecs', '', {'@type': 'TextField', name: 'zz-inserted-field'})) {
    if (isObject(field) && isObject(field['choiceProvider'])) changer.reorder(field['choiceProvider'], 'choices', '')
  }
  const transitions = changer.reorder(copy, 'transitionSpecs', '', {'@type': 'ManualSpec', fromStates: ['zz-inserted-state'], toStates: [], authorizedRoles: []})
  transitions.forEach((transition, i) => {
    if (!isObject(transition)) return
    const base = `/transitionSpecs/${i}`
    for (const key of ['fromStates', 'toStates', 'authorizedRoles']) changer.reorder(transition, key, base)
    for (const key of ['removeFields', 'promptFields']) changer.reorder(transition, key, base, 'zz-inserted-field')
    const trigger = transition['trigger']
    if (isObject(trigger)) {
      changer.reorder(trigger, 'authorizedRoles', `${base}/trigger`)
      changer.reorder(trigger, 'promptFields', `${base}/trigger`, 'zz-inserted-field')
    }
  })
  const boards = changer.reorder(copy, 'boardSpecs', '', {name: 'zz-inserted-board', identifyField: 'State', columns: []})
  boards.forEach((board, i) => {
    if (!isObject(board)) return
    changer.reorder(board, 'columns', `/boardSpecs/${i}`)
    changer.reorder(board, 'displayFields', `/boardSpecs/${i}`, 'zz-inserted-field')
  })
  changer.reorder(copy, 'listFields', '', 'zz-inserted-field')
  changer.reorder(copy, 'namedQueries', '', {name: 'zz-inserted-query', query: ''})
  return copy
}

describe('fingerprints of random issue settings', () => {
  const issueRules = active.filter((a) => a.rule.meta.scope === 'issue-setting')
  const settings: AuditSettings = {branches: [], tags: [], allowedAdminRoles: [], protectionSemantics: 'first-match'}
  const run = (raw: Json) => evaluate(model(), issueRules, settings, {setting: normalizeIssueSetting(raw), file: 'issue-setting.json'})

  it('survive reordered lists and an unrelated state, field, transition, board and name first', () => {
    fc.assert(
      fc.property(issueSetting, fc.integer(), (raw, seed) => {
        const before = run(raw)
        const changer = new Changer(randomOf(seed))
        const after = run(reorderIssueSetting(raw, changer))
        expect(after.errors).toEqual([])
        expectStable(before.findings, after.findings, (f) => changer.owns(f.pointer))
      }),
      {numRuns: 400},
    )
  })
})
