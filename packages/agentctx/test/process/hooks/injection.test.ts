import { readFileSync, writeFileSync } from 'node:fs';
import { getTokenizer } from '@anthropic-ai/tokenizer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolvePaths } from '../../../src/app/paths.js';
import { resolveProject } from '../../../src/app/project.js';
import { writeDigest } from '../../../src/core/digest/digest-file.js';
import { supersedeRecord } from '../../../src/core/records/records.js';
import { readRetirementCounters } from '../../../src/database/retirement.js';
import { Db as Database } from '../../../src/database/sqlite.js';
import { estimateTokens } from '../../../src/shared/tokens.js';
import { fakeRepo } from '../../support/tmp.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from './helpers.js';

let w: HookWorld;
beforeEach(() => {
  w = hookWorld();
});
afterEach(() => w.cleanup());

/**
 * Tokens accounted to a session once its turn ends: the injecting hooks keep them in the
 * session file, Stop writes them to the store (a Stop without a transcript starts no extraction).
 */
function tokensOf(world: HookWorld, sessionId: string): number {
  const stop = runHook(world, 'stop', { session_id: sessionId, cwd: world.repo, hook_event_name: 'Stop' });
  expect(stop.code).toBe(0);
  const row = world
    .db()
    .prepare('SELECT tokens_injected FROM sessions WHERE session_id = ?')
    .get(sessionId) as { tokens_injected: number } | undefined;
  world.closeDb();
  return row?.tokens_injected ?? 0;
}

describe('UserPromptSubmit injection', () => {
  it('injects matching records, marks inferred ones as hypotheses, and counts the tokens', () => {
    const a = w.add({
      title: 'Refunds are processed by the ledger worker',
      body: 'The ledger worker owns refunds; the API only enqueues a refund job.',
    });
    const b = w.add({
      type: 'discovery',
      confidence: 'inferred',
      source: 'llm_extraction',
      title: 'Refund jobs retry three times',
      body: 'The ledger worker seems to retry failed refund jobs three times with backoff before it processes the next refund.',
    });
    w.add({ title: 'Frontend uses Tailwind', body: 'Styling is Tailwind utility classes only.' });
    w.closeDb();
    const r = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'inj1', 'do refund jobs retry when the ledger worker processes refunds?'),
    );
    expect(r.code).toBe(0);
    expect(r.json?.hookSpecificOutput?.hookEventName).toBe('UserPromptSubmit');
    expect(r.context, r.stdout + r.stderr).toContain(a.id);
    expect(r.context).toContain(b.id);
    expect(r.context).not.toContain('Tailwind');
    // the inferred record is framed as a hypothesis, the explicit one is not
    const inferredBlock = r.context.slice(r.context.indexOf(`id ${b.id}`) - 80);
    expect(inferredBlock).toMatch(/unconfirmed \(inferred\): treat as a hypothesis/);
    expect(r.context).toContain('Possibly: Refund jobs retry three times');
    expect(r.context).toContain('stated by the developer');
    expect(r.context).toContain('Refunds are processed by the ledger worker');
    expect(tokensOf(w, 'inj1')).toBe(estimateTokens(r.context));
  });

  it('a held write lock neither slows the prompt nor the end of the turn; the tokens wait', () => {
    w.add({
      title: 'Refunds are processed by the ledger worker',
      body: 'The ledger worker owns refunds; the API only enqueues a refund job.',
    });
    w.closeDb();
    const holder = new Database(w.dbPath);
    holder.pragma('busy_timeout = 0');
    holder.exec('BEGIN IMMEDIATE'); // as a consolidation step would
    try {
      const p = runHook(w, 'user-prompt-submit', promptPayload(w, 'lock1', 'who processes refunds?'));
      expect(p.context).toContain('Refunds are processed by the ledger worker');
      const stop = { session_id: 'lock1', cwd: w.repo, hook_event_name: 'Stop' };
      const s = runHook(w, 'stop', stop);
      expect(s.code).toBe(0);
      expect(s.ms).toBeLessThan(5000); // not the 15 s a writer would otherwise wait
      // the tokens wait in the session journal, not folded yet
      const tokensRow = () =>
        holder.prepare("SELECT tokens_injected FROM sessions WHERE session_id = 'lock1'").get() as
          | { tokens_injected: number }
          | undefined;
      expect(tokensRow()).toBeUndefined();
      expect(readFileSync(w.journalPath('lock1'), 'utf8')).toContain(`"t":${estimateTokens(p.context)}`);
      holder.exec('COMMIT');
      expect(runHook(w, 'stop', stop).code).toBe(0);
      expect(tokensRow()?.tokens_injected).toBe(estimateTokens(p.context));
      expect(tokensOf(w, 'lock1')).toBe(estimateTokens(p.context)); // a further Stop adds nothing
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('injects nothing for weak matches or prompts without meaningful words', () => {
    w.add({ title: 'Refunds are processed by the ledger worker', body: 'The ledger worker owns refunds.' });
    w.closeDb();
    for (const prompt of [
      'hi',
      'ok thanks',
      '/compact',
      'please update the styling of the navbar and footer colours',
      '',
    ]) {
      const r = runHook(w, 'user-prompt-submit', promptPayload(w, 'weak', prompt));
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
    }
    expect(tokensOf(w, 'weak')).toBe(0);
  });

  it('does not inject the same record twice in a session, and goes deeper instead', () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      ids.push(
        w.add({
          title: `Invoice export rule ${i}`,
          body: `Invoice export batches must be signed; rule number ${i} covers the invoice export path.`,
        }).id,
      );
    }
    w.closeDb();
    const seen = new Set<string>();
    for (let turn = 0; turn < 3; turn++) {
      const r = runHook(
        w,
        'user-prompt-submit',
        promptPayload(w, 'deep', 'what are the invoice export rules?'),
      );
      const shown = ids.filter((id) => r.context.includes(id));
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length).toBeLessThanOrEqual(3);
      for (const id of shown) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
    }
    expect(seen.size).toBe(8); // 3 + 3 + 2: every turn brought unseen records
    const fourth = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'deep', 'what are the invoice export rules?'),
    );
    expect(fourth.stdout).toBe('');
    // another session starts fresh
    const other = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'deep-2', 'what are the invoice export rules?'),
    );
    expect(ids.filter((id) => other.context.includes(id)).length).toBe(3);
  });

  it('a lost or corrupt dedup file means re-injection, never an error', () => {
    const a = w.add({
      title: 'Webhooks are verified with HMAC',
      body: 'Every webhook payload is verified with an HMAC signature header.',
    });
    w.closeDb();
    const p = promptPayload(w, 'lost', 'how are webhook payloads verified?');
    expect(runHook(w, 'user-prompt-submit', p).context).toContain(a.id);
    expect(runHook(w, 'user-prompt-submit', p).stdout).toBe('');
    writeFileSync(w.statePath('lost'), '{"injected": [tru');
    const again = runHook(w, 'user-prompt-submit', p);
    expect(again.code).toBe(0);
    expect(again.context).toContain(a.id);
  });

  it('never shows superseded records or other projects’ records; shows global ones', () => {
    const old = w.add({
      title: 'Sessions are stored in Redis',
      body: 'User sessions live in Redis with a 24h expiry.',
    });
    const { new_id } = supersedeRecord(
      {
        db: w.db(),
        clock: () => new Date(),
        newId: () => `01NEW${Date.now()}AAAAAAAAAAAA`.slice(0, 26),
        projectId: w.projectId,
      },
      old.id,
      {
        body: 'User sessions now live in Postgres (sessions table) with a 24h expiry.',
        rationale: 'drop Redis',
        source: 'cli',
        title: 'Sessions are stored in Postgres',
      },
    );
    const foreign = w.add(
      {
        title: 'Sessions are stored in Memcached',
        body: 'User sessions live in Memcached in the other project.',
      },
      'f'.repeat(64),
    );
    const global = w.add({
      type: 'preference',
      scope: 'global',
      title: 'Prefer short session expiry',
      body: 'I prefer user sessions to expire within 24h.',
    });
    w.closeDb();
    const r = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'scope', 'where are user sessions stored and when do sessions expire?'),
    );
    expect(r.context).toContain(new_id);
    expect(r.context).not.toContain(old.id);
    expect(r.context).not.toContain('Redis with a 24h');
    expect(r.context).not.toContain(foreign.id);
    expect(r.context).not.toContain('Memcached');
    expect(r.context).toContain(global.id);
  });

  const dense: [string, () => string][] = [
    [
      'hex ids',
      () =>
        Array.from({ length: 120 }, (_, i) => `deadbeef${(i * 2654435761).toString(16).padStart(8, '0')}cafe`)
          .join(' ')
          .slice(0, 1990),
    ],
    [
      'code',
      () =>
        'function migrate(db){for(const[k,v]of Object.entries(m)){db.exec(`ALTER TABLE t ADD ${k} ${v}`);}}\n'
          .repeat(40)
          .slice(0, 1990),
    ],
    [
      'CJK',
      () =>
        '支払いの台帳サービスは返金処理を担当し、すべての書き込みは監査ログに記録される。'
          .repeat(60)
          .slice(0, 1990),
    ],
  ];
  for (const [name, body] of dense) {
    it(`stays within 2,000 tokens and 8,000 chars on dense content (${name})`, () => {
      for (let i = 0; i < 5; i++)
        w.add({
          title: `Ledger ledger ledger audit note ${i}`,
          body: `ledger audit ${body()}`.slice(0, 2000),
        });
      w.closeDb();
      const r = runHook(w, 'user-prompt-submit', promptPayload(w, `dense-${name}`, 'ledger audit note'));
      expect(r.context).not.toBe('');
      expect(estimateTokens(r.context)).toBeLessThanOrEqual(2000);
      expect(r.context.length).toBeLessThanOrEqual(8000);
      expect(r.stdout.length).toBeLessThan(10_000);
      expect(tokensOf(w, `dense-${name}`)).toBe(estimateTokens(r.context));
    });
  }
});

describe('SessionStart', () => {
  it('emits the digest, and its ids are not injected again by the prompt hook', () => {
    const inDigest = w.add({
      title: 'Orders are immutable once paid',
      body: 'A paid order is never updated; corrections are new adjustment orders.',
    });
    const notInDigest = w.add({
      title: 'Order adjustments need a reason code',
      body: 'Every adjustment order carries a reason code from the enum.',
    });
    w.closeDb();
    const text = `# shop: project context\n\n## Decisions\n- Orders are immutable once paid (${inDigest.id})\n`;
    writeDigest(resolvePaths(w.env as Record<string, string>).digests, w.projectId, {
      text,
      ids: [inDigest.id],
      tokens: estimateTokens(text),
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(w.dbPath).begun,
    });
    for (const source of ['startup', 'resume', 'compact', 'clear']) {
      const r = runHook(w, 'session-start', basePayload(w, `ss-${source}`, 'SessionStart', { source }));
      expect(r.json?.hookSpecificOutput?.hookEventName).toBe('SessionStart');
      expect(r.context).toBe(text.trimEnd());
    }
    const p = runHook(
      w,
      'user-prompt-submit',
      promptPayload(w, 'ss-startup', 'can a paid order be updated, or do adjustments need a reason code?'),
    );
    expect(p.context).toContain(notInDigest.id);
    expect(p.context).not.toContain(inDigest.id);
    // SessionStart accounted what it injected, measured (not the side file's claim), with the
    // prompt's; Stop folded both from the session journal
    expect(tokensOf(w, 'ss-startup')).toBe(estimateTokens(text.trimEnd()) + estimateTokens(p.context));
  });

  it('truncates an oversized digest by whole lines from the bottom to 1,500 tokens', () => {
    const lines = ['# big digest'];
    for (let i = 0; i < 400; i++)
      lines.push(`- decision ${i}: use 0x${(i * 7919).toString(16)}deadbeefcafe for shard ${i}`);
    const text = lines.join('\n');
    writeDigest(resolvePaths(w.env as Record<string, string>).digests, w.projectId, {
      text,
      ids: [],
      tokens: estimateTokens(text),
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(w.dbPath).begun,
    });
    const r = runHook(w, 'session-start', basePayload(w, 'big', 'SessionStart', { source: 'startup' }));
    expect(estimateTokens(r.context)).toBeLessThanOrEqual(1500);
    expect(r.context.length).toBeLessThanOrEqual(8000);
    expect(r.context.startsWith('# big digest\n- decision 0:')).toBe(true);
    const shown = r.context.split('\n');
    expect(lines.slice(0, shown.length)).toEqual(shown); // whole lines, in order
  });

  it('measures the digest whatever its side file claims: CJK text said to be 100 tokens', () => {
    const sentences = [
      '订单服务使用PostgreSQL数据库，因为它支持事务和外键约束。',
      '払い戻しは台帳ワーカーが処理し、APIはジョブを登録するだけです。',
      '테스트는 실제 데이터베이스 파일을 사용해야 합니다.',
    ];
    const lines = ['# shop'];
    for (let i = 0; lines.join('\n').length < 7000; i++) lines.push(`- ${sentences[i % 3]} (${i})`);
    const text = lines.join('\n');
    w.db(); // the store a digest comes from
    w.closeDb();
    const digests = resolvePaths(w.env as Record<string, string>).digests;
    writeDigest(digests, w.projectId, {
      text,
      ids: [],
      tokens: 100,
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(w.dbPath).begun,
    });
    const tokenizer = getTokenizer();
    try {
      expect(tokenizer.encode(text.normalize('NFKC'), 'all').length).toBeGreaterThan(1500);
      const r = runHook(w, 'session-start', basePayload(w, 'cjk', 'SessionStart', { source: 'startup' }));
      expect(r.context.length).toBeGreaterThan(1000);
      expect(text.startsWith(r.context)).toBe(true);
      expect(tokenizer.encode(r.context.normalize('NFKC'), 'all').length).toBeLessThanOrEqual(1500);
      // and accounted as measured, not as claimed
      expect(tokensOf(w, 'cjk')).toBe(estimateTokens(r.context));
    } finally {
      tokenizer.free();
    }
  });

  it('without a digest: emits the profile and starts a consolidation in the background', () => {
    w.add({ type: 'profile', source: 'cli', title: 'stack', body: 'TypeScript, Node 20, Postgres' });
    w.add({ type: 'profile', source: 'cli', title: 'test command', body: 'npm test' });
    w.add({ type: 'profile', source: 'cli', title: 'other stack', body: 'Go' }, 'f'.repeat(64));
    w.closeDb();
    const r = runHook(w, 'session-start', basePayload(w, 'nodigest', 'SessionStart', { source: 'startup' }));
    expect(r.code).toBe(0);
    expect(r.context).toContain('TypeScript, Node 20, Postgres');
    expect(r.context).toContain('npm test');
    expect(r.context).not.toContain('Go');
    expect(r.ms).toBeLessThan(5000);
    const log = readFileSync(`${w.home}/.agentctx/logs/background.log`, 'utf8');
    expect(log).toContain(`spawn agentctx consolidate --cwd ${w.repo}`);
  });
});

describe('CwdChanged', () => {
  it('switches the namespace the next prompt searches', () => {
    const other = fakeRepo(w.home, 'billing', 'https://github.com/acme/billing.git');
    const billingId = resolveProject(other).id;
    const shopRec = w.add({
      title: 'Currency amounts are integers in cents',
      body: 'Shop stores currency amounts as integer cents.',
    });
    const billRec = w.add(
      {
        title: 'Currency amounts are decimals',
        body: 'Billing stores currency amounts as numeric(12,4) decimals.',
      },
      billingId,
    );
    w.closeDb();
    const q = 'how are currency amounts stored?';
    const before = runHook(w, 'user-prompt-submit', promptPayload(w, 'cwd1', q));
    expect(before.context).toContain(shopRec.id);
    expect(before.context).not.toContain(billRec.id);
    const c = runHook(
      w,
      'cwd-changed',
      basePayload(w, 'cwd1', 'CwdChanged', { old_cwd: w.repo, new_cwd: other }),
    );
    expect(c.code).toBe(0);
    expect(c.stdout).toBe('');
    // the payload's cwd may still say the old folder; the session state decides
    const after = runHook(w, 'user-prompt-submit', promptPayload(w, 'cwd1', q));
    expect(after.context).toContain(billRec.id);
    expect(after.context).not.toContain(shopRec.id);
  });
});
