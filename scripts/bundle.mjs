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
 * oclif sorts the commands of a plugin by `localeCompare` while it loads (config/plugin.js): the first
 * localeCompare of a process builds ICU's collator, about 10 ms of a snapshot scan that no other code
 * of a scan needs. That order is oclif's internal one (its help sorts by its own comparison), and for
 * command ids (a-z, '-', ':') code-unit order is the same: the bundle sorts by code units instead.
 */
const oclifPlainSort = {
  name: 'oclif-plain-sort',
  setup(b) {
    b.onLoad({filter: /[\\/]@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/}, async (args) => {
      const text = await readFile(args.path, 'utf8')
      const sort = '.sort((a, b) => a.id.localeCompare(b.id))'
      if (!text.includes(sort)) throw new Error(`${args.path}: no "${sort}" to replace (oclif changed: see scripts/bundle.mjs)`)
      return {contents: text.replace(sort, '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))'), loader: 'js'}
    })
  },
}

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
  plugins: [englishOnly, oclifPlainSort],
  logLevel: 'warning',
  legalComments: 'none',
  write: false,
})

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
