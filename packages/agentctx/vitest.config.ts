import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Real child processes and SQLite files: keep parallelism modest on small machines.
    maxWorkers: 2,
    env: { AGENTCTX_TEST: '1' },
  },
});
