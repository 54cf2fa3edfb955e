/**
 * The package's library entry (package.json `main`, `types`, `exports`): a rule plugin imports
 * `defineRule` and the rule types from it, and the CLI runs that plugin like a built-in rule.
 */
import {access, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import {expect, it} from 'vitest'

import {ROOT, runCli} from './helpers/cli.js'
import {tempDir} from './helpers/temp-dir.js'

it('main, types and exports name built files, and a plugin written against the entry runs', async () => {
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {main: string; types: string; exports: Record<string, string>}
  expect(pkg.exports['.']).toBe(pkg.main)
  await access(join(ROOT, pkg.types))
  const entry = (await import(pathToFileURL(join(ROOT, pkg.main)).href)) as Record<string, unknown>
  expect(Object.keys(entry).sort()).toEqual(['SEVERITIES', 'defineRule'])

  const dir = await tempDir('oda-entry')
  await writeFile(
    join(dir, 'my-rules.mjs'),
    `import {defineRule} from ${JSON.stringify(pathToFileURL(join(ROOT, pkg.main)).href)}\n` +
      `export const rules = [defineRule({\n` +
      `  meta: {id: 'acme/deletable', shortDescription: 'd', fullDescription: 'd', help: 'h', defaultSeverity: 'high', tags: [], scope: 'project'},\n` +
      `  check: ({project}) => project.setting.branchProtections.filter((p) => !p.preventDeletion).map((p) => ({subject: p.branches ?? '', pointer: p.pointer, message: 'deletable'})),\n` +
      `})]\n`,
  )
  await writeFile(join(dir, 'onedev-audit.config.json'), JSON.stringify({plugins: ['./my-rules.mjs']}))
  const result = await runCli(['scan', '--snapshot', join(ROOT, 'examples', 'snapshot.json'), '--config', join(dir, 'onedev-audit.config.json'), '--format', 'json', '--fail-on', 'none'])
  expect(result.code, result.stderr).toBe(0)
  const findings = (JSON.parse(result.stdout) as {findings: Array<{ruleId: string; project: {path: string} | null; subject: string}>}).findings
  // The example's one branch protection without Prevent Deletion.
  expect(findings.filter((f) => f.ruleId === 'acme/deletable').map((f) => [f.project?.path, f.subject])).toEqual([['acme/app', '**']])
})
