import {describe, expect, it} from 'vitest'

import {assessJobMatchText, executorReach, groovyScriptReach} from '../../src/onedev/executors.js'
import {admitsArbitraryProject} from '../../src/onedev/job-match.js'
import {administratorIds, corsOriginIssue, isPlainHttp, isPlainLdap, siteDomain} from '../../src/onedev/server-security.js'

describe('which jobs an executor admits', () => {
  it.each([
    ['on branch "main"', 'broad', true, false],
    ['"Project" is "ops"', 'broad', false, true],
    ['"Project" is "ops" and on branch "main"', 'scoped', false, false],
    ['"Project" is "ops/**" and on branch "main"', 'scoped', false, false],
    ['"Project" is "**" and on branch "main"', 'broad', true, false],
    ['"Project" is not "ops" and on branch "main"', 'broad', true, false],
    ['"Job" is "deploy"', 'broad', true, true],
    ['"Project" is "ops" and on branch "main" or "Job" is "x"', 'broad', true, true],
    ['not("Project" is "ops") and on branch "main"', 'broad', true, false],
    ['"Project" is "ops" and on branch "**"', 'broad', false, true],
    ['on branch main', 'invalid', false, false],
  ])('%s → %s', (text, reach, anyProject, anyBranch) => {
    expect(assessJobMatchText(text)).toEqual({reach, anyProject, anyBranch})
  })

  const emptyShell = {type: 'ServerShellExecutor', jobMatchKey: 'jobMatch', jobMatch: null} as const
  it.each([
    // v11.11.1 DefaultJobManager.java:511,532 … v15.0.0 DefaultJobService.java:508,529: no job match, no check.
    [[11, 11, 1], 'any-job', null],
    [[14, 1, 0], 'any-job', null],
    [[15, 0, 0], 'any-job', null],
    // v15.0.1 ServerShellExecutor.java:108-113: no job match, no job.
    [[15, 0, 1], 'none', null],
    [[16, 5, 6], 'none', null],
    // Unknown: the reading that exposes more.
    [null, 'any-job', 'unknown'],
    // A version before the key existed (jobMatch from 11.11.1): the payload wins over the claim.
    [[10, 2, 0], 'any-job', 'disagrees'],
  ] as const)('an empty jobMatch of a server shell executor on %j: %s', (release, reach, assumed) => {
    const assessment = executorReach(emptyShell, release)
    expect(assessment.reach).toBe(reach)
    expect(assessment.byVersion?.assumed).toBe(assumed)
  })

  it('a remote shell executor (a ServerShellExecutor subclass, v15.0.1 RemoteShellExecutor.java:37) reads an empty job match as the server shell executor does', () => {
    const remote = {type: 'RemoteShellExecutor', jobMatchKey: 'jobMatch', jobMatch: null} as const
    expect(executorReach(remote, [15, 0, 1]).reach).toBe('none')
    expect(executorReach(remote, [14, 1, 0]).reach).toBe('any-job')
    expect(executorReach(remote, null).reach).toBe('any-job')
  })

  it('an empty restriction elsewhere and on older servers takes every job, whatever the version', () => {
    for (const release of [null, [16, 5, 6] as const, [11, 0, 0] as const]) {
      expect(executorReach({type: 'ServerDockerExecutor', jobMatchKey: 'jobMatch', jobMatch: null}, release)).toEqual({reach: 'any-job', anyProject: true, anyBranch: true})
      expect(executorReach({type: 'ServerShellExecutor', jobMatchKey: 'jobRequirement', jobMatch: null}, release).reach).toBe('any-job')
      expect(executorReach({type: 'ServerShellExecutor', jobMatchKey: 'jobAuthorization', jobMatch: null}, release).reach).toBe('any-job')
    }
  })

  it('groovy scripts: not usable by jobs admits none; no job authorization admits every job', () => {
    expect(groovyScriptReach({canBeUsedByBuildJobs: false, jobAuthorization: null}).reach).toBe('none')
    expect(groovyScriptReach({canBeUsedByBuildJobs: true, jobAuthorization: null}).reach).toBe('any-job')
    expect(groovyScriptReach({canBeUsedByBuildJobs: true, jobAuthorization: '"Project" is "a" and on branch "main"'}).reach).toBe('scoped')
    // Up to 8.0.4: allowed projects and branches, pattern sets (null = all).
    expect(groovyScriptReach({canBeUsedByBuildJobs: true, jobAuthorization: null, allowed: {projects: null, branches: null}}).reach).toBe('any-job')
    expect(groovyScriptReach({canBeUsedByBuildJobs: true, jobAuthorization: null, allowed: {projects: 'ops', branches: 'main'}}).reach).toBe('scoped')
    expect(groovyScriptReach({canBeUsedByBuildJobs: true, jobAuthorization: null, allowed: {projects: 'ops', branches: '**'}})).toEqual({reach: 'broad', anyProject: false, anyBranch: true})
  })

  it('admitsArbitraryProject reads project criteria and leaves job criteria unknown', () => {
    expect(admitsArbitraryProject('"Project" is "a", "b"')).toBe(false)
    expect(admitsArbitraryProject('"Project" is "a" or "Project" is "*"')).toBe(true)
    expect(admitsArbitraryProject('"Project" is "a" and "Job" is "x"')).toBe(false)
  })
})

describe('login and transport settings', () => {
  it('plain HTTP and LDAP', () => {
    expect([isPlainHttp('http://x'), isPlainHttp('HTTP://x'), isPlainHttp('https://x'), isPlainHttp(null)]).toEqual([true, true, false, false])
    expect([isPlainLdap('ldap://x'), isPlainLdap('ldaps://x'), isPlainLdap(null)]).toEqual([true, false, false])
  })

  it('the server\'s own domain', () => {
    expect(siteDomain('onedev.acme.example')).toBe('acme.example')
    expect(siteDomain('acme.example')).toBe('acme.example')
    expect(siteDomain('10.0.0.5')).toBe('10.0.0.5')
    expect(siteDomain('localhost')).toBe('localhost')
  })

  it.each([
    ['https://portal.acme.example', null],
    ['https://acme.example', null],
    ['http://portal.acme.example', 'plain-http'],
    ['null', 'null'],
    [' Null ', 'null'],
    ['https://evilacme.example', 'foreign'],
    ['https://acme.example.evil.example', 'foreign'],
    ['*', null],
  ] as const)('CORS origin %s → %s', (origin, issue) => {
    expect(corsOriginIssue(origin, 'https://onedev.acme.example/')).toBe(issue)
  })

  it('administrators: root and enabled members of administrator groups', () => {
    const members: Record<number, number[]> = {1: [5, 8], 2: [6]}
    const ids = administratorIds([{id: 1, administrator: true}, {id: 2, administrator: false}, {id: 3, administrator: true}], (id) => members[id], (id) => id === 8)
    expect([...ids].sort()).toEqual([1, 5])
  })
})
