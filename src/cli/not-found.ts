/**
 * oclif's `command_not_found` hook (package.json `oclif.hooks`; bundled as dist/cli/not-found.js): a
 * misspelt command is one line in the tool's own style, with the command it was most likely meant to
 * be, and exit code 2, like every other usage error. The same line answers help asked for a command
 * that does not exist (`scna --help`, `help scna`: src/cli/help-request.ts).
 */
import type {Hook} from '@oclif/core/hooks'
import type {Config} from '@oclif/core/config'

import {escapeControl} from '../util/escape.js'
import {closest} from '../util/suggest.js'
import {EXIT} from './errors.js'

/** The error line for `id` (oclif's: the words before the first flag joined with ':'), with a guess when one is close. */
export function unknownCommandLine(id: string, config: Pick<Config, 'commandIDs' | 'topics'>): string {
  // oclif joins the words before the first flag with ':' (`issue-setting:lnt:file.json`); commands
  // have one or two words (a topic and a command), the user typed spaces.
  const words = id.split(':')
  const known = [...config.commandIDs, ...config.topics.map((topic) => topic.name)].map((name) => name.split(':').join(' '))
  const tries = words.length > 1 ? [words.slice(0, 2).join(' '), words[0]!] : [words[0]!]
  // A topic alone is no slip of its command (`issue-setting frob` is not `issue-setting`).
  const matched = tries.map((typed) => ({typed, guess: closest(typed, known)})).find(({typed, guess}) => guess !== undefined && guess !== typed)
  const typed = matched?.typed ?? (known.includes(words[0]!) ? tries[0]! : words[0]!)
  return `onedev-audit: error: unknown command "${escapeControl(typed)}"${matched ? `; did you mean ${matched.guess}?` : ''} (see onedev-audit --help)\n`
}

const notFound: Hook.CommandNotFound = async function ({id, config}) {
  process.stderr.write(unknownCommandLine(id, config))
  this.exit(EXIT.incomplete)
}

export default notFound
