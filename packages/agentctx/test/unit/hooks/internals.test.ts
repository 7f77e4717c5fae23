import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveProject } from '../../../src/app/project.js';
import { formatInjection, isStrongHit } from '../../../src/core/injection/injection.js';
import { readSessionState, updateSessionState } from '../../../src/core/injection/session-state.js';
import { ulidFactory } from '../../../src/shared/ids.js';
import { sha256Hex } from '../../../src/shared/sha256.js';
import { estimateTokens } from '../../../src/shared/tokens.js';
import type { ContextRecord } from '../../../src/shared/types.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

describe('hook-path SHA-256 and project ids', () => {
  it('matches node:crypto on many inputs', () => {
    const inputs = [
      '',
      'a',
      'abc',
      'github.com/acme/shop',
      '/home/u/dev/日本語',
      'x'.repeat(55),
      'y'.repeat(56),
      'z'.repeat(64),
      'w'.repeat(1000),
    ];
    for (let i = 0; i < 200; i++)
      inputs.push(
        Array.from({ length: i }, (_, j) => String.fromCharCode(32 + ((i * 31 + j * 7) % 90))).join(''),
      );
    for (const s of inputs) expect(sha256Hex(s)).toBe(createHash('sha256').update(s).digest('hex'));
  });
  it('gives project ids equal to node:crypto SHA-256 of the normalised remote or root', () => {
    const t = tempDir();
    try {
      for (const [name, origin, key] of [
        ['a', 'git@github.com:Acme/Shop.git', 'github.com/acme/shop'],
        ['b', null, null],
        ['c', 'https://u:p@gitlab.com/x/y', 'gitlab.com/x/y'],
      ] as const) {
        const repo = fakeRepo(t.path, name, origin);
        const expected = createHash('sha256')
          .update(key ?? repo)
          .digest('hex');
        expect(resolveProject(repo).id).toBe(expected);
      }
    } finally {
      t.cleanup();
    }
  });
});

describe('hook ULIDs', () => {
  it('are 26 Crockford characters and strictly increasing within a millisecond', () => {
    const next = ulidFactory(() => 1_750_000_000_000);
    const ids = Array.from({ length: 500 }, () => next());
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('session state', () => {
  it('reads missing and corrupt files as empty and keeps ids across writes', () => {
    const t = tempDir();
    try {
      const p = join(t.path, 'agentctx-s.json');
      expect(readSessionState(p)).toEqual({ injected: [] });
      writeFileSync(p, '{"injected": 5, "cwd": 3}');
      expect(readSessionState(p)).toEqual({ injected: [] });
      const now = new Date();
      updateSessionState(p, { addIds: ['a', 'b'] }, now);
      updateSessionState(p, { addIds: ['b', 'c'] }, now);
      expect(readSessionState(p)).toEqual({ injected: ['a', 'b', 'c'], updatedAt: now.toISOString() });
      updateSessionState(p, { resetIds: true, addIds: ['d'] }, now);
      expect(readSessionState(p).injected).toEqual(['d']);
      // the file holds the dedup set only: counts and the cwd live in the session journal
      updateSessionState(p, { addIds: ['e'] }, now);
      const keys = readFileSync(p, 'utf8')
        .split('\n')
        .map((l) => Object.keys(JSON.parse(l)).sort());
      expect(keys).toEqual([
        ['injected', 'updatedAt'],
        ['add', 'updatedAt'],
      ]);
    } finally {
      t.cleanup();
    }
  });
});

function rec(i: number, body: string, confidence: ContextRecord['confidence'] = 'explicit'): ContextRecord {
  return {
    id: `01J${String(i).padStart(23, '0')}`,
    project_id: 'p',
    type: 'decision',
    title: `Record ${i}`,
    body,
    scope: 'project',
    pinned: 0,
    confidence,
    reinforce_count: 0,
    valid_from: '2026-01-01T00:00:00Z',
    recorded_at: '2026-01-01T00:00:00Z',
    superseded_at: null,
    superseded_by: null,
    access_count: 0,
    last_accessed: null,
    score: 1,
    claudemd_drift_score: 0,
    source: 'cli',
    session_id: null,
    agent: 'claude-code',
    pending_embedding: 0,
    content_key: null,
  };
}
const hit = (r: ContextRecord, score = 1, matched = 3, coverage = 1) => ({
  record: r,
  score,
  relevance: 1,
  matched,
  coverage,
});

describe('prompt injection block', () => {
  it('keeps at most three records and fits the budgets on any content', () => {
    const bodies = ['a1b2c3d4e5f6'.repeat(166), '漢字かな交じり文'.repeat(250), 'x = f(y); '.repeat(200)];
    const hits = [0, 1, 2, 3].map((i) => hit(rec(i, bodies[i % 3]!)));
    const inj = formatInjection(hits, new Date('2026-02-01T00:00:00Z'))!;
    expect(inj.ids.length).toBeGreaterThan(0);
    expect(inj.ids.length).toBeLessThanOrEqual(3);
    expect(estimateTokens(inj.text)).toBeLessThanOrEqual(2000);
    expect(inj.text.length).toBeLessThanOrEqual(8000);
    expect(inj.tokens).toBe(estimateTokens(inj.text));
    for (const id of inj.ids) expect(inj.text).toContain(id);
  });
  it('measures the block part by part, never below the estimate of the joined text', () => {
    const pieces = [
      'plain words here',
      'ABC123def',
      'trailing cr\r',
      '  indented\n\tcode();',
      '漢字',
      '🙂x',
      '\r\n',
    ];
    for (const a of pieces)
      for (const b of pieces) {
        const joined = estimateTokens(`${a}\n\n${b}`);
        expect(estimateTokens(a) + estimateTokens(b) + 2).toBeGreaterThanOrEqual(joined);
      }
    const bodies = ['Retry webhooks with backoff.\r', 'a1b2c3d4e5f6g7h8 and more', 'Line one\nline two'];
    const inj = formatInjection(
      bodies.map((b, i) => hit(rec(i, b))),
      new Date('2026-02-01T00:00:00Z'),
    )!;
    expect(inj.ids).toHaveLength(3);
    expect(inj.tokens).toBeGreaterThanOrEqual(estimateTokens(inj.text));
    expect(inj.tokens - estimateTokens(inj.text)).toBeLessThanOrEqual(2);
  });
  it('marks inferred records as hypotheses', () => {
    const inj = formatInjection([hit(rec(1, 'Maybe the cache is per tenant.', 'inferred'))], new Date())!;
    expect(inj.text).toContain('Possibly: Record 1');
    expect(inj.text).toContain('unconfirmed (inferred)');
  });
  it('calls single-word and low-coverage matches weak', () => {
    expect(isStrongHit(hit(rec(1, 'b'), 1, 1, 1), 1)).toBe(true);
    expect(isStrongHit(hit(rec(1, 'b'), 1, 1, 0.2), 4)).toBe(false);
    // one rare word carrying a quarter of a short query's information is enough (WEAK_MATCH)
    expect(isStrongHit(hit(rec(1, 'b'), 1, 1, 0.3), 4)).toBe(true);
    // far below the query's best hit is weak, however well covered
    expect(isStrongHit(hit(rec(1, 'b'), 0.5, 4, 1), 4)).toBe(false);
    expect(isStrongHit(hit(rec(1, 'b'), 0.2, 3, 0.6), 5)).toBe(false);
    expect(isStrongHit(hit(rec(1, 'b'), 0.9, 3, 0.6), 5)).toBe(true);
    expect(isStrongHit(hit(rec(1, 'b'), 1, 0, 0), 0)).toBe(false);
  });
});
