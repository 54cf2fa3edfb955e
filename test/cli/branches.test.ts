/**
 * Which branches and tags a scan judges, against loopback servers: the default branch the server
 * names (bare text as current servers send it, or a JSON string), existing branches matching
 * --branch patterns, every existing tag grouped by gap, uninitialized repositories, a server that
 * speaks only the contract (no repository endpoints), and a token without read-code permission.
 */
import {readFile, writeFile} from 'node:fs/promises'
import {join, relative} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {ROOT, runCli} from '../helpers/cli.js'
import {EMPTY_ACCESS, EMPTY_SETTING, HARDENED_ADMIN, serverEnv} from '../helpers/fixture-server.js'
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
    expect(line).toMatch(
      /^onedev-audit: not-evaluated: GET \/(groups|users(\/\{id\}\/access-tokens)?|settings\/(security|authenticator|groovy-scripts|job-executors|system|service-desk)|sso-providers or \/settings\/sso-connectors|settings\/mail-service or \/settings\/mail|agent-tokens|agents|projects\/\{id\}\/(base|group|user)-authorizations):/,
    )
  }
}

const REPOSITORY_NOTICE = 'default branches were unknown'

/** What OneDev answers a path no resource matches: the answer of a server without the endpoint. */
const JERSEY_404 = {status: 404, text: 'HTTP 404 Not Found'}

/** Rows in one order, whatever order the report lists them in. */
function byText(rows: string[][]): string[][] {
  return [...rows].sort((a, b) => (a.join('\n') < b.join('\n') ? -1 : 1))
}

/**
 * The findings of a branch no protection covers, on a server whose root administrator may push
 * anywhere (HARDENED_ADMIN): the branch is unprotected, and the administrator pushes to it directly.
 */
function unprotected(path: string, branch: string): string[][] {
  return [
    [path, 'access/direct-push', branch],
    [path, 'branch-protection/unprotected-branch', branch],
  ]
}

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

// --verbose: each notice on its own line of stderr, to be told apart.
const scan = (args: string[], target: OneDevServer = server) => runCli(['scan', '--all-projects', '--format', 'json', '--verbose', ...args], {env: serverEnv(target)})

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
    const offline = await runCli(['scan', '--snapshot', file, '--format', 'json', '--verbose', '--branch', 'release/**'])
    expectOnlyAccessNotices(offline.stderr)
    const fromSnapshot: Report = JSON.parse(offline.stdout)
    expect(fromSnapshot.findings.map((f) => [f.ruleId, f.subject, f.message])).toEqual(live.findings.map((f) => [f.ruleId, f.subject, f.message]))
    expect(fromSnapshot.uninitializedProjects).toEqual([{id: 13, path: 'app/empty'}])
  })
})

describe('what a server offers is learnt per repository endpoint', () => {
  /** [project path, rule, subject] of every finding, in the report's order. */
  const everything = (report: Report) => byText(report.findings.map((f) => [f.project?.path ?? '', f.ruleId, f.subject]))
  const TAGS = 'tag-protection/unprotected-tags'

  /** A scan of a server that answers `missing` (e.g. `GET /repositories/*\/tags`) like a server without that endpoint. */
  async function scanWithout(missing: string, args: string[], concurrency: string): Promise<{report: Report; code: number; asked: (part: string) => string[]}> {
    const target = await startOneDevServer({projects: PROJECTS, settings: SETTINGS, roles: [], repositories: REPOSITORIES, access: EMPTY_ACCESS, admin: HARDENED_ADMIN})
    try {
      target.override(missing, JERSEY_404)
      const result = await scan(['--concurrency', concurrency, ...args], target)
      const asked = (part: string) => target.requests.filter((r) => r.path.endsWith(`/${part}`)).map((r) => r.path)
      return {report: JSON.parse(result.stdout), code: result.code, asked}
    } finally {
      await target.close()
    }
  }

  for (const concurrency of ['1', '8']) {
    it(`no tag list (404): the default branches and branch lists are still the server's, the tags are judged as "v1.0.0", one notice (concurrency ${concurrency})`, async () => {
      const {report, code, asked} = await scanWithout('GET /repositories/*/tags', ['--branch', 'release/**'], concurrency)
      expect(code).toBe(1)
      expect(report.errors).toEqual([])
      expect(everything(report)).toEqual(byText([
        ...unprotected('app/develop', 'develop'),
        ...unprotected('app/develop', 'release/9'),
        ['app/develop', TAGS, 'tags'],
        ...unprotected('app/main', 'main'),
        ['app/main', TAGS, 'tags'],
        ...unprotected('app/master', 'master'),
        ...unprotected('app/master', 'release/1.0'),
        ...unprotected('app/master', 'release/2.0/hotfix'),
        ['app/master', TAGS, 'tags'],
      ]))
      expect(report.findings.filter((f) => f.ruleId === TAGS).every((f) => f.message.includes('tag "v1.0.0"'))).toBe(true)
      expect(report.notices).toEqual([
        {
          kind: 'not-evaluated',
          message: 'GET /repositories/{id}/tags: the server does not offer it (404), so the tags of 3 of 4 projects are unknown: their tag protections were judged for "v1.0.0" instead of the tags that exist',
        },
      ])
      expect(asked('default-branch')).toHaveLength(4)
      expect(asked('branches')).toHaveLength(3)
      // One request at a time: a second project's 404, with no answer before, settles it.
      if (concurrency === '1') expect(asked('tags')).toEqual(['/~api/repositories/10/tags', '/~api/repositories/11/tags'])
    })
  }

  it('no branch list (404): each default branch is still judged, and the notice says no branch was matched against release/**', async () => {
    const {report, code, asked} = await scanWithout('GET /repositories/*/branches', ['--branch', 'release/**'], '1')
    expect(code).toBe(1)
    expect(report.errors).toEqual([])
    expect(everything(report)).toEqual(byText([
      ...unprotected('app/develop', 'develop'),
      ...unprotected('app/main', 'main'),
      ...unprotected('app/master', 'master'),
      ['app/master', TAGS, 'tags'],
    ]))
    expect(report.findings.find((f) => f.ruleId === TAGS)!.message).toContain('2 tags ("v1" and "v2")')
    expect(report.notices).toEqual([
      {
        kind: 'not-evaluated',
        message:
          'GET /repositories/{id}/branches: the server does not offer it (404), so the branch lists of 3 of 4 projects are unknown: besides the default branch, no branch was judged, and no existing branch was matched against "release/**"',
      },
    ])
    expect(asked('branches')).toEqual(['/~api/repositories/10/branches', '/~api/repositories/11/branches'])
    expect(asked('tags')).toHaveLength(3)
  })

  it('no default branch (404, as before OneDev 7.4): "main" is assumed where the branch list has it (never a branch that does not exist), the branch and tag lists are still the server\'s', async () => {
    const {report, code, asked} = await scanWithout('GET /repositories/*/default-branch', ['--branch', 'release/**'], '1')
    expect(code).toBe(1)
    expect(report.errors).toEqual([])
    expect(everything(report)).toEqual(byText([
      ...unprotected('app/develop', 'release/9'),
      ...unprotected('app/main', 'main'),
      ...unprotected('app/master', 'release/1.0'),
      ...unprotected('app/master', 'release/2.0/hotfix'),
      ['app/master', TAGS, 'tags'],
    ]))
    expect(report.findings.find((f) => f.subject === 'main')!.message).toContain('branch "main" (assumed default branch)')
    expect(report.findings.find((f) => f.ruleId === TAGS)!.message).toContain('2 tags ("v1" and "v2")')
    expect(report.notices).toEqual([
      {
        kind: 'not-evaluated',
        message: 'GET /repositories/{id}/default-branch: the server does not offer it (404), so the default branches of 4 of 4 projects are unknown: their branch protections were judged for "main" instead where their branch lists have it',
      },
    ])
    expect(asked('default-branch')).toEqual(['/~api/repositories/10/default-branch', '/~api/repositories/11/default-branch'])
    expect(asked('tags')).toHaveLength(4)
  })

  it('a contract-only server (404 on every /repositories path) still gets a full audit of "main" and "v1.0.0", one notice per endpoint, two requests each', async () => {
    const contract = await startOneDevServer({prefix: '/api', projects: PROJECTS.slice(0, 2), settings: SETTINGS, roles: [], access: EMPTY_ACCESS, admin: HARDENED_ADMIN})
    try {
      const result = await runCli(['scan', '--all-projects', '--format', 'json', '--concurrency', '1'], {env: serverEnv(contract)})
      expect(result.code).toBe(1)
      const report: Report = JSON.parse(result.stdout)
      expect(report.errors).toEqual([])
      expect(everything(report)).toEqual(byText([
        ...unprotected('app/develop', 'main'),
        ['app/develop', TAGS, 'tags'],
        ...unprotected('app/master', 'main'),
        ['app/master', TAGS, 'tags'],
      ]))
      expect(report.notices.map((n) => n.message)).toEqual([
        'GET /repositories/{id}/default-branch: the server does not offer it (404), so the default branches of 2 of 2 projects are unknown: their branch protections were judged for "main" instead',
        'GET /repositories/{id}/tags: the server does not offer it (404), so the tags of 2 of 2 projects are unknown: their tag protections were judged for "v1.0.0" instead of the tags that exist',
      ])
      // Once an endpoint answered 404 for two projects (and nothing answered it), no other project asks it again.
      expect(contract.requests.filter((r) => r.path.startsWith('/api/repositories/')).map((r) => r.path).sort()).toEqual([
        '/api/repositories/10/default-branch',
        '/api/repositories/10/tags',
        '/api/repositories/11/default-branch',
        '/api/repositories/11/tags',
      ])
    } finally {
      await contract.close()
    }
  })
})

describe('a project that fails alone is that project\'s problem, never the endpoint\'s', () => {
  const everything = (report: Report) => byText(report.findings.map((f) => [f.project?.path ?? '', f.ruleId, f.subject]))
  // Listed first, so that with one request at a time their 404s come before any other answer.
  const GONE = {id: 8, path: 'app/gone', parentId: null}
  const MOVED = {id: 9, path: 'app/moved', parentId: null}

  it('projects deleted between the listing and their reads: errors naming them, no invented branch, every other project judged on its own default branch', async () => {
    // app/gone was deleted before its setting was read; app/moved after: only its repository is gone.
    const target = await startOneDevServer({projects: [GONE, MOVED, ...PROJECTS], settings: {...SETTINGS, 9: EMPTY_SETTING}, roles: [], repositories: REPOSITORIES, access: EMPTY_ACCESS, admin: HARDENED_ADMIN})
    try {
      const result = await scan(['--concurrency', '1'], target)
      expect(result.code).toBe(2)
      const report: Report = JSON.parse(result.stdout)
      expect(everything(report)).toEqual(byText([
        ...unprotected('app/develop', 'develop'),
        ...unprotected('app/main', 'main'),
        ...unprotected('app/master', 'master'),
        ['app/master', 'tag-protection/unprotected-tags', 'tags'],
      ]))
      const gone = (id: number) => `No row with the given identifier exists: [io.onedev.server.model.Project#${id}]`
      expect(report.errors.map((e) => [e.kind, e.message])).toEqual([
        ['not-found', `GET /~api/projects/8/setting: 404 Not Found: ${gone(8)}`],
        ['not-found', `GET /~api/repositories/8/default-branch: 404 Not Found: ${gone(8)}`],
        ['not-found', `GET /~api/repositories/9/default-branch: 404 Not Found: ${gone(9)}`],
      ])
      expect(report.notices).toEqual([
        {kind: 'not-evaluated', message: 'the default branch of 1 of 5 projects could not be read (app/moved): their branches and tags were not judged; the errors say why'},
      ])
      expect(report.summary.projects).toBe(5)
    } finally {
      await target.close()
    }
  })

  // 40 projects on master; only app/p00's default branch answers like a path no resource matches.
  const MANY = Array.from({length: 40}, (_, i) => ({id: 10 + i, path: `app/p${String(i).padStart(2, '0')}`, parentId: null}))
  for (const concurrency of ['1', '2', '8']) {
    it(`a 404 shaped like a missing endpoint for one project alone: that project's error, the same at concurrency ${concurrency}`, async () => {
      const target = await startOneDevServer({
        projects: MANY,
        settings: Object.fromEntries(MANY.map((p) => [p.id, EMPTY_SETTING])),
        roles: [],
        repositories: Object.fromEntries(MANY.map((p) => [p.id, {defaultBranch: 'master', tags: []}])),
        access: EMPTY_ACCESS,
        admin: HARDENED_ADMIN,
      })
      try {
        target.override('GET /repositories/10/default-branch', JERSEY_404)
        const result = await scan(['--concurrency', concurrency], target)
        expect(result.code).toBe(2)
        const report: Report = JSON.parse(result.stdout)
        expect(everything(report)).toEqual(byText(MANY.slice(1).flatMap((p) => unprotected(p.path, 'master'))))
        expect(report.errors.map((e) => e.message)).toEqual([
          'GET /~api/repositories/10/default-branch: 404 Not Found: HTTP 404 Not Found; the server answers GET /repositories/{id}/default-branch for other projects, so this project may have been deleted during the audit',
        ])
        expect(report.notices.map((n) => n.message)).toEqual([
          'the default branch of 1 of 40 projects could not be read (app/p00): their branches and tags were not judged; the errors say why',
        ])
        // Every project's default branch asked once: the confirmation is another project's own request.
        expect(target.requests.filter((r) => r.path.endsWith('/default-branch'))).toHaveLength(40)
      } finally {
        await target.close()
      }
    })
  }

  it('a tag list that fails for one project: its error, its default branch still judged, no tag judged in place of its tags', async () => {
    const target = await startOneDevServer({projects: PROJECTS, settings: SETTINGS, roles: [], repositories: REPOSITORIES, access: EMPTY_ACCESS, admin: HARDENED_ADMIN})
    try {
      target.override('GET /repositories/10/tags', {status: 500, text: 'Internal Server Error'})
      const result = await scan(['--concurrency', '1'], target)
      expect(result.code).toBe(2)
      const report: Report = JSON.parse(result.stdout)
      expect(everything(report)).toEqual(byText([...unprotected('app/develop', 'develop'), ...unprotected('app/main', 'main'), ...unprotected('app/master', 'master')]))
      expect(report.errors.map((e) => e.message)).toEqual(['GET /~api/repositories/10/tags: 500 Internal Server Error: Internal Server Error'])
      expect(report.notices).toEqual([{kind: 'not-evaluated', message: 'the tag list of 1 of 4 projects could not be read (app/master): their tags were not judged; the errors say why'}])
    } finally {
      await target.close()
    }
  })

  it('403 on /repositories is an error naming the read-code permission: exit 2, the report still written, no branch judged in its place', async () => {
    server.reset()
    server.override('GET /repositories/*/default-branch', {status: 403, text: 'Unauthorized access'})
    try {
      const result = await scan([])
      expect(result.code).toBe(2)
      const report: Report = JSON.parse(result.stdout)
      expect(report.errors).toHaveLength(4)
      expect(report.errors[0]!.message).toMatch(/read-code permission on project 1\d/)
      expect(result.stderr).toContain('read-code permission')
      expect(report.findings.filter((f) => f.ruleId.startsWith('branch-protection/') || f.ruleId.startsWith('tag-protection/'))).toEqual([])
      expect(report.notices.filter((n) => n.message.includes('could not be read'))).toEqual([
        {kind: 'not-evaluated', message: 'the default branch of 4 of 4 projects could not be read (app/develop, app/empty, app/main, app/master): their branches and tags were not judged; the errors say why'},
      ])
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

describe('a branch or tag pattern that can never match, or that matched nothing, is said (issue 33)', () => {
  const dir = tempDir('oda-branch-patterns')
  const never = (what: string) => `which git refuses in every ${what} name: no ${what} can ever match it`

  it('a --branch or --tag value holding a character git refuses in every ref name (no wildcard of OneDev\'s): one line naming the value and the character, exit 2, nothing read', async () => {
    const cases: Array<[string[], string]> = [
      [['--branch', 'hello world'], `--branch "hello world": it holds a space, ${never('branch')}`],
      [['--branch', 'release/~1'], `--branch "release/~1": it holds "~", ${never('branch')}`],
      [['--branch', 'main', '--branch', 'HEAD^'], `--branch "HEAD^": it holds "^", ${never('branch')}`],
      [['--branch', 'origin:main'], `--branch "origin:main": it holds ":", ${never('branch')}`],
      [['--branch', 'release\\*'], `--branch "release\\*": it holds "\\", ${never('branch')}`],
      [['--branch', 'feat\u0001x'], `--branch "feat\\x01x": it holds a control character (U+0001), ${never('branch')}`],
      [['--tag', 'v[0-9]*'], `--tag "v[0-9]*": it holds "[", ${never('tag')}`],
      [['--branch', ' / '], '--branch " / ": it is empty: no branch can ever match it'],
    ]
    for (const [args, line] of cases) {
      server.reset()
      const result = await scan(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toBe(`onedev-audit: error: ${line}\n`)
      expect(result.stdout).toBe('')
      expect(server.requests).toEqual([])
    }
  })

  it('the same in the configuration file: one line naming the file, the entry and the character, exit 2', async () => {
    const config = join(await dir, 'branches.json')
    await writeFile(config, JSON.stringify({branches: ['main', 'feature branch'], tags: ['v*']}))
    server.reset()
    const result = await scan(['--config', config])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`onedev-audit: error: ${relative(ROOT, config)}: /branches/1 "feature branch": it holds a space, ${never('branch')}\n`)
    expect(server.requests).toEqual([])
  })

  it('spaces at the ends of a segment are trimmed as OneDev trims them, and wildcards are wildcards: " release/*" is judged as release/*', async () => {
    const report: Report = JSON.parse((await scan(['--branch', ' release/* '])).stdout)
    expect(subjects(report, 'branch-protection/unprotected-branch').filter(([path]) => path === 'app/master')).toEqual([
      ['app/master', 'master'],
      ['app/master', 'release/1.0'],
    ])
    expect(report.notices.filter((n) => n.kind === 'warning')).toEqual([])
  })

  it('a pattern that matched no branch of any audited project is said once, in every report format that shows notices; one that matched is not', async () => {
    const notice = 'the branch pattern "relase/**" (--branch) matched no branch of the 4 audited projects: nothing was judged for it; check it for a typo'
    const result = await scan(['--branch', 'relase/**', '--branch', 'release/**', '--branch', 'relase/**'])
    const report: Report = JSON.parse(result.stdout)
    expect(report.notices.filter((n) => n.kind === 'warning')).toEqual([{kind: 'warning', message: notice}])
    expect(result.stderr.split('\n').filter((line) => line.includes('relase'))).toEqual([`onedev-audit: warning: ${notice}`])
    // Once each; the HTML report lists its notices grouped first, then each one (as --verbose does).
    for (const [format, times] of [['sarif', 1], ['stylish', 1], ['markdown', 1], ['html', 2]] as const) {
      const output = join(await dir, `unmatched.${format}`)
      const written = await runCli(['scan', '--all-projects', '--branch', 'relase/**', '--format', format, '--output', output, '--fail-on', 'none'], {env: serverEnv(server)})
      expect(written.code, written.stderr).toBe(0)
      const text = await readFile(output, 'utf8')
      expect(text.split('matched no branch of the 4 audited projects').length - 1, format).toBe(times)
      // Markdown escapes the stars.
      expect(text, format).toMatch(/relase\/\\?\*\\?\*/)
    }
    // From the configuration, it says so; a tag pattern too.
    const config = join(await dir, 'unmatched.json')
    await writeFile(config, JSON.stringify({branches: ['hotfix/*'], tags: ['release-*']}))
    const configured: Report = JSON.parse((await scan(['--config', config])).stdout)
    expect(configured.notices.filter((n) => n.kind === 'warning').map((n) => n.message)).toEqual([
      `the branch pattern "hotfix/*" (${relative(ROOT, config)}: branches) matched no branch of the 4 audited projects: nothing was judged for it; check it for a typo`,
      `the tag pattern "release-*" (${relative(ROOT, config)}: tags) matched no tag of the 4 audited projects: nothing was judged for it; check it for a typo`,
    ])
  })

  it('diff says it too, when the pattern matched no branch on either side', async () => {
    const result = await runCli(['diff', 'examples/snapshot.json', 'examples/snapshot.json', '--branch', 'relase/**', '--format', 'json'])
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout).notices).toEqual([{kind: 'warning', message: 'the branch pattern "relase/**" (--branch) matched no branch of the 4 audited projects: nothing was judged for it; check it for a typo'}])
  })
})
