/**
 * The compliance mappings (rules/compliance/) held against the frameworks' own lists of controls
 * (rules/compliance/catalogs/, extracted from the CIS guide and the OSPS Baseline release, source
 * cited): every control of the release is in the mapping with the framework's id and title, nothing
 * else is; every built-in rule is mapped to controls or, with a reason, to none; every rule the
 * mapping names exists. And what a rule says it needs (meta.requires) names endpoints the audit reads.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {builtinRules} from '../../rules/index.js'
import {FRAMEWORKS} from '../../rules/compliance/index.js'
import * as accessSources from '../../src/api/access-data.js'
import * as adminSources from '../../src/api/admin-data.js'
import * as agentSources from '../../src/api/agent-data.js'
import * as mailSources from '../../src/api/mail-data.js'
import {SCOPE_REQUIRES} from '../../src/engine/availability.js'
import {controlsOfRule, FRAMEWORK_KEYS, prefixedControlId} from '../../src/engine/compliance.js'
import {ROOT} from '../helpers/cli.js'

interface Catalog {
  framework: string
  version: string
  source: {repository: string; commit: string; tag?: string; path: string}
  controls: Array<{id: string; title: string; level?: number; text?: string}>
  retired?: Array<{id: string}>
}

const catalogOf = (slug: string): Catalog => JSON.parse(readFileSync(join(ROOT, 'rules', 'compliance', 'catalogs', `${slug}.json`), 'utf8'))
const ruleIds = builtinRules.map((rule) => rule.meta.id).sort()

describe.each(FRAMEWORKS.map((framework) => [framework.label, framework] as const))('%s', (_, framework) => {
  const catalog = catalogOf(framework.slug)

  it('is the release its catalog was read from', () => {
    expect([framework.name, framework.version]).toEqual([catalog.framework, catalog.version])
    expect(framework.source.repository).toBe(catalog.source.repository)
    expect(framework.source.commit).toBe(catalog.source.commit)
    expect(framework.source.tag).toBe(catalog.source.tag)
  })

  it('lists every control of the release, in its order, with its id, title and level, and nothing else', () => {
    const mapped = framework.controls.map((c) => ({id: c.id, title: c.title, ...(c.level !== undefined ? {level: c.level} : {})}))
    const listed = catalog.controls.map((c) => ({id: c.id, title: c.title, ...(c.level !== undefined ? {level: c.level} : {})}))
    expect(mapped).toEqual(listed)
  })

  it('has clean titles: no leftover of the text they were extracted from', () => {
    // A table of contents read with pdftotext leaves dot leaders (`____`), page numbers and the next heading behind.
    const leftovers = catalog.controls.filter(
      ({title}) => title !== title.trim() || /\s{2,}|_|\.{3}|…|\s\d+$|\b(Overview|Page)\b/.test(title) || !/^[A-Z]/.test(title),
    )
    expect(leftovers).toEqual([])
  })

  it('uses no retired requirement', () => {
    const retired = new Set((catalog.retired ?? []).map((r) => r.id))
    expect(framework.controls.filter((c) => retired.has(c.id))).toEqual([])
  })

  it('maps every built-in rule to controls or, saying why, to none; never both', () => {
    const evidencing = new Set(framework.controls.flatMap((c) => c.evidence.map((e) => e.rule)))
    const unmapped = new Set(Object.keys(framework.unmapped))
    expect([...evidencing].filter((id) => unmapped.has(id))).toEqual([])
    expect([...new Set([...evidencing, ...unmapped])].sort()).toEqual(ruleIds)
    for (const [id, why] of Object.entries(framework.unmapped)) expect(why.trim(), id).not.toBe('')
  })

  it('names only rules that exist, each once per control, and says why an approximate one differs', () => {
    for (const control of framework.controls) {
      const rules = control.evidence.map((e) => e.rule)
      expect(rules.filter((id) => !ruleIds.includes(id)), control.id).toEqual([])
      expect(new Set(rules).size, control.id).toBe(rules.length)
      for (const evidence of control.evidence) if (evidence.approximate !== undefined) expect(evidence.approximate.trim(), `${control.id} ${evidence.rule}`).not.toBe('')
    }
  })
})

describe('the mappings', () => {
  it('are the --framework choices, in the same order', () => {
    expect(FRAMEWORKS.map((f) => f.key)).toEqual([...FRAMEWORK_KEYS])
  })

  it('are the only source of control tags: no rule carries a CIS- or OSPS- tag of its own', () => {
    expect(builtinRules.flatMap((rule) => rule.meta.tags.filter((tag) => /^(CIS|OSPS)-/.test(tag)).map((tag) => `${rule.meta.id}: ${tag}`))).toEqual([])
  })

  it('OSPS: anonymous read access is never a failure; its branch requirements count the default branch only', () => {
    const osps = FRAMEWORKS.find((f) => f.key === 'osps')!
    expect(controlsOfRule(osps, 'server/anonymous-access')).toEqual([])
    const branchEvidence = osps.controls.flatMap((c) => c.evidence.filter((e) => /^(branch-protection|access\/direct-push)/.test(e.rule)).map((e) => `${c.id} ${e.rule} ${e.findings}`))
    expect(branchEvidence.length).toBeGreaterThan(0)
    expect(branchEvidence.filter((line) => !line.endsWith(' primary-branch'))).toEqual([])
  })

  it('CIS 1.1.3 asks two approvals: no rule that checks for one reviewer passes it', () => {
    const cis = FRAMEWORKS.find((f) => f.key === 'cis')!
    expect(cis.controls.find((c) => c.id === '1.1.3')!.evidence).toEqual([])
    // The six tags the rules used to carry that named another control, or a heading.
    const wrong = ['access/base-role-broad', 'server/anonymous-access', 'server/open-sign-up', 'server/too-many-admins', 'server/docker-socket', 'server/shell-executor']
    expect(wrong.map((id) => [id, controlsOfRule(cis, id).map(({control}) => control.id)])).toEqual([
      ['access/base-role-broad', ['1.3.8']],
      ['server/anonymous-access', []],
      ['server/open-sign-up', ['1.3.6']],
      ['server/too-many-admins', ['1.3.3']],
      ['server/docker-socket', ['2.1.5']],
      ['server/shell-executor', ['2.1.5']],
    ])
  })
})

describe('meta.requires', () => {
  // Every endpoint the collection reads: the contract's, the repositories', and the optional data sources'.
  const specs = ([...Object.values(accessSources), ...Object.values(adminSources), ...Object.values(agentSources), ...Object.values(mailSources)] as unknown[]).filter(
    (value): value is {endpoint: string; fallbacks?: Array<{endpoint: string}>} => typeof value === 'object' && value !== null && 'endpoint' in value,
  )
  const known = new Set([
    ...Object.values(SCOPE_REQUIRES).flat(),
    '/repositories/{id}/default-branch',
    '/repositories/{id}/branches',
    '/repositories/{id}/tags',
    ...specs.map((spec) => [spec.endpoint, ...(spec.fallbacks ?? []).map((f) => f.endpoint)].join(' or ')),
  ])

  it('names only endpoints the audit reads, as the collection spells them', () => {
    // A setting member (`/projects/{id}/setting#/buildSetting/actionAuthorizations`) is checked by ruleProblem (config.test.ts).
    const unknown = builtinRules.flatMap((rule) => (rule.meta.requires ?? []).filter((endpoint) => !known.has(endpoint.split('#')[0]!)).map((endpoint) => `${rule.meta.id}: ${endpoint}`))
    expect(unknown).toEqual([])
  })

  it('every rule that judges branches or tags needs the repository endpoints that name them', () => {
    const byId = new Map(builtinRules.map((rule) => [rule.meta.id, rule.meta.requires ?? []]))
    for (const id of ['branch-protection/force-push-allowed', 'branch-protection/unprotected-branch', 'access/direct-push', 'file-protection/buildspec-unprotected']) {
      expect(byId.get(id), id).toContain('/repositories/{id}/default-branch')
    }
    for (const id of ['tag-protection/update-allowed', 'tag-protection/unprotected-tags']) expect(byId.get(id), id).toContain('/repositories/{id}/tags')
  })
})

describe('the prefixed control ids (OSCAL, the attestation)', () => {
  it('spell each control with its framework, in lower case: an OSCAL token, one per control of both frameworks', () => {
    const ids = FRAMEWORKS.flatMap((framework) => framework.controls.map((control) => prefixedControlId(framework.key, control.id)))
    expect(prefixedControlId('cis', '1.1.16')).toBe('cis-sscs-1.1.16')
    expect(prefixedControlId('osps', 'OSPS-AC-03.01')).toBe('osps-ac-03.01')
    expect(new Set(ids).size).toBe(ids.length)
    // NIST's OSCAL 1.1.3 TokenDatatype.
    for (const id of ids) expect(id).toMatch(/^(\p{L}|_)(\p{L}|\p{N}|[.\-_])*$/u)
    expect(ids.filter((id) => !/^(cis-sscs-\d[\d.]*|osps-[a-z]{2}-\d{2}\.\d{2})$/.test(id))).toEqual([])
  })
})
