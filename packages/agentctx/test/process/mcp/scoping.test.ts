import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEdge, linkRecordEntity, upsertNode } from '../../../src/database/graph-repo.js';
import { type Db, openDb } from '../../../src/database/open.js';
import { isolatedEnv } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { type McpSession, startMcp } from './client.js';

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repoA: string;
let a: McpSession;
let b: McpSession;
let projectA: string;
let projectB: string;

beforeAll(async () => {
  t = tempDir('agentctx-mcp-scope-');
  env = isolatedEnv(join(t.path, 'home'));
  repoA = fakeRepo(t.path, 'alpha', 'https://github.com/acme/alpha.git');
  const repoB = fakeRepo(t.path, 'beta', 'https://github.com/acme/beta.git');
  [a, b] = await Promise.all([startMcp(repoA, env), startMcp(repoB, env)]);
  projectA = (await a.call('ctx_project')).json.project_id as string;
  projectB = (await b.call('ctx_project')).json.project_id as string;
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  t?.cleanup();
});

async function rec(s: McpSession, args: Record<string, unknown>): Promise<string> {
  const res = await s.call('ctx_record', args);
  expect(res.isError, res.text).toBe(false);
  return res.json.id as string;
}

const ids = (res: { json: Record<string, unknown> }) =>
  (res.json.results as { id: string }[]).map((r) => r.id);

function withDb<T>(fn: (db: Db) => T): T {
  const db = openDb(join(env.AGENTCTX_HOME!, 'agentctx.db'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

describe('scoping across projects (CONTRACTS.md §namespaces)', () => {
  it('never shows another project’s records, and always shows global ones', async () => {
    expect(projectA).not.toBe(projectB);
    const secret = await rec(b, {
      type: 'decision',
      title: 'Zebra queue',
      body: 'Beta uses the zebra queue for jobs.',
    });
    const global = await rec(b, {
      type: 'preference',
      title: 'Zebra naming',
      body: 'Prefer zebra-case names everywhere.',
      scope: 'global',
    });
    const own = await rec(a, {
      type: 'decision',
      title: 'Zebra crossing',
      body: 'Alpha keeps zebra crossings.',
    });

    const fromA = ids(await a.call('ctx_search', { query: 'zebra' }));
    expect(fromA).toContain(global);
    expect(fromA).toContain(own);
    expect(fromA).not.toContain(secret);
    expect(ids(await a.call('ctx_search', { query: 'zebra', history: true }))).not.toContain(secret);
    expect(ids(await a.call('ctx_search', { query: 'zebra', scope: 'global' }))).toEqual([global]);
    expect(ids(await b.call('ctx_search', { query: 'zebra' }))).not.toContain(own);

    const got = await a.call('ctx_get', { ids: [secret, global] });
    expect(got.json.missing).toEqual([secret]);
    expect((got.json.records as { id: string }[]).map((r) => r.id)).toEqual([global]);

    const sup = await a.call('ctx_supersede', { old_id: secret, new_body: 'hijack', rationale: 'r' });
    expect(sup.isError).toBe(true);
    expect(sup.json.code).toBe('not_found');
    const viaRecord = await a.call('ctx_record', {
      type: 'decision',
      title: 't',
      body: 'hijack',
      supersedes: secret,
    });
    expect(viaRecord.json.code).toBe('not_found');
    const untouched = await b.call('ctx_get', { ids: [secret] });
    expect((untouched.json.records as { superseded_at: unknown }[])[0]?.superseded_at).toBeNull();

    const counts = (await a.call('ctx_project')).json.record_counts_by_type as Record<string, number>;
    expect(counts.decision).toBe(1);
  });
});

describe('ctx_related and ctx_search(file) over the graph', () => {
  let direct: string;
  let viaModule: string;
  let viaEdge: string;
  let old: string;
  let globalLinked: string;
  let far: string;
  let near: string;
  let unrelated: string;
  let otherProject: string;

  beforeAll(async () => {
    direct = await rec(a, {
      type: 'bugfix',
      title: 'Charge retries twice',
      body: 'Idempotency key on every charge call.',
    });
    viaModule = await rec(a, {
      type: 'convention',
      title: 'Money in cents',
      body: 'Payments code keeps amounts as integer cents.',
    });
    viaEdge = await rec(a, {
      type: 'discovery',
      title: 'Charge symbol is hot',
      body: 'charge() is the busiest path.',
    });
    old = await rec(a, { type: 'decision', title: 'Charge via Stripe v1', body: 'Old charge client.' });
    await a.call('ctx_supersede', {
      old_id: old,
      new_body: 'Charge via the v2 client.',
      rationale: 'v1 retired',
    });
    globalLinked = await rec(a, {
      type: 'preference',
      title: 'Charge logs',
      body: 'Log every charge at info.',
      scope: 'global',
    });
    far = await rec(a, {
      type: 'discovery',
      title: 'Far away charge note',
      body: 'Twelve hops from the file.',
    });
    near = await rec(a, {
      type: 'discovery',
      title: 'Nearby charge note',
      body: 'Three hops from the file.',
    });
    unrelated = await rec(a, {
      type: 'bugfix',
      title: 'Charge page styling',
      body: 'Unrelated to the payments file.',
    });
    otherProject = await rec(b, {
      type: 'bugfix',
      title: 'Beta charge bug',
      body: 'Same path in another project.',
    });

    const newId = monotonicFactory();
    withDb((db) => {
      const file = upsertNode(db, newId, projectA, 'file', 'src/pay.ts');
      const mod = upsertNode(db, newId, projectA, 'module', 'payments');
      const sym = upsertNode(db, newId, projectA, 'symbol', 'charge');
      addEdge(db, newId, file, mod, 'scoped_to');
      addEdge(db, newId, mod, sym, 'derives_from');
      addEdge(db, newId, sym, file, 'observed_in'); // a cycle
      linkRecordEntity(db, direct, file);
      linkRecordEntity(db, viaModule, mod);
      addEdge(db, newId, viaEdge, sym, 'applies_to');
      linkRecordEntity(db, old, file);
      linkRecordEntity(db, globalLinked, file);
      // a chain of 12 nodes hanging off the file: near sits at 3 hops, far at 12
      let prev = file;
      for (let i = 1; i <= 12; i++) {
        const n = upsertNode(db, newId, projectA, 'symbol', `chain${i}`);
        addEdge(db, newId, prev, n, 'derives_from');
        addEdge(db, newId, n, prev, 'derives_from');
        if (i === 3) linkRecordEntity(db, near, n);
        if (i === 12) linkRecordEntity(db, far, n);
        prev = n;
      }
      // the same path in project B is a different node
      const fileB = upsertNode(db, newId, projectB, 'file', 'src/pay.ts');
      linkRecordEntity(db, otherProject, fileB);
      // a project-B node wired to project A's file must not be walked into
      const bridge = upsertNode(db, newId, projectB, 'module', 'bridge');
      addEdge(db, newId, file, bridge, 'scoped_to');
      linkRecordEntity(db, otherProject, bridge);
    });
  });

  it('finds records linked directly and through nearby nodes, nearest first, within the project', async () => {
    const res = await a.call('ctx_related', { file: 'src/pay.ts' });
    expect(res.isError, res.text).toBe(false);
    const got = ids(res);
    expect(new Set(got)).toEqual(new Set([direct, globalLinked, viaModule, viaEdge, near]));
    expect(got.slice(0, 2).sort()).toEqual([direct, globalLinked].sort()); // depth 0 first
    expect(got[got.length - 1]).toBe(near);
    const entry = (res.json.results as Record<string, unknown>[])[0]!;
    expect(Object.keys(entry).sort()).toEqual(['age', 'confidence', 'id', 'score', 'title', 'type']);
    expect(res.text).not.toContain('Idempotency');
    // other spellings of the same file
    expect(new Set(ids(await a.call('ctx_related', { file: './src/pay.ts' })))).toEqual(new Set(got));
    expect(new Set(ids(await a.call('ctx_related', { file: join(repoA, 'src/pay.ts') })))).toEqual(
      new Set(got),
    );
    // history brings the superseded one back
    expect(ids(await a.call('ctx_related', { file: 'src/pay.ts', history: true }))).toContain(old);
    expect(ids(await a.call('ctx_related', { file: 'src/pay.ts', limit: 2 })).length).toBe(2);
    // B sees only its own link
    expect(ids(await b.call('ctx_related', { file: 'src/pay.ts' }))).toEqual([otherProject]);
  });

  it('returns an empty index for an unknown file and rejects bad arguments', async () => {
    const res = await a.call('ctx_related', { file: 'src/nothing.ts' });
    expect(res.isError).toBe(false);
    expect(res.json.results).toEqual([]);
    for (const bad of [{ file: 'src/pay.ts', limit: 16 }, { file: '' }, { limit: 3 }]) {
      const r = await a.call('ctx_related', bad);
      expect(r.isError).toBe(true);
      expect(typeof r.json.error).toBe('string');
    }
  });

  it('ctx_search(file) only returns records related to the file', async () => {
    const all = ids(await a.call('ctx_search', { query: 'charge' }));
    expect(all).toContain(unrelated);
    const scoped = ids(await a.call('ctx_search', { query: 'charge', file: 'src/pay.ts' }));
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped).not.toContain(unrelated);
    expect(scoped).not.toContain(far);
    expect(scoped).not.toContain(otherProject);
    for (const id of scoped) expect([direct, globalLinked, viaEdge, near]).toContain(id);
    expect(ids(await a.call('ctx_search', { query: 'charge', file: 'src/nothing.ts' }))).toEqual([]);
  });
});
