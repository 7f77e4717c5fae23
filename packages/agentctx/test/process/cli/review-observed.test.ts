import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentctx, runJson } from '../../support/cli.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from '../hooks/helpers.js';

/**
 * Issue 31 #13: prompts showed hook-captured records as "Possibly: …" while `review` said
 * nothing waits; interactive review showed titles only and answered with raw JSON. Review now
 * asks about every unconfirmed record a prompt may offer, shows each record's body, and says
 * what an answer did in a line.
 */

let w: HookWorld;
const ERROR = "ModuleNotFoundError: No module named 'django_money'";

beforeAll(() => {
  w = hookWorld();
  // a failing command: PostToolUseFailure leaves a hook-observed bugfix stub (unconfirmed)
  runHook(w, 'post-tool-use', {
    ...basePayload(w, 'obs1', 'PostToolUseFailure'),
    tool_name: 'Bash',
    tool_input: { command: 'python manage.py migrate' },
    error: `Traceback (most recent call last):\n  File "manage.py", line 3\n${ERROR}`,
  });
});
afterAll(() => w.cleanup());

interface Item {
  key: string;
  kind: string;
  record_ids: string[];
  bodies?: string[];
}

describe('review and the prompts agree', () => {
  it('what a prompt offers as "Possibly" waits in review, with its body', () => {
    const prompt = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'obs2', 'why does manage.py migrate fail with django_money missing?'),
    );
    expect(prompt.context).toMatch(/Possibly: .*django_money/);
    const items = runJson<{ items: Item[] }>(['review'], { cwd: w.repo, env: w.env }).json.items;
    const item = items.find(
      (i) => i.kind === 'inferred' && (i.bodies ?? []).some((b) => b.includes('django_money')),
    );
    expect(item).toBeDefined();
    expect(
      runJson<{ review: { total: number } }>(['status'], { cwd: w.repo, env: w.env }).json.review.total,
    ).toBe(items.length);
  });

  it('interactive review shows the body and answers in words', () => {
    const items = runJson<{ items: Item[] }>(['review'], { cwd: w.repo, env: w.env }).json.items;
    const i = items.findIndex((x) => (x.bodies ?? []).some((b) => b.includes('django_money')));
    // skip to it, confirm it, quit
    const input = `${'n\n'.repeat(i)}c\nq\n`;
    const r = runAgentctx(['review'], { cwd: w.repo, env: w.env, input });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/│ .*django_money/);
    expect(r.stderr).toMatch(new RegExp(` {2}confirmed ${items[i]!.record_ids[0]}: now reinforced`));
    expect(r.stderr).not.toMatch(/^\s+confirm: \{/m);
  });
});
