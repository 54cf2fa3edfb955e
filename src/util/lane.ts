/**
 * Where CPU work on answers runs: one task per turn of the event loop, each after the I/O that was
 * ready by then. Answers that arrive together are each read, and the next requests sent, before any
 * of them is processed; a burst of work (a thousand projects to judge at once) never keeps an answer
 * waiting longer than one task. Tasks run in order; `later` tasks only when no other task waits
 * (work that frees nothing the I/O waits on, such as judging a project that is loaded).
 */
import {createQueue} from './limit.js'

export interface Lane {
  /** Runs `task` in a later turn of the event loop; its value or exception settles the promise. */
  run<T>(task: () => T, options?: {later?: boolean}): Promise<T>
  /** How many tasks wait to run. */
  readonly waiting: number
}

export function createLane(): Lane {
  const first = createQueue<() => void>()
  const later = createQueue<() => void>()
  let waiting = 0
  let scheduled = false
  const turn = () => {
    scheduled = false
    const next = first.shift() ?? later.shift()
    if (next === undefined) return
    waiting--
    // The next turn is asked for first: a task's own continuations run in this turn's microtasks.
    if (waiting > 0) schedule()
    next()
  }
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    setImmediate(turn)
  }
  return {
    run<T>(task: () => T, options?: {later?: boolean}): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        ;(options?.later ? later : first).push(() => {
          try {
            resolve(task())
          } catch (error) {
            reject(error)
          }
        })
        waiting++
        schedule()
      })
    },
    get waiting() {
      return waiting
    },
  }
}
