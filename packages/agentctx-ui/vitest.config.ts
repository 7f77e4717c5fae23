import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-once.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // A real browser and real servers: one file at a time on small machines.
    maxWorkers: 1,
    env: { AGENTCTX_TEST: '1' },
  },
});
