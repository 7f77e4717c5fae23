import { monotonicFactory } from 'ulid';
import { describe, expect, it } from 'vitest';
import type { EnrichmentReport } from '../../../src/core/extraction/enrich-stubs.js';
import { createRecord } from '../../../src/core/records/records.js';
import type { ContextRecord } from '../../../src/shared/types.js';
import { runAgentctx } from '../../support/cli.js';
import {
  answer,
  extractArgs,
  isExtraction,
  runAsync,
  useExtractScene,
  userText,
  type Workspace,
} from '../../support/extract-harness.js';
import type { FakeApi, RecordedRequest } from '../../support/fake-messages-api.js';
import { TranscriptBuilder } from '../../support/transcript-fixture.js';

/**
 * CONTRACTS.md §types "bugfix: PostToolUse stub + LLM enrichment": PostToolUse writes a stub for a
 * failing command; the session's extraction lists its stubs by id, and a model that follows the
 * prompt returns cause and fix for the ones the transcript explains; ingest supersedes each such stub
 * (CONTRACTS.md §supersession) with a record stating them, and refuses ids that are not this
 * session's stubs.
 */

let api: FakeApi;
let ws: Workspace;
useExtractScene((scene) => {
  ({ api, ws } = scene);
});

const TS_ERROR = 'src/api/orders.ts:12:5 - error TS2339: Property total does not exist on type Order.';
const SEED_ERROR = "TypeError: Cannot read properties of undefined (reading 'id')";

function hook(sessionId: string, payload: Record<string, unknown>): void {
  const r = runAgentctx(['hook', 'post-tool-use'], {
    cwd: ws.repo,
    env: ws.env(),
    input: JSON.stringify({
      session_id: sessionId,
      transcript_path: ws.transcript(sessionId),
      cwd: ws.repo,
      hook_event_name: 'PostToolUse',
      ...payload,
    }),
  });
  expect(r.code, r.stderr).toBe(0);
}

function failing(sessionId: string, command: string, output: string): void {
  hook(sessionId, {
    tool_name: 'Bash',
    tool_input: { command },
    tool_response: { stdout: output, stderr: '', interrupted: false },
  });
}

/** Capture in session `s`: an edit, a failing build, a failing seed script. Returns the stubs. */
function captureSession(s: string): { build: ContextRecord; seed: ContextRecord } {
  hook(s, {
    tool_name: 'Edit',
    tool_input: { file_path: `${ws.repo}/src/api/orders.ts`, old_string: 'a', new_string: 'b' },
    tool_response: { success: true },
  });
  failing(s, 'npm run build', `building…\n${TS_ERROR}\nFound 1 error.`);
  failing(s, 'node scripts/seed.js', `${SEED_ERROR}\n    at seed (scripts/seed.js:4:9)`);
  const rows = stubsOf(s);
  expect(rows).toHaveLength(2);
  return {
    build: rows.find((r) => r.title.includes('TS2339'))!,
    seed: rows.find((r) => r.title.includes('TypeError'))!,
  };
}

function stubsOf(session: string): ContextRecord[] {
  const db = ws.db();
  try {
    return db
      .prepare("SELECT * FROM records WHERE session_id = ? AND type = 'bugfix' ORDER BY rowid")
      .all(session) as ContextRecord[];
  } finally {
    db.close();
  }
}

function record(id: string): ContextRecord {
  const db = ws.db();
  try {
    return db.prepare('SELECT * FROM records WHERE id = ?').get(id) as ContextRecord;
  } finally {
    db.close();
  }
}

/** The transcript: the build error, the developer explaining it, the fix, a green build. */
function bugSession(s: string): TranscriptBuilder {
  return new TranscriptBuilder(s, ws.repo)
    .user('The build is broken, please fix it.')
    .tool('Bash', { command: 'npm run build' }, `building…\n${TS_ERROR}`, { isError: true })
    .user('Order has no total any more: we renamed it to totalCents last week. Use totalCents.')
    .tool(
      'Edit',
      {
        file_path: `${ws.repo}/src/api/orders.ts`,
        old_string: 'order.total',
        new_string: 'order.totalCents',
      },
      'The file src/api/orders.ts has been updated.',
    )
    .tool('Bash', { command: 'npm run build' }, 'built in 2.1s')
    .assistant('The build passes again: src/api/orders.ts reads order.totalCents.');
}

/** The stubs the prompt lists: "- <ulid> <title>" lines of the stubs block. */
function listedStubs(msg: string): { id: string; title: string }[] {
  const block =
    msg.split('Bugfix stubs recorded automatically during this session')[1]?.split('\n\n')[0] ?? '';
  return [...block.matchAll(/^- ([0-9A-HJKMNP-TV-Z]{26}) (.+)$/gm)].map((m) => ({ id: m[1]!, title: m[2]! }));
}

/**
 * A model that does what the prompt says: for each listed stub whose error the transcript shows
 * together with its cause and fix, one enrichment with that stub's id; the others left out.
 */
function followThePrompt(req: RecordedRequest) {
  if (!isExtraction(req)) return { status: 400, content: [] };
  const msg = userText(req);
  const transcript = msg.split('<transcript>')[1] ?? '';
  const enrichments = listedStubs(msg)
    .filter(
      (s) => s.title.includes('TS2339') && transcript.includes('TS2339') && transcript.includes('totalCents'),
    )
    .map((s) => ({
      stub_id: s.id,
      title: 'Order.total was renamed to totalCents',
      cause: 'src/api/orders.ts still read order.total after Order.total was renamed to totalCents.',
      fix: 'Read order.totalCents in src/api/orders.ts.',
    }));
  return answer({ bugfix_enrichments: enrichments });
}

interface ExtractOut {
  mode: string;
  written: { bugfix_enrichment: EnrichmentReport };
}

async function extract(s: string): Promise<ExtractOut> {
  const r = await runAsync(extractArgs(ws, s), { cwd: ws.repo, env: ws.env() });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ExtractOut;
}

describe('bugfix stubs enriched by extraction', () => {
  it('lists the session’s stubs; the explained one is superseded by its cause and fix', async () => {
    const { build, seed } = captureSession('s-bug');
    captureSession('s-elsewhere'); // another session's stubs are not listed
    const transcript = bugSession('s-bug').write(ws.transcript('s-bug'));
    api.setScript(followThePrompt);

    const out = await extract('s-bug');
    expect(out.mode).toBe('llm');
    const msg = userText(api.requests[0]!);
    expect(listedStubs(msg).map((s) => s.id)).toEqual([build.id, seed.id]);
    expect(msg).toContain(`First error: ${TS_ERROR}`);
    const tool = (
      api.requests[0]!.body.tools as { input_schema: { properties: object; required: string[] } }[]
    )[0]!;
    expect(Object.keys(tool.input_schema.properties)).toContain('bugfix_enrichments');
    expect(tool.input_schema.required).not.toContain('bugfix_enrichments');

    const enriched = out.written.bugfix_enrichment.enriched;
    expect(enriched.map((e) => e.stub_id)).toEqual([build.id]);
    const fixed = record(enriched[0]!.id);
    expect(record(build.id)).toMatchObject({ superseded_by: fixed.id });
    expect(record(build.id).superseded_at).not.toBeNull();
    expect(record(seed.id).superseded_at).toBeNull(); // the transcript does not explain it
    expect(fixed).toMatchObject({
      type: 'bugfix',
      title: 'Order.total was renamed to totalCents',
      source: 'llm_extraction',
      confidence: 'inferred',
      session_id: 's-bug',
      project_id: ws.projectId,
      superseded_at: null,
    });
    expect(fixed.body).toBe(
      [
        'Cause: src/api/orders.ts still read order.total after Order.total was renamed to totalCents.',
        'Fix: Read order.totalCents in src/api/orders.ts.',
        '',
        build.body,
        '',
        'Why it changed: enriched by extraction',
      ].join('\n'),
    );
    // it keeps the stub's link to the edited file
    const db = ws.db();
    try {
      const files = db
        .prepare(
          `SELECT n.name FROM record_entities re JOIN nodes n ON n.id = re.entity_id WHERE re.record_id = ?`,
        )
        .all(fixed.id) as { name: string }[];
      expect(files.map((f) => f.name)).toEqual([`${ws.projectId}:file:src/api/orders.ts`]);
    } finally {
      db.close();
    }
    // and the default read paths show the enriched record, not the stub
    const search = await runAsync(['search', 'totalCents', '--json'], { cwd: ws.repo, env: ws.env() });
    const hits = (JSON.parse(search.stdout) as { results: { id: string }[] }).results.map((r) => r.id);
    expect(hits).toContain(fixed.id);
    expect(hits).not.toContain(build.id);

    // the next Stop of the session lists only the stub still waiting
    const read = transcript.lines.length;
    transcript.user('Now seed the database again.').appendSince(ws.transcript('s-bug'), read);
    api.requests.length = 0;
    const again = await extract('s-bug');
    expect(listedStubs(userText(api.requests[0]!)).map((s) => s.id)).toEqual([seed.id]);
    expect(again.written.bugfix_enrichment.enriched).toEqual([]);
  });

  it('refuses ids that are not a current stub of this session and project', async () => {
    const { build, seed } = captureSession('s-bug');
    const other = captureSession('s-other');
    bugSession('s-bug').write(ws.transcript('s-bug'));
    const db = ws.db();
    const newId = monotonicFactory();
    const dep = (projectId: string) => ({ db, clock: () => new Date(), newId, projectId });
    const foreignProject = createRecord(dep('another-project'), {
      type: 'bugfix',
      title: 'Error: elsewhere',
      body: 'Command: make\nFirst error: boom',
      source: 'hook_observation',
      sessionId: 's-bug',
    });
    const decision = createRecord(dep(ws.projectId), {
      type: 'decision',
      title: 'Use totalCents',
      body: 'Amounts are integer cents.',
      source: 'llm_extraction',
      sessionId: 's-bug',
    });
    const explicitBugfix = createRecord(dep(ws.projectId), {
      type: 'bugfix',
      title: 'Written by hand',
      body: 'Not a stub.',
      source: 'cli',
      sessionId: 's-bug',
    });
    db.close();
    const snapshot = () => {
      const d = ws.db();
      try {
        return d.prepare('SELECT id, superseded_at FROM records ORDER BY id').all();
      } finally {
        d.close();
      }
    };
    const e = (stub_id: string, cause = 'A cause.') => ({ stub_id, title: '', cause, fix: 'A fix.' });
    api.setScript((req) =>
      isExtraction(req)
        ? answer({
            bugfix_enrichments: [
              e('01ZZZZZZZZZZZZZZZZZZZZZZZZ'), // unknown
              e(other.build.id), // another session's stub
              e(foreignProject.id), // another project's
              e(decision.id), // not a bugfix
              e(explicitBugfix.id), // a bugfix, but not a stub
              e(seed.id, 'x'.repeat(2100)), // too long for one record
              e(build.id), // valid
              e(build.id), // the same stub again
            ],
          })
        : { status: 400, content: [] },
    );
    const before = snapshot();
    const out = await extract('s-bug');
    expect(out.written.bugfix_enrichment.dropped).toEqual({ invalid_stub: 5, duplicate: 1, too_long: 1 });
    expect(out.written.bugfix_enrichment.enriched.map((x: { stub_id: string }) => x.stub_id)).toEqual([
      build.id,
    ]);
    const after = snapshot() as { id: string; superseded_at: string | null }[];
    const changed = after.filter((r) => {
      const b = (before as { id: string; superseded_at: string | null }[]).find((x) => x.id === r.id);
      return !b || b.superseded_at !== r.superseded_at;
    });
    // only the valid stub was retired; the one new record is its enrichment (a handover may come too)
    expect(changed.filter((r) => r.superseded_at).map((r) => r.id)).toEqual([build.id]);
    expect(record(build.id).title).toBe(build.title);
    const enrichedId = out.written.bugfix_enrichment.enriched[0]!.id;
    expect(record(enrichedId).title).toBe(build.title); // no title given: the stub's is kept
  });

  it('sends no stubs block when the session has no stubs', async () => {
    bugSession('s-clean').write(ws.transcript('s-clean'));
    api.setScript(followThePrompt);
    const out = await extract('s-clean');
    expect(out.mode).toBe('llm');
    expect(userText(api.requests[0]!)).not.toContain('Bugfix stubs');
    expect(out.written.bugfix_enrichment.enriched).toEqual([]);
  });
});
