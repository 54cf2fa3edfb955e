import {describe, expect, it} from 'vitest'

import {collapseErrors, errorLines} from '../../src/cli/errors.js'
import type {AuditError} from '../../src/model/types.js'

const refused = (path: string, project?: {id: number; path: string}): AuditError => ({
  kind: 'network',
  message: `GET ${path}: connection failed (ECONNREFUSED)`,
  path,
  ...(project ? {project} : {}),
})

describe('collapseErrors', () => {
  it('folds request failures with the same kind, status and reason into the first, with the count', () => {
    const errors = [
      refused('/~api/roles'),
      refused('/~api/projects/1', {id: 1, path: 'acme'}),
      refused('/~api/projects/1/setting', {id: 1, path: 'acme'}),
      refused('/~api/projects/2', {id: 2, path: 'acme/app'}),
    ]
    expect(errorLines(errors)).toEqual(['onedev-audit: error: GET /~api/roles: connection failed (ECONNREFUSED) (and 3 more requests failed the same way)'])
    expect(collapseErrors(errors.slice(0, 2))).toEqual([
      {...errors[0], message: 'GET /~api/roles: connection failed (ECONNREFUSED) (and 1 more request failed the same way)'},
    ])
  })

  it('keeps apart what differs: the reason, the status, and errors that are not about a request', () => {
    const forbidden = (id: number): AuditError => ({
      kind: 'forbidden',
      message: `GET /~api/projects/${id}/setting: 403 Forbidden; the audit needs the manage-project permission on project ${id} or one of its ancestors`,
      path: `/~api/projects/${id}/setting`,
      status: 403,
    })
    const http = (status: number): AuditError => ({kind: 'http', message: `GET /~api/roles: ${status}`, path: '/~api/roles', status})
    const payload: AuditError = {kind: 'invalid-payload', message: 'expected boolean at /branchProtections/0/enabled', project: {id: 4, path: 'acme/empty'}}
    const errors = [forbidden(1), forbidden(2), http(500), http(502), payload, {...payload, project: {id: 5, path: 'other'}}]
    expect(collapseErrors(errors)).toEqual(errors)
  })

  it('keeps the order of each group\'s first error', () => {
    const a = refused('/~api/roles')
    const b: AuditError = {kind: 'internal', message: 'reading the roles failed: TypeError'}
    const c = refused('/~api/projects')
    expect(collapseErrors([a, b, c]).map((e) => e.message)).toEqual([
      'GET /~api/roles: connection failed (ECONNREFUSED) (and 1 more request failed the same way)',
      'reading the roles failed: TypeError',
    ])
  })
})
