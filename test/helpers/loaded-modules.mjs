// Preloaded with `node --import` by test/cli/startup.test.ts: appends to the file named by
// LOADED_MODULES_FILE, one URL a line, every ES module the CLI imports (bin/run.js, the bundle's files
// in dist/cli, undici) and, at exit, every CommonJS module Node loaded; and the line `zod` when zod was
// loaded (bundled, it has no file of its own; it leaves its global configuration behind).
import {appendFileSync} from 'node:fs'
import {createRequire, register} from 'node:module'
import {pathToFileURL} from 'node:url'

const log = (line) => {
  if (process.env.LOADED_MODULES_FILE) appendFileSync(process.env.LOADED_MODULES_FILE, line + '\n')
}

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import {appendFileSync} from 'node:fs'
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (process.env.LOADED_MODULES_FILE) appendFileSync(process.env.LOADED_MODULES_FILE, resolved.url + '\\n')
  return resolved
}`),
)

process.on('exit', () => {
  for (const file of Object.keys(createRequire(import.meta.url).cache)) log(pathToFileURL(file).href)
  if (globalThis.__zod_globalConfig !== undefined) log('zod')
})
