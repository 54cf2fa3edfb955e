/**
 * Which branches and tags a scan judges, against loopback servers: the default branch the server
 * names (bare text as current servers send it, or a JSON string), existing branches matching
 * --branch patterns, every existing tag grouped by gap, uninitialized repositories, a server that
 * speaks only the contract (no repository endpoints), and a token without read-code permission.
 */
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {EMPTY_ACCESS, EMPTY_SETTING, serverEnv} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'
import {tempDir} from '../helpers/temp-dir.js'

const PROJECTS = [
  {id: 10, path: 'app/master', parentId: null},
  {id: 11, path: 'app/develop', parentId: null},
  {id: 12, path: 'app/main', parentId: null},
  {id: 13, path: 'app/empty', parentId: null},
]
const SETTINGS = Object.fromEntries(PROJECTS.map((p) => [p.id, EMPTY_SETTING]))
const REPOSITORIES = {
  10: {defaultBranch: 'master', branches: ['master', 'develop', 'release/1.0', 'release/2.0/hotfix', 'feature/x'], tags: ['v1', 'v2']},
  11: {defaultBranch: 'develop', branches: ['develop', 'release/9'], tags: [], jsonString: true},
  12: {defaultBranch: 'main', tags: []},
  13: {defaultBranch: null},
}

interface Report {
  findings: {ruleId: string; subject: string; message: string; project: {path: string} | null}[]
  notices: {kind: string; message: string}[]
  errors: {kind: string; message: string}[]
  summary: {projects: number; uninitialized: number}
  uninitializedProjects: {id: number; path: string}[]
}

/**
 * These loopback servers offer no access or administration endpoints (groups, users, settings): their
 * not-evaluated notices are expected. Nothing else may be on stderr: no error, and no notice that
 * the default branches were unknown.
 */
function expectOnlyAccessNotices(stderr: string): void {
  for (const line of stderr.split('\n').filter(Boolean)) {
    expect(line).toMatch(/^onedev-audit: not-evaluated: GET \/(groups|users(\/\{id\}\/access-tokens)?|settings\/(security|authenticator|groovy-scripts|job-executors|system)|sso-providers or \/settings\/sso-connectors|projects\/\{id\}\/(base|group|user)-authorizations):/)
  }
}

const REPOSITORY_NOTICE = 'default branches were unknown'

/** [project path, subject] of one rule's findings. */
function subjects(report: Report, ruleId: string): string[][] {
  return report.findings.filter((f) => f.ruleId === ruleId).map((f) => [f.project?.path ?? '', f.subject])
}

let server: OneDevServer

beforeAll(async () => {
  server = await startOneDevServer({projects: PROJECTS, settings: SETTINGS, roles: [], repositories: REPOSITORIES, access: EMPTY_ACCESS})
})
afterAll(async () => {
  await server.close()
})

const scan = (args: string[], target: OneDevServer = server) => runCli(['scan', '--all-projects', '--format', 'json', ...args], {env: serverEnv(target)})

describe('checked branches come from the server', () => {
  it('judges each default branch (master, develop as a JSON string, main), none for an uninitialized repository, and lists that one', async () => {
    server.reset()
    const result = await scan([])
    expectOnlyAccessNotices(result.stderr)
    expect(result.code).toBe(1)
    const report: Report = JSON.parse(result.stdout)
    expect(subjects(report, 'branch-protection/unprotected-branch')).toEqual([
      ['app/develop', 'develop'],
      ['app/main', 'main'],
      ['app/master', 'master'],
    ])
    const master = report.findings.find((f) => f.ruleId === 'branch-protection/unprotected-branch' && f.subject === 'master')!
    expect(master.message).toContain('branch "master" (default branch)')
    expect(report.notices.filter((n) => n.message.includes(REPOSITORY_NOTICE))).toEqual([])
    expect(report.summary.projects).toBe(4)
    expect(report.summary.uninitialized).toBe(1)
    expect(report.uninitializedProjects).toEqual([{id: 13, path: 'app/empty'}])
    expect(report.findings.filter((f) => f.project?.path === 'app/empty')).toEqual([])
    // No entry needs the branch lists: they are not fetched.
    expect(server.requests.filter((r) => r.path.endsWith('/branches'))).toEqual([])
  })

  it('--branch release/** adds the existing branches that match, in the server order, saying why', async () => {
    server.reset()
    const result = await scan(['--branch', 'release/**'])
    expectOnlyAccessNotices(result.stderr)
    const report: Report = JSON.parse(result.stdout)
    expect(subjects(report, 'branch-protection/unprotected-branch')).toEqual([
      ['app/develop', 'develop'],
      ['app/develop', 'release/9'],
      ['app/main', 'main'],
      ['app/master', 'master'],
      ['app/master', 'release/1.0'],
      ['app/master', 'release/2.0/hotfix'],
    ])
    const release = report.findings.find((f) => f.subject === 'release/1.0')!
    expect(release.message).toContain('branch "release/1.0" (matches release/**)')
    // The branch list of the uninitialized repository is never asked for.
    expect(server.requests.filter((r) => r.path.endsWith('/branches')).map((r) => r.path).sort()).toEqual([
      '/~api/repositories/10/branches',
      '/~api/repositories/11/branches',
      '/~api/repositories/12/branches',
    ])
  })

  it('patterns match as OneDev matches them: release/* stays within one segment', async () => {
    const report: Report = JSON.parse((await scan(['--branch', 'release/*'])).stdout)
    expect(subjects(report, 'branch-protection/unprotected-branch').filter(([path]) => path === 'app/master')).toEqual([
      ['app/master', 'master'],
      ['app/master', 'release/1.0'],
    ])
  })

  it('every existing tag is judged, and tags with the same gap make one finding', async () => {
    const report: Report = JSON.parse((await scan([])).stdout)
    const tags = report.findings.filter((f) => f.ruleId === 'tag-protection/unprotected-tags')
    expect(tags.map((f) => [f.project?.path, f.subject])).toEqual([['app/master', 'tags']])
    expect(tags[0]!.message).toContain('No enabled tag protection applies to 2 tags ("v1" and "v2")')
  })

  it('a snapshot keeps what the server said: scan --snapshot judges the same branches', async () => {
    const file = join(await tempDir('oda-branches'), 'snapshot.json')
    const collected = await runCli(['collect', '--all-projects', '--output', file], {env: serverEnv(server)})
    expect(collected.code, collected.stderr).toBe(0)
    const live: Report = JSON.parse((await scan(['--branch', 'release/**'])).stdout)
    const offline = await runCli(['scan', '--snapshot', file, '--format', 'json', '--branch', 'release/**'])
    expectOnlyAccessNotices(offline.stderr)
    const fromSnapshot: Report = JSON.parse(offline.stdout)
    expect(fromSnapshot.findings.map((f) => [f.ruleId, f.subject, f.message])).toEqual(live.findings.map((f) => [f.ruleId, f.subject, f.message]))
    expect(fromSnapshot.uninitializedProjects).toEqual([{id: 13, path: 'app/empty'}])
  })
})

describe('servers without the repository endpoints, and tokens without read code', () => {
  it('a contract-only server (404 on /repositories) still gets a full audit of main, with one notice and the same exit code', async () => {
    const contract = await startOneDevServer({prefix: '/api', projects: PROJECTS.slice(0, 2), settings: SETTINGS, roles: [], access: EMPTY_ACCESS})
    try {
      const result = await runCli(['scan', '--all-projects', '--format', 'json', '--concurrency', '1'], {env: serverEnv(contract)})
      expect(result.code).toBe(1)
      const report: Report = JSON.parse(result.stdout)
      expect(report.errors).toEqual([])
      expect(subjects(report, 'branch-protection/unprotected-branch')).toEqual([
        ['app/develop', 'main'],
        ['app/master', 'main'],
      ])
      expect(subjects(report, 'tag-protection/unprotected-tags')).toEqual([
        ['app/develop', 'tags'],
        ['app/master', 'tags'],
      ])
      const repositoryNotices = report.notices.filter((n) => n.message.includes(REPOSITORY_NOTICE))
      expect(repositoryNotices.map((n) => n.kind)).toEqual(['not-evaluated'])
      expect(repositoryNotices[0]!.message).toContain('default branches were unknown for 2 of 2 projects')
      expect(result.stderr.split('\n').filter((line) => line.includes(REPOSITORY_NOTICE))).toEqual([`onedev-audit: not-evaluated: ${repositoryNotices[0]!.message}`])
      expectOnlyAccessNotices(result.stderr.split('\n').filter((line) => !line.includes(REPOSITORY_NOTICE)).join('\n'))
      // Once the server said it has no such endpoint, no other project asks again.
      expect(contract.requests.filter((r) => r.path.startsWith('/api/repositories/'))).toHaveLength(1)
    } finally {
      await contract.close()
    }
  })

  it('403 on /repositories is an error naming the read-code permission: exit 2, the report still written', async () => {
    server.reset()
    server.override('GET /repositories/*/default-branch', {status: 403, text: 'Unauthorized access'})
    try {
      const result = await scan([])
      expect(result.code).toBe(2)
      const report: Report = JSON.parse(result.stdout)
      expect(report.errors.length).toBeGreaterThan(0)
      expect(report.errors[0]!.message).toMatch(/read-code permission on project 1\d/)
      expect(result.stderr).toContain('read-code permission')
    } finally {
      server.reset()
    }
  })
})

describe('large tag lists', () => {
  it('3,000 release tags under one weak protection make one finding per rule, with a count and examples', async () => {
    const tags = Array.from({length: 3000}, (_, i) => `v1.${i}`)
    const weak = {...EMPTY_SETTING, tagProtections: [{enabled: true, tags: 'v*', userMatch: 'anyone', preventUpdate: false, preventDeletion: true, preventCreation: true, commitSignatureRequired: true}]}
    const big = await startOneDevServer({projects: [{id: 1, path: 'rel', parentId: null}], settings: {1: weak}, roles: [], repositories: {1: {defaultBranch: 'main', tags}}, access: EMPTY_ACCESS})
    try {
      const report: Report = JSON.parse((await scan([], big)).stdout)
      const tagFindings = report.findings.filter((f) => f.ruleId.startsWith('tag-protection/'))
      expect(tagFindings.map((f) => [f.ruleId, f.subject])).toEqual([['tag-protection/update-allowed', 'v*']])
      expect(tagFindings[0]!.message).toContain('3000 tags ("v1.0", "v1.1", "v1.2", "v1.3", "v1.4" and 2995 more) can be moved to another commit')
    } finally {
      await big.close()
    }
  })
})
