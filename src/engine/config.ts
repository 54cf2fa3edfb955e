/**
 * Finding, reading and resolving the configuration file. Every problem is a ConfigError whose
 * message is one line naming the file and the key (`onedev-audit.config.json: /rules/foo/options/max: ...`).
 */
import {dirname, relative, resolve} from 'node:path'

import type {z} from 'zod'

import {pointerOf} from '../model/pointer.js'
import type {AuditError} from '../model/types.js'
import {patternProblem} from '../onedev/ref-name.js'
import {sha256Hex} from '../util/digest.js'
import {escapeControl} from '../util/escape.js'
import {readRegularFile} from '../util/fs.js'
import {parseJson} from '../util/json.js'
import {closest} from '../util/suggest.js'
import type {AuditConfig} from './config-schema.js'
import {DEFAULT_NEW_PROTECTIONS, type NewProtectionSettings} from './fix.js'
import type {AuditSettings} from './rule.js'

export class ConfigError extends Error {
  readonly error: AuditError
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
    this.error = {kind: 'config', message}
  }
}

export interface LoadedConfig {
  /** Absolute path of the file read, or null when there was none (defaults apply). */
  path: string | null
  /** How to name the file in messages: relative to the working directory. */
  label: string
  /** Directory plugins and other relative paths resolve against. */
  dir: string
  config: AuditConfig
  /** The SHA-256 of the bytes read (an attestation names the configuration by it); absent when there was no file. */
  sha256?: string
}

/**
 * One line per zod issue, at most `max`, naming the pointer. `knownKeys`: the keys allowed where an
 * unknown key was found, to say which one a misspelt key was meant to be.
 */
export function describeIssues(label: string, issues: z.core.$ZodIssue[], max = 3, knownKeys?: (path: PropertyKey[]) => string[]): string {
  const lines = issues.slice(0, max).map((issue) => {
    const where = pointerOf(issue.path)
    const keys = issue.code === 'unrecognized_keys' ? unknownKeys(issue.keys, knownKeys?.(issue.path) ?? []) : issue.message
    return `${label}: ${where || '/'}: ${keys}`
  })
  if (issues.length > max) lines.push(`and ${issues.length - max} more`)
  return lines.join('; ')
}

/** `unknown key "brnches" (did you mean "branches"?)`. */
function unknownKeys(keys: readonly string[], known: readonly string[]): string {
  const named = keys.map((key) => {
    const meant = closest(key, known)
    return `"${escapeControl(key)}"${meant === undefined ? '' : ` (did you mean "${meant}"?)`}`
  })
  return `unknown key ${named.join(', ')}`
}

/** Parses JSON text, turning a syntax error into a ConfigError naming the line and column. */
export function parseJsonOrConfigError(text: string, label: string): unknown {
  try {
    return parseJson(text, label)
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error))
  }
}

export const CONFIG_FILE_NAME = 'onedev-audit.config.json'

export async function loadConfig(explicitPath?: string, cwd = process.cwd()): Promise<LoadedConfig> {
  const path = resolve(cwd, explicitPath ?? CONFIG_FILE_NAME)
  const label = relative(cwd, path) || path
  let bytes: Buffer
  try {
    bytes = await readRegularFile(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' && explicitPath === undefined) return {path: null, label: CONFIG_FILE_NAME, dir: cwd, config: {}}
    throw new ConfigError(`${label}: cannot read the configuration file (${code ?? String(error)})`)
  }
  const json = parseJsonOrConfigError(bytes.toString('utf8'), label)
  const {configSchema, keysAt} = await import('./config-schema.js')
  const parsed = configSchema.safeParse(json)
  if (!parsed.success) throw new ConfigError(describeIssues(label, parsed.error.issues, 3, (path) => keysAt(configSchema, path)))
  for (const [key, kind] of [['branches', 'branch'], ['tags', 'tag']] as const) {
    for (const [index, pattern] of (parsed.data[key] ?? []).entries()) {
      const refused = refPatternError(`${label}: /${key}/${index}`, pattern, kind)
      if (refused !== null) throw new ConfigError(refused)
    }
  }
  return {path, label, dir: dirname(path), config: parsed.data, sha256: sha256Hex(bytes)}
}

/**
 * A branch or tag pattern no name can ever match (src/onedev/ref-name.ts patternProblem) as one line
 * naming where it came from (`--branch`, `onedev-audit.config.json: /branches/0`), the value and why;
 * null when some name may match it. A value the user typed is never dropped without a word.
 */
export function refPatternError(where: string, pattern: string, kind: 'branch' | 'tag'): string | null {
  const problem = patternProblem(pattern, kind)
  return problem === null ? null : `${where} "${escapeControl(pattern.slice(0, 200))}": ${problem}: no ${kind} can ever match it`
}

export const DEFAULT_SETTINGS: AuditSettings = {
  branches: [],
  tags: [],
  allowedAdminRoles: ['Project Owner'],
  protectionSemantics: 'first-match',
}

/** Audit settings from the configuration, with flags (e.g. `--branch`) taking precedence. */
export function resolveSettings(config: AuditConfig, overrides: {branches?: string[]; tags?: string[]} = {}): AuditSettings {
  return {
    branches: overrides.branches?.length ? overrides.branches : (config.branches ?? DEFAULT_SETTINGS.branches),
    tags: overrides.tags?.length ? overrides.tags : (config.tags ?? DEFAULT_SETTINGS.tags),
    allowedAdminRoles: config.allowedAdminRoles ?? DEFAULT_SETTINGS.allowedAdminRoles,
    protectionSemantics: config.protectionSemantics ?? DEFAULT_SETTINGS.protectionSemantics,
    ...(config.fix ? {fix: newProtections(config.fix)} : {}),
  }
}

/** The configuration's `fix` key over the defaults. */
function newProtections(fix: NonNullable<AuditConfig['fix']>): NewProtectionSettings {
  const defined = <T extends object>(object: T | undefined) => Object.fromEntries(Object.entries(object ?? {}).filter(([, value]) => value !== undefined))
  return {
    branch: {...DEFAULT_NEW_PROTECTIONS.branch, ...defined(fix.branchProtection)},
    tag: {...DEFAULT_NEW_PROTECTIONS.tag, ...defined(fix.tagProtection)},
  }
}
