/**
 * At most `size` tasks run at once; the others wait their turn, in order. A task given
 * `{priority: true}` waits in a lane that goes first (still in order among its kind): a listing
 * whose pages feed the other tasks never starves behind them. `{followUp: true}` goes next: a task
 * that finishes work already started (a project's last request) goes before work not started yet,
 * so what that work holds (a project's payload) is not held while thousands of others run.
 */
export type Limiter = <T>(task: () => Promise<T>, options?: {priority?: boolean; followUp?: boolean}) => Promise<T>

/** A first-in first-out queue whose `shift` takes constant time (an array's moves the rest). */
export interface Queue<T> {
  push(item: T): void
  shift(): T | undefined
}

export function createQueue<T>(): Queue<T> {
  let items: Array<T | undefined> = []
  let head = 0
  return {
    push(item) {
      items.push(item)
    },
    shift() {
      if (head === items.length) return undefined
      const item = items[head]
      items[head++] = undefined
      if (head === items.length) {
        items = []
        head = 0
      } else if (head >= 1024 && head * 2 >= items.length) {
        items = items.slice(head)
        head = 0
      }
      return item
    },
  }
}

export function createLimiter(size: number): Limiter {
  let active = 0
  const waiting = createQueue<() => void>()
  const urgent = createQueue<() => void>()
  const followUps = createQueue<() => void>()
  const release = () => {
    const next = urgent.shift() ?? followUps.shift() ?? waiting.shift()
    if (next) next()
    else active--
  }
  const run = <T>(task: () => Promise<T>): Promise<T> => {
    let running: Promise<T>
    try {
      running = task()
    } catch (error) {
      release()
      return Promise.reject(error)
    }
    return running.then(
      (value) => {
        release()
        return value
      },
      (error: unknown) => {
        release()
        throw error
      },
    )
  }
  return (task, options) => {
    if (active < size) {
      active++
      return run(task)
    }
    return new Promise<void>((resolve) => (options?.priority ? urgent : options?.followUp ? followUps : waiting).push(resolve)).then(() => run(task))
  }
}
