import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HookWorld, hookWorld, runHook } from './helpers.js';

/**
 * `agentctx hook <event> --agent codex` as Codex runs it: Codex's payload (measured with Codex
 * 0.169: turn_id, model, permission_mode beside Claude Code's names) in, Codex's output out.
 */

let w: HookWorld;
beforeAll(() => {
  w = hookWorld();
  w.add({
    title: 'Payments go through the ledger service',
    body: 'All payment writes call the ledger service; never write balances directly.',
  });
  w.closeDb();
});
afterAll(() => w.cleanup());

function codexPayload(event: string, extra: Record<string, unknown>) {
  return {
    session_id: '01a243cd-3941-78b2-ae2f-c5c59bda730f',
    turn_id: '01a243cd-3957-71d1-a5ab-f415dacbebf4',
    transcript_path: join(w.home, '.codex', 'sessions', 'rollout.jsonl'),
    cwd: w.repo,
    hook_event_name: event,
    model: 'gpt-5',
    permission_mode: 'bypassPermissions',
    ...extra,
  };
}

describe('the Codex adapter', () => {
  it("a prompt's matching record comes back in Codex's output format", () => {
    const r = runHook(
      w,
      'user-prompt-submit',
      codexPayload('UserPromptSubmit', { prompt: 'how do payment writes reach the ledger service?' }),
      { args: ['--agent', 'codex'] },
    );
    expect(r.code).toBe(0);
    expect(r.json?.hookSpecificOutput?.hookEventName).toBe('UserPromptSubmit');
    expect(r.context).toContain('Payments go through the ledger service');
    expect(Buffer.byteLength(r.context, 'utf8')).toBeLessThanOrEqual(10_000);
  });

  it("ignores Claude Code's session variables that a Codex started inside Claude Code inherits", () => {
    const r = runHook(
      w,
      'user-prompt-submit',
      { prompt: 'payment writes and the ledger service', cwd: w.repo },
      { args: ['--agent', 'codex'], env: { CLAUDE_CODE_SESSION_ID: 'claude-sess-xyz' } },
    );
    expect(r.code).toBe(0);
    expect(r.context).toContain('ledger');
    // no session id: nothing was written under the Claude Code session's name
    expect(existsSync(w.statePath('claude-sess-xyz'))).toBe(false);
  });
});
