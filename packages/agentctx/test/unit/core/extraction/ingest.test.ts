import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ingestExtraction } from '../../../../src/core/extraction/ingest.js';
import type { ExtractionOutput } from '../../../../src/core/extraction/schema.js';
import { extractSession } from '../../../../src/core/extraction/session-extract.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { addEdge, upsertNode } from '../../../../src/database/graph-repo.js';
import { createAnthropicClient } from '../../../../src/llm/anthropic.js';
import type { ContextRecord } from '../../../../src/shared/types.js';
import { answer } from '../../../support/extract-harness.js';
import { type FakeApi, startFakeApi } from '../../../support/fake-messages-api.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';
import { TranscriptBuilder, workSession } from '../../../support/transcript-fixture.js';

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), 'proj-1');
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

function out(o: Partial<ExtractionOutput>): ExtractionOutput {
  return {
    decisions: [],
    preferences: [],
    conventions: [],
    active_work: null,
    gotchas: [],
    flush_ok: false,
    ...o,
  };
}

function currentRecords(): ContextRecord[] {
  return s.db
    .prepare('SELECT * FROM records WHERE superseded_at IS NULL ORDER BY rowid')
    .all() as ContextRecord[];
}

describe('ingest', () => {
  it('keeps one current handover per project: each new one supersedes the last', () => {
    const work = (task: string) =>
      out({ active_work: { current_task: task, blockers: [], next_steps: [], open_questions: [] } });
    ingestExtraction(s.deps, work('Task one'), { sessionId: 'a', source: 'llm_extraction' });
    s.setNow('2026-11-30T13:00:00Z');
    ingestExtraction(s.deps, work('Task two'), { sessionId: 'b', source: 'llm_extraction' });
    s.setNow('2026-11-30T14:00:00Z');
    ingestExtraction(s.deps, work('Task three'), { sessionId: 'c', source: 'llm_extraction' });
    const all = s.db
      .prepare("SELECT * FROM records WHERE type = 'handover' ORDER BY rowid")
      .all() as ContextRecord[];
    expect(all.map((r) => r.title)).toEqual([
      'Handover: Task one',
      'Handover: Task two',
      'Handover: Task three',
    ]);
    expect(all[0]!.superseded_by).toBe(all[1]!.id);
    expect(all[1]!.superseded_by).toBe(all[2]!.id);
    expect(all[2]!.superseded_at).toBeNull();
    // the supersession edges exist too
    expect(s.db.prepare("SELECT COUNT(*) AS n FROM edges WHERE rel_type = 'supersedes'").get()).toEqual({
      n: 2,
    });
  });

  it('a global preference lands in _global and is reinforced from another project', () => {
    const pref = out({
      preferences: [
        { category: 'style', rule: 'Prefer early returns.', confidence: 'inferred', scope: 'global' },
      ],
    });
    ingestExtraction(s.deps, pref, { sessionId: 'a', source: 'llm_extraction' });
    const r = ingestExtraction({ ...s.deps, projectId: 'proj-2' }, pref, {
      sessionId: 'b',
      source: 'llm_extraction',
    });
    expect(r.created).toEqual([]);
    expect(r.reinforced).toHaveLength(1);
    const recs = currentRecords();
    expect(recs.map((x) => [x.project_id, x.scope, x.reinforce_count])).toEqual([['_global', 'global', 1]]);
  });

  it('rejects entries over the body limit and duplicates of explicit records; links records to files', () => {
    createRecord(s.deps, {
      type: 'decision',
      title: 'Use SQLite',
      body: 'Use SQLite.',
      confidence: 'explicit',
      source: 'cli',
    });
    const r = ingestExtraction(
      s.deps,
      out({
        decisions: [
          { what: 'Use SQLite.', rationale: '', supersedes: null, confidence: 'inferred' },
          { what: 'x'.repeat(2001), rationale: '', supersedes: null, confidence: 'explicit' },
          {
            what: 'Store dates as ISO 8601 text.',
            rationale: 'Sortable.',
            supersedes: null,
            confidence: 'explicit',
          },
        ],
      }),
      { sessionId: 's', source: 'llm_extraction', files: ['src/db.ts'] },
    );
    expect(r.dropped).toMatchObject({ duplicate: 1, too_long: 1 });
    expect(r.created.map((c) => c.title)).toEqual(['Store dates as ISO 8601 text']);
    const linked = s.db
      .prepare(
        'SELECT n.name FROM record_entities re JOIN nodes n ON n.id = re.entity_id WHERE re.record_id = ?',
      )
      .all(r.created[0]!.id);
    expect(linked).toEqual([{ name: 'proj-1:file:src/db.ts' }]);
  });
});

describe('extractSession in process', () => {
  it('links new records to the files PostToolUse saw in the session (observed_in edges)', async () => {
    const path = join(t.path, 's.jsonl');
    workSession(new TranscriptBuilder('sess-9', '/repo')).write(path);
    // what PostToolUse leaves behind for a file it saw the session write
    const node = upsertNode(s.db, s.deps.newId, 'proj-1', 'file', 'docs/http.md');
    addEdge(s.db, s.deps.newId, node, 'sess-9', 'observed_in');
    api.setScript(() =>
      answer({
        conventions: [
          {
            scope: 'project',
            convention: 'Document every HTTP option in docs/http.md.',
            confidence: 'explicit',
          },
        ],
      }),
    );
    const logs: string[] = [];
    const summary = await extractSession({
      records: s.deps,
      sessionId: 'sess-9',
      transcriptPath: path,
      projectRoot: '/repo',
      llm: createAnthropicClient({ apiKey: 'k', baseURL: api.url, model: 'claude-haiku-4-5', maxRetries: 0 }),
      dailyCostCapUsd: 1,
      log: (m) => logs.push(m),
    });
    expect(summary.mode).toBe('llm');
    const rec = currentRecords().find((r) => r.type === 'convention')!;
    const linked = (
      s.db
        .prepare(
          'SELECT n.name FROM record_entities re JOIN nodes n ON n.id = re.entity_id WHERE re.record_id = ? ORDER BY n.name',
        )
        .all(rec.id) as { name: string }[]
    ).map((x) => x.name);
    expect(linked).toEqual([
      'proj-1:file:docs/http.md',
      'proj-1:file:src/http/client.ts',
      'proj-1:file:test/http/setup.ts',
    ]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/anthropic-api whole \d+t 1 call\(s\) \$0\.0002/);
  });

  it('applies the redaction function to everything sent and stored', async () => {
    const path = join(t.path, 's.jsonl');
    new TranscriptBuilder('sess-r', '/repo')
      .user('deploy with token TOKEN-ABC-123 please')
      .assistant('Deployed using TOKEN-ABC-123.')
      .write(path);
    api.requests.length = 0;
    api.setScript(() => answer({}));
    const redact = (x: string) => x.replaceAll('TOKEN-ABC-123', '[REDACTED:token]');
    await extractSession({
      records: s.deps,
      sessionId: 'sess-r',
      transcriptPath: path,
      projectRoot: '/repo',
      llm: createAnthropicClient({ apiKey: 'k', baseURL: api.url, model: 'claude-haiku-4-5', maxRetries: 0 }),
      dailyCostCapUsd: 1,
      redact,
      log: () => {},
    });
    expect(api.requests[0]!.raw).not.toContain('TOKEN-ABC-123');
    expect(api.requests[0]!.raw).toContain('[REDACTED:token]');
    await extractSession({
      records: s.deps,
      sessionId: 'sess-r',
      transcriptPath: path,
      projectRoot: '/repo',
      llm: null,
      precompact: true,
      dailyCostCapUsd: 1,
      redact,
      log: () => {},
    });
    const h = currentRecords().find((r) => r.type === 'handover')!;
    expect(h.title + h.body).not.toContain('TOKEN-ABC-123');
  });
});
