import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgentctx } from '../../support/cli.js';
import { holdWriteLock } from '../../support/write-lock.js';
import { basePayload, type HookWorld, hookWorld, runHook } from './helpers.js';

/**
 * The hooks that write (PostToolUse, SessionEnd) while another process holds the store's write
 * lock: they return without waiting out a busy timeout (they used to wait 15 s, stalling the
 * session), and what they had to write reaches the store once a later writer gets the lock,
 * dated when it happened. The lock is held longer than the old 15 s timeout, so a hook that
 * waits for it is caught by its time, and one that drops its write by the store afterwards.
 */

/** Longer than the hooks' old busy timeout (15 s), so waiting for it cannot pass. */
const HOLD_MS = 22_000;
/** A hook may take this long on a loaded machine (process start-up), and no longer. */
const HOOK_BOUND_MS = 12_000;

let w: HookWorld;
beforeEach(() => {
  w = hookWorld('git@github.com:acme/busy.git', 'busy');
  w.add({ title: 'Ledger rule', body: 'Payments go through the ledger.' });
  w.closeDb();
});
afterEach(() => w.cleanup());

function bashFail(sessionId: string, error: string) {
  return basePayload(w, sessionId, 'PostToolUse', {
    tool_name: 'Bash',
    tool_input: { command: 'node scripts/migrate.js' },
    tool_response: { stdout: '', stderr: `TypeError: ${error}`, interrupted: false, isImage: false },
  });
}

function edit(sessionId: string, file: string) {
  return basePayload(w, sessionId, 'PostToolUse', {
    tool_name: 'Edit',
    tool_input: { file_path: join(w.repo, file), old_string: 'a', new_string: 'b' },
    tool_response: { filePath: join(w.repo, file), success: true },
  });
}

function rows<T>(sql: string, ...args: unknown[]): T[] {
  const out = w
    .db()
    .prepare(sql)
    .all(...args) as T[];
  w.closeDb();
  return out;
}

/** Spooled captures, claimed ones included. */
const spooled = () => {
  try {
    return readdirSync(join(w.home, '.agentctx', 'spool')).filter((n) => /\.json(\.claim-\d+)?$/.test(n))
      .length;
  } catch {
    return 0;
  }
};

describe('hooks that write, while another process holds the write lock', () => {
  it('return at once and lose nothing: captures are spooled, the session end journaled, a later writer applies them', async () => {
    const holder = await holdWriteLock(w.dbPath, HOLD_MS);
    const t0 = Date.now();
    const runs = [
      runHook(w, 'post-tool-use', bashFail('busy-1', 'ledger.total is not a function')),
      runHook(w, 'post-tool-use', edit('busy-1', 'src/ledger.ts')),
      runHook(w, 'post-tool-use', bashFail('busy-1', 'cannot read properties of undefined')),
      // the consolidation it starts in the background is cut short, so this test's own writer
      // decides when the spool is applied (a killed applier's claim is applied again later)
      runHook(w, 'session-end', basePayload(w, 'busy-1', 'SessionEnd', { reason: 'exit' }), {
        env: { AGENTCTX_BACKGROUND_DEADLINE_MS: '1000' },
      }),
    ];
    const heldUntil = Date.now();
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
      expect(r.ms).toBeLessThan(HOOK_BOUND_MS);
    }
    // every hook ran while the lock was still held (else this proves nothing)
    expect(heldUntil - t0).toBeLessThan(HOLD_MS);
    expect(spooled()).toBe(3);
    await holder.done;
    await new Promise((r) => setTimeout(r, 3000)); // the background consolidation's deadline

    // the next writer: a capture with the lock free applies what was spooled before its own
    const next = runHook(w, 'post-tool-use', bashFail('busy-1', 'ENOENT: no such file, open ledger.db'));
    expect(next.code).toBe(0);
    expect(spooled()).toBe(0);
    const stubs = rows<{ title: string; recorded_at: string; session_id: string }>(
      "SELECT title, recorded_at, session_id FROM records WHERE type = 'bugfix' ORDER BY recorded_at, id",
    );
    expect(stubs.map((s) => s.title)).toEqual([
      'Error: TypeError: ledger.total is not a function',
      'Error: TypeError: cannot read properties of undefined',
      'Error: TypeError: ENOENT: no such file, open ledger.db',
    ]);
    // dated when the tool call ended, not when the spool was applied
    for (const s of stubs.slice(0, 2)) {
      expect(Date.parse(s.recorded_at)).toBeGreaterThanOrEqual(t0 - 1000);
      expect(Date.parse(s.recorded_at)).toBeLessThanOrEqual(heldUntil);
      expect(s.session_id).toBe('busy-1');
    }
    const files = rows<{ name: string }>("SELECT name FROM nodes WHERE kind = 'file'");
    expect(files).toHaveLength(1);
    expect(files[0]!.name).toMatch(/src\/ledger\.ts$/);
    // the stub is linked to the file the session touched before it
    expect(
      rows<{ n: number }>(
        `SELECT COUNT(*) AS n FROM record_entities re JOIN records r ON r.id = re.record_id
         WHERE r.type = 'bugfix'`,
      )[0]!.n,
    ).toBeGreaterThanOrEqual(2);

    // the session's end, journaled by SessionEnd, is folded by the next fold (consolidate here)
    const c = runAgentctx(['consolidate', '--json'], { cwd: w.repo, env: w.env });
    expect(c.code).toBe(0);
    const s = rows<{ ended_at: string | null }>("SELECT ended_at FROM sessions WHERE session_id = 'busy-1'");
    expect(s).toHaveLength(1);
    expect(Date.parse(s[0]!.ended_at ?? '')).toBeGreaterThanOrEqual(t0 - 1000);
    expect(Date.parse(s[0]!.ended_at ?? '')).toBeLessThanOrEqual(heldUntil);
  }, 120_000);
});
