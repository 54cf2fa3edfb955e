import {describe, expect, it} from 'vitest'

import {
  branchProtectionHierarchy,
  effectiveBranchProtection,
  effectiveFileProtection,
  effectiveTagProtection,
  parseEachTime,
  principalClasses,
  tagProtectionHierarchy,
} from '../../src/onedev/protection.js'
import {nearMisses, shadowerOf, weakerThanOthers} from '../../src/onedev/protection-judgement.js'
import {project} from '../helpers/model-builders.js'

const others = {kind: 'others'} as const

describe('hierarchy', () => {
  it('lists the project\'s own protections first, then each ancestor\'s, nearest first', () => {
    const grandparent = project({id: 1, path: 'acme', branchProtections: [{branches: 'g'}]})
    const parent = project({id: 2, path: 'acme/team', parentId: 1, branchProtections: [{branches: 'p1'}, {branches: 'p2'}]})
    const child = project({id: 3, path: 'acme/team/app', parentId: 2, branchProtections: [{branches: 'c'}]})
    const hierarchy = branchProtectionHierarchy(child, [parent, grandparent], parseEachTime)
    expect(hierarchy.map((l) => [l.projectId, l.item.branches, l.item.pointer])).toEqual([
      [3, 'c', '/branchProtections/0'],
      [2, 'p1', '/branchProtections/0'],
      [2, 'p2', '/branchProtections/1'],
      [1, 'g', '/branchProtections/0'],
    ])
  })

  it('a child\'s own protection wins over the parent\'s under first-match', () => {
    const parent = project({id: 1, branchProtections: [{branches: 'main', reviewRequirement: 'group(core)'}]})
    const child = project({id: 2, parentId: 1, branchProtections: [{branches: '**', preventForcedPush: false}]})
    const effective = effectiveBranchProtection(branchProtectionHierarchy(child, [parent], parseEachTime), 'main', others, 'first-match')
    expect(effective?.sources.map((s) => s.projectId)).toEqual([2])
    expect(effective?.preventForcedPush).toBe(false)
    expect(effective?.reviewRequirement).toEqual({users: [], groups: []})
  })

  it('inherits the parent\'s protection when the child has none that applies', () => {
    const parent = project({id: 1, branchProtections: [{branches: 'main', jobNames: ['ci']}]})
    const child = project({id: 2, parentId: 1, branchProtections: [{branches: 'develop'}]})
    const effective = effectiveBranchProtection(branchProtectionHierarchy(child, [parent], parseEachTime), 'main', others, 'first-match')
    expect(effective?.sources.map((s) => [s.projectId, s.item.pointer])).toEqual([[1, '/branchProtections/0']])
    expect(effective?.jobNames).toEqual(['ci'])
  })
})

describe('effectiveBranchProtection', () => {
  const twoRules = project({
    branchProtections: [
      {branches: '**', preventForcedPush: false, preventDeletion: true, jobNames: ['ci'], reviewRequirement: 'group(g)'},
      {branches: 'main', preventForcedPush: true, preventDeletion: false, signatureRequired: true, jobNames: ['lint'], reviewRequirement: 'user(a) group(g):2'},
    ],
  })
  const hierarchy = branchProtectionHierarchy(twoRules, [], parseEachTime)

  it('first-match takes only the first protection that applies', () => {
    const effective = effectiveBranchProtection(hierarchy, 'main', others, 'first-match')!
    expect(effective.sources.map((s) => s.item.pointer)).toEqual(['/branchProtections/0'])
    expect([effective.preventForcedPush, effective.preventDeletion, effective.signatureRequired]).toEqual([false, true, false])
    expect(effective.jobNames).toEqual(['ci'])
  })

  it('merged (≤ 8.1) ORs the flags, unions the jobs and merges the reviewers of all that apply', () => {
    const effective = effectiveBranchProtection(hierarchy, 'main', others, 'merged')!
    expect(effective.sources.map((s) => s.item.pointer)).toEqual(['/branchProtections/0', '/branchProtections/1'])
    expect([effective.preventForcedPush, effective.preventDeletion, effective.signatureRequired]).toEqual([true, true, true])
    expect(effective.jobNames).toEqual(['ci', 'lint'])
    expect(effective.reviewRequirement).toEqual({users: ['a'], groups: [{name: 'g', count: 2}]})
  })

  it('skips disabled protections and returns null when nothing applies', () => {
    const p = project({branchProtections: [{branches: 'main', enabled: false}]})
    expect(effectiveBranchProtection(branchProtectionHierarchy(p, [], parseEachTime), 'main', others, 'first-match')).toBeNull()
  })

  it('a userMatch exclusion falls through to the next protection, not to nothing', () => {
    const p = project({
      branchProtections: [
        {branches: 'main', userMatch: 'anyone except group(bots)', reviewRequirement: 'group(core)'},
        {branches: 'main', userMatch: 'group(bots)', preventForcedPush: false},
      ],
    })
    const h = branchProtectionHierarchy(p, [], parseEachTime)
    expect(effectiveBranchProtection(h, 'main', {kind: 'group', name: 'bots'}, 'first-match')?.sources[0]?.item.pointer).toBe('/branchProtections/1')
    expect(effectiveBranchProtection(h, 'main', others, 'first-match')?.sources[0]?.item.pointer).toBe('/branchProtections/0')
  })

  it('matches branches with the path matcher: exclusions, * vs **, case', () => {
    const h = (branches: string) => branchProtectionHierarchy(project({branchProtections: [{branches}]}), [], parseEachTime)
    const applies = (branches: string, branch: string) => effectiveBranchProtection(h(branches), branch, others, 'first-match') !== null
    expect(applies('-main', 'develop')).toBe(true)
    expect(applies('-main', 'main')).toBe(false)
    expect(applies('release/*', 'release/1/x')).toBe(false)
    expect(applies('release/**', 'release/1/x')).toBe(true)
    expect(applies('Main', 'main')).toBe(false)
  })

  it('a protection whose pattern set or userMatch does not parse never applies, and nothing throws', () => {
    const p = project({
      branchProtections: [
        {branches: '"main', preventForcedPush: false},
        {branches: 'main', userMatch: 'everyone', preventForcedPush: false},
        {branches: 'main', reviewRequirement: 'group(', jobNames: ['ci']},
      ],
    })
    const effective = effectiveBranchProtection(branchProtectionHierarchy(p, [], parseEachTime), 'main', others, 'first-match')!
    expect(effective.sources[0]?.item.pointer).toBe('/branchProtections/2')
    expect(effective.reviewRequirement).toEqual({users: [], groups: []})
    expect(principalClasses(branchProtectionHierarchy(p, [], parseEachTime))).toEqual([others])
  })
})

describe('principalClasses', () => {
  it('lists others, then every named user and group once, skipping disabled protections', () => {
    const p = project({
      branchProtections: [
        {userMatch: 'anyone except group(bots) and user(Alice)'},
        {userMatch: 'user(alice) or group(Bots) or group(bots)'},
        {userMatch: 'user(ghost)', enabled: false},
      ],
    })
    expect(principalClasses(branchProtectionHierarchy(p, [], parseEachTime))).toEqual([
      {kind: 'others'},
      {kind: 'group', name: 'bots'},
      {kind: 'user', name: 'Alice'},
      {kind: 'group', name: 'Bots'},
    ])
  })
})

describe('effectiveFileProtection', () => {
  it('every matching file protection contributes: reviewers merged, jobs unioned', () => {
    const p = project({
      branchProtections: [
        {
          fileProtections: [
            {paths: '.onedev-buildspec.yml', reviewRequirement: 'group(ci)', jobNames: ['a']},
            {paths: '**/*.yml', reviewRequirement: 'group(ci):2 user(bob)', jobNames: ['b']},
            {paths: 'src/**', reviewRequirement: 'user(carol)'},
          ],
        },
      ],
    })
    const effective = effectiveBranchProtection(branchProtectionHierarchy(p, [], parseEachTime), 'main', others, 'first-match')!
    const file = effectiveFileProtection(effective, '.onedev-buildspec.yml')!
    expect(file.sources.map((s) => s.item.pointer)).toEqual(['/branchProtections/0/fileProtections/0', '/branchProtections/0/fileProtections/1'])
    expect(file.reviewRequirement).toEqual({users: ['bob'], groups: [{name: 'ci', count: 2}]})
    expect(file.jobNames).toEqual(['a', 'b'])
    expect(effectiveFileProtection(effective, 'README.md')).toBeNull()
  })
})

describe('effectiveTagProtection', () => {
  it('first-match vs merged give different answers', () => {
    const p = project({tagProtections: [{tags: 'v*', preventUpdate: false}, {tags: 'v1.*', preventUpdate: true}]})
    const h = tagProtectionHierarchy(p, [], parseEachTime)
    expect(effectiveTagProtection(h, 'v1.0.0', others, 'first-match')?.preventUpdate).toBe(false)
    expect(effectiveTagProtection(h, 'v1.0.0', others, 'merged')?.preventUpdate).toBe(true)
    expect(effectiveTagProtection(h, 'release-1', others, 'first-match')).toBeNull()
  })
})

describe('judgements', () => {
  it('weakerThanOthers names what the principal may do that others may not', () => {
    const p = project({branchProtections: [{reviewRequirement: 'group(core):2', jobNames: ['ci'], signatureRequired: true}]})
    const forOthers = effectiveBranchProtection(branchProtectionHierarchy(p, [], parseEachTime), 'main', others, 'first-match')
    expect(weakerThanOthers(null, forOthers, 'first-match')).toEqual(['force-push', 'delete it', 'push without review', 'push unsigned commits', 'skip the required build "ci"'])
    expect(weakerThanOthers(forOthers, forOthers, 'first-match')).toEqual([])
    expect(weakerThanOthers(null, null, 'first-match')).toEqual([])
  })

  it('nearMisses explains case, * vs ** and disabled protections', () => {
    const p = project({
      branchProtections: [{branches: 'Main'}, {branches: 'release/*'}, {branches: 'main', enabled: false}, {branches: 'main', userMatch: 'user(alice)'}],
    })
    const h = branchProtectionHierarchy(p, [], parseEachTime)
    expect(nearMisses(h, 'main')).toEqual([
      '/branchProtections/0 has "Main", which does not match "main" because matching is case-sensitive',
      '/branchProtections/2 ("main") matches but is disabled',
      '/branchProtections/3 ("main") matches but its user match "user(alice)" leaves everyone else out',
    ])
    expect(nearMisses(h, 'release/1/x')).toEqual([
      '/branchProtections/1 has "release/*", which does not match "release/1/x" because * stays within one path segment (use "release/**")',
    ])
  })

  it.each([
    [['**', 'main'], 1, 0],
    [['release/**', 'release/1.*'], 1, 0],
    [['release/', 'release'], 1, 0],
    [['main develop', 'main'], 1, 0],
    [['**', '-main'], 1, 0],
    [['** -main', 'develop'], 1, null],
    [['rel*/**', 'release/x'], 1, null],
    [['main', '**'], 1, null],
    [['release/*', 'release/1.0 release/1/x'], 1, null],
  ])('shadowerOf %j', (branches, index, expected) => {
    const p = project({branchProtections: branches.map((b) => ({branches: b}))})
    const h = branchProtectionHierarchy(p, [], parseEachTime)
    const shadower = shadowerOf(h, index)
    expect(shadower === null ? null : h.indexOf(shadower)).toBe(expected)
  })

  it('shadowerOf requires the earlier userMatch to cover the later one', () => {
    const h = (a: string, b: string) => branchProtectionHierarchy(project({branchProtections: [{branches: '**', userMatch: a}, {branches: 'main', userMatch: b}]}), [], parseEachTime)
    expect(shadowerOf(h('anyone', 'user(x)'), 1)).not.toBeNull()
    expect(shadowerOf(h('user(x) or group(y)', 'group(y) or user(X)'), 1)).not.toBeNull()
    expect(shadowerOf(h('anyone except user(x)', 'anyone'), 1)).toBeNull()
    expect(shadowerOf(h('user(x)', 'anyone'), 1)).toBeNull()
  })
})
