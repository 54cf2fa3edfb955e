/**
 * Which rules exist (built-in ones and plugins named in the configuration) and how this run
 * configures them. Plugins are loaded only from the user's own configuration file: nothing that
 * came from a server is ever loaded or evaluated as code.
 */
import {createRequire} from 'node:module'
import {isAbsolute, join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'

import {VERSIONED_SERVER_MEMBERS} from '../model/server-members.js'
import {VERSIONED_SETTING_MEMBERS} from '../model/types.js'
import {expectRegularFile, NotRegularFileError} from '../util/fs.js'
import {closest} from '../util/suggest.js'
import {ConfigError, describeIssues, type LoadedConfig} from './config.js'
import type {ActiveRule} from './evaluate.js'
import {type Rule, type RuleMeta, SEVERITIES, type Severity} from './rule.js'

const SCOPES = ['project', 'role', 'server', 'issue-setting']
const RULE_ID = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)+$/
/** How `meta.requires` names a member of the project setting (model/types.ts VERSIONED_SETTING_MEMBERS); members of server data are named whole (model/server-members.ts). */
const SETTING_MEMBER = '/projects/{id}/setting#'

/** A rule as listed by `onedev-audit rules` and in SARIF's tool.driver.rules. */
export interface RuleListing {
  meta: RuleMeta
  severity: Severity
  enabled: boolean
  /** `builtin`, or the plugin specifier it came from. */
  origin: string
}

export interface RuleSet {
  active: ActiveRule[]
  listing: RuleListing[]
}

/** Checks that a module export is a usable rule; the message names what is wrong. */
export function ruleProblem(candidate: unknown): string | null {
  if (!candidate || typeof candidate !== 'object') return 'is not an object with meta and check'
  const {meta, check} = candidate as Partial<Rule>
  if (typeof check !== 'function') return 'has no check(context) function'
  if (!meta || typeof meta !== 'object') return 'has no meta'
  if (typeof meta.id !== 'string' || !RULE_ID.test(meta.id)) return `has an invalid meta.id ${JSON.stringify(meta.id)} (expected area/name in lower case)`
  for (const key of ['shortDescription', 'fullDescription', 'help'] as const) {
    if (typeof meta[key] !== 'string' || meta[key].length === 0) return `${meta.id}: meta.${key} must be a non-empty string`
  }
  if (!SEVERITIES.includes(meta.defaultSeverity)) return `${meta.id}: meta.defaultSeverity must be one of ${SEVERITIES.join(', ')}`
  if (!SCOPES.includes(meta.scope)) return `${meta.id}: meta.scope must be one of ${SCOPES.join(', ')}`
  if (!Array.isArray(meta.tags) || meta.tags.some((t) => typeof t !== 'string')) return `${meta.id}: meta.tags must be an array of strings`
  if (meta.fix !== undefined && meta.fix !== 'fix' && meta.fix !== 'suggestion') return `${meta.id}: meta.fix must be 'fix' or 'suggestion' when given`
  if (meta.requires !== undefined && (!Array.isArray(meta.requires) || meta.requires.some((r) => typeof r !== 'string'))) return `${meta.id}: meta.requires must be an array of strings`
  const member = meta.requires?.find(
    (r) => r.includes('#') && !(r.startsWith(SETTING_MEMBER) && Object.hasOwn(VERSIONED_SETTING_MEMBERS, r.slice(SETTING_MEMBER.length))) && !Object.hasOwn(VERSIONED_SERVER_MEMBERS, r),
  )
  if (member !== undefined) {
    const known = [...Object.keys(VERSIONED_SETTING_MEMBERS).map((pointer) => SETTING_MEMBER + pointer), ...Object.keys(VERSIONED_SERVER_MEMBERS)]
    return `${meta.id}: meta.requires names ${JSON.stringify(member)}, which is not a member the audit knows (${known.join(', ')})`
  }
  return null
}

async function importPlugin(specifier: string, dir: string): Promise<unknown> {
  const looksLikePath = specifier.startsWith('.') || isAbsolute(specifier)
  const file = looksLikePath ? resolve(dir, specifier) : createRequire(join(dir, 'noop.js')).resolve(specifier)
  // A named pipe or a device would keep the module loader waiting for ever: refused before it reads
  // (a file that is not there is the loader's to say).
  await expectRegularFile(file).catch((error: unknown) => {
    if (error instanceof NotRegularFileError) throw error
  })
  return import(pathToFileURL(file).href)
}

/** Rules a plugin module exports: `rules` (array), a default array, or a default `{rules}`. */
function rulesOfModule(module: any): unknown[] | null {
  for (const candidate of [module?.rules, module?.default?.rules, module?.default]) {
    if (Array.isArray(candidate)) return candidate
  }
  return null
}

export async function loadPluginRules(loaded: LoadedConfig): Promise<Array<{rule: Rule; origin: string}>> {
  const found: Array<{rule: Rule; origin: string}> = []
  for (const [index, specifier] of (loaded.config.plugins ?? []).entries()) {
    const where = `${loaded.label}: /plugins/${index}`
    let module: unknown
    try {
      module = await importPlugin(specifier, loaded.dir)
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message.split('\n')[0] : String(error))
      throw new ConfigError(`${where}: cannot load plugin "${specifier}" (${reason})`)
    }
    const rules = rulesOfModule(module)
    if (!rules) throw new ConfigError(`${where}: plugin "${specifier}" exports no rules (export const rules = [...])`)
    for (const rule of rules) {
      const problem = ruleProblem(rule)
      if (problem) throw new ConfigError(`${where}: a rule of plugin "${specifier}" ${problem}`)
      found.push({rule: rule as Rule, origin: specifier})
    }
  }
  return found
}

/**
 * The built-in rules (rules/index.ts, which the command layer loads and hands over: the engine is
 * below the rules) plus the configuration's plugins; duplicate ids are an error.
 */
export async function loadAllRules(loaded: LoadedConfig, builtins: readonly Rule[]): Promise<Array<{rule: Rule; origin: string}>> {
  const all = builtins.map((rule) => ({rule, origin: 'builtin'}))
  const seen = new Map(all.map((entry) => [entry.rule.meta.id, entry.origin]))
  for (const entry of await loadPluginRules(loaded)) {
    const previous = seen.get(entry.rule.meta.id)
    if (previous) throw new ConfigError(`${loaded.label}: plugin "${entry.origin}" defines rule ${entry.rule.meta.id}, already defined by ${previous}`)
    seen.set(entry.rule.meta.id, entry.origin)
    all.push(entry)
  }
  return all
}

/** Applies the configuration's `rules` to every known rule: severities, `off`, options (validated). */
export async function resolveRuleSet(rules: Array<{rule: Rule; origin: string}>, loaded: LoadedConfig): Promise<RuleSet> {
  const byId = new Map(rules.map((entry) => [entry.rule.meta.id, entry]))
  const settings = loaded.config.rules ?? {}
  for (const id of Object.keys(settings)) {
    if (!byId.has(id)) throw new ConfigError(`${loaded.label}: /rules/${id}: unknown rule id (see onedev-audit rules)${suggest(id, [...byId.keys()])}`)
  }
  const active: ActiveRule[] = []
  const listing: RuleListing[] = []
  for (const {rule, origin} of rules) {
    const setting = settings[rule.meta.id]
    const configured = typeof setting === 'string' ? setting : setting?.severity
    const userOptions = typeof setting === 'object' ? setting.options : undefined
    const options = {...(rule.meta.defaultOptions ?? {}), ...(userOptions ?? {})}
    if (userOptions !== undefined) await validateOptions(rule, options, `${loaded.label}: /rules/${rule.meta.id}/options`)
    const enabled = configured !== 'off'
    const severityOverride = configured === undefined || configured === 'off' ? undefined : configured
    listing.push({meta: rule.meta, severity: severityOverride ?? rule.meta.defaultSeverity, enabled, origin})
    if (enabled) active.push({rule, options, ...(severityOverride ? {severityOverride} : {})})
  }
  return {active, listing}
}

/** Options come only from a configuration file: zod is loaded then (config.ts read it with zod too). */
async function validateOptions(rule: Rule, options: Record<string, unknown>, label: string): Promise<void> {
  const schema = rule.meta.optionsSchema
  if (!schema) {
    if (Object.keys(options).length > 0) throw new ConfigError(`${label}: rule ${rule.meta.id} takes no options`)
    return
  }
  const [{z}, {keysAt}] = await Promise.all([import('zod'), import('./config-schema.js')])
  const zodSchema = z.fromJSONSchema(schema as any)
  const result = zodSchema.safeParse(options)
  if (!result.success) throw new ConfigError(describeIssues(label, result.error.issues, 3, (path) => keysAt(zodSchema, path)))
}

function suggest(id: string, known: string[]): string {
  const tail = id.split('/').pop() ?? id
  const close = closest(id, known) ?? known.find((candidate) => candidate.endsWith(`/${tail}`) || candidate.includes(tail))
  return close ? `; did you mean ${close}?` : ''
}
