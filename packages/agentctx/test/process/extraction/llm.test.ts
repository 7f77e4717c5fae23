import { monotonicFactory } from 'ulid';
import { describe, expect, it } from 'vitest';
import { createRecord, type RecordsDeps } from '../../../src/core/records/records.js';
import type { Db } from '../../../src/database/open.js';
import type { ContextRecord } from '../../../src/shared/types.js';
import {
  answer,
  extractArgs,
  isExtraction,
  runAsync,
  useExtractScene,
  userText,
  type Workspace,
} from '../../support/extract-harness.js';
import type { FakeApi } from '../../support/fake-messages-api.js';
import { TranscriptBuilder, workSession } from '../../support/transcript-fixture.js';

let api: FakeApi;
let ws: Workspace;
useExtractScene((scene) => {
  ({ api, ws } = scene);
});

function deps(db: Db, projectId: string): RecordsDeps {
  return { db, clock: () => new Date(), newId: monotonicFactory(), projectId, reinforceThreshold: 3 };
}

function current(db: Db, type?: string): ContextRecord[] {
  return db
    .prepare(`SELECT * FROM records WHERE superseded_at IS NULL ${type ? 'AND type = ?' : ''} ORDER BY rowid`)
    .all(...(type ? [type] : [])) as ContextRecord[];
}

async function extract(sessionId: string, ...more: string[]) {
  const r = await runAsync(extractArgs(ws, sessionId, ...more), { cwd: ws.repo, env: ws.env() });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, any>;
}

describe('extract with the model (real SDK, fake Messages API)', () => {
  it('sends one cached, forced-tool request with the labelled transcript and writes typed records', async () => {
    workSession(new TranscriptBuilder('s-main', ws.repo)).write(ws.transcript('s-main'));
    api.setScript((req) =>
      isExtraction(req)
        ? answer(
            {
              decisions: [
                {
                  what: 'Use undici as the HTTP client instead of node-fetch.',
                  rationale: 'node-fetch is unmaintained.',
                  supersedes: null,
                  confidence: 'explicit',
                },
                {
                  what: 'Disable undici pipelining in the test setup.',
                  rationale: '',
                  supersedes: null,
                  confidence: 'inferred',
                },
              ],
              preferences: [
                {
                  category: 'style',
                  rule: 'Always indent with tabs.',
                  confidence: 'explicit',
                  scope: 'global',
                },
                {
                  category: 'process',
                  rule: 'Run the HTTP tests after each client change.',
                  confidence: 'inferred',
                  scope: 'project',
                },
              ],
              conventions: [
                {
                  scope: 'module',
                  convention: 'HTTP code lives in src/http and is tested under test/http.',
                  confidence: 'inferred',
                },
              ],
              gotchas: [
                {
                  pattern: 'undici pools connections, which breaks the retry test.',
                  why_it_matters: 'Tests fail unless pipelining is 0.',
                },
              ],
              active_work: {
                current_task: 'Migrate the HTTP layer to undici',
                blockers: [],
                next_steps: ['Migrate src/http/upload.ts'],
                open_questions: ['Keep the node-fetch shim?'],
              },
            },
            {
              input_tokens: 3000,
              output_tokens: 500,
              cache_creation_input_tokens: 1000,
              cache_read_input_tokens: 0,
            },
          )
        : { status: 400, content: [] },
    );
    const out = await extract('s-main');
    expect(out.mode).toBe('llm');
    expect(out.input.policy).toBe('whole');

    // the request
    expect(api.requests).toHaveLength(1);
    const req = api.requests[0]!;
    expect(req.body.model).toBe('claude-haiku-4-5');
    expect(req.body.tool_choice).toEqual({ type: 'tool', name: 'record_context' });
    const system = req.body.system as { type: string; text: string; cache_control?: { type: string } }[];
    expect(system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(system[0]!.text).toContain('Only what the developer said');
    const tool = (req.body.tools as { name: string; input_schema: { required: string[] } }[])[0]!;
    expect(tool.input_schema.required).toEqual([
      'decisions',
      'preferences',
      'conventions',
      'active_work',
      'gotchas',
      'flush_ok',
    ]);
    const msg = userText(req);
    expect(msg).toContain(
      'Developer: We are moving the HTTP client to undici, because node-fetch is unmaintained.',
    );
    expect(msg).toContain('Assistant: I will replace node-fetch with undici');
    expect(msg).toContain('Tool Edit(');
    expect(msg).not.toContain('The user wants undici'); // thinking is not sent
    expect(req.headers.authorization ?? `Bearer ${req.headers['x-api-key']}`).toBe(
      'Bearer sk-ant-api03-test-key',
    );

    // the records
    const db = ws.db();
    try {
      const recs = current(db);
      const byType = (type: string) => recs.filter((r) => r.type === type);
      expect(byType('decision').map((r) => [r.title, r.confidence])).toEqual([
        ['Use undici as the HTTP client instead of node-fetch', 'explicit'],
        ['Disable undici pipelining in the test setup', 'inferred'],
      ]);
      expect(byType('decision')[0]!.body).toBe(
        'Use undici as the HTTP client instead of node-fetch.\n\nRationale: node-fetch is unmaintained.',
      );
      const prefs = byType('preference');
      expect(prefs.map((p) => [p.scope, p.project_id === '_global', p.confidence])).toEqual([
        ['global', true, 'explicit'],
        ['project', false, 'inferred'],
      ]);
      expect(byType('convention')[0]!.body).toContain('Applies to: module');
      expect(byType('discovery')[0]!.body).toBe(
        'undici pools connections, which breaks the retry test.\n\nWhy it matters: Tests fail unless pipelining is 0.',
      );
      const handover = byType('handover');
      expect(handover).toHaveLength(1);
      expect(handover[0]!.confidence).toBe('inferred');
      expect(handover[0]!.body).toContain('Next steps:\n- Migrate src/http/upload.ts');
      for (const r of recs) {
        expect(r.source).toBe('llm_extraction');
        expect(r.session_id).toBe('s-main');
      }
      // project records are linked to the files the session changed
      const linked = db
        .prepare(
          `SELECT n.name FROM record_entities re JOIN nodes n ON n.id = re.entity_id WHERE re.record_id = ? ORDER BY n.name`,
        )
        .all(byType('decision')[0]!.id) as { name: string }[];
      expect(linked.map((l) => l.name)).toEqual([
        `${ws.projectId}:file:src/http/client.ts`,
        `${ws.projectId}:file:test/http/setup.ts`,
      ]);
      // cost: 3000 in + 500 out + 1000 cache write at Haiku 4.5 prices
      const session = db.prepare('SELECT * FROM sessions WHERE session_id = ?').get('s-main') as {
        extraction_cost_usd: number;
        project_id: string;
      };
      expect(session.extraction_cost_usd).toBeCloseTo(0.003 + 0.0025 + 0.00125, 10);
      expect(session.project_id).toBe(ws.projectId);
    } finally {
      db.close();
    }
    expect(out.cost_usd).toBeCloseTo(0.00675, 10);

    // status shows the cost per session and in total
    const status = await runAsync(['status', '--json', '--cwd', ws.repo], { cwd: ws.repo, env: ws.env() });
    const st = JSON.parse(status.stdout);
    expect(st.extraction_cost_usd).toBeCloseTo(0.00675, 6);
    expect(st.recent_sessions[0].extraction_cost_usd).toBeCloseTo(0.00675, 10);
  });

  it('applies supersedes only to a current record of the project, and chains handovers', async () => {
    const db = ws.db();
    const d = deps(db, ws.projectId);
    const old = createRecord(d, {
      type: 'decision',
      title: 'Use node-fetch for HTTP',
      body: 'Use node-fetch for HTTP calls.',
      confidence: 'explicit',
      source: 'cli',
    });
    const otherProject = createRecord(deps(db, 'another-project'), {
      type: 'decision',
      title: 'Use axios',
      body: 'Use axios.',
      source: 'cli',
    });
    const firstHandover = createRecord(d, {
      type: 'handover',
      title: 'Handover: earlier work',
      body: 'Earlier work.',
      source: 'llm_extraction',
      sessionId: 'older',
    });
    db.close();

    workSession(new TranscriptBuilder('s-sup', ws.repo)).write(ws.transcript('s-sup'));
    api.setScript(() =>
      answer({
        decisions: [
          {
            what: 'Use undici for HTTP calls.',
            rationale: 'node-fetch is unmaintained.',
            supersedes: old.id,
            confidence: 'explicit',
          },
          {
            what: 'Wrap undici errors in HttpError.',
            rationale: '',
            supersedes: otherProject.id,
            confidence: 'inferred',
          },
          {
            what: 'Log every retry.',
            rationale: '',
            supersedes: '01NOTAREALID0000000000000',
            confidence: 'inferred',
          },
        ],
        active_work: {
          current_task: 'Finish the undici migration',
          blockers: ['CI is red'],
          next_steps: [],
          open_questions: [],
        },
      }),
    );
    const out = await extract('s-sup');
    // the model was shown the existing records it may supersede
    expect(userText(api.requests[0]!)).toContain(`- ${old.id} [decision] Use node-fetch for HTTP`);
    expect(out.written.dropped.invalid_supersedes).toBe(2);

    const db2 = ws.db();
    try {
      const oldNow = db2.prepare('SELECT * FROM records WHERE id = ?').get(old.id) as ContextRecord;
      const replacement = db2
        .prepare('SELECT * FROM records WHERE superseded_at IS NULL AND title = ?')
        .get('Use undici for HTTP calls') as ContextRecord;
      expect(oldNow.superseded_by).toBe(replacement.id);
      expect(oldNow.superseded_at).not.toBeNull();
      const other = db2.prepare('SELECT * FROM records WHERE id = ?').get(otherProject.id) as ContextRecord;
      expect(other.superseded_at).toBeNull();
      const handovers = current(db2, 'handover');
      expect(handovers).toHaveLength(1);
      expect(handovers[0]!.body).toBe('Current task: Finish the undici migration\nBlockers:\n- CI is red');
      const prev = db2.prepare('SELECT * FROM records WHERE id = ?').get(firstHandover.id) as ContextRecord;
      expect(prev.superseded_by).toBe(handovers[0]!.id);
    } finally {
      db2.close();
    }
  });

  it('writes nothing on flush_ok, but still counts the cost', async () => {
    new TranscriptBuilder('s-flush', ws.repo)
      .user('hi, what time zone is the server in?')
      .assistant('UTC.')
      .write(ws.transcript('s-flush'));
    api.setScript(() =>
      answer(
        {
          flush_ok: true,
          decisions: [
            { what: 'Should not be written.', rationale: '', supersedes: null, confidence: 'explicit' },
          ],
        },
        { input_tokens: 1000, output_tokens: 100 },
      ),
    );
    const out = await extract('s-flush');
    expect(out.mode).toBe('flush');
    expect(out.offset.advanced).toBe(true);
    const db = ws.db();
    try {
      expect(current(db)).toEqual([]);
      const s = db
        .prepare('SELECT extraction_cost_usd FROM sessions WHERE session_id = ?')
        .get('s-flush') as { extraction_cost_usd: number };
      expect(s.extraction_cost_usd).toBeCloseTo(0.0015, 10);
    } finally {
      db.close();
    }
  });

  it('drops entries that fail the schema, exceed the body limit or repeat a record verbatim', async () => {
    const db = ws.db();
    createRecord(deps(db, ws.projectId), {
      type: 'convention',
      title: 'Tests live beside the code',
      body: 'Tests live beside the code.',
      source: 'cli',
      confidence: 'explicit',
    });
    db.close();
    workSession(new TranscriptBuilder('s-bad', ws.repo)).write(ws.transcript('s-bad'));
    api.setScript(() =>
      answer({
        decisions: [
          { what: '', rationale: '', supersedes: null, confidence: 'explicit' },
          { what: 'Keep retries at 3.', rationale: '', supersedes: null, confidence: 'certain' },
          {
            what: `Use undici. ${'because '.repeat(300)}`,
            rationale: '',
            supersedes: null,
            confidence: 'explicit',
          },
          {
            what: 'Keep the public API of src/http stable.',
            rationale: '',
            supersedes: null,
            confidence: 'explicit',
          },
          {
            what: 'Keep the public API of src/http stable.',
            rationale: '',
            supersedes: null,
            confidence: 'explicit',
          },
          'not an object',
        ],
        preferences: [
          { category: 'food', rule: 'Pizza on Fridays.', confidence: 'explicit', scope: 'project' },
        ],
        conventions: [
          { scope: 'project', convention: 'Tests live beside the code.', confidence: 'explicit' },
        ],
        gotchas: 'should be a list',
        active_work: { current_task: 42 },
      }),
    );
    const out = await extract('s-bad');
    expect(out.mode).toBe('llm');
    expect(out.invalid_entries).toEqual({ decisions: 3, preferences: 1, gotchas: 1, active_work: 1 });
    expect(out.written.dropped).toMatchObject({ too_long: 1, duplicate: 2 });
    const db2 = ws.db();
    try {
      const recs = current(db2);
      expect(recs.map((r) => r.title).sort()).toEqual([
        'Keep the public API of src/http stable',
        'Tests live beside the code',
      ]);
    } finally {
      db2.close();
    }
  });

  it('accepts the same JSON in a text block when the model does not call the tool', async () => {
    new TranscriptBuilder('s-text', ws.repo)
      .user('From now on we name React hooks useXxx, always.')
      .assistant('Noted.')
      .write(ws.transcript('s-text'));
    const output = {
      decisions: [],
      preferences: [
        { category: 'naming', rule: 'Name React hooks useXxx.', confidence: 'explicit', scope: 'project' },
      ],
      conventions: [],
      active_work: null,
      gotchas: [],
      flush_ok: false,
    };
    api.setScript(() => ({
      content: [{ type: 'text', text: `Here you go:\n\`\`\`json\n${JSON.stringify(output)}\n\`\`\`` }],
    }));
    const out = await extract('s-text');
    expect(out.mode).toBe('llm');
    expect(out.written.created.map((c: { type: string }) => c.type)).toEqual(['preference']);
  });

  it('reinforces an inferred preference seen again in a later session instead of duplicating it', async () => {
    const pref = {
      category: 'tooling',
      rule: 'Use pnpm, not npm.',
      confidence: 'inferred',
      scope: 'project',
    };
    api.setScript(() => answer({ preferences: [pref] }));
    for (const [i, id] of ['s-r1', 's-r2', 's-r3'].entries()) {
      new TranscriptBuilder(id, ws.repo)
        .user(`pnpm install, session ${i}`)
        .assistant('Installed.')
        .write(ws.transcript(id));
      await extract(id);
    }
    // the same session again with new content does not count twice
    const b = new TranscriptBuilder('s-r3', ws.repo).user('pnpm install, session 2').assistant('Installed.');
    const n = b.lines.length;
    b.user('and pnpm test').assistant('Passing.');
    b.appendSince(ws.transcript('s-r3'), n);
    const again = await extract('s-r3');
    expect(again.written.dropped.duplicate).toBe(1);
    const db = ws.db();
    try {
      const prefs = current(db, 'preference');
      expect(prefs).toHaveLength(1);
      // seen in three sessions (the first and two more): the threshold of 3 is reached
      expect(prefs[0]!.reinforce_count).toBe(2);
      expect(prefs[0]!.confidence).toBe('reinforced');
    } finally {
      db.close();
    }
    // a fourth session counts again and the record stays reinforced
    new TranscriptBuilder('s-r4', ws.repo)
      .user('pnpm add zod')
      .assistant('Added.')
      .write(ws.transcript('s-r4'));
    const fourth = await extract('s-r4');
    expect(fourth.written.reinforced).toEqual([
      { id: expect.any(String), confidence: 'reinforced', reinforce_count: 3 },
    ]);
    // an explicit statement confirms an inferred record at once
    api.setScript(() =>
      answer({
        conventions: [
          { scope: 'project', convention: 'Errors are wrapped in AppError.', confidence: 'inferred' },
        ],
      }),
    );
    new TranscriptBuilder('s-c1', ws.repo)
      .user('wrap that error')
      .assistant('Wrapped in AppError.')
      .write(ws.transcript('s-c1'));
    await extract('s-c1');
    api.setScript(() =>
      answer({
        conventions: [
          { scope: 'project', convention: 'Errors are wrapped in AppError.', confidence: 'explicit' },
        ],
      }),
    );
    new TranscriptBuilder('s-c2', ws.repo)
      .user('Yes: always wrap errors in AppError.')
      .assistant('OK.')
      .write(ws.transcript('s-c2'));
    const confirmed = await extract('s-c2');
    expect(confirmed.written.reinforced).toEqual([
      { id: expect.any(String), confidence: 'reinforced', reinforce_count: 1 },
    ]);
    expect(confirmed.written.created).toEqual([]);
  });
});

describe('incremental extraction and the input policy', () => {
  it('a second Stop in the same session sends only what is new', async () => {
    const path = ws.transcript('s-inc');
    const b = new TranscriptBuilder('s-inc', ws.repo)
      .user('First part: set up the database schema.')
      .assistant('Schema created.');
    b.write(path);
    api.setScript(() =>
      answer({
        active_work: { current_task: 'Database schema', blockers: [], next_steps: [], open_questions: [] },
      }),
    );
    const first = await extract('s-inc');
    expect(first.offset.from).toBe(0);
    const n = b.lines.length;
    b.user('Second part: now add the migrations runner.').assistant('Runner added.');
    b.appendSince(path, n);
    const second = await extract('s-inc');
    expect(second.offset.from).toBe(first.offset.to);
    expect(api.requests).toHaveLength(2);
    const sent = userText(api.requests[1]!);
    expect(sent).toContain('Developer: Second part: now add the migrations runner.');
    expect(sent).not.toContain('First part');
    // nothing new: no request at all
    const third = await extract('s-inc');
    expect(third.mode).toBe('nothing_new');
    expect(api.requests).toHaveLength(2);
  });

  it('sends first 3K + last 17K tokens of a 15–50K session in one call', async () => {
    const b = new TranscriptBuilder('s-mid', ws.repo).user('OPENING REQUEST: build the invoice exporter.');
    for (let i = 0; i < 260; i++)
      b.assistant(
        `Step ${i}: ${'the exporter now formats another column of the invoice table; '.repeat(12)}`,
      );
    b.user('CLOSING REQUEST: ship it.');
    b.write(ws.transcript('s-mid'));
    api.setScript(() => answer({}));
    const out = await extract('s-mid');
    expect(out.input.policy).toBe('head_tail');
    expect(out.input.tokens).toBeGreaterThan(15_000);
    expect(out.input.tokens).toBeLessThanOrEqual(50_000);
    expect(api.requests).toHaveLength(1);
    const sent = userText(api.requests[0]!);
    expect(sent).toContain('OPENING REQUEST');
    expect(sent).toContain('CLOSING REQUEST');
    expect(sent).toMatch(/lines of the middle of the session omitted/);
    expect(sent).not.toContain('Step 40:');
  });

  it('maps a >50K session over 10K chunks and makes one synthesis call', async () => {
    const b = new TranscriptBuilder('s-big', ws.repo);
    for (let i = 0; i < 60; i++) {
      b.user(`Request ${i}: continue the report module.`);
      for (let j = 0; j < 8; j++)
        b.assistant(
          `Work ${i}.${j}: ${'the report module gains another section with totals and footnotes; '.repeat(8)}`,
        );
    }
    b.write(ws.transcript('s-big'));
    api.setScript((req) => {
      const text = userText(req);
      if (text.includes('<partial_extractions>')) {
        return answer(
          {
            decisions: [
              {
                what: 'Reports are rendered server-side.',
                rationale: 'Stated in part 2.',
                supersedes: null,
                confidence: 'explicit',
              },
            ],
          },
          { input_tokens: 2000, output_tokens: 200 },
        );
      }
      return answer(
        { gotchas: [{ pattern: `gotcha from ${/Part (\d+) of/.exec(text)?.[1]}`, why_it_matters: 'x' }] },
        { input_tokens: 10_000, output_tokens: 300 },
      );
    });
    const out = await extract('s-big');
    expect(out.input.policy).toBe('map_reduce');
    const chunks = Math.ceil(out.input.tokens / 10_000);
    expect(out.input.tokens).toBeGreaterThan(50_000);
    expect(api.requests).toHaveLength(chunks + 1);
    expect(out.input.calls).toBe(chunks + 1);
    for (const [i, r] of api.requests.slice(0, chunks).entries()) {
      expect(userText(r)).toContain(`Part ${i + 1} of ${chunks} of a long session transcript`);
    }
    const synthesis = userText(api.requests[chunks]!);
    expect(synthesis).toContain('<partial_extractions>');
    expect(synthesis).toContain(`gotcha from ${chunks}`);
    expect(userText(api.requests[0]!)).toContain('Developer: Request 0:');
    expect(userText(api.requests[chunks - 1]!)).toContain('Developer: Request 59:');
    // only the synthesis is written; cost of every call is counted
    const db = ws.db();
    try {
      expect(current(db).map((r) => r.type)).toEqual(['decision']);
      const s = db.prepare('SELECT extraction_cost_usd FROM sessions WHERE session_id = ?').get('s-big') as {
        extraction_cost_usd: number;
      };
      expect(s.extraction_cost_usd).toBeCloseTo(chunks * (0.01 + 0.0015) + 0.002 + 0.001, 9);
    } finally {
      db.close();
    }
  });
});
