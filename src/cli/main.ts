/**
 * What bin/run.js starts: oclif, told where the CLI lives. Bundled with the commands by
 * scripts/bundle.mjs (dist/cli/main.js); loads no command itself: oclif imports the command map
 * (src/cli/commands.ts) only to run a command, and answers --help and --version from the manifest.
 */
import {execute} from '@oclif/core/execute'
import {settings} from '@oclif/core/settings'

/** `dir`: a file or directory of the package (a path or a file: URL), from which oclif finds its root. */
export async function main(dir: string): Promise<void> {
  // The commands are compiled JavaScript: never look for TypeScript sources to transpile (oclif would
  // try when NODE_ENV is development or test, loading the TypeScript compiler to read tsconfig.json).
  settings.enableAutoTranspile = false
  let args = process.argv.slice(2)
  if (args[0] === 'help' || args.includes('--help')) {
    // Help as people ask for it (`help scan`, `scan --format json --help`, `scna --help`): loaded only then.
    const request = await import('./help-request.js')
    if (request.asksForHelp(args)) {
      const help = await request.helpArguments(args, dir)
      if (help === null) return
      args = help
    }
  }
  await execute({dir, args})
}
