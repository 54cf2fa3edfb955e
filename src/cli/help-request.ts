/**
 * Help as people ask for it: `onedev-audit help`, `help scan`, `help issue-setting lint`, and `--help`
 * anywhere on a command line (`scan --format json --help`, `diff old.json --help`). oclif answers
 * `--help` only after a command's own words, and help for a command that does not exist (`scna --help`)
 * with its own error; here that is the tool's one line with a guess (not-found.ts) and exit code 2.
 * Loaded only when help is asked for (src/cli/main.ts).
 */
import {Config} from '@oclif/core/config'

import {EXIT} from './errors.js'
import {unknownCommandLine} from './not-found.js'

/** Whether `args` ask for help: `help` first, or `--help` before any `--`. */
export function asksForHelp(args: readonly string[]): boolean {
  if (args[0] === 'help') return true
  const end = args.indexOf('--')
  return (end < 0 ? args : args.slice(0, end)).includes('--help')
}

/**
 * The arguments oclif is given for a help request: the command's (or topic's) words and `--help`, or
 * `--help` alone for the overview; or null when the subject is no command or topic (the error line
 * has been written and the exit code set).
 */
export async function helpArguments(args: readonly string[], dir: string): Promise<string[] | null> {
  const rest = args[0] === 'help' ? args.slice(1) : args
  const end = rest.indexOf('--')
  // The words before `--` that are not flags: the subject first (a flag's value may follow; it is never looked at).
  const words = (end < 0 ? rest : rest.slice(0, end)).filter((arg) => !arg.startsWith('-'))
  if (words.length === 0) return ['--help']
  const config = await Config.load(dir)
  const two = words.slice(0, 2).join(':')
  if (words.length > 1 && config.findCommand(two)) return [...words.slice(0, 2), '--help']
  if (config.findCommand(words[0]!)) return [words[0]!, '--help']
  // A topic alone: its overview; a topic and a word that is none of its commands: a slip.
  const topic = config.findTopic(words[0]!) !== undefined
  if (topic && words.length === 1) return [words[0]!, '--help']
  process.stderr.write(unknownCommandLine(topic ? two : words[0]!, config))
  process.exitCode = EXIT.incomplete
  return null
}
