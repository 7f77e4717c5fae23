import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgentctx } from '../../support/cli.js';
import { noFts5Env } from '../../support/no-fts5.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from './helpers.js';

/**
 * CONTRACTS.md §rung-4 on the hook path: the hook processes' SQLite genuinely has no FTS5
 * (test/support/no-fts5.ts). Prompts still get matching records (LIKE search), capture still
 * writes, and consolidation runs the steps that do not need FTS5.
 */

let w: HookWorld;
beforeEach(() => {
  w = hookWorld();
});
afterEach(() => w.cleanup());

describe('hooks on a SQLite without FTS5', () => {
  it('injects matching records, captures, and consolidates', () => {
    const a = w.add({
      title: 'Refunds are processed by the ledger worker',
      body: 'The ledger worker owns refunds; the API only enqueues a refund job.',
    });
    w.add({ title: 'Frontend uses Tailwind', body: 'Styling is Tailwind utility classes only.' });
    w.closeDb();
    const env = noFts5Env(w.env);
    const r = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'nofts1', 'which worker processes refunds from the ledger?'),
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.context, r.stdout + r.stderr).toContain(a.id);
    expect(r.context).not.toContain('Tailwind');
    // PostToolUse writes a test-outcome record: a write through records' triggers
    const post = runHook(
      w,
      'post-tool-use',
      basePayload(w, 'nofts1', 'PostToolUse', {
        tool_name: 'Bash',
        tool_input: { command: 'npx vitest run test/cart.test.ts', description: 'run' },
        tool_response: {
          stdout: ' FAIL  test/cart.test.ts > totals\n      Tests  1 failed | 41 passed (42)',
          stderr: '',
          interrupted: false,
          isImage: false,
        },
        tool_use_id: 'toolu_1',
      }),
      { env },
    );
    expect(post.code).toBe(0);
    const cons = runAgentctx(['consolidate', '--json'], { cwd: w.repo, env, timeoutMs: 60_000 });
    expect(cons.code, cons.stderr).toBe(0);
    const summary = JSON.parse(cons.stdout) as { finished: boolean; degraded?: string };
    expect(summary.finished).toBe(true);
    expect(summary.degraded).toBe('like-search');
    const n = w
      .db()
      .prepare("SELECT COUNT(*) AS n FROM records WHERE project_id = ? AND type = 'discovery'")
      .get(w.projectId) as { n: number };
    expect(n.n).toBeGreaterThan(0);
  });
});
