import {writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {ConfigError, loadConfig, resolveSettings} from '../../src/engine/config.js'
import {loadAllRules, resolveRuleSet, ruleProblem} from '../../src/engine/registry.js'
import {builtinRules} from '../../rules/index.js'
import {tempDir} from '../helpers/temp-dir.js'

async function configIn(content: string | object, name = 'onedev-audit.config.json'): Promise<string> {
  const dir = await tempDir('oda-config')
  await writeFile(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  return dir
}

async function errorOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ConfigError)
  return (error as ConfigError).message
}

async function ruleSetFor(config: object) {
  const dir = await configIn(config)
  const loaded = await loadConfig(undefined, dir)
  return resolveRuleSet(await loadAllRules(loaded, builtinRules), loaded)
}

describe('configuration file', () => {
  it('is optional: without one, defaults apply', async () => {
    const dir = await tempDir('oda-empty')
    const loaded = await loadConfig(undefined, dir)
    expect(loaded.path).toBeNull()
    expect(resolveSettings(loaded.config)).toEqual({branches: [], tags: [], allowedAdminRoles: ['Project Owner'], protectionSemantics: 'first-match'})
  })

  it('a named file that does not exist is an error', async () => {
    const dir = await tempDir('oda-missing')
    expect(await errorOf(loadConfig('nope.json', dir))).toBe('nope.json: cannot read the configuration file (ENOENT)')
  })

  it('names the line and column of a JSON syntax error', async () => {
    const dir = await configIn('{\n  "branches": ["main",]\n}')
    expect(await errorOf(loadConfig(undefined, dir))).toMatch(/^onedev-audit\.config\.json:2:\d+: invalid JSON/)
  })

  it('names an unknown key, and the key it was most likely meant to be', async () => {
    const dir = await configIn({brnches: ['main']})
    expect(await errorOf(loadConfig(undefined, dir))).toBe('onedev-audit.config.json: /: unknown key "brnches" (did you mean "branches"?)')
    const far = await configIn({colour: true})
    expect(await errorOf(loadConfig(undefined, far))).toBe('onedev-audit.config.json: /: unknown key "colour"')
  })

  it('suggests keys at any depth: in objects, arrays and the rules\' settings', async () => {
    const dir = await configIn({
      suppressions: [{rule: 'x', justification: 'y', expire: '2030-01-01'}],
      fix: {branchProtection: {usrMatch: 'anyone'}},
      rules: {'role/over-privileged': {severity: 'high', optons: {}}},
    })
    expect((await errorOf(loadConfig(undefined, dir))).split('; ').sort()).toEqual([
      'onedev-audit.config.json: /fix/branchProtection: unknown key "usrMatch" (did you mean "userMatch"?)',
      'onedev-audit.config.json: /rules/role~1over-privileged: unknown key "optons" (did you mean "options"?)',
      'onedev-audit.config.json: /suppressions/0: unknown key "expire" (did you mean "expires"?)',
    ])
  })

  it('names a wrong value by its JSON pointer', async () => {
    const dir = await configIn({protectionSemantics: 'last-match'})
    expect(await errorOf(loadConfig(undefined, dir))).toMatch(/^onedev-audit\.config\.json: \/protectionSemantics: /)
  })

  it('requires a justification on every suppression', async () => {
    const dir = await configIn({suppressions: [{rule: 'role/over-privileged', justification: '  '}]})
    expect(await errorOf(loadConfig(undefined, dir))).toMatch(/^onedev-audit\.config\.json: \/suppressions\/0\/justification: /)
  })

  it('flags and settings: --branch wins over the file', async () => {
    const dir = await configIn({branches: ['develop'], tags: ['v2.0.0'], protectionSemantics: 'merged'})
    const {config} = await loadConfig(undefined, dir)
    expect(resolveSettings(config)).toMatchObject({branches: ['develop'], tags: ['v2.0.0'], protectionSemantics: 'merged'})
    expect(resolveSettings(config, {branches: ['main']}).branches).toEqual(['main'])
  })
})

describe('rule configuration', () => {
  it('rejects an unknown rule id and suggests a close one', async () => {
    const message = await errorOf(ruleSetFor({rules: {'branch-protection/force-push': 'high', 'force-push-allowed': 'off'}}))
    expect(message).toBe('onedev-audit.config.json: /rules/branch-protection/force-push: unknown rule id (see onedev-audit rules); did you mean branch-protection/force-push-allowed?')
    const typo = await errorOf(ruleSetFor({rules: {'branch-protection/force-psuh-alowed': 'off'}}))
    expect(typo).toBe('onedev-audit.config.json: /rules/branch-protection/force-psuh-alowed: unknown rule id (see onedev-audit rules); did you mean branch-protection/force-push-allowed?')
  })

  it('turns rules off and overrides severities', async () => {
    const {listing, active} = await ruleSetFor({rules: {'branch-protection/force-push-allowed': 'off', 'branch-protection/unprotected-branch': 'critical'}})
    expect(listing.find((r) => r.meta.id === 'branch-protection/force-push-allowed')).toMatchObject({enabled: false})
    expect(active.some((a) => a.rule.meta.id === 'branch-protection/force-push-allowed')).toBe(false)
    expect(active.find((a) => a.rule.meta.id === 'branch-protection/unprotected-branch')?.severityOverride).toBe('critical')
  })

  it('validates options against the rule\'s schema, naming the key', async () => {
    const message = await errorOf(ruleSetFor({rules: {'role/over-privileged': {options: {maxManagePrivileges: 'two'}}}}))
    expect(message).toMatch(/^onedev-audit\.config\.json: \/rules\/role\/over-privileged\/options: \/maxManagePrivileges: /)
    const unknown = await errorOf(ruleSetFor({rules: {'role/over-privileged': {options: {maxManage: 2}}}}))
    expect(unknown).toContain('unknown key "maxManage"')
    const misspelt = await errorOf(ruleSetFor({rules: {'role/over-privileged': {options: {maxManagePrivilege: 2}}}}))
    expect(misspelt).toBe('onedev-audit.config.json: /rules/role/over-privileged/options: /: unknown key "maxManagePrivilege" (did you mean "maxManagePrivileges"?)')
  })

  it('refuses options for a rule that takes none', async () => {
    expect(await errorOf(ruleSetFor({rules: {'branch-protection/force-push-allowed': {options: {x: 1}}}}))).toBe(
      'onedev-audit.config.json: /rules/branch-protection/force-push-allowed/options: rule branch-protection/force-push-allowed takes no options',
    )
  })
})

describe('plugins', () => {
  const pluginSource = `export const rules = [{
    meta: {id: 'acme/no-deletable-main', shortDescription: 'main must not be deletable', fullDescription: 'Checks main.', help: 'Enable Prevent Deletion.', defaultSeverity: 'high', tags: ['acme'], scope: 'project'},
    check: ({project}) => project.setting.branchProtections.filter((p) => !p.preventDeletion).map((p) => ({subject: p.branches, pointer: p.pointer + '/preventDeletion', message: 'deletable'})),
  }]\n`

  it('loads rules from a path relative to the configuration file', async () => {
    const dir = await configIn({plugins: ['./my-rules.mjs'], rules: {'acme/no-deletable-main': 'medium'}})
    await writeFile(join(dir, 'my-rules.mjs'), pluginSource)
    const loaded = await loadConfig(undefined, dir)
    const {listing} = await resolveRuleSet(await loadAllRules(loaded, builtinRules), loaded)
    expect(listing.find((r) => r.meta.id === 'acme/no-deletable-main')).toMatchObject({severity: 'medium', enabled: true, origin: './my-rules.mjs'})
  })

  it('a plugin that cannot be loaded is a one-line error naming it', async () => {
    const dir = await configIn({plugins: ['./missing.mjs']})
    const loaded = await loadConfig(undefined, dir)
    expect(await errorOf(loadAllRules(loaded, builtinRules))).toBe('onedev-audit.config.json: /plugins/0: cannot load plugin "./missing.mjs" (ERR_MODULE_NOT_FOUND)')
  })

  it('a plugin rule without a valid meta is refused', async () => {
    const dir = await configIn({plugins: ['./bad.mjs']})
    await writeFile(join(dir, 'bad.mjs'), `export const rules = [{meta: {id: 'NoSlash'}, check() { return [] }}]\n`)
    const loaded = await loadConfig(undefined, dir)
    expect(await errorOf(loadAllRules(loaded, builtinRules))).toBe(
      'onedev-audit.config.json: /plugins/0: a rule of plugin "./bad.mjs" has an invalid meta.id "NoSlash" (expected area/name in lower case)',
    )
  })

  it('a plugin rule may name a setting member only some servers send, when the audit knows it; every built-in rule passes the same checks', async () => {
    const known = pluginSource.replace("scope: 'project'", "scope: 'project', requires: ['/projects/{id}/setting#/buildSetting/actionAuthorizations']")
    const good = await configIn({plugins: ['./members.mjs']})
    await writeFile(join(good, 'members.mjs'), known)
    expect((await loadAllRules(await loadConfig(undefined, good), builtinRules)).map((entry) => entry.origin).at(-1)).toBe('./members.mjs')
    const bad = await configIn({plugins: ['./members.mjs']})
    await writeFile(join(bad, 'members.mjs'), known.replace('/buildSetting/actionAuthorizations', '/buildSetting/jobProperties'))
    expect(await errorOf(loadAllRules(await loadConfig(undefined, bad), builtinRules))).toBe(
      'onedev-audit.config.json: /plugins/0: a rule of plugin "./members.mjs" acme/no-deletable-main: meta.requires names "/projects/{id}/setting#/buildSetting/jobProperties", which is not a member the audit knows (/projects/{id}/setting#/buildSetting/actionAuthorizations, /users#/aiSetting)',
    )
    // A member of server data only some servers send (src/model/server-members.ts) is known too.
    const server = await configIn({plugins: ['./members.mjs']})
    await writeFile(join(server, 'members.mjs'), known.replace('/projects/{id}/setting#/buildSetting/actionAuthorizations', '/users#/aiSetting'))
    expect((await loadAllRules(await loadConfig(undefined, server), builtinRules)).map((entry) => entry.origin).at(-1)).toBe('./members.mjs')
    expect(builtinRules.map((rule) => ruleProblem(rule)).filter((problem) => problem !== null)).toEqual([])
  })

  it('a plugin may not redefine a built-in rule', async () => {
    const dir = await configIn({plugins: ['./clash.mjs']})
    await writeFile(join(dir, 'clash.mjs'), pluginSource.replace('acme/no-deletable-main', 'branch-protection/force-push-allowed'))
    const loaded = await loadConfig(undefined, dir)
    expect(await errorOf(loadAllRules(loaded, builtinRules))).toBe(
      'onedev-audit.config.json: plugin "./clash.mjs" defines rule branch-protection/force-push-allowed, already defined by builtin',
    )
  })
})
