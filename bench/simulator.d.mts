/** Types of bench/simulator.mjs, for the tests that start it. */
export interface SimulatorOptions {
  projects?: number
  roles?: number
  users?: number
  groups?: number
  latency?: number
  port?: number
  repositories?: boolean
  access?: boolean
  record?: boolean
  /** A file to append the request log to: one line `arrival answer status url` per request answered. */
  log?: string
}

/** Requests in flight over time, from a request log (arrival and answer times in ms, in pairs). */
export interface InFlight {
  requests: number
  spanMs: number
  meanInFlight: number
}

export interface Simulator {
  url: string
  prefix: string
  /** `log`: arrival and answer time (ms) of each request answered since the last reset, in pairs. */
  stats: {requests: number; inFlight: number; maxInFlight: number; paths: string[]; log: number[]}
  setRepositories(enabled: boolean): void
  setAccess(enabled: boolean): void
  reset(): void
  close(): Promise<void>
}

/** What GET /version/server answers while the access endpoints are on (bare text, as OneDev writes a String). */
export const SIMULATED_VERSION: string
export function startSimulator(options?: SimulatorOptions): Promise<Simulator>
export function inFlightOf(log: readonly number[]): InFlight
/** The runs of a client in a request log file's text, told apart by a pause of `gapMs` (default 50) with nothing in flight, or starting at each request whose URL matches `start`. */
export function runsOfLog(text: string, gapMs?: number, start?: RegExp): InFlight[]
export function buildProjects(count: number): Array<{id: number; parentId: number | null; name: string; path: string}>
export function buildAccess(options: {projects: Array<{id: number; parentId: number | null}>; roles: number; users?: number; groups?: number}): {
  users: Array<{id: number; name: string; disabled: boolean; type: string}>
  groups: Array<{id: number; name: string; administrator: boolean}>
  payloads: Map<string, unknown>
}
