// Preloaded with `node --import` by test/cli/startup.test.ts: appends the URL of every module the
// CLI imports (ES modules; what CommonJS modules require is not seen) to the file named by
// LOADED_MODULES_FILE, one a line, and at exit the line `zod` when zod was loaded (bundled, it has
// no URL of its own; it leaves its global configuration behind).
import {appendFileSync} from 'node:fs'
import {register} from 'node:module'

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
  if (process.env.LOADED_MODULES_FILE && globalThis.__zod_globalConfig !== undefined) appendFileSync(process.env.LOADED_MODULES_FILE, 'zod\n')
})
