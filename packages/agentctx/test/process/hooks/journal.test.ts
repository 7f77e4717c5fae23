import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../../src/app/project.js';
import { Db as Database } from '../../../src/database/sqlite.js';
import { estimateTokens } from '../../../src/shared/tokens.js';
import { runJson } from '../../support/cli.js';
import { fakeRepo } from '../../support/tmp.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook, runHookAsync } from './helpers.js';

// CONTRACTS.md §inv-7, §stored-derived: session metadata (injected tokens, the working directory)
// is stored data. The dedup file in $TMPDIR is derived and may vanish at any moment; nothing is lost.

let w: HookWorld;
beforeEach(() => {
  w = hookWorld();
});
afterEach(() => w.cleanup());

/** A column of the session's row (undefined without a row). */
function sessionCol<T = number>(
  sessionId: string,
  col: 'tokens_injected' | 'cwd' = 'tokens_injected',
): T | undefined {
  const row = w.db().prepare(`SELECT ${col} AS v FROM sessions WHERE session_id = ?`).get(sessionId) as
    | { v: T }
    | undefined;
  w.closeDb();
  return row?.v;
}

const stopPayload = (sessionId: string) => ({ session_id: sessionId, cwd: w.repo, hook_event_name: 'Stop' });

function seedRefunds(): void {
  w.add({
    title: 'Refunds are processed by the ledger worker',
    body: 'The ledger worker owns refunds; the API only enqueues a refund job.',
  });
  w.add({
    title: 'Refund jobs retry three times',
    body: 'A failed refund job is retried three times with exponential backoff by the ledger worker.',
  });
  w.closeDb();
}

describe('the session journal', () => {
  it('keeps the injected tokens when the dedup file is deleted before Stop', () => {
    seedRefunds();
    const p = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'tmp1', 'who processes refunds, and do refund jobs retry?'),
    );
    expect(p.context).toContain('Refunds are processed by the ledger worker');
    expect(existsSync(w.statePath('tmp1'))).toBe(true);
    rmSync(w.statePath('tmp1')); // disposable (CONTRACTS.md §dedup): the OS may clean $TMPDIR at any time
    expect(runHook(w, 'stop', stopPayload('tmp1')).code).toBe(0);
    expect(sessionCol('tmp1')).toBe(estimateTokens(p.context));
    // a second turn, the file deleted again, SessionEnd instead of Stop: both turns counted
    const q = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'tmp1', 'how often is a failed refund job retried?'),
    );
    rmSync(w.statePath('tmp1'), { force: true });
    const end = runHook(w, 'session-end', basePayload(w, 'tmp1', 'SessionEnd', { reason: 'other' }));
    expect(end.code).toBe(0);
    expect(sessionCol('tmp1')).toBe(estimateTokens(p.context) + estimateTokens(q.context));
  });

  it('keeps the working directory when the dedup file is deleted', () => {
    const other = fakeRepo(w.home, 'billing', 'https://github.com/acme/billing.git');
    const billingId = resolveProject(other).id;
    const bill = w.add(
      { title: 'Currency amounts are decimals', body: 'Billing stores currency amounts as numeric(12,4).' },
      billingId,
    );
    const shop = w.add({
      title: 'Currency amounts are integer cents',
      body: 'Shop stores currency amounts in cents.',
    });
    w.closeDb();
    const c = runHook(
      w,
      'cwd-changed',
      basePayload(w, 'cwd1', 'CwdChanged', { old_cwd: w.repo, new_cwd: other }),
    );
    expect(c.code).toBe(0);
    rmSync(w.statePath('cwd1'), { force: true });
    const after = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'cwd1', 'how are currency amounts stored?'),
    );
    expect(after.context).toContain(bill.id);
    expect(after.context).not.toContain(shop.id);
    expect(runHook(w, 'stop', stopPayload('cwd1')).code).toBe(0);
    // folded into the session's row: stored with the rest of its metadata
    expect(sessionCol('cwd1')).toBe(estimateTokens(after.context));
    expect(sessionCol<string>('cwd1', 'cwd')).toBe(other);
  });

  it('folding again (Stop, SessionEnd, consolidate, status) never counts a line twice', () => {
    seedRefunds();
    const p = runHook(w, 'user-prompt-submit', promptPayload(w, 'twice', 'who processes refunds?'));
    const want = estimateTokens(p.context);
    expect(want).toBeGreaterThan(0);
    // status folds before it reads: the turn's tokens show before any Stop
    const before = runJson<{ tokens_injected: number }>(['status'], { cwd: w.repo, env: w.env });
    expect(before.json.tokens_injected).toBe(want);
    for (let i = 0; i < 2; i++) expect(runHook(w, 'stop', stopPayload('twice')).code).toBe(0);
    expect(runHook(w, 'session-end', basePayload(w, 'twice', 'SessionEnd', { reason: 'other' })).code).toBe(
      0,
    );
    expect(runJson(['consolidate'], { cwd: w.repo, env: w.env }).code).toBe(0);
    const after = runJson<{ tokens_injected: number }>(['status'], { cwd: w.repo, env: w.env });
    expect(after.json.tokens_injected).toBe(want);
    expect(sessionCol('twice')).toBe(want);
  });

  it('loses no line when many hook processes of one session append at once', async () => {
    const topics = ['refunds', 'invoices', 'webhooks', 'tenants', 'exports', 'audits', 'coupons', 'payouts'];
    for (const t of topics)
      w.add({
        title: `The ${t} service owns ${t}`,
        body: `Everything about ${t} goes through the ${t} service.`,
      });
    w.closeDb();
    const runs = await Promise.all(
      topics.map((t) =>
        runHookAsync(w, 'user-prompt-submit', promptPayload(w, 'many', `which service owns the ${t}?`)),
      ),
    );
    const contexts = runs.map((r) => {
      expect(r.code).toBe(0);
      return r.stdout ? (JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string) : '';
    });
    const injected = contexts.filter(Boolean);
    expect(injected.length).toBe(topics.length);
    expect(runHook(w, 'stop', stopPayload('many')).code).toBe(0);
    const sum = injected.reduce((n, c) => n + estimateTokens(c), 0);
    expect(sessionCol('many')).toBe(sum);
    const lines = readFileSync(w.journalPath('many'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(injected.length);
    for (const l of lines) expect(JSON.parse(l)).toMatchObject({ s: 'many', p: w.projectId });
  }, 60_000);

  it('a held write lock delays neither the prompt hook nor SessionStart without a digest', () => {
    seedRefunds();
    w.add({ type: 'profile', source: 'cli', title: 'stack', body: 'TypeScript, Node 20, Postgres' });
    w.closeDb();
    const holder = new Database(w.dbPath);
    holder.pragma('busy_timeout = 0');
    holder.exec('BEGIN IMMEDIATE'); // as a consolidation step would
    try {
      const p = runHook(w, 'user-prompt-submit', promptPayload(w, 'lk', 'who processes refunds?'));
      expect(p.context).toContain('ledger worker');
      expect(p.ms).toBeLessThan(3000); // a write would wait out the 15 s busy timeout
      // without a digest SessionStart shows the profile; its tokens go to the journal too
      const s = runHook(w, 'session-start', basePayload(w, 'lk', 'SessionStart', { source: 'startup' }));
      expect(s.context).toContain('TypeScript, Node 20, Postgres');
      expect(s.ms).toBeLessThan(3000);
      holder.exec('COMMIT');
      expect(runHook(w, 'stop', stopPayload('lk')).code).toBe(0);
      expect(sessionCol('lk')).toBe(estimateTokens(p.context) + estimateTokens(s.context));
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
    }
  }, 60_000);
});
