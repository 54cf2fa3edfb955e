/**
 * At most `size` tasks run at once; the others wait their turn, in order. A task given
 * `{priority: true}` waits in a lane that goes first (still in order among its kind): a listing
 * whose pages feed the other tasks never starves behind them. `{followUp: true}` goes next: a task
 * that finishes work already started (a project's last request) goes before work not started yet,
 * so what that work holds (a project's payload) is not held while thousands of others run.
 */
export type Limiter = <T>(task: () => Promise<T>, options?: {priority?: boolean; followUp?: boolean}) => Promise<T>

export function createLimiter(size: number): Limiter {
  let active = 0
  const waiting: Array<() => void> = []
  const urgent: Array<() => void> = []
  const followUps: Array<() => void> = []
  return async (task, options) => {
    if (active < size) active++
    else await new Promise<void>((resolve) => (options?.priority ? urgent : options?.followUp ? followUps : waiting).push(resolve))
    try {
      return await task()
    } finally {
      const next = urgent.shift() ?? followUps.shift() ?? waiting.shift()
      if (next) next()
      else active--
    }
  }
}
