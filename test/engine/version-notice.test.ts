import {describe, expect, it} from 'vitest'

import {coverageOf} from '../../src/engine/coverage.js'
import {versionNotices} from '../../src/engine/version-notice.js'
import type {AuditModel} from '../../src/model/types.js'
import {DEFAULT_SETTINGS} from '../helpers/rule-tester.js'
import {project} from '../helpers/model-builders.js'
import {serverModel} from '../rules/server/helpers.js'

const EMPTY_SHELL = {'@type': 'ServerShellExecutor', enabled: true, name: 'shell', jobMatch: null}
const JUDGED =
  '1 judgement that depends on the version was made by the reading that exposes more: which jobs a server (or remote) shell executor with an empty job match takes: ' +
  'judged as OneDev 11.11.1 to 15.0.0 read it (11.11.1 to 15.0.0: it takes every job; 15.0.1 and later: it takes no job), for server shell executor "shell"'

function withShell(version: string | null | undefined, more: Partial<AuditModel> = {}): AuditModel {
  return {...serverModel({'/settings/job-executors': [EMPTY_SHELL]}, version), ...more}
}

describe('the notice of judgements the version did not decide', () => {
  it.each([
    ['not offered (404)', withShell(null, {notEvaluated: [{endpoint: '/version/server', status: 404, checks: 'x'}]}), 'the server does not offer GET /version/server (404), which OneDev has from 10.2.0 on'],
    ['refused', withShell(null, {errors: [{kind: 'forbidden', message: 'GET /~api/version/server: 403 Forbidden', path: '/~api/version/server', status: 403}]}), 'reading GET /version/server failed (403); the errors say more'],
    ['an answer that is no version', {...withShell(null), serverData: {...withShell(null).serverData, 'version/server': '<html>'}}, 'its answer to GET /version/server is not a version'],
    ['a version text that is no release', withShell('16.x'), 'it answered 16.x, which is not a release the audit can compare'],
    ['a snapshot that predates it', withShell(undefined), 'it was not read (a snapshot written before the audit read it)'],
  ])('%s: one warning saying why and what was judged so', (_, model, why) => {
    expect(versionNotices(model)).toEqual([
      {kind: 'warning', message: `The server's OneDev version is unknown: ${why}. ${JUDGED}`},
    ])
  })

  it('a version before the payload\'s shape: the payload wins, and the notice says the two disagree', () => {
    expect(versionNotices(withShell('10.9.10'))).toEqual([
      {kind: 'warning', message: `The server says it is OneDev 10.9.10, but its answers have the shape of a later release. ${JUDGED}`},
    ])
  })

  it('several judgements in one notice, each subject list cut after five', () => {
    const secrets = Array.from({length: 7}, (_, i) => ({name: `s${i}`, value: null, authorization: null}))
    const model = withShell(null, {projectsById: new Map([[1, project({id: 1, path: 'app', jobSecrets: secrets})]])})
    const [notice] = versionNotices(model)
    expect(notice!.message).toContain('2 judgements that depend on the version were made by the reading that exposes more: which jobs')
    expect(notice!.message).toContain(
      'which builds a job secret with an empty authorization is handed to: judged as OneDev 10.9.0 and later read it (8.0.5 to 10.1.x: it is handed to builds on any branch (`on branch "**"`); ' +
        '10.2.0 to 10.8.x: it is handed to every build that is not of a pull request (`non-pull-request commits`); 10.9.0 and later: it is handed to every build, pull requests from forks included), ' +
        'for job secret "s0" of app, job secret "s1" of app, job secret "s2" of app, job secret "s3" of app, job secret "s4" of app and 2 more',
    )
  })

  it('none where the version decided, or where nothing depends on it', () => {
    expect(versionNotices(withShell('14.1.0'))).toEqual([])
    expect(versionNotices(withShell('16.5.6'))).toEqual([])
    expect(versionNotices(serverModel({'/settings/job-executors': [{...EMPTY_SHELL, jobMatch: '"Project" is "ops"'}]}, null))).toEqual([])
    // Before 11.11.1 (jobRequirement), an empty restriction takes every job whatever the version: nothing was assumed.
    expect(versionNotices(serverModel({'/settings/job-executors': [{'@type': 'ServerShellExecutor', enabled: true, name: 'shell', jobRequirement: null}]}, null))).toEqual([])
  })

  it('is among the scan\'s notices once, and the version endpoint is never a not-evaluated notice', () => {
    const model = withShell(null, {notEvaluated: [{endpoint: '/version/server', status: 404, checks: 'the judgements that depend on the OneDev version'}]})
    const notices = coverageOf(model, DEFAULT_SETTINGS).notices
    expect(notices.filter((n) => n.message.includes('/version/server'))).toHaveLength(1)
    expect(notices.filter((n) => n.kind === 'not-evaluated' && n.message.includes('/version/server'))).toEqual([])
  })
})
