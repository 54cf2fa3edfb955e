#!/usr/bin/env node
// Bundles the compiled CLI (dist/src, from `tsc`) into dist/cli/, which bin/run.js starts:
//   dist/cli/main.js       oclif's entry (src/cli/main.ts): all --help and --version load
//   dist/cli/commands.js   the command map (src/cli/commands.ts), oclif's explicit command target
//   dist/cli/chunks/       code shared by both, and what is imported on demand: the rules, the HTTP
//                          client and the live collection, zod's full validation (see below)
// One file per part instead of ~400 modules: a start pays for neither module resolution nor hundreds
// of file reads. dist/src stays as tsc writes it: it is the library (package.json `main`) and what
// `npm run generate` reads.
//
// The files in dist/cli are scripts, not modules: bin/run.js compiles each one as the body of a
// function (see SCRIPT_PARAMETERS) with node:vm, so that V8's compiled code can be kept in a cache
// on disk and reused by the next start (Node 20 has no compile cache for modules; on Node 22 and later
// this is also faster than its compile cache for ES modules). esbuild splits only ES modules, so the
// bundle is built as ES modules first and each file is then converted: `import`/`export` become
// require() and module.exports, and every `import(...)` becomes `__import(...)` (bin/run.js: a file
// of the bundle, else Node's own import()).
import {mkdir, readFile, rm, writeFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {build, transform} from 'esbuild'

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

/**
 * Edits of oclif's source made while bundling (node_modules stays as installed), each for what a
 * snapshot scan would otherwise pay for and never use. The build fails when a text to replace is not
 * found (a new oclif: look again).
 * - config/plugin.js sorts the commands of a plugin by `localeCompare` while it loads: the first
 *   localeCompare of a process builds ICU's collator (8-12 ms on Node 20, more on Node 26), and nothing
 *   else on a scan's path needs it. That order is oclif's internal one (its help sorts with its own
 *   comparison), and for command ids (a-z, '-', ':') code-unit order is the same.
 * - performance.js and parser/parse.js require node:perf_hooks (its marks are used only when oclif's
 *   performance tracing is on) and node:readline (for a flag read from standard input) when loaded:
 *   Node's modules behind them take about 6 ms to load on Node 20. They are required on first use.
 */
const lazy = (name) => `new Proxy({}, {get: (_, key) => require(${JSON.stringify(name)})[key]})`
const oclifEdits = {
  'config/plugin.js': [['.sort((a, b) => a.id.localeCompare(b.id))', '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))']],
  'performance.js': [['const node_perf_hooks_1 = require("node:perf_hooks");', `const node_perf_hooks_1 = ${lazy('node:perf_hooks')};`]],
  'parser/parse.js': [['const node_readline_1 = require("node:readline");', `const node_readline_1 = ${lazy('node:readline')};`]],
}
const oclifLean = {
  name: 'oclif-lean',
  setup(b) {
    b.onLoad({filter: /[\\/]@oclif[\\/]core[\\/]lib[\\/].*\.js$/}, async (args) => {
      const file = args.path.split(/[\\/]@oclif[\\/]core[\\/]lib[\\/]/).pop().split('\\').join('/')
      const edits = oclifEdits[file]
      if (!edits) return undefined
      let text = await readFile(args.path, 'utf8')
      for (const [from, to] of edits) {
        if (!text.includes(from)) throw new Error(`${args.path}: no "${from}" to replace (oclif changed: see scripts/bundle.mjs)`)
        text = text.replace(from, to)
      }
      edited.add(file)
      return {contents: text, loader: 'js'}
    })
  },
}
const edited = new Set()

await rm(out, {recursive: true, force: true})
const result = await build({
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
  plugins: [englishOnly, oclifLean],
  logLevel: 'warning',
  legalComments: 'none',
  write: false,
})

const missed = Object.keys(oclifEdits).filter((file) => !edited.has(file))
if (missed.length > 0) throw new Error(`oclif's ${missed.join(', ')} not bundled: see oclifEdits in scripts/bundle.mjs`)

// `import(` as code, not the text "import()" of an error message in oclif.
const dynamicImport = /\bimport\((?!\))/g

for (const file of result.outputFiles) {
  if (!file.path.endsWith('.js')) throw new Error(`unexpected bundle output ${file.path}`)
  // A script has no import.meta (oclif's CommonJS gets the script's require: SCRIPT_PARAMETERS).
  if (/\bimport\.meta\b/.test(file.text)) throw new Error(`${file.path}: import.meta cannot be converted`)
  const converted = await transform(file.text, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  })
  // Safe only if every `import(` of the text is an import expression: with import() turned into
  // require() by esbuild, none may be left (else one is in a string, a comment or a regular expression).
  const probe = await transform(converted.code, {format: 'cjs', supported: {'dynamic-import': false}, logLevel: 'error'})
  if (/\bimport\((?!\))/.test(probe.code)) throw new Error(`${file.path}: "import(" in a string, a comment or a regular expression`)
  const code = converted.code.replace(dynamicImport, '__import(')
  await mkdir(dirname(file.path), {recursive: true})
  await writeFile(file.path, code)
}
