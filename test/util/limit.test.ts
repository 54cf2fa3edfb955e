import {expect, it} from 'vitest'

import {createLimiter, createQueue} from '../../src/util/limit.js'

it('runs waiting tasks by lane: priority first, then follow-ups, then the others, each lane in order', async () => {
  const limit = createLimiter(1)
  const order: string[] = []
  let release!: () => void
  const first = limit(() => new Promise<void>((resolve) => (release = resolve)))
  const queued = [
    limit(async () => void order.push('new 1')),
    limit(async () => void order.push('follow-up 1'), {followUp: true}),
    limit(async () => void order.push('listing'), {priority: true}),
    limit(async () => void order.push('new 2')),
    limit(async () => void order.push('follow-up 2'), {followUp: true}),
  ]
  release()
  await Promise.all([first, ...queued])
  expect(order).toEqual(['listing', 'follow-up 1', 'follow-up 2', 'new 1', 'new 2'])
})

it('a task that throws or rejects frees its slot; at most `size` run at once', async () => {
  const limit = createLimiter(2)
  let running = 0
  let most = 0
  const task = (fail: 'throw' | 'reject' | null) => () => {
    if (fail === 'throw') throw new Error('thrown')
    running++
    most = Math.max(most, running)
    return new Promise<string>((resolve, reject) =>
      setTimeout(() => {
        running--
        if (fail === 'reject') reject(new Error('rejected'))
        else resolve('ok')
      }, 1),
    )
  }
  const outcomes = await Promise.allSettled([limit(task('throw')), limit(task('reject')), ...Array.from({length: 6}, () => limit(task(null)))])
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', ...Array(6).fill('fulfilled')])
  expect(most).toBe(2)
  expect(await limit(async () => 'still free')).toBe('still free')
})

it('a queue gives its items back in order, however many pass through', () => {
  const queue = createQueue<number>()
  const out: Array<number | undefined> = []
  for (let i = 0; i < 5000; i++) {
    queue.push(i)
    if (i % 3 === 0) out.push(queue.shift())
  }
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) out.push(item)
  expect(out).toEqual(Array.from({length: 5000}, (_, i) => i))
  expect(queue.shift()).toBeUndefined()
})
