/**
 * Where CPU work on answers runs: one task per turn of the event loop, each after the I/O that was
 * ready by then. Answers that arrive together are each read, and the next requests sent, before any
 * of them is processed; a burst of work (a thousand projects to judge at once) never keeps an answer
 * waiting longer than one task. Tasks run in order within their kind; `later` tasks (work that frees
 * nothing the I/O waits on, such as judging a project that is loaded) take every other turn while
 * both kinds wait, so that neither kind falls behind without bound when the CPU is short.
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
  let laterWaiting = 0
  let scheduled = false
  let laterTurn = false
  const turn = () => {
    scheduled = false
    // Both kinds waiting: they alternate. Otherwise whichever waits.
    const fromLater = laterWaiting > 0 && (laterTurn || laterWaiting === waiting)
    const next = fromLater ? later.shift() : first.shift()
    if (next === undefined) return
    laterTurn = !fromLater
    waiting--
    if (fromLater) laterWaiting--
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
        if (options?.later) laterWaiting++
        schedule()
      })
    },
    get waiting() {
      return waiting
    },
  }
}
