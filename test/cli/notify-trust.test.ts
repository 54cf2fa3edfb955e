/**
 * Whose issues `onedev-audit notify` takes (issue 33), and what each OneDev version receives (issue
 * 32), against loopback servers that store issues the way OneDev's IssueResource does
 * (test/helpers/issue-store.ts: answers ordered by last activity, newest first; the submitter set from
 * the caller's account; 8.x field maps of one string each):
 *   - another account's look-alikes (confidential or not, notify's title or its marker) are never
 *     written, never block, never steer an output, and are named once;
 *   - notify finds its own issue behind any number of newer issues;
 *   - two overlapping runs leave two issues, and the next run closes the newer as a duplicate;
 *   - 8.x: several values of one field refused before any write, one value sent as a string;
 *   - a transition the server refuses (400 on 10.0 to 12.0.8, 406 from 12.0.9) leaves the issue as it is.
 * Every run stays within one query per project (more pages only when a page is full), one write, and
 * one transition or one duplicate close (`withinBudget`).
 */
import {relative} from 'node:path'

import {describe, expect, it} from 'vitest'

import {formatMarker, ISSUE_TITLES, parseMarker} from '../../src/model/issue.js'
import {ROOT} from '../helpers/cli.js'
import {LOOKALIKE_ISSUES} from '../helpers/hostile.js'
import {DEFAULT_WORKFLOW, MEMBER, ONEDEV_11, ONEDEV_12_0_8, ONEDEV_16, ONEDEV_8, ONEDEV_8_WORKFLOW, type StoredIssue} from '../helpers/issue-store.js'
import {budget, notifyHarness, type NotifyRun, type Setup} from '../helpers/notify-cli.js'

const {start, configFile, notify} = notifyHarness()

const TITLE = ISSUE_TITLES.project
const marker = (projectId: number, findings = 'sha256:' + 'a'.repeat(64)) => formatMarker({scope: {kind: 'project', id: projectId}, findings})
const own = (setup: Setup, projectId: number) => setup.store.issues.filter((issue) => issue.projectId === projectId && issue.submitterId === 1)

/**
 * The requests of a run stay within notify's budget: per project, its query (one more page per full
 * page of matches), at most one write (a new issue or a description), at most one transition (of its
 * issue, or closing a duplicate); per run, the workflow and the account once, the version at most once.
 */
function withinBudget(run: NotifyRun, setup: Setup, pages: Record<string, number> = {}): void {
  const {projects, run: runWide} = budget(run, setup)
  for (const [path, requests] of projects) {
    expect(requests.queries, path).toBe(pages[path] ?? 1)
    expect(requests.opens + requests.descriptions, path).toBeLessThanOrEqual(1)
    expect(requests.transitions, path).toBeLessThanOrEqual(1)
  }
  for (const [request, count] of Object.entries(runWide)) {
    if (/^GET \/(settings\/issue|users\/me|version\/server|issues\?query=submitted by me)/.test(request)) expect(count, request).toBe(1)
  }
}

const NOTICE = /^onedev-audit: notice: .*opened by another account than notify's.*$/gm

describe("other accounts' look-alikes", () => {
  it('a confidential issue a member titled like notify\'s before its first run is never written: notify opens its own, and names the look-alike once', async () => {
    const setup = await start({store: {issues: [{projectId: 2, ...LOOKALIKE_ISSUES.confidentialBeforeFirstRun(TITLE), submitterId: MEMBER.id}]}})
    const before = structuredClone(setup.store.issues[0]!)
    const run = await notify(setup, '--project', '2', '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^opened     acme\/app \(#2\): confidential issue \(id \d+\) for 8 findings in 5 rules\n$/)
    expect(run.stdout).not.toContain('had no marker')
    expect(run.stderr.match(NOTICE)).toEqual([
      "onedev-audit: notice: 1 issue carries notify's title or marker but was opened by another account than notify's: acme/app #1; notify never writes it nor takes it for its own (close it if it misleads)",
    ])
    expect(setup.store.issues[0]).toEqual(before)
    expect(own(setup, 2)).toHaveLength(1)
    expect(own(setup, 2)[0]).toMatchObject({number: 2, confidential: true})
    expect(run.writes).toEqual(['POST /issues'])
    withinBudget(run, setup)
    // The next run finds notify's own and leaves both alone.
    const again = await notify(setup, '--project', '2', '--apply')
    expect(again.stdout).toBe('unchanged  acme/app (#2): issue #2\n')
    expect(again.writes).toEqual([])
  })

  it("the same look-alike, not confidential, neither blocks the project nor fails the run", async () => {
    const setup = await start({store: {issues: [{projectId: 3, ...LOOKALIKE_ISSUES.publicBeforeFirstRun(TITLE), submitterId: MEMBER.id}]}})
    const run = await notify(setup, '--project', '3', '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^opened     legacy\/tool \(#3\): confidential issue \(id \d+\) for 5 findings in 4 rules\n$/)
    expect(run.stdout).not.toContain('not confidential')
    expect(run.stderr.match(NOTICE)).toHaveLength(1)
    expect(setup.store.issues[0]).toMatchObject({confidential: false, description: ''})
    withinBudget(run, setup)
  })

  it("after notify closed its issue, a member's issue carrying its marker is left alone: notify reopens its own when findings return", async () => {
    const setup = await start({
      store: {
        issues: [
          {projectId: 2, title: TITLE, description: `${marker(2, 'none')}\n\nnone left`, state: 'Closed'},
          {projectId: 2, ...LOOKALIKE_ISSUES.copiedMarker(TITLE, marker(2)), submitterId: MEMBER.id},
        ],
      },
    })
    const [mine, theirs] = setup.store.issues as [StoredIssue, StoredIssue]
    const before = structuredClone(theirs)
    const run = await notify(setup, '--project', '2', '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('reopened   acme/app (#2): issue #1: 8 findings in 5 rules; back to "Open"\n')
    expect(run.stdout + run.stderr).not.toContain('by hand')
    expect(run.writes).toEqual([`POST /issues/${mine.id}/state-transitions`, `POST /issues/${mine.id}/description`])
    expect(mine.state).toBe('Open')
    expect(parseMarker(mine.description)?.findings).toMatch(/^sha256:/)
    expect(theirs).toEqual(before)
    expect(run.stderr.match(NOTICE)).toEqual([expect.stringContaining(': acme/app #2; notify never writes it')])
    withinBudget(run, setup)
  })

  it('finds its own issue behind 100 newer issues whose title holds its title (the default order is the newest activity first): no second issue', async () => {
    const setup = await start()
    const opened = await notify(setup, '--project', '2', '--apply')
    expect(opened.code, opened.stderr).toBe(0)
    for (let i = 0; i < 100; i++) setup.store.add({projectId: 2, ...LOOKALIKE_ISSUES.newerTitleText(TITLE, i)})
    const run = await notify(setup, '--project', '2', '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('unchanged  acme/app (#2): issue #1\n')
    expect(run.writes).toEqual([])
    expect(own(setup, 2)).toHaveLength(1)
    // 101 issues match the query: a second page, and only that.
    withinBudget(run, setup, {'acme/app': 2})
  })
})

describe('two runs at once', () => {
  it('leave two issues when their slow POSTs overlap; the next run keeps the older, closes the newer as a duplicate and says so; at most one stays open', async () => {
    const setup = await start({store: {openTogether: 2}})
    const both = await Promise.all([notify(setup, '--project', '2', '--apply'), notify(setup, '--project', '2', '--apply')])
    for (const run of both) expect(run.code, run.stderr).toBe(0)
    expect(own(setup, 2).map((issue) => [issue.number, issue.state])).toEqual([
      [1, 'Open'],
      [2, 'Open'],
    ])
    const [older, newer] = own(setup, 2) as [StoredIssue, StoredIssue]

    const dry = await notify(setup, '--project', '2')
    expect(dry.code).toBe(1)
    expect(dry.stdout).toBe('unchanged  acme/app (#2): issue #1; close #2, a second issue of notify here, as a duplicate of it\n')
    expect(dry.stderr).toContain('1 duplicate to close')
    expect(dry.writes).toEqual([])

    const run = await notify(setup, '--project', '2', '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('unchanged  acme/app (#2): issue #1; closed #2, a second issue of notify here, as a duplicate of it\n')
    expect(run.stderr).toContain('1 duplicate closed')
    expect(run.writes).toEqual([`POST /issues/${newer.id}/state-transitions`])
    expect(newer).toMatchObject({state: 'Closed', comments: ['Closed by onedev-audit notify as a duplicate of #1: two runs opened an issue for the same findings at once, and #1 is the one kept up to date.']})
    expect(older.state).toBe('Open')
    withinBudget(run, setup)

    const after = await notify(setup, '--project', '2', '--apply')
    expect(after.stdout).toBe('unchanged  acme/app (#2): issue #1\n')
    expect(after.writes).toEqual([])
    expect(own(setup, 2).filter((issue) => issue.state !== 'Closed')).toHaveLength(1)
  })

  it('closes the duplicate at the run after the one that closes or reopens the issue kept: one transition per project and run', async () => {
    const stale = marker(4)
    const setup = await start({store: {issues: [{projectId: 4, title: TITLE, description: stale}, {projectId: 4, title: TITLE, description: stale}]}})
    const [kept, second] = setup.store.issues as [StoredIssue, StoredIssue]
    const run = await notify(setup, '--project', '4', '--apply')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toBe('closed     acme/empty (#4): issue #1: no finding left; to "Closed"; #2, a second issue of notify here, is closed as a duplicate at the next run\n')
    expect(run.writes).toEqual([`POST /issues/${kept.id}/state-transitions`, `POST /issues/${kept.id}/description`])
    expect(run.stderr).toContain('1 closed, 0 reopened, 0 unchanged, 0 without finding or issue, 1 duplicate to close at the next run')
    withinBudget(run, setup)
    const next = await notify(setup, '--project', '4', '--apply')
    expect(next.stdout).toBe('unchanged  acme/empty (#4): issue #1: closed, no finding; closed #2, a second issue of notify here, as a duplicate of it\n')
    expect(second.state).toBe('Closed')
    withinBudget(next, setup)
  })
})

describe('OneDev 8.x', () => {
  it('refuses a field of several values up front, naming it, before any write: 8.x would store them as one value', async () => {
    const setup = await start({workflow: ONEDEV_8_WORKFLOW, store: {flavor: ONEDEV_8}})
    const config = await configFile({notify: {fields: {Type: 'Bug', Assignees: ['alice', 'bob']}}})
    const run = await notify(setup, '--all-projects', '--apply', '--config', config)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr.trim()).toBe(
      `onedev-audit: error: ${relative(ROOT, config)}: notify.fields["Assignees"]: 2 values, but this server does not say its version (GET /~api/version/server is not offered, as before OneDev 10.2), and OneDev 8.x reads one value per field (it would store "a,b" as one value): give the field one value, or upgrade the server to 10.0 or later`,
    )
    expect(run.writes).toEqual([])
    expect(run.queries).toBe(0)
    expect(setup.store.issues).toEqual([])
  })

  it('sends a field of one value as the string 8.x reads, and leaves a look-alike alone there too', async () => {
    const setup = await start({workflow: ONEDEV_8_WORKFLOW, store: {flavor: ONEDEV_8, issues: [{projectId: 3, ...LOOKALIKE_ISSUES.confidentialBeforeFirstRun(TITLE), submitterId: MEMBER.id}]}})
    const config = await configFile({notify: {fields: {Type: 'Bug', Assignees: ['alice']}}})
    const run = await notify(setup, '--project', '3', '--apply', '--config', config)
    expect(run.code, run.stderr).toBe(0)
    const posted = JSON.parse(run.sent.find((r) => r.method === 'POST' && r.path === '/~api/issues')!.body)
    expect(posted.fields).toEqual({Type: 'Bug', Assignees: 'alice'})
    expect(own(setup, 3)).toEqual([expect.objectContaining({fields: {Type: 'Bug', Assignees: 'alice'}, confidential: true})])
    // One value needs no version: GET /version/server is asked once, by the collection (as every live run does), never again by notify.
    expect(run.sent.filter((r) => r.path.endsWith('/version/server'))).toHaveLength(1)
    withinBudget(run, setup)
  })

  it('sends several values as a list to a server that says it is 10.0 or later', async () => {
    const setup = await start({store: {flavor: ONEDEV_16}})
    const run = await notify(setup, '--project', '3', '--apply', '--config', await configFile({notify: {fields: {Assignees: ['alice', 'bob']}}}))
    expect(run.code, run.stderr).toBe(0)
    expect(own(setup, 3)[0]!.fields).toEqual({Type: 'Task', Assignees: ['alice', 'bob']})
    withinBudget(run, setup)
  })
})

describe('a transition the server refuses', () => {
  // The workflow offers a transition to Closed only for bugs: notify cannot judge its query, the server does.
  const BUGS_ONLY = {...DEFAULT_WORKFLOW, transitionSpecs: [{'@type': 'ManualSpec', fromStates: [], toStates: [], authorizedRoles: [], promptFields: [], removeFields: [], issueQuery: '"Type" is "Bug"'}]}

  for (const [flavor, status, text] of [
    [ONEDEV_11, '400 Bad Request', 'No applicable transition spec for: Open->Closed'],
    [ONEDEV_12_0_8, '400 Bad Request', 'No applicable manual transition spec found for current user (issue: acme/empty#1, from state: Open, to state: Closed)'],
    [ONEDEV_16, '406 Not Acceptable', 'No applicable manual transition spec found for current user (issue: acme/empty#1, from state: Open, to state: Closed)'],
  ] as const) {
    it(`on ${flavor.version} (${status}): the project is named, its issue left as it is, the other projects done, exit 2`, async () => {
      const stale = `${marker(4)}\n\nold findings`
      const setup = await start({workflow: BUGS_ONLY, store: {flavor, issues: [{projectId: 4, title: TITLE, description: stale, fields: {Type: 'Task'}}]}})
      const [issue] = setup.store.issues as [StoredIssue]
      const run = await notify(setup, '--all-projects', '--apply')
      expect(run.code).toBe(2)
      const lines = run.stdout.trimEnd().split('\n')
      expect(lines).toHaveLength(3)
      expect(lines.filter((line) => line.startsWith('opened     '))).toHaveLength(2)
      expect(lines).toContain(
        `refused    acme/empty (#4): cannot close issue #1: the server refused the transition to "Closed" (POST /~api/issues/${issue.id}/state-transitions: ${status}: ${text}); the issue is left as it is`,
      )
      expect(run.stderr).toContain('2 opened, 0 updated, 0 closed, 0 reopened, 0 unchanged, 1 without finding or issue; 1 refused')
      expect(issue).toMatchObject({state: 'Open', description: stale, comments: []})
      expect(run.writes.filter((write) => write.startsWith(`POST /issues/${issue.id}/`))).toEqual([`POST /issues/${issue.id}/state-transitions`])
      withinBudget(run, setup)
    })
  }
})
