/**
 * NIST's OSCAL 1.1.3 Assessment Results schema, read where the project's reference material keeps it
 * (../shared/oscal/ beside the checkout; never copied into the project), compiled as its README says:
 * ajv's default class (draft-07) with ajv-formats, strict mode on. Where the file is absent the tests
 * that need it are skipped, and say so (OSCAL_SCHEMA_MISSING is their reason).
 *
 * Also the walk every OSCAL test makes: every uuid defined once, every uuid referenced (a `*-uuid`
 * field, a `#uuid` link) defined in the document.
 */
import {createHash} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import ajvModule, {type ErrorObject, type ValidateFunction} from 'ajv'
import ajvFormats from 'ajv-formats'

import {ROOT} from './cli.js'

export const OSCAL_SCHEMA_PATH = join(ROOT, '..', 'shared', 'oscal', 'oscal_assessment-results_schema.json')
/** The SHA-256 of NIST's released file (../shared/oscal/README.md): what is validated against is NIST's schema, unedited. */
export const OSCAL_SCHEMA_SHA256 = 'd9e34757f0c12aff61f52b821f0b8f83ba0ba75b3a149a202b08ba82f82bc4c3'

/** Why the schema tests are skipped, or undefined when the schema is there. */
export const OSCAL_SCHEMA_MISSING = existsSync(OSCAL_SCHEMA_PATH) ? undefined : `skipped: NIST's OSCAL schema is not at ${OSCAL_SCHEMA_PATH} (../shared/oscal/ beside the checkout)`
if (OSCAL_SCHEMA_MISSING) console.warn(`onedev-audit tests: ${OSCAL_SCHEMA_MISSING}; the OSCAL output is not validated against it`)

// CommonJS modules seen from ESM: the default import is module.exports, which carries `.default`.
const Ajv = ajvModule.default
const addFormats = ajvFormats.default

let validator: ValidateFunction | undefined

/** Errors of `document` against NIST's schema (instance path and message each); empty when valid. */
export function oscalSchemaErrors(document: unknown): string[] {
  if (!validator) {
    const bytes = readFileSync(OSCAL_SCHEMA_PATH)
    const digest = createHash('sha256').update(bytes).digest('hex')
    if (digest !== OSCAL_SCHEMA_SHA256) throw new Error(`${OSCAL_SCHEMA_PATH} is not NIST's released file (sha256 ${digest})`)
    const ajv = new Ajv({allErrors: true, strict: true})
    addFormats(ajv)
    validator = ajv.compile(JSON.parse(bytes.toString('utf8')) as object)
  }
  if (validator(document)) return []
  return (validator.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`)
}

/** Every uuid the document defines (the `uuid` of an object) and every one it refers to (`*-uuid`, `#uuid`). */
export function uuidsOf(document: unknown): {defined: string[]; referenced: string[]} {
  const defined: string[] = []
  const referenced: string[] = []
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item)
      return
    }
    if (value === null || typeof value !== 'object') return
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'uuid' && typeof inner === 'string') defined.push(inner)
      else if (key.endsWith('-uuid') && typeof inner === 'string') referenced.push(inner)
      else if (key.endsWith('-uuids') && Array.isArray(inner)) referenced.push(...inner.filter((item): item is string => typeof item === 'string'))
      else if (key === 'href' && typeof inner === 'string' && inner.startsWith('#')) referenced.push(inner.slice(1))
      walk(inner)
    }
  }
  walk(document)
  return {defined, referenced}
}

/** What is wrong with the document's uuids: defined twice, or referred to and not defined. */
export function uuidProblems(document: unknown): string[] {
  const {defined, referenced} = uuidsOf(document)
  const problems: string[] = []
  const seen = new Set<string>()
  for (const uuid of defined) {
    if (seen.has(uuid)) problems.push(`${uuid}: defined twice`)
    seen.add(uuid)
  }
  for (const uuid of referenced) if (!seen.has(uuid)) problems.push(`${uuid}: referred to, never defined`)
  return problems
}
