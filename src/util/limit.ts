/**
 * At most `size` tasks run at once; the others wait their turn, in order. A task given
 * `{priority: true}` waits in a lane that goes first (still in order among its kind): a listing
 * whose pages feed the other tasks never starves behind them.
 */
export type Limiter = <T>(task: () => Promise<T>, options?: {priority?: boolean}) => Promise<T>

export function createLimiter(size: number): Limiter {
  let active = 0
  const waiting: Array<() => void> = []
  const urgent: Array<() => void> = []
  return async (task, options) => {
    if (active < size) active++
    else await new Promise<void>((resolve) => (options?.priority ? urgent : waiting).push(resolve))
    try {
      return await task()
    } finally {
      const next = urgent.shift() ?? waiting.shift()
      if (next) next()
      else active--
    }
  }
}
