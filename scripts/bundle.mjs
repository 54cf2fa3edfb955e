#!/usr/bin/env node
// Bundles the compiled CLI (dist/src, from `tsc`) into dist/cli/, which bin/run.js starts:
//   dist/cli/main.js       oclif's entry (src/cli/main.ts): all --help and --version load
//   dist/cli/commands.js   the command map (src/cli/commands.ts), oclif's explicit command target
//   dist/cli/chunks/       code shared by both, and what is imported on demand: the rules, the HTTP
//                          client and the live collection, zod's full validation (see below)
// One file per part instead of ~400 modules: a start pays for neither module resolution nor hundreds
// of file reads. dist/src stays as tsc writes it: it is the library (package.json `main`) and what
// `npm run generate` reads.
import {rm} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {build} from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'dist', 'cli')

/**
 * zod's entry points re-export its 64 locales (`z.locales`), which this CLI never uses: every message
 * is zod's English one (en.js, imported by zod itself). The namespace is replaced by English alone.
 */
const englishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({filter: /^\.\.\/locales\/index\.js$/}, (args) =>
      /[\\/]zod[\\/]v4[\\/](core|classic|mini)$/.test(args.resolveDir)
        ? {path: join(args.resolveDir, '..', 'locales', 'english-only.js'), namespace: 'zod-english-only'}
        : undefined,
    )
    b.onLoad({filter: /.*/, namespace: 'zod-english-only'}, (args) => ({
      contents: "export {default as en} from './en.js'",
      resolveDir: dirname(args.path),
    }))
  },
}

await rm(out, {recursive: true, force: true})
await build({
  absWorkingDir: root,
  entryPoints: {main: 'dist/src/cli/main.js', commands: 'dist/src/cli/commands.js'},
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Shorter source parses faster; names are kept as they are (error classes, stack traces).
  minifyWhitespace: true,
  minifySyntax: true,
  // undici: loaded from node_modules by a live run only. typescript: oclif requires it only to run
  // TypeScript sources, which src/cli/main.ts turns off.
  external: ['undici', 'typescript'],
  // oclif is CommonJS: its require() calls of Node's modules need a require in the ES module.
  banner: {js: "import {createRequire as __createRequire} from 'node:module';const require=__createRequire(import.meta.url);"},
  plugins: [englishOnly],
  logLevel: 'warning',
  legalComments: 'none',
})
