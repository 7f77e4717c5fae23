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
    env: {
      AGENTCTX_TEST: '1',
      AGENTCTX_HOME: join(fallbackHome, '.agentctx'),
      CLAUDE_CONFIG_DIR: join(fallbackHome, '.claude'),
    },
  },
});
