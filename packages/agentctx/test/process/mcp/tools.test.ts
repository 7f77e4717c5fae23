import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexEntryTokens } from '../../../src/core/retrieval/index-entry.js';
import { openDb } from '../../../src/database/open.js';
import { estimateTokens } from '../../../src/shared/tokens.js';
import { isolatedEnv } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { type McpSession, startMcp } from './client.js';

const TOOLS = [
  'ctx_get',
  'ctx_project',
  'ctx_record',
  'ctx_related',
  'ctx_search',
  'ctx_supersede',
  'ctx_sync_claudemd',
];

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repo: string;
let mcp: McpSession;

beforeAll(async () => {
  t = tempDir('agentctx-mcp-');
  env = isolatedEnv(join(t.path, 'home'), { CLAUDE_CODE_SESSION_ID: 'sess-mcp-1' });
  repo = fakeRepo(t.path, 'alpha', 'git@github.com:acme/alpha.git');
  mcp = await startMcp(repo, env);
});

afterAll(async () => {
  await mcp?.close();
  t?.cleanup();
});

async function record(args: Record<string, unknown>): Promise<string> {
  const res = await mcp.call('ctx_record', args);
  expect(res.isError, res.text).toBe(false);
  return res.json.id as string;
}

function expectError(res: { isError: boolean; json: Record<string, unknown> }, pattern?: RegExp): void {
  expect(res.isError).toBe(true);
  expect(typeof res.json.error).toBe('string');
  if (pattern) expect(res.json.error).toMatch(pattern);
}

describe('agentctx mcp over stdio', () => {
  it('lists exactly the seven tools, each with a description and an input schema', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
    }
    const search = tools.find((x) => x.name === 'ctx_search')!;
    const props = search.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.limit?.maximum).toBe(15);
    expect(search.inputSchema.required).toEqual(['query']);
    const get = tools.find((x) => x.name === 'ctx_get')!;
    expect((get.inputSchema.properties as Record<string, Record<string, unknown>>).ids?.maxItems).toBe(10);
    const rec = tools.find((x) => x.name === 'ctx_record')!;
    const recProps = rec.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(recProps.title?.maxLength).toBe(120);
    expect(recProps.body?.maxLength).toBe(2000);
  });

  it('records and finds a fact; search returns an index without bodies', async () => {
    const id = await record({
      type: 'decision',
      title: 'Payments go through the ledger service',
      body: 'Every payment mutation is a ledger entry; the quaternion-free invoice path was removed.',
    });
    const res = await mcp.call('ctx_search', { query: 'ledger payments' });
    expect(res.isError).toBe(false);
    const results = res.json.results as Record<string, unknown>[];
    expect(results[0]?.id).toBe(id);
    expect(Object.keys(results[0]!).sort()).toEqual(['age', 'confidence', 'id', 'score', 'title', 'type']);
    expect(results[0]?.confidence).toBe('explicit');
    expect(res.text).not.toContain('quaternion');
    // no model for extraction here (CONTRACTS.md §rung-3; rungs.test.ts covers the markers)
    expect(res.json.degraded).toBe('no-llm');
  });

  it('caps search at 15 results (default 10), each entry within 50 tokens', async () => {
    for (let i = 0; i < 18; i++) {
      await record({
        type: 'convention',
        title: `Widget rule ${i}: 0x${'f00dcafe'.repeat(6)} ${'widgetry '.repeat(8)}`.slice(0, 120),
        body: `Widgets follow rule ${i}. ${'Long body text that must never appear in the index. '.repeat(20)}`,
      });
    }
    const byDefault = await mcp.call('ctx_search', { query: 'widget rule' });
    expect((byDefault.json.results as unknown[]).length).toBe(10);
    const max = await mcp.call('ctx_search', { query: 'widget rule', limit: 15 });
    const entries = max.json.results as Parameters<typeof indexEntryTokens>[0][];
    expect(entries.length).toBe(15);
    for (const e of entries) expect(indexEntryTokens(e)).toBeLessThanOrEqual(50);
    expect(max.text).not.toContain('must never appear');
    expectError(await mcp.call('ctx_search', { query: 'widget rule', limit: 16 }), /limit/);
    expectError(await mcp.call('ctx_search', { query: '' }));
    expectError(await mcp.call('ctx_search', {}), /query/);
    expectError(await mcp.call('ctx_search', { query: 'x', type: 'opinion' }), /type/);
  });

  it('ctx_get returns full records, lists unknown ids as missing and bumps access counts', async () => {
    const id = await record({
      type: 'bugfix',
      title: 'Flaky clock in tests',
      body: 'Inject the clock; never call Date.now() in services.',
    });
    const first = await mcp.call('ctx_get', { ids: [id, 'NOPE0000000000000000000000'] });
    expect(first.isError).toBe(false);
    expect(first.json.missing).toEqual(['NOPE0000000000000000000000']);
    const [rec] = first.json.records as Record<string, unknown>[];
    expect(rec).toMatchObject({
      id,
      type: 'bugfix',
      body: 'Inject the clock; never call Date.now() in services.',
      confidence: 'explicit',
      source: 'mcp_tool',
      session_id: 'sess-mcp-1',
      superseded_at: null,
      superseded_by: null,
      access_count: 1,
    });
    expect(rec?.valid_from).toBe(rec?.recorded_at);
    expect(typeof rec?.last_accessed).toBe('string');
    const second = await mcp.call('ctx_get', { ids: [id] });
    expect((second.json.records as Record<string, unknown>[])[0]?.access_count).toBe(2);
    const ids = Array.from({ length: 11 }, (_, i) => `ID${i}`);
    expectError(await mcp.call('ctx_get', { ids }), /ids/);
    expectError(await mcp.call('ctx_get', { ids: [] }));
    expectError(await mcp.call('ctx_get', { ids: 'not-an-array' }));
    const ten = await mcp.call('ctx_get', { ids: ids.slice(0, 10) });
    expect(ten.isError).toBe(false);
    expect((ten.json.missing as string[]).length).toBe(10);
  });

  it('validates ctx_record: types, 120-character titles, 2,000-character bodies', async () => {
    expect(
      (await mcp.call('ctx_record', { type: 'decision', title: 'x'.repeat(120), body: 'y'.repeat(2000) }))
        .isError,
    ).toBe(false);
    expectError(
      await mcp.call('ctx_record', { type: 'decision', title: 'x'.repeat(121), body: 'ok' }),
      /title/,
    );
    expectError(
      await mcp.call('ctx_record', { type: 'decision', title: 'ok', body: 'y'.repeat(2001) }),
      /body/,
    );
    expectError(await mcp.call('ctx_record', { type: 'opinion', title: 'ok', body: 'ok' }), /type/);
    expectError(await mcp.call('ctx_record', { type: 'decision', title: 'ok' }), /body/);
    // the domain's own rules come back structured too
    const bad = await mcp.call('ctx_record', { type: 'handover', title: 'ok', body: 'ok', scope: 'global' });
    expectError(bad, /global/);
    expect(bad.json.code).toBe('invalid_input');
    const unknown = await mcp.call('ctx_record', {
      type: 'decision',
      title: 'ok',
      body: 'ok',
      supersedes: 'NOPE',
    });
    expectError(unknown, /no record/);
    expect(unknown.json.code).toBe('not_found');
  });

  it('supersedes atomically and names the current head when the old record was already superseded', async () => {
    const a = await record({
      type: 'decision',
      title: 'API style',
      body: 'REST endpoints for the public API.',
    });
    const sup = await mcp.call('ctx_supersede', {
      old_id: a,
      new_body: 'GraphQL for the public API.',
      rationale: 'Clients batch queries.',
    });
    expect(sup.isError, sup.text).toBe(false);
    expect(sup.json.old_id).toBe(a);
    const b = sup.json.new_id as string;
    expect(sup.json.type).toBe('decision');

    const again = await mcp.call('ctx_supersede', { old_id: a, new_body: 'gRPC', rationale: 'why not' });
    expectError(again, /already superseded/);
    expect(again.json.current_head).toBe(b);
    expect(again.json.code).toBe('already_superseded');
    const viaRecord = await mcp.call('ctx_record', {
      type: 'decision',
      title: 'API',
      body: 'gRPC',
      supersedes: a,
    });
    expectError(viaRecord);
    expect(viaRecord.json.current_head).toBe(b);

    // the chain continues from the head
    const c = await mcp.call('ctx_record', {
      type: 'decision',
      title: 'API style',
      body: 'gRPC internally, GraphQL outside.',
      supersedes: b,
    });
    expect(c.isError).toBe(false);
    expect(c.json.supersedes).toBe(b);
    const third = await mcp.call('ctx_supersede', { old_id: a, new_body: 'x', rationale: 'y' });
    expect(third.json.current_head).toBe(c.json.id);

    // superseded records stay out of search unless history is asked for
    const now = await mcp.call('ctx_search', { query: 'public API REST GraphQL gRPC' });
    const ids = (now.json.results as { id: string }[]).map((r) => r.id);
    expect(ids).toContain(c.json.id);
    expect(ids).not.toContain(a);
    expect(ids).not.toContain(b);
    const hist = await mcp.call('ctx_search', { query: 'public API REST GraphQL gRPC', history: true });
    const old = (hist.json.results as { id: string; superseded?: boolean }[]).find((r) => r.id === a);
    expect(old?.superseded).toBe(true);

    // ctx_get points at the head instead of returning the outdated record, unless history
    const got = await mcp.call('ctx_get', { ids: [a] });
    expect(got.json.records).toEqual([]);
    expect(got.json.superseded).toEqual([{ id: a, superseded_by: b, current_head: c.json.id }]);
    const gotHist = await mcp.call('ctx_get', { ids: [a], history: true });
    expect((gotHist.json.records as Record<string, unknown>[])[0]).toMatchObject({ id: a, superseded_by: b });

    expectError(
      await mcp.call('ctx_supersede', { old_id: c.json.id, new_body: 'z'.repeat(2001), rationale: 'r' }),
      /new_body/,
    );
    expectError(await mcp.call('ctx_supersede', { old_id: c.json.id, new_body: 'ok' }), /rationale/);
    // a blank body is refused as ctx_record refuses it, even with a rationale to append
    const blank = await mcp.call('ctx_supersede', { old_id: c.json.id, new_body: ' \n\t ', rationale: 'r' });
    expectError(blank, /body must be a non-empty string/);
    expect(blank.json.field).toBe('body');
    const still = await mcp.call('ctx_get', { ids: [c.json.id] });
    expect((still.json.records as { id: string }[]).map((r) => r.id)).toEqual([c.json.id]);
    const missing = await mcp.call('ctx_supersede', { old_id: 'NOPE', new_body: 'ok', rationale: 'r' });
    expect(missing.json.code).toBe('not_found');
  });

  it('ctx_project returns the profile shape', async () => {
    await record({ type: 'profile', title: 'profile: stack', body: 'TypeScript, Node.js' });
    const res = await mcp.call('ctx_project');
    expect(res.isError).toBe(false);
    expect(res.json.name).toBe('alpha');
    expect(res.json.project_id).toMatch(/^[0-9a-f]{64}$/);
    expect(res.json.stack).toEqual(['TypeScript', 'Node.js']);
    for (const key of ['commands', 'entry_points', 'record_counts_by_type', 'last_session_at']) {
      expect(res.json).toHaveProperty(key);
    }
    const counts = res.json.record_counts_by_type as Record<string, number>;
    expect(counts.convention).toBe(18);
    expect(counts.profile).toBe(1);
    // this server's calls are counted under its session, so the project has a last session
    expect(typeof res.json.last_session_at).toBe('string');
  });

  it('ctx_sync_claudemd is bounded and read-only', async () => {
    const claudeMd = join(repo, 'CLAUDE.md');
    writeFileSync(claudeMd, '# Alpha\n\nUse REST endpoints for the public API.\n');
    const res = await mcp.call('ctx_sync_claudemd', { limit: 2 });
    expect(res.isError, res.text).toBe(false);
    expect((res.json.missing as unknown[]).length).toBeLessThanOrEqual(2);
    expect((res.json.total as { missing: number }).missing).toBeGreaterThan(2);
    expect(res.json.truncated).toBe(true);
    expect(typeof res.json.proposed_diff).toBe('string');
    expect(Array.isArray(res.json.contradicted)).toBe(true);
    const page2 = await mcp.call('ctx_sync_claudemd', { limit: 2, offset: 2 });
    const first = (res.json.missing as { record_id: string }[]).map((m) => m.record_id);
    for (const m of page2.json.missing as { record_id: string }[]) expect(first).not.toContain(m.record_id);
    expectError(await mcp.call('ctx_sync_claudemd', { limit: 21 }), /limit/);
    expectError(await mcp.call('ctx_sync_claudemd', { offset: -1 }), /offset/);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(claudeMd, 'utf8')).toBe('# Alpha\n\nUse REST endpoints for the public API.\n');
  });

  it('answers an unknown tool with -32602 and never writes anything but protocol to stdout', async () => {
    await expect(mcp.call('ctx_delete_everything', {})).rejects.toThrow(
      /-32602.*Unknown tool: ctx_delete_everything/,
    );
    expectError(await mcp.call('ctx_related', {}), /file/);
    expect(mcp.errors).toEqual([]);
  });

  it('counts every result in the session accounting', async () => {
    const before = readTokens();
    const res = await mcp.call('ctx_search', { query: 'ledger' });
    const afterSearch = readTokens();
    expect(afterSearch - before).toBe(estimateTokens(res.text));
    const err = await mcp.call('ctx_get', { ids: [] });
    expect(readTokens() - afterSearch).toBe(estimateTokens(err.text));
  });
});

function readTokens(): number {
  const db = openDb(join(env.AGENTCTX_HOME!, 'agentctx.db'));
  try {
    const row = db.prepare('SELECT tokens_injected FROM sessions WHERE session_id = ?').get('sess-mcp-1') as
      | { tokens_injected: number }
      | undefined;
    return row?.tokens_injected ?? 0;
  } finally {
    db.close();
  }
}

describe('agentctx mcp with a store that cannot open', () => {
  it('still lists the tools and answers every call with a structured, degraded error', async () => {
    const broken = tempDir('agentctx-mcp-broken-');
    const home = join(broken.path, 'home');
    const benv = isolatedEnv(home);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(home, { recursive: true });
    writeFileSync(benv.AGENTCTX_HOME!, 'not a directory'); // AGENTCTX_HOME is a file
    const repoB = fakeRepo(broken.path, 'r', null);
    const s = await startMcp(repoB, benv);
    try {
      expect((await s.client.listTools()).tools.length).toBe(7);
      for (const [name, args] of [
        ['ctx_search', { query: 'x' }],
        ['ctx_get', { ids: ['A'] }],
        ['ctx_record', { type: 'decision', title: 't', body: 'b' }],
        ['ctx_supersede', { old_id: 'A', new_body: 'b', rationale: 'r' }],
        ['ctx_project', {}],
        ['ctx_related', { file: 'a.ts' }],
        ['ctx_sync_claudemd', {}],
      ] as const) {
        const res = await s.call(name, args);
        expect(res.isError, name).toBe(true);
        expect(res.json.degraded, name).toBe('no-store');
        expect(res.json.error).toMatch(/store is unavailable/);
      }
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
      broken.cleanup();
    }
  });
});

describe('agentctx mcp as a raw stdio process', () => {
  it('writes only JSON-RPC lines to stdout, survives a malformed line, and exits when stdin closes', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../../support/cli.js');
    const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: repo, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
      let closedAt = 0;
      child.stdin.on('close', () => {
        closedAt = Date.now();
      });
      child.on('exit', (code) => resolve({ code, ms: Date.now() - closedAt }));
    });
    const send = (msg: unknown) =>
      child.stdin.write(`${typeof msg === 'string' ? msg : JSON.stringify(msg)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send('{ this is not json');
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'ctx_search', arguments: { query: 'ledger' } },
    });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'ctx_get', arguments: { ids: 'x' } },
    });
    const deadline = Date.now() + 10_000;
    while (!(stdout.includes('"id":2') && stdout.includes('"id":3')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    child.stdin.end();
    const { code, ms } = await exited;
    expect(code).toBe(0);
    expect(ms).toBeLessThan(1500); // it exits by itself: no signal, no leaked process
    const lines = stdout.trim().split('\n');
    const messages = lines.map(
      (l) => JSON.parse(l) as { jsonrpc: string; id: number; result?: Record<string, unknown> },
    );
    for (const m of messages) expect(m.jsonrpc).toBe('2.0');
    // responses may come in any order (JSON-RPC matches them by id)
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3]);
    const err = messages.find((m) => m.id === 3)!.result as { isError: boolean; content: { text: string }[] };
    expect(err.isError).toBe(true);
    expect(JSON.parse(err.content[0]!.text)).toMatchObject({ code: 'invalid_input' });
  });
});
