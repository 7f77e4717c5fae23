import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // the agentctx package's guard: the run fails if the real ~/.agentctx or ~/.claude changed
    globalSetup: ['test/support/build-once.ts', '../agentctx/test/support/real-home-guard.ts'],
    setupFiles: ['../agentctx/test/support/real-home-check.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // A real browser and real servers: one file at a time on small machines.
    maxWorkers: 1,
    env: { AGENTCTX_TEST: '1' },
  },
});
