#!/usr/bin/env node
// Starts the CLI: oclif and the commands, bundled into dist/cli by scripts/bundle.mjs.
import module from 'node:module'
import {homedir} from 'node:os'
import {isAbsolute, join} from 'node:path'

// Node 22.1 and later keep V8's compiled code of the modules imported below in a compile cache; Node 20 has
// none. NODE_COMPILE_CACHE, which Node honours itself, names its directory; else it is the user's own cache
// directory, not Node's default in os.tmpdir(), which every user of the machine shares (and can write into).
const {NODE_COMPILE_CACHE, XDG_CACHE_HOME} = process.env
const cacheHome = XDG_CACHE_HOME && isAbsolute(XDG_CACHE_HOME) ? XDG_CACHE_HOME : join(homedir(), '.cache')
module.enableCompileCache?.(NODE_COMPILE_CACHE ? undefined : join(cacheHome, 'onedev-audit', 'compile-cache'))
// Stack traces are shown only with --debug. In a clone they then name the src/ files (the bundle's source
// maps); an installed package ships no maps (nor src/), and its traces name its own dist/cli files.
if (process.argv.includes('--debug')) process.setSourceMapsEnabled(true)

const entry = new URL('../dist/cli/main.js', import.meta.url)
const {main} = await import(entry.href).catch(async (error) => {
  const {existsSync} = await import('node:fs')
  const {fileURLToPath} = await import('node:url')
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || existsSync(entry)) throw error
  // A clone that was never built (npm install builds it; so do npm test and npm run demo).
  process.stderr.write(`onedev-audit: error: the CLI is not built: run npm run build in ${fileURLToPath(new URL('../..', entry))}\n`)
  process.exit(2)
})
await main(import.meta.url)
