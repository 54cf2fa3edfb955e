/**
 * A live server as an audit's model. Loaded lazily by the commands: undici and the client cost a
 * noticeable part of start-up, which evaluating a snapshot does not need.
 */
import {setMaxListeners} from 'node:events'

import {type ArrivalHooks, collectModel} from '../api/collect.js'
import {PROJECT_FETCHERS, SERVER_FETCHERS} from '../api/data-sources.js'
import {needsBranchList} from '../onedev/checked-refs.js'
import type {AuditModel} from '../model/types.js'
import type {Source} from '../types/report-types.js'
import type {Prepared} from './audit.js'
import {connect, type ServerFlags} from './server.js'
import {projectFilter} from './sources.js'

export interface CollectFlags extends ServerFlags {
  project?: number[]
  'all-projects': boolean
  concurrency: number
}

export interface Io {
  debug: (line: string) => void
  say: (line: string) => void
}

/** A progress line on stderr, only when it is a terminal and nothing else is logging there. */
function progress(io: Io, debug: boolean): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY || debug) return undefined
  // The last update clears the line, so what follows starts on a clean one.
  return (done, total) => process.stderr.write(done === total ? '\r\x1b[K' : `\rcollecting ${done}/${total} projects`)
}

/**
 * Ctrl-C during a collection: the first stops it, and the report is written from what was collected
 * (with an `interrupted` error, so the exit code is 2); a second one quits at once.
 */
function interruptible(io: Io): {signal: AbortSignal; release: () => void} {
  const controller = new AbortController()
  // Every request in flight listens on this one signal (as many as --concurrency): without this,
  // Node prints a MaxListenersExceededWarning as soon as more than 10 are in flight.
  setMaxListeners(0, controller.signal)
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130)
    io.say('onedev-audit: interrupted: finishing with what was collected (press Ctrl-C again to quit at once)')
    controller.abort()
  }
  process.on('SIGINT', onSignal)
  return {signal: controller.signal, release: () => process.off('SIGINT', onSignal)}
}

/**
 * Collects the selected projects from the server. `allBranches` fetches every project's branch list
 * even when no `branches` entry needs it (a snapshot may later be scanned with other entries);
 * `arrival` judges projects as they arrive (see judgeOnArrival in audit.ts); `sources: false` reads
 * the projects (settings, repositories, ancestors) and roles only, none of the optional server-wide and
 * access data (what judging a project's own setting needs: `fix --undo`).
 */
export async function collectFromServer(
  flags: CollectFlags & {debug?: boolean},
  prepared: Prepared,
  io: Io,
  options: {allBranches?: boolean; arrival?: ArrivalHooks; sources?: boolean} = {},
): Promise<{model: AuditModel; source: Source}> {
  const interrupt = interruptible(io)
  try {
    const {client, url} = await connect(flags, io.debug, io.say, interrupt.signal)
    try {
      const filter = projectFilter(prepared.loaded.config)
      const onProgress = progress(io, flags.debug === true)
      const model = await collectModel(client, {
        server: {url, apiPrefix: client.apiPrefix},
        projects: flags['all-projects'] ? 'all' : (flags.project ?? []),
        concurrency: flags.concurrency,
        branchList: options.allBranches === true || needsBranchList(prepared.settings.branches),
        serverFetchers: options.sources === false ? [] : SERVER_FETCHERS,
        projectFetchers: options.sources === false ? [] : PROJECT_FETCHERS,
        ...(filter ? {filter} : {}),
        ...(onProgress ? {onProgress} : {}),
        ...(options.arrival ? {arrival: options.arrival} : {}),
        signal: interrupt.signal,
      })
      io.debug(`${client.requestCount} requests`)
      // The prefix the requests went to, once the probe (if any) has settled it during the collection;
      // the version the server said it is, when it was asked (null: it could not be read).
      const server = {...model.server, url, apiPrefix: client.apiPrefix}
      model.server = server
      return {model, source: {kind: 'server', server, ...(model.collectedAt ? {collectedAt: model.collectedAt} : {})}}
    } finally {
      await client.close()
    }
  } finally {
    interrupt.release()
  }
}
