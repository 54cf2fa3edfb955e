import {describe, expect, it} from 'vitest'

import {ancestorsOf} from '../../src/engine/evaluate.js'
import {ProjectFacts, ServerFacts} from '../../src/engine/facts.js'
import {projectAuthorizationsOf} from '../../src/model/access-data.js'
import type {AuditModel} from '../../src/model/types.js'
import {accessIndexOf, chainAuthorizations, principalsOf, roleHoldingsOf} from '../../src/onedev/access.js'
import {accessModel} from '../helpers/access-builders.js'
import {project} from '../helpers/model-builders.js'

const ids = {root: 1, alice: 2, bob: 3, carol: 4, bot: 5}
const USERS = [
  {id: 1, name: 'admin'},
  {id: 2, name: 'alice'},
  {id: 3, name: 'bob'},
  {id: 4, name: 'carol', disabled: true},
  {id: 5, name: 'ci-bot', type: 'SERVICE'},
]
const GROUPS = [
  {id: 1, name: 'Administrators', administrator: true},
  {id: 2, name: 'devs'},
]

function tree() {
  const top = project({id: 1, path: 'org'})
  const middle = project({id: 2, path: 'org/team', parentId: 1})
  const leaf = project({id: 3, path: 'org/team/app', parentId: 2})
  return {top, middle, leaf}
}

/** The access command's table for one principal, as the command builds it (src/commands/access.ts). */
function capabilitiesOf(m: AuditModel, projectId: number, name: string, branch = 'main') {
  const p = m.projectsById.get(projectId)!
  const facts = new ProjectFacts(new ServerFacts(m, {branches: [], tags: [], protectionSemantics: 'first-match'}), p, ancestorsOf(p, m))
  return facts.capabilities({name: branch, reason: 'given'}, name)
}

function capabilityIds(m: AuditModel, projectId: number, name: string, branch = 'main') {
  return capabilitiesOf(m, projectId, name, branch).map((x) => ({kind: x.kind, ids: x.capabilities.map((c) => c.id)}))
}

const principalsOfProject = (m: AuditModel, p: {id: number}) => principalsOf(accessIndexOf(m), chainAuthorizations(m, m.projectsById.get(p.id)!, (own) => projectAuthorizationsOf(m, own)))

describe('principals and what they may do', () => {
  it('every principal kind, with grants inherited through two ancestors', () => {
    const {top, middle, leaf} = tree()
    const m = accessModel({
      projects: [leaf],
      ancestors: [middle, top],
      security: {enableAnonymousAccess: true},
      groups: GROUPS,
      members: {1: [ids.alice], 2: [ids.bob, ids.carol]},
      users: USERS,
      base: {1: [3]},
      groupGrants: {2: [[2, 2]]},
      userGrants: {1: [[ids.carol, 1]], 3: [[ids.bot, 4]]},
    })
    const principals = principalsOfProject(m, leaf)
    expect(principals.map((p) => `${p.kind}:${p.name}`)).toEqual(['anonymous:anonymous', 'everyone:everyone', 'group:Administrators', 'group:devs', 'administrator:admin', 'administrator:alice', 'user:ci-bot'])
    // Code Reader from the grandparent reaches anonymous users (read only) and everyone.
    expect(capabilityIds(m, 3, 'anonymous')).toEqual([{kind: 'anonymous', ids: ['read-code']}])
    expect(capabilityIds(m, 3, 'everyone')).toEqual([{kind: 'everyone', ids: ['read-code']}])
    // Code Writer of devs on the parent: write, and no protection on main.
    const caps = capabilitiesOf(m, 3, 'devs')[0]!.capabilities
    expect(caps.find((c) => c.id === 'write-code')?.via).toEqual([{role: 'Code Writer', project: 'org/team'}])
    expect(caps.map((c) => c.id)).toEqual(['read-code', 'write-code', 'push-without-review', 'force-push', 'delete-branch', 'create-branch', 'run-jobs'])
    // The disabled user holds nothing: not listed although she owns the root project.
    expect(principals.some((p) => p.name === 'carol')).toBe(false)
    expect(capabilityIds(m, 3, 'alice')[0]!.ids).toContain('administer')
    expect(accessIndexOf(m).administrators!.map((a) => a.user.name)).toEqual(['admin', 'alice'])
  })

  it('anonymous users are absent when anonymous access is off, and never get write', () => {
    const {top} = tree()
    const off = accessModel({projects: [top], security: {enableAnonymousAccess: false}, groups: [], users: [], base: {1: [2]}})
    expect(principalsOfProject(off, top).map((p) => p.kind)).toEqual(['everyone'])
    const on = accessModel({projects: [top], security: {enableAnonymousAccess: true}, groups: [], users: [], base: {1: [2]}})
    expect(capabilityIds(on, 1, 'anonymous')).toEqual([{kind: 'anonymous', ids: ['read-code']}])
    expect(capabilityIds(on, 1, 'everyone')[0]!.ids).toContain('write-code')
  })

  it('servers before 11.11: the project default role stands for base authorizations', () => {
    const {top, middle} = tree()
    top.defaultRoleId = 2
    middle.defaultRoleId = null
    const m = accessModel({projects: [middle], ancestors: [top], groups: [], users: [], groupGrants: {}, userGrants: {}})
    delete m.serverData!['projects/1/base-authorizations']
    delete m.serverData!['projects/2/base-authorizations']
    expect(capabilityIds(m, 2, 'everyone')[0]!.ids).toContain('write-code')
    expect(roleHoldingsOf(m)!.byRole.get(2)!.base).toEqual(new Set(['org']))
  })

  it('servers before 11.9.2: an administrator default login group makes every logged-in user an administrator', () => {
    const {top} = tree()
    const m = accessModel({projects: [top], security: {defaultLoginGroupName: 'Administrators'}, groups: GROUPS, users: USERS, base: {}})
    expect(capabilityIds(m, 1, 'everyone')[0]!.ids).toContain('administer')
  })

  it('branch capabilities follow the protection that applies to each principal (user and group matches)', () => {
    const leaf = project({
      id: 9,
      path: 'app',
      branchProtections: [
        {branches: 'main', userMatch: 'user(bob)', preventForcedPush: false, preventDeletion: false, preventCreation: false, reviewRequirement: null},
        {branches: 'main', userMatch: 'anyone', preventForcedPush: true, preventDeletion: true, preventCreation: true, reviewRequirement: 'group(devs)'},
      ],
      jobSecrets: [{name: 'deploy', authorization: 'on branch "main"'}, {name: 'any', authorization: 'on branch "**"'}],
    })
    const m = accessModel({projects: [leaf], groups: GROUPS, members: {2: [ids.bob]}, users: USERS, groupGrants: {9: [[2, 2]]}, userGrants: {9: [[ids.bob, 2]]}})
    expect(capabilityIds(m, 9, 'bob')[0]!.ids).toEqual(['read-code', 'write-code', 'push-without-review', 'force-push', 'delete-branch', 'create-branch', 'run-jobs', 'read-secret:deploy', 'read-secret:any'])
    // Everyone else in devs: reviews on main, and creation of new branches still reaches `any`.
    expect(capabilityIds(m, 9, 'devs')[0]!.ids).toEqual(['read-code', 'write-code', 'run-jobs', 'read-secret:any'])
  })
})

describe('group memberships, indexed once per model', () => {
  it('a user in several groups holds the grants of each, their groups in the order of the groups listing', () => {
    const {top} = tree()
    const groups = [{id: 7, name: 'ops'}, {id: 3, name: 'devs'}, {id: 5, name: 'qa'}]
    const m = accessModel({projects: [top], groups, members: {7: [ids.bob], 3: [ids.alice, ids.bob], 5: [ids.bob, ids.bob]}, users: USERS, userGrants: {1: [[ids.bob, 4]]}, groupGrants: {1: [[7, 3], [5, 6]]}})
    const bob = principalsOfProject(m, top).find((p) => p.name === 'bob')!
    expect(bob.match.groups).toEqual(['ops', 'devs', 'qa'])
    expect(bob.grants.map((g) => `${g.source}:${g.role.name}`)).toEqual(['user:Issue Reporter', 'group:Code Reader', 'group:Builder'])
    const index = accessIndexOf(m)
    expect(index.groupIdsByUser.get(ids.bob)).toEqual([7, 3, 5])
    expect(index.groupIdsByUser.get(ids.alice)).toEqual([3])
    expect(index.groupIdsByUser.get(ids.root)).toBeUndefined()
  })

  it('two models with the same groups but other memberships each answer with their own', () => {
    const {top} = tree()
    const first = accessModel({projects: [top], groups: [{id: 2, name: 'devs'}], members: {2: [ids.alice]}, users: USERS})
    const second = accessModel({projects: [top], groups: [{id: 2, name: 'devs'}], members: {2: [ids.bob]}, users: USERS})
    expect(accessIndexOf(first).groupIdsByUser.get(ids.alice)).toEqual([2])
    expect(accessIndexOf(second).groupIdsByUser.get(ids.alice)).toBeUndefined()
    expect(accessIndexOf(second).groupIdsByUser.get(ids.bob)).toEqual([2])
  })
})
