import { defineConfig } from 'vitest/config'

// Browser journeys against the real `murmur serve`: two files at a time (each starts its own
// server on a free port with its own data directory), a file's tests in order, long timeouts.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { concurrent: false },
    pool: 'forks',
  },
})
