/**
 * Documentation rendered from metadata: the docs/rules pages, `onedev-audit rules show`, and
 * docs/commands.md. One renderer, so the pages and the CLI say the same thing.
 */
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

const FIX_KINDS = {
  fix: 'offers a **fix**, planned by default (see [Fixing findings](../../../README.md#fixing-findings))',
  suggestion: 'offers a **suggestion**, planned with `--suggestions` or `--rule` (see [Fixing findings](../../../README.md#fixing-findings))',
  none: 'no automatic change: its findings are listed as manual steps',
} as const

export function renderRuleDoc(meta: RuleMeta): string {
  const lines = [
    `<!-- Generated from the rule's metadata by scripts/generate.mjs: edit the rule, then run npm run generate. -->`,
    `# ${meta.id}`,
    '',
    meta.shortDescription,
    '',
    `- Default severity: **${meta.defaultSeverity}**`,
    `- Checks: ${SCOPES[meta.scope]}`,
    ...(meta.tags.length > 0 ? [`- Tags: ${meta.tags.map((t) => `\`${t}\``).join(', ')}`] : []),
    `- \`onedev-audit fix\`: ${FIX_KINDS[meta.fix ?? 'none']}`,
    '',
    '## What it checks',
    '',
    meta.fullDescription,
    '',
    meta.help.trim(),
    '',
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
