/**
 * The live audit is a pipeline: the projects of a listing page are requested as soon as the page
 * arrives, while the next page is fetched. A server that answers the second listing page only after it
 * has seen a setting request of the first page proves it: a collection that waited for the whole
 * listing would never finish (the test server gives up after a while, and the audit would fail).
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {EMPTY_SETTING, serverEnv} from '../helpers/fixture-server.js'
import {type OneDevServer, startOneDevServer} from '../helpers/onedev-server.js'

const PROJECTS = Array.from({length: 150}, (_, i) => ({id: i + 1, path: `p${String(i + 1).padStart(3, '0')}`, parentId: null}))

let server: OneDevServer
let settingsSeenBeforeSecondPage = -1

beforeAll(async () => {
  const repositories = Object.fromEntries(PROJECTS.map((p) => [p.id, {defaultBranch: 'main'}]))
  server = await startOneDevServer({projects: PROJECTS, settings: Object.fromEntries(PROJECTS.map((p) => [p.id, EMPTY_SETTING])), roles: [], repositories})
})
afterAll(async () => {
  await server.close()
})

const settingRequests = () => server.requests.filter((r) => /\/projects\/\d+\/setting$/.test(r.path)).length

describe('pipelined listing', () => {
  it('requests the settings of the first page before the second page answers, and finishes', async () => {
    server.setHandler('GET /projects', async (request, response, recorded) => {
      const offset = Number(recorded.query.offset)
      const count = Number(recorded.query.count)
      if (offset > 0) {
        // Hold the second page until a setting request of the first page arrives (at most 20 s).
        for (let waited = 0; settingRequests() === 0 && waited < 20_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10))
        settingsSeenBeforeSecondPage = settingRequests()
      }
      const page = PROJECTS.slice(offset, offset + count).map((p) => ({...p, name: p.path}))
      response.writeHead(200, {'content-type': 'application/json'})
      response.end(JSON.stringify(page))
    })
    const result = await runCli(['scan', '--all-projects', '--format', 'json', '--fail-on', 'none', '--debug'], {env: serverEnv(server)})
    expect(result.code, result.stderr).toBe(0)
    expect(settingsSeenBeforeSecondPage).toBeGreaterThan(0)
    expect(JSON.parse(result.stdout).summary.projects).toBe(150)
    // The debug log shows the order: a setting answered before the second listing page.
    const log = result.stderr.split('\n')
    const firstSetting = log.findIndex((line) => /GET \/~api\/projects\/\d+\/setting 200/.test(line))
    const secondPage = log.findIndex((line) => /GET \/~api\/projects\?.*offset=100.* 200/.test(line))
    expect(firstSetting).toBeGreaterThanOrEqual(0)
    expect(secondPage).toBeGreaterThan(firstSetting)
  })
})
