/**
 * The lane (src/util/lane.ts): CPU work on answers, one task per turn of the event loop, so that
 * what is ready meanwhile (an answer to read, a request to send) never waits behind a burst of work.
 */
import {describe, expect, it} from 'vitest'

import {createLane} from '../../src/util/lane.js'

/** Resolves in the next turn of the event loop, after the turn's I/O (a callback of the check phase, as an answer's read is of the poll phase). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('createLane', () => {
  it('runs one task per turn: what else is due in between (here, a callback of each turn) runs between two tasks', async () => {
    const lane = createLane()
    const log: string[] = []
    const done = Promise.all(['a', 'b', 'c'].map((name) => lane.run(() => log.push(name))))
    expect(log).toEqual([])
    expect(lane.waiting).toBe(3)
    const turns = (async () => {
      for (let turn = 1; turn <= 3; turn++) {
        await nextTurn()
        log.push(`turn ${turn}`)
      }
    })()
    await Promise.all([done, turns])
    expect(log).toEqual(['a', 'turn 1', 'b', 'turn 2', 'c', 'turn 3'])
    expect(lane.waiting).toBe(0)
  })

  it('gives `later` tasks every other turn while both kinds wait, each kind in order, and all turns to whichever kind waits alone', async () => {
    const lane = createLane()
    const log: string[] = []
    const later = (name: string) => lane.run(() => log.push(name), {later: true})
    const first = (name: string) => lane.run(() => log.push(name))
    await Promise.all([later('judge 1'), first('ingest 1'), later('judge 2'), first('ingest 2'), first('ingest 3'), first('ingest 4'), later('judge 3'), later('judge 4'), later('judge 5')])
    expect(log).toEqual(['ingest 1', 'judge 1', 'ingest 2', 'judge 2', 'ingest 3', 'judge 3', 'ingest 4', 'judge 4', 'judge 5'])
  })

  it("settles each task's promise with its value or its exception, and goes on after a task that throws", async () => {
    const lane = createLane()
    const failing = lane.run(() => {
      throw new Error('boom')
    })
    const value = lane.run(() => 42)
    await expect(failing).rejects.toThrow('boom')
    expect(await value).toBe(42)
  })
})
