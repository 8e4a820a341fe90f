import { defineConfig } from 'vitest/config'

// Browser journeys against the real `murmur serve`: one file at a time, long timeouts.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    sequence: { concurrent: false },
    pool: 'forks',
  },
})
