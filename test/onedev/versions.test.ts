import {describe, expect, it} from 'vitest'

import {assumedJudgements, compareReleases, EXECUTOR_EMPTY_JOB_MATCH, NO_EXECUTOR_DISCOVERY, parseRelease, readingAt, releasesOf, serverRelease, VERSION_JUDGEMENTS} from '../../src/onedev/versions.js'
import {serverModel} from '../rules/server/helpers.js'

describe('the server version as judgements read it', () => {
  it.each([
    ['16.5.6', [16, 5, 6]],
    ['10.2.0', [10, 2, 0]],
    ['11.7.0-SNAPSHOT', [11, 7, 0]],
    ['16.5', null],
    ['v16.5.6', null],
    ['16.x.1', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j → %j', (text, release) => {
    expect(parseRelease(text)).toEqual(release)
  })

  it('two mis-numbered tags are judged as the release their code is: 11.1.6 is 14.1.x code, 11.0.2 is 11.1.x code', () => {
    const at = (version: string) => serverRelease({server: {url: 'https://x', apiPrefix: '/~api', version}})
    expect(at('11.1.6')).toEqual([14, 1, 6])
    expect(at('11.0.2')).toEqual([11, 1, 2])
    expect(at('11.1.3')).toEqual([11, 1, 3])
    expect(at('16.5.6')).toEqual([16, 5, 6])
  })

  it('orders releases by number, not by text', () => {
    expect(compareReleases([11, 11, 1], [11, 7, 0])).toBeGreaterThan(0)
    expect(compareReleases([15, 0, 0], [15, 0, 1])).toBeLessThan(0)
  })
})

describe('the table', () => {
  it('every entry: an id, readings in release order with a tag, file and line, and an unknown reading among them', () => {
    const ids = new Set<string>()
    for (const judgement of VERSION_JUDGEMENTS) {
      expect(ids.has(judgement.id), judgement.id).toBe(false)
      ids.add(judgement.id)
      expect(judgement.readings.map((r) => r.reading)).toContain(judgement.whenUnknown)
      const froms = judgement.readings.map((r) => parseRelease(r.from))
      for (const [i, from] of froms.entries()) {
        expect(from, judgement.id).not.toBeNull()
        if (i > 0) expect(compareReleases(from!, froms[i - 1]!)).toBeGreaterThan(0)
      }
      for (const reading of judgement.readings) expect(reading.source).toMatch(/^v\d+\.\d+\.\d+ \S+\.java:\d+/)
    }
  })

  it('an empty server shell executor job match: every job from 11.11.1 to 15.0.0, none from 15.0.1, every job when unknown', () => {
    const [before, after] = EXECUTOR_EMPTY_JOB_MATCH.readings
    expect(releasesOf(EXECUTOR_EMPTY_JOB_MATCH, before!)).toBe('11.11.1 to 15.0.0')
    expect(releasesOf(EXECUTOR_EMPTY_JOB_MATCH, after!)).toBe('15.0.1 and later')
    expect(readingAt(EXECUTOR_EMPTY_JOB_MATCH, [15, 0, 0])).toMatchObject({reading: 'any-job', assumed: null})
    expect(readingAt(EXECUTOR_EMPTY_JOB_MATCH, [15, 0, 1])).toMatchObject({reading: 'no-job', assumed: null})
    expect(readingAt(EXECUTOR_EMPTY_JOB_MATCH, null)).toMatchObject({reading: 'any-job', assumed: 'unknown'})
    expect(readingAt(EXECUTOR_EMPTY_JOB_MATCH, [11, 11, 0])).toMatchObject({reading: 'any-job', assumed: 'disagrees'})
  })

  it('assumed judgements: only where the version did not decide and the model has something the entry decides', () => {
    const executors = [
      {'@type': 'ServerShellExecutor', enabled: true, name: 'shell', jobMatch: null},
      {'@type': 'ServerShellExecutor', enabled: false, name: 'off', jobMatch: null},
      {'@type': 'ServerShellExecutor', enabled: true, name: 'scoped', jobMatch: '"Project" is "ops"'},
      {'@type': 'ServerDockerExecutor', enabled: true, name: 'docker', jobMatch: null},
      {'@type': 'RemoteShellExecutor', enabled: true, name: 'agents', jobMatch: null},
    ]
    const model = serverModel({'/settings/job-executors': executors})
    const at = (version: string | null | undefined) => assumedJudgements({...model, server: {url: 'https://x', apiPrefix: '/~api', ...(version === undefined ? {} : {version})}})
    expect(at('16.5.6')).toEqual([])
    expect(at('14.1.0')).toEqual([])
    expect(at(null).map((a) => [a.judgement.id, a.because, a.subjects])).toEqual([['executor-empty-job-match', 'unknown', ['server shell executor "shell"', 'remote shell executor "agents"']]])
    expect(at(undefined).map((a) => a.because)).toEqual(['unknown'])
    expect(at('10.9.10').map((a) => a.because)).toEqual(['disagrees'])
    // Nothing the entry decides: nothing was judged by the unknown reading.
    expect(assumedJudgements({...serverModel({'/settings/job-executors': [executors[2]]}), server: null})).toEqual([])
    expect(assumedJudgements({...serverModel({}), server: null})).toEqual([])
  })

  it('no executor defined: up to 11.11.0 a shell executor may be discovered, from 11.11.1 not', () => {
    expect(readingAt(NO_EXECUTOR_DISCOVERY, [11, 11, 0]).reading).toBe('shell-discovered')
    expect(readingAt(NO_EXECUTOR_DISCOVERY, [11, 11, 1]).reading).toBe('containers-only')
    expect(readingAt(NO_EXECUTOR_DISCOVERY, null)).toMatchObject({reading: 'shell-discovered', assumed: 'unknown'})
    const empty = serverModel({'/settings/job-executors': []})
    expect(assumedJudgements({...empty, server: {url: 'https://x', apiPrefix: '/~api', version: null}}).map((a) => [a.judgement.id, a.subjects])).toEqual([['no-executor-discovery', ['the empty job executor list']]])
    expect(assumedJudgements({...empty, server: {url: 'https://x', apiPrefix: '/~api', version: '16.5.6'}})).toEqual([])
  })
})
