import {expect, it} from 'vitest'

import {createLimiter} from '../../src/util/limit.js'

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
