/** Which OneDev the audit judged, in every format's statement of what it judged (input.source.server?.version). */
import {describe, expect, it} from 'vitest'

import {textOf} from '../../src/report/chunks.js'
import {htmlChunks} from '../../src/report/html.js'
import {formatReport} from '../../src/report/index.js'
import type {Source} from '../../src/types/report-types.js'
import {validateReportJson, validateSarif} from '../helpers/sarif-validate.js'
import {sampleInput} from './sample-input.js'

const SERVER = {url: 'https://onedev.example.com', apiPrefix: '/~api'}
const input = (source: Source) => sampleInput({source, findings: [], suppressed: [], errors: [], notices: [], counts: {projects: 1, roles: 2}})

describe('the server version in every report', () => {
  it.each([
    ['known', {kind: 'server', server: {...SERVER, version: '15.0.1'}}, '15.0.1', 'OneDev 15.0.1'],
    ['not read (null)', {kind: 'server', server: {...SERVER, version: null}}, null, 'OneDev version unknown'],
    ['a snapshot that predates it (absent)', {kind: 'snapshot', snapshot: 's.json', server: SERVER}, null, 'OneDev version unknown'],
  ] as const)('%s', (_, source, value, phrase) => {
    const json = JSON.parse(formatReport('json', input(source)).text)
    expect(validateReportJson(json)).toEqual([])
    expect(json.server).toEqual({url: SERVER.url, apiPrefix: '/~api', version: value})
    const sarif = JSON.parse(formatReport('sarif', input(source)).text)
    expect(validateSarif(sarif)).toEqual([])
    expect(sarif.runs[0].properties).toEqual({serverVersion: value})
    expect(formatReport('stylish', {...input(source), color: false}).text).toBe(`✔ No findings in 1 project and 2 roles (${phrase})\n`)
    expect(formatReport('markdown', input(source)).text).toContain(`Server: ${SERVER.url} (${phrase}) ·`)
    expect(textOf(htmlChunks(input(source)))).toContain(`<dt>OneDev version</dt><dd>${value ?? 'unknown'}</dd>`)
  })

  it('no server, no version: a linted file, a snapshot without a server', () => {
    for (const source of [{kind: 'file', file: 'issue.json'}, {kind: 'snapshot', snapshot: 's.json', server: null}] as const) {
      expect(formatReport('stylish', {...input(source), color: false}).text).not.toContain('OneDev')
      expect(JSON.parse(formatReport('sarif', input(source)).text).runs[0].properties).toBeUndefined()
      expect(textOf(htmlChunks(input(source)))).not.toContain('OneDev version')
    }
  })
})
