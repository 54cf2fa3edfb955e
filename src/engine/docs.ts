/**
 * Documentation rendered from metadata: the docs/rules pages, `onedev-audit rules show`, and
 * docs/commands.md. One renderer, so the pages and the CLI say the same thing.
 */
import {VERSIONED_SETTING_MEMBERS} from '../model/types.js'
import {CONTROL_STATUSES, controlsOfRule, type FrameworkMapping} from './compliance.js'
import type {RuleMeta} from './rule.js'

const AREAS: Record<string, string> = {
  'branch-protection': 'Branch protection',
  'file-protection': 'File protection',
  'tag-protection': 'Tag protection',
  'job-secret': 'Job secrets',
  build: 'Build',
  role: 'Roles',
  notification: 'Notifications',
  webhook: 'Web hooks',
  access: 'Access (who can do what)',
  server: 'Server settings',
  'issue-setting': 'Issue workflow (issue-setting lint)',
}

const SCOPES: Record<RuleMeta['scope'], string> = {
  project: 'each audited project (with the settings it inherits)',
  role: 'each role',
  server: 'the server as a whole (security and administration settings, groups, users; needs an administrator token)',
  'issue-setting': 'the global issue setting file (`onedev-audit issue-setting lint`)',
}

/** `link(text, target)`: a markdown link to `target`, a path relative to the repository's docs/ folder. */
type DocLink = (text: string, target: string) => string

const FIX_KINDS = {
  fix: (link: DocLink) => `offers a **fix**, planned by default (see ${link('Fixing findings', 'fix.md')})`,
  suggestion: (link: DocLink) => `offers a **suggestion**, planned with \`--suggestions\` or \`--rule\` (see ${link('Fixing findings', 'fix.md')})`,
  none: () => 'no automatic change: its findings are listed as manual steps',
} as const

/**
 * Links of a rule's page, whose targets are given relative to docs/. The page is docs/rules/<id>.md;
 * with `base` (the repository's address for browsing files, ending in '/'), the links are absolute:
 * `rules show` prints the page where no docs/ folder is at hand (an installed package ships none).
 */
function ruleLinks(id: string, base: string | undefined): DocLink {
  const page = `docs/rules/${id}.md`
  const toDocs = '../'.repeat(page.split('/').length - 2)
  return (text, target) => `[${text}](${base === undefined ? toDocs + target : new URL(`docs/${target}`, base).href})`
}

/** `GET /settings/security`; a setting member: `` `/buildSetting/actionAuthorizations` of `GET /projects/{id}/setting` (only OneDev 8.0.4 and earlier send it) ``. */
function requirementText(requirement: string): string {
  const [endpoint, member] = requirement.split('#')
  const versioned = member === undefined ? undefined : VERSIONED_SETTING_MEMBERS[member]
  return versioned ? `\`${member}\` of \`GET ${endpoint}\` (only ${versioned.servers} send it)` : `\`GET ${requirement}\``
}

/** Markdown table cell text: pipes escaped, on one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

/**
 * A rule's page. `frameworks`: the compliance mappings whose controls the page names (none for a
 * plugin's rule, which no mapping knows). `linkBase`: where the repository's files are browsed (see
 * ruleLinks); without it, links are relative to the page in docs/rules/.
 */
export function renderRuleDoc(meta: RuleMeta, frameworks: readonly FrameworkMapping[] = [], linkBase?: string): string {
  const link = ruleLinks(meta.id, linkBase)
  const lines = [
    `<!-- Generated from the rule's metadata by scripts/generate.mjs: edit the rule, then run npm run generate. -->`,
    `# ${meta.id}`,
    '',
    meta.shortDescription,
    '',
    `- Default severity: **${meta.defaultSeverity}**`,
    `- Checks: ${SCOPES[meta.scope]}`,
    ...(meta.tags.length > 0 ? [`- Tags: ${meta.tags.map((t) => `\`${t}\``).join(', ')}`] : []),
    `- \`onedev-audit fix\`: ${FIX_KINDS[meta.fix ?? 'none'](link)}`,
    ...(meta.requires?.length ? [`- Needs: ${meta.requires.map(requirementText).join(', ')} (when one could not be read, the rule is not evaluated)`] : []),
    '',
    '## What it checks',
    '',
    meta.fullDescription,
    '',
    meta.help.trim(),
    '',
    ...ruleComplianceLines(meta.id, frameworks, link),
  ]
  if (meta.optionsSchema) {
    lines.push(
      '## Options',
      '',
      '```json',
      JSON.stringify(meta.optionsSchema, null, 2),
      '```',
      '',
      'Defaults:',
      '',
      '```json',
      JSON.stringify(meta.defaultOptions ?? {}, null, 2),
      '```',
      '',
    )
  }
  lines.push(
    '## Configuration',
    '',
    'In `onedev-audit.config.json`:',
    '',
    '```json',
    JSON.stringify({rules: {[meta.id]: meta.defaultSeverity === 'info' ? 'off' : 'low'}}, null, 2),
    '```',
    '',
  )
  return lines.join('\n')
}

/** The controls a rule evidences in each framework that maps it, or why it evidences none. */
function ruleComplianceLines(ruleId: string, frameworks: readonly FrameworkMapping[], link: DocLink): string[] {
  const known = frameworks.filter((framework) => controlsOfRule(framework, ruleId).length > 0 || ruleId in framework.unmapped)
  if (known.length === 0) return []
  const lines = ['## Compliance', '']
  for (const framework of known) {
    lines.push(`${framework.label} (${link('mapping', `compliance/${framework.slug}.md`)}):`, '')
    const controls = controlsOfRule(framework, ruleId)
    if (controls.length === 0) lines.push(`- none: ${framework.unmapped[ruleId]}`)
    for (const {control, evidence} of controls) {
      const where = evidence.findings === 'primary-branch' ? ' (findings on the default branch only)' : ''
      lines.push(`- ${control.id} ${control.title}${where}${evidence.approximate !== undefined ? `; approximately: ${evidence.approximate}` : ''}`)
    }
    lines.push('')
  }
  return lines
}

/**
 * A framework's page (docs/compliance/<slug>.md): every control with the rules that evidence it,
 * the approximate mappings with why, and the rules mapped to no control. `texts`: each control's
 * own words where the catalog has them (the OSPS Baseline's requirement texts).
 */
export function renderFrameworkDoc(framework: FrameworkMapping, texts: Readonly<Record<string, string>> = {}): string {
  const {source} = framework
  const judged = framework.controls.filter((c) => c.evidence.length > 0)
  const approximate = judged.filter((c) => c.evidence.some((e) => e.approximate !== undefined))
  const levels = framework.controls.some((c) => c.level !== undefined)
  const lines = [
    `<!-- Generated from rules/compliance/${framework.slug}.ts by scripts/generate.mjs: edit the mapping, then run npm run generate. -->`,
    `# ${framework.name} ${framework.version}`,
    '',
    `Which built-in rules evidence each control of the ${framework.name}, release ${framework.version}: \`onedev-audit scan\` reports a status per control (\`--framework ${framework.key}\`), in every format.`,
    '',
    `The controls are read from ${source.repository}${source.tag ? ` at tag \`${source.tag}\`` : ''}, commit \`${source.commit}\`, \`${source.path}\`; the list is kept in \`rules/compliance/catalogs/${framework.slug}.json\`, and a test holds this mapping against it.`,
    '',
    `${framework.controls.length} controls: ${judged.length} evidenced by rules (${approximate.length} of them approximately), ${framework.controls.length - judged.length} manual.`,
    '',
    '## Status of a control',
    '',
    `Each control gets one of the statuses ${CONTROL_STATUSES.map((s) => `**${s.label}**`).join(', ')}: [what each means](README.md#statuses).`,
    '',
    'A control marked ≈ is evidenced approximately: a rule that evidences it judges something close to what the control asks, but not the same (see [Approximate mappings](#approximate-mappings)).',
    '',
    '## Controls',
    '',
    levels ? '| Control | Title | Level | Requirement | Rules |' : '| Control | Title | Rules |',
    levels ? '| --- | --- | --- | --- | --- |' : '| --- | --- | --- |',
  ]
  for (const control of framework.controls) {
    const rules =
      control.evidence.length === 0
        ? `manual${control.note !== undefined ? `: ${control.note}` : ''}`
        : control.evidence
            .map((e) => `[${e.rule}](../rules/${e.rule}.md)${e.findings === 'primary-branch' ? ' (default branch)' : ''}${e.approximate !== undefined ? ' ≈' : ''}`)
            .join(', ') + (control.note !== undefined ? `. ${control.note}` : '')
    const id = approximate.includes(control) ? `${control.id} ≈` : control.id
    lines.push(
      levels
        ? `| ${id} | ${cell(control.title)} | ${control.level ?? ''} | ${cell(texts[control.id] ?? '')} | ${cell(rules)} |`
        : `| ${id} | ${cell(control.title)} | ${cell(rules)} |`,
    )
  }
  lines.push('', '## Approximate mappings', '')
  if (approximate.length === 0) lines.push('None.')
  for (const control of approximate) {
    for (const evidence of control.evidence.filter((e) => e.approximate !== undefined)) lines.push(`- **${control.id}** ${evidence.rule}: ${evidence.approximate}`)
  }
  lines.push('', '## Rules that evidence no control', '', '| Rule | Why |', '| --- | --- |')
  for (const [rule, why] of Object.entries(framework.unmapped).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) lines.push(`| [${rule}](../rules/${rule}.md) | ${cell(why)} |`)
  lines.push('')
  return lines.join('\n')
}

/** docs/compliance/README.md: the frameworks, and what each status of a control means (CONTROL_STATUSES, the one source). */
export function renderComplianceIndex(frameworks: readonly FrameworkMapping[]): string {
  const lines = [
    '<!-- Generated from src/engine/compliance.ts and rules/compliance/ by scripts/generate.mjs: edit them, then run npm run generate. -->',
    '# Compliance',
    '',
    '`onedev-audit scan` gives each control of these frameworks a status, in every format (`--framework` chooses; default: all):',
    '',
    ...frameworks.map((f) => `- [${f.name} ${f.version}](${f.slug}.md) (\`--framework ${f.key}\`, \`${f.label}\`)`),
    '',
    '## Statuses',
    '',
    'What each status of a control means; `scan --help`, the markdown report and the HTML report\'s legend say the same, from the same source:',
    '',
    ...CONTROL_STATUSES.map((s) => `- **${s.label}**: ${s.meaning}.`),
    '',
    'A suppression (the configuration\'s `suppressions`, each with a justification and an optional expiry) accepts a finding: a control whose only findings are suppressed is an **exception**, and the report lists each justification and expiry with it. A baseline (`scan --baseline`) only says which findings are already known: they leave the findings list, but they still fail their controls.',
    '',
    '`--fail-on-control` exits 1 when a shown control has the status **fail**, whatever the severities; no other status makes it exit 1.',
    '',
    '## Why a rule is not evaluated',
    '',
    'A rule that could not be judged keeps its controls from passing (and from being an exception). The report says, per rule, why:',
    'an endpoint the server does not offer (the two-factor controls on a server without `GET /settings/security`), a request refused (403) or failed,',
    'an answer of a shape the audit does not know, data a snapshot does not hold (per-project data too: an audited project, or an ancestor it',
    'inherits from, without its answer), a project that could not be read, default branches the server did not say, a setting the server\'s',
    'version does not have (`build/action-authorization-broad` judges action authorizations, which only OneDev 8.0.4 and earlier have: on a later',
    'server it finds nothing, so OSPS-AC-04.02 is not evaluated there rather than passed), the rule turned off in the configuration, or the rule',
    'failed. Each rule names what it reads (`onedev-audit rules show ID`).',
    '',
  ]
  return lines.join('\n')
}

export function renderRuleIndex(metas: RuleMeta[]): string {
  const lines = [
    `<!-- Generated from the rules' metadata by scripts/generate.mjs. -->`,
    '# Rules',
    '',
    'Every built-in rule, by area. `onedev-audit rules` lists them with this run\'s configuration; `onedev-audit rules show ID` prints a page.',
    '',
  ]
  const areas = [...new Set(metas.map((m) => m.id.split('/')[0]!))].sort()
  for (const area of areas) {
    lines.push(`## ${AREAS[area] ?? area}`, '', '| Rule | Severity | `fix` | Description |', '| --- | --- | --- | --- |')
    for (const meta of metas.filter((m) => m.id.startsWith(`${area}/`)).sort((a, b) => a.id.localeCompare(b.id))) {
      lines.push(`| [${meta.id}](${meta.id}.md) | ${meta.defaultSeverity} | ${meta.fix ?? ''} | ${meta.shortDescription.replace(/\|/g, '\\|')} |`)
    }
    lines.push('')
  }
  return lines.join('\n')
}

interface ManifestFlag {
  name: string
  char?: string
  description?: string
  type: 'boolean' | 'option'
  default?: unknown
  options?: string[]
  helpValue?: string
  multiple?: boolean
  env?: string
  hidden?: boolean
}

interface ManifestCommand {
  id: string
  description?: string
  summary?: string
  examples?: Array<string | {command: string; description: string}>
  flags: Record<string, ManifestFlag>
  args: Record<string, {name: string; description?: string; required?: boolean}>
}

export function renderCommandsDoc(manifest: {version: string; commands: Record<string, ManifestCommand>}): string {
  const lines = [`<!-- Generated from the oclif manifest by scripts/generate.mjs. -->`, '# Commands', '']
  const ids = Object.keys(manifest.commands).sort()
  for (const id of ids) lines.push(`- [\`onedev-audit ${id.replace(/:/g, ' ')}\`](#${id.replace(/:/g, '-')})`)
  lines.push('')
  for (const id of ids) {
    const command = manifest.commands[id]!
    const name = id.replace(/:/g, ' ')
    lines.push(`## ${id.replace(/:/g, '-')}`, '', `\`onedev-audit ${name}\``, '')
    if (command.summary) lines.push(command.summary, '')
    if (command.description) lines.push(command.description, '')
    const args = Object.values(command.args ?? {})
    if (args.length > 0) {
      lines.push('| Argument | Description |', '| --- | --- |')
      for (const arg of args) lines.push(`| \`${arg.name}\`${arg.required ? ' (required)' : ''} | ${arg.description ?? ''} |`)
      lines.push('')
    }
    const flags = Object.values(command.flags ?? {}).filter((f) => !f.hidden)
    if (flags.length > 0) {
      lines.push('| Flag | Description |', '| --- | --- |')
      for (const flag of flags) {
        const spelled = `--${flag.name}${flag.type === 'option' ? ` ${flag.options ? flag.options.join('\\|') : (flag.helpValue ?? 'VALUE')}` : ''}`
        const description = flag.description ?? ''
        const extra = [
          flag.multiple && !/repeatable/i.test(description) ? 'repeatable' : '',
          flag.env ? `env \`${flag.env}\`` : '',
          flag.default !== undefined && flag.default !== false && flag.default !== '' ? `default \`${String(flag.default)}\`` : '',
        ].filter(Boolean)
        lines.push(`| \`${spelled}\` | ${description.replace(/\|/g, '\\|')}${extra.length ? ` (${extra.join(', ')})` : ''} |`)
      }
      lines.push('')
    }
    if (command.examples?.length) {
      lines.push('Examples:', '', '```sh')
      for (const example of command.examples) {
        const text = typeof example === 'string' ? example : `# ${example.description}\n${example.command}`
        lines.push(text.replace(/<%= config.bin %>/g, 'onedev-audit').replace(/<%= command.id %>/g, name))
      }
      lines.push('```', '')
    }
  }
  return lines.join('\n')
}
