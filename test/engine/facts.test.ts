/**
 * The facts rules share (src/engine/facts.ts): what a plugin rule reads from its context, and that
 * each model judged gets its own (nothing derived for one model reaches another).
 */
import {describe, expect, it} from 'vitest'

import {evaluate} from '../../src/engine/evaluate.js'
import {ProjectFacts, ServerFacts} from '../../src/engine/facts.js'
import {defineRule} from '../../src/engine/rule.js'
import directPush from '../../rules/access/direct-push.js'
import {accessModel} from '../helpers/access-builders.js'
import {model, project} from '../helpers/model-builders.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'

const USERS = [
  {id: 1, name: 'admin'},
  {id: 2, name: 'alice'},
  {id: 3, name: 'bob'},
]
const CODE_WRITER = 2

/** A plugin rule as a user writes one: it reads the project's facts and the run's. */
const pluginProjectRule = defineRule({
  meta: {id: 'plugin/who-may-push', shortDescription: 's', fullDescription: 'f', defaultSeverity: 'low', help: 'h', tags: [], scope: 'project'},
  check(context) {
    if (context.scope !== 'project') return []
    const {facts} = context
    return facts.checkedBranches.map((ref) => {
      const effective = facts.effectiveBranchProtection(ref.name, {kind: 'others'})
      const writers = (facts.codeWriters ?? []).map((p) => `${p.kind}:${p.name}`).join(',')
      const direct = (facts.codeWriters ?? []).filter((p) => facts.branchAccess(ref.name, p).pushWithoutReview).map((p) => p.name)
      return {subject: ref.name, pointer: '', message: `${effective?.sources[0]?.item.pointer ?? 'none'} | writers ${writers} | direct ${direct.join(',')} | admins ${facts.server.access.administrators?.length}`}
    })
  },
})

const pluginServerRule = defineRule({
  meta: {id: 'plugin/admins', shortDescription: 's', fullDescription: 'f', defaultSeverity: 'low', help: 'h', tags: [], scope: 'server'},
  check(context) {
    if (context.scope !== 'server') return []
    return [{subject: 'admins', pointer: '', message: (context.facts.access.administrators ?? []).map((a) => a.user.name).join(',')}]
  },
})

describe('facts', () => {
  it('a plugin rule reads the project facts and the run facts from its context', () => {
    const app = project({
      id: 1,
      path: 'app',
      branchProtections: [
        {branches: 'main', userMatch: 'user(bob)', reviewRequirement: null},
        {branches: 'main', userMatch: 'anyone', reviewRequirement: 'group(devs)'},
      ],
    })
    const m = accessModel({
      projects: [app],
      groups: [{id: 1, name: 'Administrators', administrator: true}, {id: 2, name: 'devs'}],
      members: {1: [1], 2: [2, 3]},
      users: USERS,
      groupGrants: {1: [[2, CODE_WRITER]]},
    })
    const rules = [pluginProjectRule, pluginServerRule].map((rule) => ({rule, options: {}}))
    const messages = evaluate(m, rules, DEFAULT_SETTINGS).findings.map((f) => `${f.ruleId} ${f.message}`)
    // bob is named by a protection (a principal of his own) and the first protection lets him push
    // without review; everyone else, root included, gets the second one, which requires devs' review.
    expect(messages).toEqual([
      'plugin/admins admin',
      'plugin/who-may-push /branchProtections/1 | writers group:Administrators,group:devs,administrator:admin,user:bob | direct bob | admins 1',
    ])
  })

  it('each model judged gets its own facts, though they share project objects', () => {
    const top = project({id: 1, path: 'org'})
    const first = accessModel({projects: [top], groups: [], users: USERS, userGrants: {1: [[2, CODE_WRITER]]}})
    const second = accessModel({projects: [top], groups: [], users: USERS, userGrants: {1: [[3, CODE_WRITER]]}})
    const pushers = (m: typeof first) => evaluate(m, [{rule: directPush, options: {}}], DEFAULT_SETTINGS).findings.map((f) => f.message.split(': ')[1]!.split('.')[0])
    expect(pushers(first)).toEqual(['user alice, administrator (admin)'])
    expect(pushers(second)).toEqual(['user bob, administrator (admin)'])
    expect(pushers(first)).toEqual(['user alice, administrator (admin)'])
  })

  it('parses each distinct text once per run, and remembers answers per project', () => {
    const protections = [{branches: 'main', userMatch: 'anyone'}, {branches: 'release/**', userMatch: 'user('}]
    const a = project({id: 1, branchProtections: protections})
    const b = project({id: 2, branchProtections: protections})
    const server = new ServerFacts(model({projects: [a, b]}), DEFAULT_SETTINGS)
    const [ha, hb] = [new ProjectFacts(server, a, []).branchHierarchy, new ProjectFacts(server, b, []).branchHierarchy]
    expect(ha[0]!.patterns).toBe(hb[0]!.patterns)
    expect(ha[0]!.userMatch).toBe(hb[0]!.userMatch)
    // A userMatch that does not parse: that protection never applies.
    expect(ha[1]!.userMatch).toBeNull()
    const facts = new ProjectFacts(server, a, [])
    expect(facts.effectiveBranchProtection('release/1', {kind: 'others'})).toBeNull()
    const main = facts.effectiveBranchProtection('main', {kind: 'others'})
    expect(main?.sources.map((s) => s.item.pointer)).toEqual(['/branchProtections/0'])
    expect(facts.effectiveBranchProtection('main', {kind: 'others'})).toBe(main)
    expect(facts.protectedBranches.map((p) => p.branch)).toEqual(['main'])
  })

  it('keeps the own authorizations of ancestors for the run, and no leaf project\'s', () => {
    const org = project({id: 1, path: 'org'})
    const team = project({id: 2, path: 'org/team', parentId: 1})
    const app = project({id: 3, path: 'org/team/app', parentId: 2})
    const m = accessModel({projects: [org, team, app], groups: [], users: USERS, base: {1: [3], 3: [CODE_WRITER]}, userGrants: {2: [[2, CODE_WRITER]]}})
    const server = new ServerFacts(m, DEFAULT_SETTINGS)
    const chain = server.chainAuthorizations(app)
    expect(chain.base.map((e) => [e.project.path, e.authorization.roleId])).toEqual([
      ['org/team/app', CODE_WRITER],
      ['org', 3],
    ])
    expect(chain.user.map((e) => [e.project.path, e.authorization.userId])).toEqual([['org/team', 2]])
    // The ancestors, read once for every descendant's chain, are the same objects each time...
    expect(server.authorizationsOf(team)).toBe(server.authorizationsOf(team))
    expect(server.chainAuthorizations(team).user[0]!.authorization).toBe(chain.user[0]!.authorization)
    // ...while the leaf's are parsed again when asked (equal, not held by the run).
    expect(server.authorizationsOf(app)).toEqual(server.authorizationsOf(app))
    expect(server.authorizationsOf(app)).not.toBe(server.authorizationsOf(app))
  })
})
