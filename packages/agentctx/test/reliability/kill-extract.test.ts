import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecord } from '../../src/core/records/records.js';
import { BIN } from '../support/cli.js';
import {
  answer,
  extractArgs,
  isExtraction,
  runAsync,
  userText,
  type Workspace,
  workspace,
} from '../support/extract-harness.js';
import { type FakeApi, type RecordedRequest, startFakeApi } from '../support/fake-messages-api.js';
import { BENCH, FULL, figure, killLoop, rerunPastTornLock, SEED, scale, total } from '../support/faults.js';
import { type Comparable, comparable, expectSameOutcome } from '../support/kill-compare.js';
import { rowsOf, storeHealth } from '../support/store-check.js';
import { tempDir } from '../support/tmp.js';
import { TranscriptBuilder } from '../support/transcript-fixture.js';

/**
 * kill -9 of `agentctx extract` at seeded random points while it maps a big transcript over
 * the fake Messages API (each answer a little delayed, so kills land between calls, inside
 * calls and around the ingest). After each kill the store passes SQLite's and FTS5's checks,
 * and a rerun — which takes over the dead run's lock and reads the transcript from the offset
 * the dead run committed — ends with the same records, supersessions, reinforcements, graph
 * and read offset as one uninterrupted run. Spend is the one thing that may differ: calls the
 * killed run made were paid for, so the cost columns may only be higher, never lower.
 */

const TRANSCRIPT_MB = scale(0.5, 50, 100);
const KILLS = scale(3, 12, 20);
const SESSION = 'kill-extract-session';

let t: ReturnType<typeof tempDir>;
let api: FakeApi;
let transcript: string;
let template: Workspace;
const seededIds = new Set<string>();
let supersededId = '';

/** Answers that depend only on what was asked: the same request, the same answer. */
function script(req: RecordedRequest) {
  const delayMs = 40 + (req.raw.length % 60);
  if (!isExtraction(req)) return { content: [{ type: 'text' as const, text: 'ok' }], delayMs };
  const text = userText(req);
  if (text.includes('<partial_extractions>')) {
    return {
      ...answer(
        {
          decisions: [
            {
              what: 'Invoices are rendered on the server.',
              rationale: 'Stated while building the exporter.',
              supersedes: supersededId,
              confidence: 'explicit',
            },
            { what: 'Totals use integer cents.', rationale: '', supersedes: null, confidence: 'inferred' },
          ],
          preferences: [
            {
              category: 'tooling',
              rule: 'Run the exporter tests with vitest.',
              confidence: 'inferred',
              scope: 'project',
            },
          ],
          conventions: [
            {
              scope: 'module',
              convention: 'Exporter columns are declared in one table.',
              confidence: 'explicit',
            },
          ],
          gotchas: [{ pattern: 'The PDF writer drops trailing spaces.', why_it_matters: 'Totals misalign.' }],
          active_work: {
            current_task: 'Invoice exporter',
            blockers: [],
            next_steps: ['Ship it'],
            open_questions: [],
          },
        },
        { input_tokens: 3000, output_tokens: 300 },
      ),
      delayMs,
    };
  }
  const part = /Part (\d+) of/.exec(text)?.[1] ?? '?';
  return {
    ...answer(
      { gotchas: [{ pattern: `gotcha of part ${part}`, why_it_matters: 'x' }] },
      { input_tokens: 10_000, output_tokens: 200 },
    ),
    delayMs,
  };
}

function bigTranscript(path: string, repo: string): void {
  const b = new TranscriptBuilder(SESSION, repo).user('OPENING: build the invoice exporter.');
  const filler = 'x'.repeat(64 * 1024);
  let i = 0;
  let bytes = 0;
  let counted = 0;
  // tool output makes the bytes (rendered short), assistant text the tokens: ~16 chunks of 10K
  while (bytes < TRANSCRIPT_MB * 1024 * 1024 || i < 400) {
    b.assistant(`Step ${i}: ${'the exporter formats another invoice column with totals; '.repeat(10)}`);
    if (i % 3 === 0) b.tool('Bash', { command: `cat dump-${i}.log` }, filler);
    for (; counted < b.lines.length; counted++) bytes += JSON.stringify(b.lines[counted]).length + 1;
    i++;
  }
  b.user('CLOSING: ship it.').write(path);
}

function fresh(name: string): Workspace {
  const ws = workspace(join(t.path, name), api);
  mkdirSync(join(ws.home, '.agentctx'), { recursive: true });
  copyFileSync(join(template.home, '.agentctx', 'agentctx.db'), join(ws.home, '.agentctx', 'agentctx.db'));
  copyFileSync(transcript, ws.transcript(SESSION));
  return ws;
}

const DERIVED = {
  offsets: 'SELECT session_id, byte_offset FROM extraction_state ORDER BY session_id',
  nodes: 'SELECT project_id, kind, name FROM nodes ORDER BY name',
};

function cost(db: string): number {
  return rowsOf<{ c: number }>(db, 'SELECT COALESCE(SUM(extraction_cost_usd), 0) AS c FROM sessions')[0]!.c;
}

let reference: Comparable;
let referenceCost = 0;
let referenceMs = 0;

beforeAll(async () => {
  t = tempDir('agentctx-kill-extract-');
  api = await startFakeApi(script);
  template = workspace(join(t.path, 'template'), api);
  transcript = join(t.path, 'session.jsonl');
  bigTranscript(transcript, template.repo);
  const db = template.db();
  const deps = {
    db,
    clock: () => new Date('2026-11-01T10:00:00Z'),
    newId: monotonicFactory(),
    projectId: template.projectId,
  };
  const old = createRecord(deps, {
    type: 'decision',
    title: 'Invoices are rendered in the browser',
    body: 'Invoices are rendered in the browser.',
    source: 'cli',
    confidence: 'explicit',
  });
  supersededId = old.id;
  const pref = createRecord(deps, {
    type: 'preference',
    title: 'Run the exporter tests with vitest.',
    body: 'Run the exporter tests with vitest.\n\nCategory: tooling',
    source: 'llm_extraction',
    confidence: 'inferred',
    sessionId: 'earlier',
  });
  seededIds.add(old.id).add(pref.id);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();

  const ref = fresh('reference');
  const t0 = Date.now();
  const r = await runAsync(extractArgs(ref, SESSION), { cwd: ref.repo, env: ref.env(), timeoutMs: 600_000 });
  referenceMs = Date.now() - t0;
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { mode: string; input: { policy: string; calls: number } };
  expect(out.mode).toBe('llm');
  expect(out.input.policy).toBe('map_reduce');
  expect(out.input.calls).toBeGreaterThan(3);
  const path = join(ref.home, '.agentctx', 'agentctx.db');
  reference = comparable(path, seededIds, DERIVED);
  referenceCost = cost(path);
  // the run did what the answers asked: a supersession and a reinforcement
  expect(rowsOf(path, 'SELECT superseded_by FROM records WHERE id = ?', supersededId)[0]).not.toEqual({
    superseded_by: null,
  });
  expect(rowsOf(path, 'SELECT reinforce_count FROM records WHERE id = ?', pref.id)[0]).toEqual({
    reinforce_count: 1,
  });
}, 900_000);

afterAll(async () => {
  await api?.close();
  t?.cleanup();
});

describe('kill -9 of extract', () => {
  it(
    `${KILLS} seeded kill points over a ${TRANSCRIPT_MB} MB transcript: integrity ok, the rerun ends identical`,
    async () => {
      let tornLockWaits = 0;
      const killedAt = await killLoop({
        kills: KILLS,
        seed: SEED + 2,
        referenceMs,
        bin: BIN,
        fresh,
        run: (ws) => ({ args: extractArgs(ws, SESSION), cwd: ws.repo, env: ws.env() }),
        check: async (ws, label) => {
          const path = join(ws.home, '.agentctx', 'agentctx.db');
          expect(storeHealth(path), label).toEqual({ integrity: 'ok', fts: 'ok' });
          const { result: r, waited } = await rerunPastTornLock(
            () => runAsync(extractArgs(ws, SESSION), { cwd: ws.repo, env: ws.env(), timeoutMs: 600_000 }),
            (x) => x.code === 0 && (JSON.parse(x.stdout) as { mode: string }).mode === 'skipped',
            join(ws.home, '.agentctx', 'locks'),
          );
          if (waited) tornLockWaits++;
          expect(r.code, r.stderr).toBe(0);
          const mode = (JSON.parse(r.stdout) as { mode: string }).mode;
          expect(mode, `${label}: the dead run's lock was taken over`).not.toBe('skipped');
          expectSameOutcome(comparable(path, seededIds, DERIVED), reference, label);
          expect(cost(path)).toBeGreaterThanOrEqual(referenceCost - 1e-9);
        },
      });
      const section = 'Kill -9';
      figure(section, 'extract: transcript size', Math.round(statSync(transcript).size / 1024 / 1024), 'MB');
      figure(section, 'extract: uninterrupted run (fake API)', referenceMs, 'ms');
      figure(section, 'extract: kill points, ms after start', killedAt.join(', '));
      figure(section, 'extract: integrity ok after the kill', `${KILLS}/${KILLS}`);
      figure(section, 'extract: reruns that waited out a lock torn by the kill', tornLockWaits);
      figure(section, 'extract: rerun identical to an uninterrupted run', `${KILLS}/${KILLS}`);
      total('faults survived (kill -9 of extract)', KILLS);
    },
    BENCH ? 3_600_000 * (FULL ? 3 : 1) : 240_000,
  );
});
