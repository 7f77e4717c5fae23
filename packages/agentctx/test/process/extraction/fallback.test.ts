import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import { describe, expect, it } from 'vitest';
import { createRecord, type RecordsDeps } from '../../../src/core/records/records.js';
import type { Db } from '../../../src/database/open.js';
import type { ContextRecord } from '../../../src/shared/types.js';
import {
  answer,
  extractArgs,
  runAsync,
  useExtractScene,
  userText,
  type Workspace,
} from '../../support/extract-harness.js';
import type { FakeApi } from '../../support/fake-messages-api.js';
import { TranscriptBuilder, workSession } from '../../support/transcript-fixture.js';

let api: FakeApi;
let ws: Workspace;
let dir: string;
useExtractScene((scene) => {
  ({ api, ws, dir } = scene);
});

function deps(db: Db, projectId: string, at?: string): RecordsDeps {
  return { db, clock: () => (at ? new Date(at) : new Date()), newId: monotonicFactory(), projectId };
}

function handovers(): ContextRecord[] {
  const db = ws.db();
  try {
    return db
      .prepare("SELECT * FROM records WHERE type = 'handover' ORDER BY rowid")
      .all() as ContextRecord[];
  } finally {
    db.close();
  }
}

function extractLog(): string {
  return readFileSync(join(ws.home, '.agentctx', 'logs', 'extract.log'), 'utf8');
}

async function extract(sessionId: string, env: Record<string, string> = {}, ...more: string[]) {
  const r = await runAsync(extractArgs(ws, sessionId, ...more), { cwd: ws.repo, env: ws.env(env) });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Record<string, any>;
}

function expectRuleHandover(h: ContextRecord | undefined): void {
  expect(h).toBeDefined();
  expect(h!.confidence).toBe('inferred');
  expect(h!.source).toBe('hook_observation');
  expect(h!.title).toBe(
    'Handover: The retry test fails because undici pools connections; set pipelining to 0 in tests.',
  );
  expect(h!.body).toContain('Files changed:\n- src/http/client.ts\n- test/http/setup.ts');
  expect(h!.body).toMatch(/Last test run: `npx vitest run test\/http` → passed/);
  expect([...h!.body].length).toBeLessThanOrEqual(2000);
}

describe('when the model fails', () => {
  it('an HTTP 500 is logged, a rule-based handover written, exit 0; the next Stop retries the same part', async () => {
    workSession(new TranscriptBuilder('s-500', ws.repo)).write(ws.transcript('s-500'));
    api.setScript(() => ({ status: 500, content: [] }));
    const out = await extract('s-500');
    expect(out.mode).toBe('rules');
    expect(out.reason).toMatch(/model failed: .*500/);
    expect(out.offset.advanced).toBe(false);
    expect(api.requests).toHaveLength(1); // AGENTCTX_LLM_MAX_RETRIES=0
    const hs = handovers();
    expect(hs).toHaveLength(1);
    expectRuleHandover(hs[0]);
    expect(extractLog()).toMatch(/s-500: model failed: .*500.*rule-based handover instead/);

    api.setScript(() =>
      answer({
        active_work: {
          current_task: 'Finish the undici migration',
          blockers: [],
          next_steps: [],
          open_questions: [],
        },
      }),
    );
    const retry = await extract('s-500');
    expect(retry.mode).toBe('llm');
    expect(retry.offset.from).toBe(0);
    expect(userText(api.requests[1]!)).toContain('Developer: We are moving the HTTP client to undici');
    const after = handovers();
    expect(after.filter((h) => h.superseded_at === null).map((h) => h.source)).toEqual(['llm_extraction']);
  });

  it('retries 429s through the SDK, then falls back', async () => {
    workSession(new TranscriptBuilder('s-429', ws.repo)).write(ws.transcript('s-429'));
    api.setScript(() => ({ status: 429, content: [] }));
    const out = await extract('s-429', { AGENTCTX_LLM_MAX_RETRIES: '2' });
    expect(api.requests).toHaveLength(3);
    expect(out.mode).toBe('rules');
    expectRuleHandover(handovers()[0]);
  });

  it('a timeout is survived the same way', async () => {
    workSession(new TranscriptBuilder('s-slow', ws.repo)).write(ws.transcript('s-slow'));
    // an answer a minute late: the run must end on its own 400 ms timeout, not on the answer;
    // the bound leaves a loaded machine half a minute for start-up and the rule-based handover
    const LATE_MS = 60_000;
    api.setScript(() => ({ ...answer({}), delayMs: LATE_MS }));
    const started = Date.now();
    const out = await extract('s-slow', { AGENTCTX_LLM_TIMEOUT_MS: '400' });
    expect(Date.now() - started).toBeLessThan(LATE_MS / 2);
    expect(api.requests.length).toBeGreaterThanOrEqual(1);
    expect(out.mode).toBe('rules');
    expect(out.reason).toMatch(/timeout/i);
    expectRuleHandover(handovers()[0]);
    expect(extractLog()).toMatch(/timeout/i);
  }, 120_000);

  it('an answer that is neither a tool call nor JSON writes only the rule-based handover', async () => {
    workSession(new TranscriptBuilder('s-junk', ws.repo)).write(ws.transcript('s-junk'));
    api.setScript(() => ({ content: [{ type: 'text', text: 'Sorry, I cannot help with that.' }] }));
    const out = await extract('s-junk');
    expect(out.mode).toBe('rules');
    expect(out.reason).toMatch(/not a JSON object/);
    const db = ws.db();
    try {
      expect(db.prepare('SELECT type, source FROM records').all()).toEqual([
        { type: 'handover', source: 'hook_observation' },
      ]);
    } finally {
      db.close();
    }
  });

  it('a transcript cut mid-line and holding garbage is read up to its last complete line', async () => {
    const path = ws.transcript('s-cut');
    new TranscriptBuilder('s-cut', ws.repo)
      .user('Rename the config loader to loadSettings.')
      .assistant('Renamed.')
      .write(path);
    appendFileSync(
      path,
      '\u0000\u0001 binary junk\n{"type":"user","message":{"role":"user","content":"half a li',
    );
    api.setScript(() =>
      answer({
        conventions: [
          { scope: 'project', convention: 'Config loaders are named loadX.', confidence: 'inferred' },
        ],
      }),
    );
    const out = await extract('s-cut');
    expect(out.mode).toBe('llm');
    expect(out.garbage_lines).toBe(1);
    expect(userText(api.requests[0]!)).not.toContain('half a li');
    expect(out.offset.to).toBeLessThan(readFileSync(path).length);
  });
});

describe('without a model (CONTRACTS.md §rung-3)', () => {
  it('no API key: a rule-based handover, one log line, exit 0', async () => {
    workSession(new TranscriptBuilder('s-nokey', ws.repo)).write(ws.transcript('s-nokey'));
    const env = ws.env();
    delete env.ANTHROPIC_API_KEY;
    const r = await runAsync(extractArgs(ws, 's-nokey'), { cwd: ws.repo, env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ mode: 'rules', reason: 'no ANTHROPIC_API_KEY' });
    expect(api.requests).toHaveLength(0);
    expectRuleHandover(handovers()[0]);
    expect(extractLog().trim().split('\n')).toHaveLength(1);
  });

  it('llm disabled in config: rules only, no request', async () => {
    mkdirSync(join(ws.home, '.agentctx'), { recursive: true });
    writeFileSync(join(ws.home, '.agentctx', 'config.json'), JSON.stringify({ llm: { enabled: false } }));
    workSession(new TranscriptBuilder('s-off', ws.repo)).write(ws.transcript('s-off'));
    const out = await extract('s-off');
    expect(out).toMatchObject({ mode: 'rules', reason: 'llm disabled in config' });
    expect(api.requests).toHaveLength(0);
  });

  it('the daily cost cap switches to rules once reached', async () => {
    mkdirSync(join(ws.home, '.agentctx'), { recursive: true });
    writeFileSync(
      join(ws.home, '.agentctx', 'config.json'),
      JSON.stringify({ llm: { dailyCostCapUsd: 0.005 } }),
    );
    api.setScript(() => answer({}, { input_tokens: 4000, output_tokens: 400 })); // $0.006
    workSession(new TranscriptBuilder('s-cap1', ws.repo)).write(ws.transcript('s-cap1'));
    expect((await extract('s-cap1')).mode).toBe('llm');
    workSession(new TranscriptBuilder('s-cap2', ws.repo)).write(ws.transcript('s-cap2'));
    const second = await extract('s-cap2');
    expect(second.mode).toBe('rules');
    expect(second.reason).toMatch(/daily cost cap reached \(\$0\.0060 of \$0\.005\)/);
    expect(api.requests).toHaveLength(1);
    expect(extractLog()).toMatch(/s-cap2: rules only \(daily cost cap reached/);
  });
});

describe('--precompact', () => {
  it('writes an inferred handover candidate without the model and leaves the read offset alone', async () => {
    workSession(new TranscriptBuilder('s-pc', ws.repo)).write(ws.transcript('s-pc'));
    api.setScript(() => answer({}));
    const out = await extract('s-pc', {}, '--precompact');
    expect(out.mode).toBe('precompact');
    expect(api.requests).toHaveLength(0);
    expectRuleHandover(handovers()[0]);
    // the later Stop still reads the whole session
    const stop = await extract('s-pc');
    expect(stop.offset.from).toBe(0);
    expect(api.requests).toHaveLength(1);
  });

  it('never supersedes an explicit handover, from this session or an earlier one', async () => {
    workSession(new TranscriptBuilder('s-pcx', ws.repo)).write(ws.transcript('s-pcx'));
    let db = ws.db();
    const explicit = createRecord(deps(db, ws.projectId), {
      type: 'handover',
      title: 'Handover: my own notes',
      body: 'Stopped at the upload module; do not touch the retry logic.',
      confidence: 'explicit',
      source: 'mcp_tool',
    });
    db.close();
    const kept = await extract('s-pcx', {}, '--precompact');
    expect(kept.written.dropped.kept_explicit_handover).toBe(1);
    expect(kept.written.created).toEqual([]);
    expect(handovers().map((h) => [h.id, h.superseded_at])).toEqual([[explicit.id, null]]);

    // recorded before this session started: a rule-built snapshot still leaves it alone
    db = ws.db();
    db.prepare("UPDATE records SET recorded_at = '2026-11-20T10:00:00.000Z' WHERE id = ?").run(explicit.id);
    db.close();
    const again = await extract('s-pcx', {}, '--precompact');
    expect(again.written.created).toEqual([]);
    expect(handovers().map((h) => [h.id, h.superseded_at])).toEqual([[explicit.id, null]]);
  });

  it("does not replace the model's handover of the same session with a rule-built snapshot", async () => {
    workSession(new TranscriptBuilder('s-pcm', ws.repo)).write(ws.transcript('s-pcm'));
    const db = ws.db();
    const fromModel = createRecord(deps(db, ws.projectId), {
      type: 'handover',
      title: 'Handover: uploads retry',
      body: 'Current task: make upload retries idempotent. Next: cover the 409 path with a test.',
      confidence: 'inferred',
      source: 'llm_extraction',
      sessionId: 's-pcm',
    });
    db.close();
    const snap = await extract('s-pcm', {}, '--precompact');
    expect(snap.written.created).toEqual([]);
    expect(handovers().map((h) => [h.id, h.superseded_at])).toEqual([[fromModel.id, null]]);
  });
});

describe('process behaviour', () => {
  it('one extraction at a time per project: a held lock means skip, exit 0', async () => {
    workSession(new TranscriptBuilder('s-lock', ws.repo)).write(ws.transcript('s-lock'));
    const locks = join(ws.home, '.agentctx', 'locks');
    mkdirSync(locks, { recursive: true });
    writeFileSync(
      join(locks, `extract-${ws.projectId}.0.lock`), // generation 0 (app/lock.ts)
      JSON.stringify({ pid: process.pid, at: Date.now() }),
    );
    const out = await extract('s-lock');
    expect(out.mode).toBe('skipped');
    expect(api.requests).toHaveLength(0);
  });

  it('bad input is a one-line error and a non-zero exit', async () => {
    const missing = await runAsync(['extract', '--session-id', 'x'], { cwd: ws.repo, env: ws.env() });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe('agentctx: --transcript is required');
    const nofile = await runAsync(['extract', '--session-id', 'x', '--transcript', join(dir, 'nope.jsonl')], {
      cwd: ws.repo,
      env: ws.env(),
    });
    expect(nofile.code).toBe(2);
    expect(nofile.stderr).toMatch(/^agentctx: no transcript at .*nope\.jsonl\n$/);
  });

  it('the hard lifetime ends a stuck extraction', async () => {
    workSession(new TranscriptBuilder('s-stuck', ws.repo)).write(ws.transcript('s-stuck'));
    api.setScript(() => ({ ...answer({}), delayMs: 5000 }));
    const r = await runAsync(extractArgs(ws, 's-stuck'), {
      cwd: ws.repo,
      env: ws.env({ AGENTCTX_EXTRACT_LIFETIME_MS: '700' }),
    });
    expect(r.code).toBe(124);
    expect(r.stdout).toBe('');
    expect(extractLog()).toMatch(/lifetime of 700 ms reached/);
  });
});
