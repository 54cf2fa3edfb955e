#!/usr/bin/env node
// Bundles the compiled CLI (dist/src, from `tsc`) into dist/cli/, ES modules that bin/run.js imports:
//   dist/cli/main.js       oclif's entry (src/cli/main.ts): all --help and --version load
//   dist/cli/commands.js   the command map (src/cli/commands.ts), oclif's explicit command target
//   dist/cli/chunks/       code shared by both, and what is imported on demand: the rules, the HTTP
//                          client and the live collection, zod's full validation
// A scan loads 16 files instead of 254 of dist/src and oclif: 0.56x the CPU of a start on Node 20
// (bench/README.md, "Start-up (issue 21)"). dist/src stays as tsc writes it: it is the library
// (package.json `main`) and what `npm run generate` reads. Each file has a source map that leads back
// to src/ through tsc's own maps (bin/run.js turns source maps on for --debug).
import {rm} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {build} from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

await rm(join(root, 'dist', 'cli'), {recursive: true, force: true})
await build({
  absWorkingDir: root,
  entryPoints: {main: 'dist/src/cli/main.js', commands: 'dist/src/cli/commands.js'},
  outdir: 'dist/cli',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // oclif is CommonJS: its require() of Node's modules (and of a CommonJS plugin) needs a real require.
  // `__dirname` it does not get: esbuild leaves it as is, and ES modules have none. oclif falls back to it
  // only where it is not told where the CLI lives (run's and Command.run's `options ?? require.main?.filename
  // ?? __dirname`, Config.load's default), which this CLI never leaves untold: src/cli/main.ts passes bin/run.js's
  // URL to execute(). (Its own version it reads from its package.json, which esbuild inlines.) Were a fallback
  // reached, it would throw a ReferenceError, not guess a wrong directory.
  banner: {js: "import {createRequire as __bundleRequire} from 'node:module';const require=__bundleRequire(import.meta.url);"},
  // undici: loaded from node_modules by a live run only. typescript: oclif requires it only to run
  // TypeScript sources, which src/cli/main.ts turns off.
  external: ['undici', 'typescript'],
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
})
