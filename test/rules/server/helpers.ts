/**
 * Models for server-scope rule tests: a server data document built from payloads by endpoint path,
 * redacted the way collection stores them (keys without the leading slash).
 */
import {redactServerPayload} from '../../../src/model/redact.js'
import type {AuditModel} from '../../../src/model/types.js'
import {model} from '../../helpers/model-builders.js'

export function serverModel(payloads: Record<string, unknown>, version?: string | null): AuditModel {
  const serverData: Record<string, unknown> = {}
  for (const [path, value] of Object.entries(payloads)) {
    const key = path.replace(/^\/+/, '')
    serverData[key] = redactServerPayload(key, structuredClone(value))
  }
  const base = model()
  // `version`: what GET /version/server answered (null: not read); absent: a model that never asked.
  return {...base, ...(version === undefined ? {} : {server: {...base.server!, version}}), serverData}
}

export const executor = (fields: Record<string, unknown>) => ({enabled: true, name: 'x', htmlReportPublishEnabled: false, sitePublishEnabled: false, ...fields})
