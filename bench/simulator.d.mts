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
}

export interface Simulator {
  url: string
  prefix: string
  stats: {requests: number; inFlight: number; maxInFlight: number; paths: string[]}
  setRepositories(enabled: boolean): void
  setAccess(enabled: boolean): void
  reset(): void
  close(): Promise<void>
}

export function startSimulator(options?: SimulatorOptions): Promise<Simulator>
export function buildProjects(count: number): Array<{id: number; parentId: number | null; name: string; path: string}>
export function buildAccess(options: {projects: Array<{id: number; parentId: number | null}>; roles: number; users?: number; groups?: number}): {
  users: Array<{id: number; name: string; disabled: boolean; type: string}>
  groups: Array<{id: number; name: string; administrator: boolean}>
  payloads: Map<string, unknown>
}
