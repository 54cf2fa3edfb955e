import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn the built CLI and loopback servers: give them room on 2 shared cores.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    maxWorkers: 2,
  },
})
