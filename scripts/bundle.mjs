#!/usr/bin/env node
// Bundles the compiled code (dist/src, from `tsc`) into what the package ships and runs:
//   dist/cli/main.js       oclif's entry (src/cli/main.ts): all --help and --version load
//   dist/cli/commands.js   the command map (src/cli/commands.ts), oclif's explicit command target
//   dist/cli/not-found.js  oclif's command_not_found hook (src/cli/not-found.ts): a misspelled command
//   dist/cli/chunks/       code shared by these, and what is imported on demand: the rules, the HTTP
//                          client and the live collection (with undici), zod's full validation
//   dist/lib/              the library entry (package.json `main`, src/index.ts) as one module, and the
//                          declaration files its types need (a plugin author's editor reads them)
// oclif, zod and undici are bundled in: the package has no runtime dependency. A scan loads 16 files
// instead of 254 of dist/src and oclif: 0.56x the CPU of a start on Node 20 (bench/README.md,
// "Start-up (issue 21)"). dist/src stays as tsc writes it, for `npm run generate` and the tests; the
// package does not ship it. Each bundled file has a source map that leads back to src/ through tsc's own
// maps (bin/run.js turns source maps on for --debug); the maps stay in the clone (package.json `files`
// leaves them out: src/ is not shipped, so an installed package's stack traces name its dist/cli files).
import {copyFile, mkdir, readdir, readFile, rm, writeFile} from 'node:fs/promises'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'

import {build} from 'esbuild'
import ts from 'typescript'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

// dist/.built, written last, marks a complete build (scripts/build-if-stale.mjs).
await rm(join(root, 'dist', '.built'), {force: true})
await rm(join(root, 'dist', 'cli'), {recursive: true, force: true})
await rm(join(root, 'dist', 'lib'), {recursive: true, force: true})

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
}

const cli = await build({
  ...common,
  metafile: true,
  entryPoints: {main: 'dist/src/cli/main.js', commands: 'dist/src/cli/commands.js', 'not-found': 'dist/src/cli/not-found.js'},
  outdir: 'dist/cli',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  // oclif is CommonJS: its require() of Node's modules (and of a CommonJS plugin) needs a real require.
  // `__dirname` it does not get: esbuild leaves it as is, and ES modules have none. oclif falls back to it
  // only where it is not told where the CLI lives (run's and Command.run's `options ?? require.main?.filename
  // ?? __dirname`, Config.load's default), which this CLI never leaves untold: src/cli/main.ts passes bin/run.js's
  // URL to execute(). (Its own version it reads from its package.json, which esbuild inlines.) Were a fallback
  // reached, it would throw a ReferenceError, not guess a wrong directory.
  banner: {js: "import {createRequire as __bundleRequire} from 'node:module';const require=__bundleRequire(import.meta.url);"},
  // typescript: oclif requires it only to run TypeScript sources, which src/cli/main.ts turns off.
  external: ['typescript'],
})

// What the bundle holds of other packages (oclif, undici, zod and theirs): their licences, which ship
// with it (package.json `files`).
const packages = new Set()
for (const input of Object.keys(cli.metafile.inputs)) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
  if (match) packages.add(match[1])
}
const notices = ['Third-party software bundled into dist/cli by scripts/bundle.mjs, with the licence of each.', '']
for (const dir of [...packages].sort()) {
  const pkg = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8'))
  const licenceFile = (await readdir(join(root, dir))).filter((name) => /^licen[cs]e/i.test(name)).sort()[0]
  if (licenceFile === undefined) throw new Error(`${dir}: no licence file to ship with the bundle`)
  notices.push('-'.repeat(78), `${pkg.name} ${pkg.version} (${pkg.license})`, '', (await readFile(join(root, dir, licenceFile), 'utf8')).trim(), '')
}
await writeFile(join(root, 'dist', 'cli', 'THIRD-PARTY-LICENSES.txt'), notices.join('\n'))

// The library: defineRule and SEVERITIES, one module with nothing to import.
await build({...common, entryPoints: {index: 'dist/src/index.js'}, outdir: 'dist/lib', sourcemap: false})

// Its types: index.d.ts and the declaration files it imports, transitively, as tsc wrote them (the
// same relative paths, so their imports hold). TypeScript's own scanner lists each file's imports.
const declarations = join(root, 'dist', 'src')
const wanted = ['index.d.ts']
for (const file of wanted) {
  await mkdir(dirname(join(root, 'dist', 'lib', file)), {recursive: true})
  await copyFile(join(declarations, file), join(root, 'dist', 'lib', file))
  const {importedFiles} = ts.preProcessFile(await readFile(join(declarations, file), 'utf8'), true, false)
  for (const {fileName} of importedFiles) {
    if (!fileName.startsWith('.')) continue
    const target = relative(declarations, join(declarations, dirname(file), fileName.replace(/\.js$/, '.d.ts')))
    if (!wanted.includes(target)) wanted.push(target)
  }
}

await writeFile(join(root, 'dist', '.built'), '')
