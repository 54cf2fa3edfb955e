/**
 * `onedev-audit notify` against a loopback OneDev that stores issues (test/helpers/issue-store.ts):
 * open, unchanged (no request beyond the query), updated, closed, reopened, closed by someone, a
 * required field, a 403 project, hostile names and messages in the issue text, the requests each
 * run sends, a server without the issue endpoints or without the workflow, snapshots, the
 * server-wide issue, and no secret anywhere.
 */
import {spawn} from 'node:child_process'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {findingsDigest} from '../../src/engine/notify.js'
import {formatMarker, ISSUE_TITLES, parseMarker} from '../../src/model/issue.js'
import {BIN, ROOT, runCli} from '../helpers/cli.js'
import {EMPTY_ACCESS, FIXTURE_PROJECTS, FIXTURE_REPOSITORIES, fixture, fixtureServerOptions, serverEnv} from '../helpers/fixture-server.js'
import {DEFAULT_WORKFLOW, type IssueStore} from '../helpers/issue-store.js'
import {notifyHarness} from '../helpers/notify-cli.js'
import {expectInert, rendered} from '../helpers/onedev-markdown.js'
import {startOneDevServer} from '../helpers/onedev-server.js'

const {start, configFile, notify, dir, track} = notifyHarness()

const issueOf = (store: IssueStore, projectId: number) => store.issues.find((issue) => issue.projectId === projectId)!

describe('the life of an issue', () => {
  it('opens one confidential issue per project with findings, then leaves it alone, updates, closes and reopens it, writing only when the findings change', async () => {
    const setup = await start()
    const {server, store} = setup

    // Dry run: one query per project, nothing written, exit 1.
    const dry = await notify(setup, '--all-projects')
    expect(dry.code, dry.stderr).toBe(1)
    expect(dry.stdout).toBe('open       acme/app (#2): a confidential issue for 8 findings in 5 rules\nopen       legacy/tool (#3): a confidential issue for 5 findings in 4 rules\n')
    expect(dry.stderr).toContain('onedev-audit: notify: 2 to open, 0 to update, 0 to close, 0 to reopen, 0 unchanged, 2 without finding or issue (dry run: nothing was sent; --apply does it)')
    expect(dry.queries).toBe(4)
    expect(dry.writes).toEqual([])
    expect(dry.sent.filter((r) => r.path === '/~api/settings/issue')).toHaveLength(1)

    // Apply: the two issues, confidential, titled and marked.
    const opened = await notify(setup, '--all-projects', '--apply')
    expect(opened.code, opened.stderr).toBe(0)
    expect(opened.stdout).toMatch(/^opened     acme\/app \(#2\): confidential issue \(id \d+\) for 8 findings in 5 rules\nopened     legacy\/tool \(#3\): confidential issue \(id \d+\) for 5 findings in 4 rules\n$/)
    expect(opened.queries).toBe(4)
    expect(opened.writes).toEqual(['POST /issues', 'POST /issues'])
    expect(store.issues.map((issue) => [issue.projectId, issue.title, issue.confidential, issue.state, parseMarker(issue.description)?.scope])).toEqual([
      [2, ISSUE_TITLES.project, true, 'Open', {kind: 'project', id: 2}],
      [3, ISSUE_TITLES.project, true, 'Open', {kind: 'project', id: 3}],
    ])
    const app = issueOf(store, 2)
    expect(app.description).toContain('### Critical: A job secret is available to builds of branches anyone with write access can create')
    expect(app.description).toContain('Plan the change with `onedev-audit fix --project 2 --rule job-secret/broad-branches`')
    expect(app.description).toContain('Job secret "sonar-login" is too broadly authorized')
    expect(app.fields).toEqual({Type: 'Task'})

    // Nothing changed: no request beyond the query, ever.
    const same = await notify(setup, '--all-projects', '--apply')
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toBe('unchanged  acme/app (#2): issue #1\nunchanged  legacy/tool (#3): issue #1\n')
    expect(same.queries).toBe(4)
    expect(same.writes).toEqual([])

    // One finding of acme/app fixed on the server: its description, and only that, is rewritten.
    const setting = structuredClone(server.settings[2]) as any
    setting.buildSetting.jobSecrets.find((secret: any) => secret.name === 'sonar-login').authorization = 'on branch "main"'
    server.settings[2] = setting
    const updated = await notify(setup, '--all-projects', '--apply')
    expect(updated.code, updated.stderr).toBe(0)
    expect(updated.stdout).toBe(`updated    acme/app (#2): issue #1: 7 findings in 5 rules, changed since it was written\nunchanged  legacy/tool (#3): issue #1\n`)
    expect(updated.queries).toBe(4)
    expect(updated.writes).toEqual([`POST /issues/${app.id}/description`])
    expect(app.description).not.toContain('sonar-login')
    expect(app.description).toContain('npm-token')

    // Every finding of legacy/tool suppressed: it is closed, then its description says so.
    const suppressed = await configFile({suppressions: [{rule: '*', project: 'legacy/tool', justification: 'accepted for the test'}]})
    const tool = issueOf(store, 3)
    const closed = await notify(setup, '--all-projects', '--apply', '--config', suppressed)
    expect(closed.code, closed.stderr).toBe(0)
    expect(closed.stdout).toContain('closed     legacy/tool (#3): issue #1: no finding left; to "Closed"\n')
    expect(closed.queries).toBe(4)
    expect(closed.writes).toEqual([`POST /issues/${tool.id}/state-transitions`, `POST /issues/${tool.id}/description`])
    expect(tool).toMatchObject({state: 'Closed', comments: ['Closed by onedev-audit notify: no finding of severity high or above is left.']})
    expect(parseMarker(tool.description)?.findings).toBe('none')
    expect(tool.description).toContain('finds no finding of severity **high** or above left in the settings of project legacy/tool')

    // Still none: the closed issue is left alone.
    const stillClosed = await notify(setup, '--all-projects', '--apply', '--config', suppressed)
    expect(stillClosed.writes).toEqual([])

    // The findings come back: the same issue is reopened (to the first state), then described.
    const reopened = await notify(setup, '--all-projects', '--apply')
    expect(reopened.code, reopened.stderr).toBe(0)
    expect(reopened.stdout).toContain('reopened   legacy/tool (#3): issue #1: 5 findings in 4 rules; back to "Open"\n')
    expect(reopened.queries).toBe(4)
    expect(reopened.writes).toEqual([`POST /issues/${tool.id}/state-transitions`, `POST /issues/${tool.id}/description`])
    expect(tool.state).toBe('Open')
    expect(tool.description).toContain('found 5 findings')
    expect(store.issues).toHaveLength(2)

    // Someone closes acme/app's issue while its findings stay: left closed, nothing sent.
    app.state = 'Closed'
    const closedByHand = await notify(setup, '--all-projects', '--apply')
    expect(closedByHand.code).toBe(0)
    expect(closedByHand.stdout).toContain('unchanged  acme/app (#2): issue #1: closed while its findings remain; left closed (suppress them in the configuration to accept them)\n')
    expect(closedByHand.writes).toEqual([])
  })

  it('finds its issue by its marker when someone retitled it, by its title when someone removed the marker, and never opens a second one', async () => {
    const digest = 'sha256:' + '0'.repeat(64)
    const setup = await start({
      store: {
        issues: [
          {projectId: 2, number: 4, title: 'Our audit findings (renamed)', description: formatMarker({scope: {kind: 'project', id: 2}, findings: digest})},
          {projectId: 3, number: 9, title: ISSUE_TITLES.project, description: 'the marker was edited away'},
          {projectId: 3, number: 2, title: 'Bug: something else', description: ''},
        ],
      },
    })
    const run = await notify(setup, '--all-projects', '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('updated    acme/app (#2): issue #4: 8 findings in 5 rules, changed since it was written\nupdated    legacy/tool (#3): issue #9: 5 findings in 4 rules (its description had no marker of notify)\n')
    expect(run.writes).toEqual(['POST /issues/100/description', 'POST /issues/101/description'])
    expect(parseMarker(setup.store.issues[1]!.description)?.scope).toEqual({kind: 'project', id: 3})
    expect(setup.store.issues[2]!.description).toBe('')
  })
})

describe('--verbose', () => {
  it('shows each request that would change an issue, the description included, and sends none', async () => {
    const setup = await start()
    const run = await notify(setup, '--project', '3', '--verbose')
    expect(run.code, run.stderr).toBe(1)
    const lines = run.stdout.split('\n')
    expect(lines[0]).toBe('open       legacy/tool (#3): a confidential issue for 5 findings in 4 rules')
    expect(lines[1]).toBe(`    POST a new confidential issue, title "${ISSUE_TITLES.project}", description:`)
    expect(lines[2]).toMatch(/^      <!-- onedev-audit:notify project=3 findings=sha256:[0-9a-f]{64} -->$/)
    expect(lines.filter((line) => line.startsWith('      - **high**: '))).toHaveLength(5)
    expect(run.writes).toEqual([])
  })
})

describe('what the workflow asks', () => {
  const STRICT = {...DEFAULT_WORKFLOW, fieldSpecs: [...DEFAULT_WORKFLOW.fieldSpecs, {'@type': 'ChoiceField', name: 'Severity', allowEmpty: false, promptUponIssueOpen: true, choiceProvider: {'@type': 'SpecifiedChoices', choices: [{value: 'High'}, {value: 'Low'}]}}]}

  it('refuses a project whose new issue would lack a required field without default, naming the field, and fills it from notify.fields', async () => {
    const setup = await start({workflow: STRICT})
    const refused = await notify(setup, '--all-projects', '--apply')
    expect(refused.code).toBe(2)
    expect(refused.stdout).toContain('refused    acme/app (#2): cannot open an issue: the issue field "Severity" is required and has no default value; set notify.fields["Severity"] in the configuration\n')
    expect(refused.writes).toEqual([])
    expect(refused.stderr).toContain('2 refused')

    const filled = await notify(setup, '--all-projects', '--apply', '--config', await configFile({notify: {fields: {Severity: 'High', Type: 'Bug'}}}))
    expect(filled.code, filled.stderr).toBe(0)
    expect(setup.store.issues.map((issue) => issue.fields)).toEqual([
      {Severity: 'High', Type: 'Bug'},
      {Severity: 'High', Type: 'Bug'},
    ])
  })

  it('refuses notify.fields the workflow does not define, or values it does not offer, before anything is written', async () => {
    const setup = await start({workflow: STRICT})
    const config = await configFile({notify: {fields: {Severity: 'Urgent', Team: 'core'}}})
    const run = await notify(setup, '--all-projects', '--apply', '--config', config)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`notify.fields: "Severity": "Urgent" is not one of its choices ("High", "Low"); "Team": the server's issue workflow has no such field`)
    expect(run.queries).toBe(0)
    expect(run.writes).toEqual([])
  })

  it('cannot close without a manual transition to the closed state, and says which', async () => {
    const workflow = {...DEFAULT_WORKFLOW, transitionSpecs: [{'@type': 'ManualSpec', fromStates: ['Open'], toStates: ['In Progress'], authorizedRoles: []}]}
    const setup = await start({workflow, store: {issues: [{projectId: 4, number: 3, title: ISSUE_TITLES.project, description: formatMarker({scope: {kind: 'project', id: 4}, findings: 'sha256:' + '1'.repeat(64)})}]}})
    const run = await notify(setup, '--project', '4', '--apply')
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('refused    acme/empty (#4): cannot close issue #3: no manual transition of the issue workflow leads from "Open" to "Closed"; add one (Administration → Issue Settings → State Transitions)\n')
    expect(run.writes).toEqual([])
  })

  it("closes through a transition of the project's parent when the global workflow has none", async () => {
    const workflow = {...DEFAULT_WORKFLOW, transitionSpecs: []}
    const stale = formatMarker({scope: {kind: 'project', id: 4}, findings: 'sha256:' + '3'.repeat(64)})
    const parent = {...fixtureServerOptions().settings![1] as object, issueSetting: {transitionSpecs: [{'@type': 'ManualSpec', fromStates: ['Open'], toStates: ['Closed'], authorizedRoles: ['Code Writer'], promptFields: [], removeFields: [], issueQuery: null}]}}
    const setup = await start({workflow, server: {settings: {...fixtureServerOptions().settings, 1: parent}}, store: {issues: [{projectId: 4, number: 2, title: ISSUE_TITLES.project, description: stale}]}})
    const run = await notify(setup, '--project', '4', '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('closed     acme/empty (#4): issue #2: no finding left; to "Closed"\n')
    expect(issueOf(setup.store, 4).state).toBe('Closed')
  })

  it('opens issues on a server without GET /settings/issue, saying once that it cannot close them', async () => {
    const setup = await start()
    setup.server.override('GET /settings/issue', {status: 404, text: 'HTTP 404 Not Found'})
    const run = await notify(setup, '--all-projects')
    expect(run.code, run.stderr).toBe(1)
    expect(run.stdout).toContain('open       acme/app (#2)')
    expect(run.stderr.match(/does not offer GET \/settings\/issue/g)).toHaveLength(1)
  })
})

describe('failures', () => {
  it('a 403 for one project is that project\'s error: the others are done, the exit code is 2', async () => {
    const setup = await start({store: {forbidden: [3]}})
    const run = await notify(setup, '--all-projects', '--apply')
    expect(run.code).toBe(2)
    expect(run.stdout).toMatch(/^opened     acme\/app \(#2\): confidential issue \(id \d+\) for 8 findings in 5 rules\n/)
    expect(run.stdout).toContain('open       legacy/tool (#3): a confidential issue for 5 findings in 4 rules; failed: POST /~api/issues: 403 Forbidden: Not authorized; the audit needs administrator rights (notify reads and writes confidential issues in every project)')
    expect(run.stderr).toContain('1 opened')
    expect(run.stderr).toContain('1 failed')
    expect(setup.store.issues.map((issue) => issue.projectId)).toEqual([2])
  })

  it('leaves alone the issues of projects not judged completely (their setting, or an ancestor\'s, could not be read), handles the others, and exits 2', async () => {
    const stale = formatMarker({scope: {kind: 'project', id: 4}, findings: 'sha256:' + '2'.repeat(64)})
    const setup = await start({store: {issues: [{projectId: 4, number: 1, title: ISSUE_TITLES.project, description: stale}]}})
    setup.server.override('GET /projects/1/setting', {status: 500, text: 'Internal Server Error'})
    const run = await notify(setup, '--all-projects', '--apply')
    expect(run.code).toBe(2)
    // acme failed; acme/app and acme/empty inherit from it: only legacy/tool is handled.
    expect(run.stdout).toMatch(/^opened     legacy\/tool \(#3\): confidential issue \(id \d+\) for 5 findings in 4 rules\n$/)
    expect(run.queries).toBe(1)
    expect(setup.store.issues.find((issue) => issue.projectId === 4)).toMatchObject({state: 'Open', description: stale})
    expect(run.stderr).toContain('onedev-audit: error: project acme (#1): GET /~api/projects/1/setting: 500')
    expect(run.stderr).toContain('1 opened')
    expect(run.stderr).toContain('1 audit error')
  })

  it('leaves every project\'s issue alone when server-wide data some rules judge could not be read this time (GET /groups failed): no finding of theirs is taken for gone', async () => {
    const setup = await start({server: {access: fixture('access/access.json')}})
    const first = await notify(setup, '--all-projects', '--apply')
    expect(first.code, first.stderr).toBe(0)
    const before = setup.store.issues.map((issue) => ({...issue}))
    expect(before.find((issue) => issue.projectId === 2)!.description).toContain('access/')
    setup.server.override('GET /groups', {status: 500, text: 'Internal Server Error'})
    const run = await notify(setup, '--all-projects', '--apply')
    expect(run.code).toBe(2)
    expect(run.writes).toEqual([])
    expect(run.queries).toBe(0)
    expect(setup.store.issues).toEqual(before)
    expect(run.stderr).toMatch(/^onedev-audit: notice: the findings of \d+ rules \(access\/[^)]*\) could not be judged this time \(GET \/groups failed\): every project's issue is left as it is$/m)
    expect(run.stderr).toContain('onedev-audit: error: GET /~api/groups: 500')
  })

  it('a role of a shape the audit does not know (the same every run) does not hold the projects back: they are handled, the run exits 2', async () => {
    const setup = await start({server: {roles: [...fixture('roles.json'), {id: 99, name: 5}]}})
    const run = await notify(setup, '--all-projects', '--apply')
    expect(run.code).toBe(2)
    expect(run.stdout).toMatch(/^opened {5}acme\/app \(#2\): /m)
    expect(run.stderr).not.toContain('could not be judged this time')
    expect(run.stderr).toContain('1 audit error')
  })

  it('a server without the issue endpoints is said once, after one request', async () => {
    const server = await startOneDevServer(fixtureServerOptions({access: EMPTY_ACCESS, admin: {}, issueSetting: DEFAULT_WORKFLOW}))
    track(server)
    const run = await runCli(['notify', '--all-projects', '--apply'], {env: serverEnv(server)})
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr.trim()).toBe("onedev-audit: error: the server does not offer GET /~api/issues (OneDev's issue REST interface, 404): notify cannot keep issues on it")
    expect(server.requests.filter((r) => r.path.endsWith('/issues'))).toHaveLength(1)
  })

  it('refuses a snapshot of another server, and bad flags, before any request', async () => {
    const setup = await start()
    const snapshot = join(dir(), 'other.json')
    const collected = await runCli(['collect', '--all-projects', '--output', snapshot], {env: serverEnv(setup.server)})
    expect(collected.code, collected.stderr).toBe(0)
    const other = await runCli(['notify', '--snapshot', snapshot, '--url', 'http://127.0.0.1:9'], {env: {...serverEnv(setup.server), ONEDEV_URL: undefined}})
    expect(other.code).toBe(2)
    expect(other.stderr.trim()).toBe(`onedev-audit: error: ${snapshot}: collected from ${setup.server.url}, but --url is http://127.0.0.1:9: notify keeps the issues of a server's findings on that server`)
    for (const args of [['--snapshot', snapshot, '--project', '2'], [], ['--all-projects', '--project', '2'], ['--all-projects', '--min-severity', 'severe']]) {
      const bad = await runCli(['notify', ...args], {env: serverEnv(setup.server)})
      expect(bad.code, args.join(' ')).toBe(2)
      expect(bad.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
    }
  })
})

describe('Ctrl-C', () => {
  it('finishes the issue in flight, starts no other, and exits 2', async () => {
    const setup = await start({store: {openDelayMs: 2000}})
    const child = spawn(process.execPath, [BIN, 'notify', '--project', '2', '--project', '3', '--apply', '--concurrency', '1'], {cwd: ROOT, env: {...process.env, ...serverEnv(setup.server), NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    for (let waited = 0; !setup.server.requests.some((r) => r.method === 'POST' && r.path === '/~api/issues'); waited += 50) {
      if (waited > 30_000) throw new Error(`no issue was opened; stderr: ${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    child.kill('SIGINT')
    expect(await exited).toBe(2)
    expect(stderr).toContain('onedev-audit: interrupted: finishing the issues in flight, starting no other')
    expect(stdout).toMatch(/^opened     acme\/app \(#2\): confidential issue \(id \d+\) for 8 findings in 5 rules\nnot done   legacy\/tool \(#3\): the run stopped first \(interrupted, or --deadline passed\)\n$/)
    expect(setup.store.issues.map((issue) => issue.projectId)).toEqual([2])
    expect(setup.server.requests.filter((r) => r.path === '/~api/issues' && r.method === 'GET')).toHaveLength(1)
  })
})

describe('hostile strings', () => {
  it('writes project paths, branch names and messages into the issue as text: no HTML, no mention, no reference, no link; the terminal sees escapes', async () => {
    const hostilePath = 'acme/<img src=x onerror=alert(1)> @admin #1 \u001b[31mred'
    const hostileBranch = 'fix/@root-#12-<b>x</b>-https://evil.example-0123456789abcdef0123456789abcdef01234567'
    const projects = [...FIXTURE_PROJECTS.map((p) => ({...p})), {id: 5, path: hostilePath, name: 'x', parentId: 1}]
    const setup = await start({
      server: {
        projects,
        settings: {...fixtureServerOptions().settings, 5: fixture('current/setting-full.json')},
        repositories: {...FIXTURE_REPOSITORIES, 5: {defaultBranch: hostileBranch, branches: [hostileBranch], tags: []}},
      },
    })
    const run = await notify(setup, '--project', '5', '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('opened     acme/<img src=x onerror=alert(1)> @admin #1 \\x1b[31mred (#5): ')
    expect(run.stdout).not.toContain('\u001b')
    const issue = issueOf(setup.store, 5)
    const lines = issue.description.split('\n')
    expect(lines.filter((line) => line.includes('<'))).toEqual([lines[0]])
    const findings = lines.filter((line) => /^- \*\*\w+\*\*: /.test(line))
    expect(findings.length).toBeGreaterThan(3)
    expect(findings.filter((line) => rendered(line).replace(/\u200b/g, '').includes(hostileBranch))).not.toEqual([])
    for (const line of findings) expectInert(line.replace(/^- \*\*\w+\*\*: /, ''))
    const path = /in the settings of project (.*), in \d+ rules/.exec(lines[2]!)![1]!
    expectInert(path)
    expect(rendered(path).replace(/\u200b/g, '')).toBe(hostilePath.replace('\u001b', '\\x1b'))
    // The query for the project found it again: the second run writes nothing.
    const again = await notify(setup, '--project', '5', '--apply')
    expect(again.writes).toEqual([])
  })
})

describe('snapshots and the server-wide issue', () => {
  it('notifies from a snapshot, querying each project under the path it has now', async () => {
    const setup = await start()
    const snapshot = join(dir(), 'snapshot')
    const collected = await runCli(['collect', '--all-projects', '--output-dir', snapshot], {env: serverEnv(setup.server)})
    expect(collected.code, collected.stderr).toBe(0)
    setup.projects.find((p) => p.id === 2)!.path = 'acme/renamed-app'
    const run = await notify(setup, '--snapshot', snapshot, '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('opened     acme/renamed-app (#2): ')
    expect(run.sent.filter((r) => r.path === '/~api/issues' && r.method === 'GET').map((r) => r.query.query)).toContain(
      '"Project" is "acme/renamed-app" and ("Title" contains "onedev-audit: security findings" or "Description" contains "onedev-audit:notify") order by "Number" asc',
    )
    const again = await notify(setup, '--snapshot', snapshot, '--apply')
    expect(again.code, again.stderr).toBe(0)
    expect(again.writes).toEqual([])
  })

  it('keeps the server-wide findings in one issue of notify.serverProject, and says where they go without it', async () => {
    const setup = await start({server: {access: fixture('access/access.json')}})
    const unrouted = await notify(setup, '--all-projects')
    expect(unrouted.stderr).toMatch(/notice: \d+ server-wide findings? \(roles, administration, security\) at or above high get no issue: name a project for them with notify.serverProject/)
    expect(unrouted.stdout).not.toContain('server-wide')

    const config = await configFile({notify: {serverProject: 'acme'}})
    const run = await notify(setup, '--all-projects', '--apply', '--config', config)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^opened     server-wide findings, in acme \(#1\): confidential issue \(id \d+\) for \d+ findings? in \d+ rules?$/m)
    const serverIssue = setup.store.issues.find((issue) => parseMarker(issue.description)?.scope.kind === 'server')!
    expect(serverIssue).toMatchObject({projectId: 1, title: ISSUE_TITLES.server, confidential: true})
    expect(serverIssue.description).toContain('in the server-wide settings (roles, administration, security)')
    expect(serverIssue.description).toContain('Self sign-up is on with no allowed email domain')
    expect(serverIssue.description).not.toContain('onedev-audit fix --project')
    const again = await notify(setup, '--all-projects', '--apply', '--config', config)
    expect(again.writes).toEqual([])
    expect(findingsDigest([])).toBe('none')
  })
})
