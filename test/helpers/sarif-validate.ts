/**
 * Validators for report tests: the official SARIF 2.1.0 schema (shipped with the SARIF Multitool),
 * our JSON report schema, and the Multitool's own SARIF + GitHub ingestion rules.
 *
 * The schemas are compiled lazily, once per test file (each vitest file gets its own module).
 */
import {execFile} from 'node:child_process'
import {constants} from 'node:fs'
import {access, chmod, copyFile, mkdir, readFile, rename, rm, stat} from 'node:fs/promises'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'

import type {ErrorObject, ValidateFunction} from 'ajv'
import ajv2020 from 'ajv/dist/2020.js'
import ajvFormats from 'ajv-formats'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const multitoolDir = join(root, 'node_modules', '@microsoft', 'sarif-multitool-linux')

// CommonJS modules seen from ESM: the default import is module.exports, which carries `.default`.
const Ajv2020 = ajv2020.default
const addFormats = ajvFormats.default

function compile(schemaPath: string): ValidateFunction {
  const ajv = new Ajv2020({allErrors: true, strict: false})
  addFormats(ajv)
  return ajv.compile(require(schemaPath) as object)
}

const describeErrors = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`)

let sarifValidator: ValidateFunction | undefined
let reportValidator: ValidateFunction | undefined

/** Errors of `log` against the official SARIF 2.1.0 schema; empty when valid. */
export function validateSarif(log: unknown): string[] {
  sarifValidator ??= compile(join(multitoolDir, 'sarif-2.1.0.json'))
  return sarifValidator(log) ? [] : describeErrors(sarifValidator.errors)
}

/** Errors of `report` against schemas/report.schema.json; empty when valid. */
let accessValidator: ValidateFunction | undefined

/** Problems of an `access --format json` answer against schemas/access.schema.json; [] when valid. */
export function validateAccessJson(report: unknown): string[] {
  accessValidator ??= compile(join(root, 'schemas', 'access.schema.json'))
  return accessValidator(report) ? [] : describeErrors(accessValidator.errors)
}

export function validateReportJson(report: unknown): string[] {
  reportValidator ??= compile(join(root, 'schemas', 'report.schema.json'))
  return reportValidator(report) ? [] : describeErrors(reportValidator.errors)
}

/**
 * The Multitool binary. npm installs it without the execute bit when install scripts are off,
 * so a non-executable binary is copied once to the temp folder and made executable there.
 */
async function multitoolBinary(): Promise<string> {
  const shipped = join(multitoolDir, 'Sarif.Multitool')
  try {
    await access(shipped, constants.X_OK)
    return shipped
  } catch {
    // not executable: use a copy
  }
  const {size} = await stat(shipped)
  const cached = join(tmpdir(), `onedev-audit-sarif-multitool-${size}`, 'Sarif.Multitool')
  try {
    await access(cached, constants.X_OK)
    const copied = await stat(cached)
    if (copied.size === size) return cached
  } catch {
    // not there yet
  }
  await mkdir(dirname(cached), {recursive: true})
  const partial = `${cached}.${process.pid}.partial`
  await copyFile(shipped, partial)
  await chmod(partial, 0o755)
  await rename(partial, cached)
  return cached
}

interface MultitoolLog {
  runs?: Array<{
    results?: Array<{
      ruleId?: string
      level?: string
      message?: {text?: string; id?: string; arguments?: string[]}
      locations?: Array<{physicalLocation?: {artifactLocation?: {uri?: string}}}>
    }>
  }>
}

export interface MultitoolResult {
  /** The validated file the result is about. */
  file: string
  ruleId: string
  level: string
  text: string
}

/**
 * Runs `Sarif.Multitool validate FILES --rule-kind "Sarif;Gh"` once over all the files and returns
 * every result it reports (any level). The tool's exit code is always 0, so its output log is read.
 */
export async function multitoolResults(sarifPaths: string[]): Promise<MultitoolResult[]> {
  const binary = await multitoolBinary()
  const out = `${sarifPaths[0]}.validation-${process.pid}.sarif`
  try {
    await promisify(execFile)(binary, ['validate', ...sarifPaths, '--rule-kind', 'Sarif;Gh', '--output', out, '--log', 'ForceOverwrite'], {
      timeout: 120_000,
      env: {...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1'},
    })
    const log = JSON.parse(await readFile(out, 'utf8')) as MultitoolLog
    return (log.runs ?? [])
      .flatMap((run) => run.results ?? [])
      .map((result) => {
        const uri = result.locations?.[0]?.physicalLocation?.artifactLocation?.uri
        return {
          file: uri?.startsWith('file:') ? fileURLToPath(uri) : (uri ?? '?'),
          ruleId: result.ruleId ?? '?',
          // SARIF's default level is warning.
          level: result.level ?? 'warning',
          text: result.message?.text ?? [result.message?.id, ...(result.message?.arguments ?? [])].join(' '),
        }
      })
  } finally {
    await rm(out, {force: true})
  }
}

/** The Multitool's error-level results per file, as `RULE: message` lines; a file that passes SARIF and GitHub's rules gets []. */
export async function multitoolErrorsByFile(sarifPaths: string[]): Promise<Map<string, string[]>> {
  const byFile = new Map<string, string[]>(sarifPaths.map((path) => [resolve(path), []]))
  for (const result of await multitoolResults(sarifPaths.map((path) => resolve(path)))) {
    if (result.level !== 'error') continue
    const list = byFile.get(result.file) ?? []
    list.push(`${result.ruleId}: ${result.text}`)
    byFile.set(result.file, list)
  }
  return byFile
}

/** The Multitool's error-level results for one file as `RULE: message` lines; empty when it passes SARIF and GitHub's rules. */
export async function multitoolErrors(sarifPath: string): Promise<string[]> {
  const results = await multitoolResults([resolve(sarifPath)])
  return results.filter((result) => result.level === 'error').map((result) => `${result.ruleId}: ${result.text}`)
}

let diffValidator: ValidateFunction | undefined

/** Errors of a diff report (`diff --format json`) against schemas/diff.schema.json; empty when valid. */
export function validateDiffJson(report: unknown): string[] {
  diffValidator ??= compile(join(root, 'schemas', 'diff.schema.json'))
  return diffValidator(report) ? [] : describeErrors(diffValidator.errors)
}
