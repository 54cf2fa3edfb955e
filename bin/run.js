#!/usr/bin/env node
// Starts the CLI: oclif and the commands, bundled into dist/cli by scripts/bundle.mjs.
import module from 'node:module'

// Node 22.1 and later keep V8's compiled code of the modules imported below in Node's own compile
// cache (NODE_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE); Node 20 has none.
module.enableCompileCache?.()
// Stack traces are shown only with --debug: then they name the src/ files (the bundle's source maps).
if (process.argv.includes('--debug')) process.setSourceMapsEnabled(true)

const {main} = await import('../dist/cli/main.js')
await main(import.meta.url)
