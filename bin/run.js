#!/usr/bin/env node
import module from 'node:module'

// Node 22.1 and later keep the compiled code of every module loaded here in a cache on disk (in
// the temporary directory): later starts skip most of the parsing and compiling. Older Node: no-op.
module.enableCompileCache?.()

// The bundled build (scripts/bundle.mjs, part of `npm run build`): a few files instead of ~400 modules.
const {main} = await import('../dist/cli/main.js')
await main(import.meta.url)
