import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// A backstop: a test that forgets to pass its own paths still lands in a throwaway folder,
// never in the real ~/.agentctx or ~/.claude. Not created here: it only appears if one does.
const fallbackHome = join(tmpdir(), `agentctx-vitest-home-${process.pid}-${Date.now().toString(36)}`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Real child processes and SQLite files: keep parallelism modest on small machines.
    maxWorkers: 2,
    // fails the run if anything under the real ~/.agentctx or ~/.claude changed meanwhile
    globalSetup: ['test/support/real-home-guard.ts'],
    setupFiles: ['test/support/real-home-check.ts'],
    env: {
      AGENTCTX_TEST: '1',
      // what a test or a child inheriting this environment takes for the home: never the real one
      HOME: fallbackHome,
      AGENTCTX_HOME: join(fallbackHome, '.agentctx'),
      CLAUDE_CONFIG_DIR: join(fallbackHome, '.claude'),
    },
  },
});
