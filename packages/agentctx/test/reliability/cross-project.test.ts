import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/app/project.js';
import { createRecord, supersedeRecord } from '../../src/core/records/records.js';
import { addEdge, linkRecordEntity, upsertNode } from '../../src/database/graph-repo.js';
import { openDb } from '../../src/database/open.js';
import { type McpSession, startMcp } from '../process/mcp/client.js';
import { BIN, isolatedEnv, spawnCollect } from '../support/cli.js';
import { figure, scale, total } from '../support/faults.js';
import { rowsOf } from '../support/store-check.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * Projects side by side in one store, their records sharing every word a query could use. From
 * one project, every read surface — CLI search / show / export, MCP ctx_search / ctx_get /
 * ctx_related / ctx_project, the prompt hook's injection and the SessionStart digest — must show
 * none of the others' records (each carries a marker, MARK-<project>-<n>, and its id is known),
 * and every write surface aimed at another project's record — CLI supersede / merge / record
 * --supersedes, MCP ctx_supersede / ctx_record with supersedes — must be refused with the store
 * left exactly as it was.
 */

const NAMES = ['alpha', 'beta', 'gamma', 'delta'].slice(0, scale(2, 4));
const QUERIES = [
  'zebra queue ledger checkout',
  'MARK',
  'zebra queue',
  'ledger',
  'checkout retries',
  'src/zebra.ts',
].slice(0, scale(2, 6));
const SEARCH_FLAGS = [['--history'], ['--scope', 'global'], [], ['--type', 'decision']].slice(0, scale(2, 4));
/** Foreign ids tried with `show` per other project (all of them in the bench run). */
const SHOWN = scale(3, 99);

interface Project {
  name: string;
  repo: string;
  id: string;
  ids: string[];
  /** Markers of its records, current and superseded. */
  marks: string[];
}

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let dbPath: string;
const projects: Project[] = [];
let globalId = '';

beforeAll(() => {
  t = tempDir('agentctx-isolation-');
  env = isolatedEnv(join(t.path, 'home'));
  dbPath = join(env.AGENTCTX_HOME!, 'agentctx.db');
  const db = openDb(dbPath);
  const newId = monotonicFactory();
  const types = ['decision', 'convention', 'discovery', 'bugfix', 'preference', 'handover'] as const;
  for (const name of NAMES) {
    const repo = fakeRepo(t.path, name, `git@github.com:acme/${name}.git`);
    const p: Project = { name, repo, id: resolveProject(repo).id, ids: [], marks: [] };
    const deps = { db, clock: () => new Date(), newId, projectId: p.id };
    const file = upsertNode(db, newId, p.id, 'file', 'src/zebra.ts');
    types.forEach((type, i) => {
      const mark = `MARK-${name}-${i}`;
      const r = createRecord(deps, {
        type,
        title: `Zebra queue ${mark}`,
        body: `The zebra queue feeds the ledger at checkout; retries are capped (${mark}).`,
        source: 'cli',
        confidence: 'explicit',
      });
      p.ids.push(r.id);
      p.marks.push(mark);
      linkRecordEntity(db, r.id, file);
    });
    // a superseded version too: history must not leak either
    const mark = `MARK-${name}-old`;
    const old = createRecord(deps, {
      type: 'decision',
      title: `Zebra queue ${mark}`,
      body: `The zebra queue used to feed the ledger (${mark}).`,
      source: 'cli',
      confidence: 'explicit',
    });
    const next = supersedeRecord(deps, old.id, {
      body: `The zebra queue feeds the ledger twice (MARK-${name}-new).`,
      rationale: 'changed',
      source: 'cli',
    });
    p.ids.push(old.id, next.new_id);
    p.marks.push(mark, `MARK-${name}-new`);
    projects.push(p);
  }
  // a bridge: the first project's file node wired to every other project's file node
  const files = rowsOf<{ id: string; project_id: string }>(
    dbPath,
    "SELECT id, project_id FROM nodes WHERE kind = 'file'",
  );
  const first = files.find((f) => f.project_id === projects[0]!.id)!;
  for (const f of files) if (f !== first) addEdge(db, newId, first.id, f.id, 'scoped_to');
  globalId = createRecord(
    { db, clock: () => new Date(), newId, projectId: projects[0]!.id },
    {
      type: 'preference',
      title: 'Zebra queue everywhere (global)',
      body: 'Global zebra queue ledger note.',
      source: 'cli',
      confidence: 'explicit',
      scope: 'global',
    },
  ).id;
  db.close();
});
afterAll(() => t?.cleanup());

/** Foreign ids or markers found in `text`, as seen from `self`. */
function leaks(self: Project, text: string): string[] {
  const out: string[] = [];
  for (const p of projects) {
    if (p === self) continue;
    for (const id of p.ids) if (text.includes(id)) out.push(id);
    for (const m of p.marks) if (text.includes(m)) out.push(m);
  }
  return out;
}

async function cli(self: Project, args: string[]) {
  const r = await spawnCollect(process.execPath, [BIN, ...args], { cwd: self.repo, env, timeoutMs: 60_000 });
  return { code: r.code ?? -1, text: `${r.stdout}\n${r.stderr}` };
}

async function hook(self: Project, event: string, payload: Record<string, unknown>): Promise<string> {
  const r = await spawnCollect(process.execPath, [BIN, 'hook', event], {
    cwd: self.repo,
    env,
    input: JSON.stringify({
      session_id: `iso-${self.name}-${event}`,
      cwd: self.repo,
      hook_event_name: event,
      ...payload,
    }),
    timeoutMs: 60_000,
  });
  expect(r.code).toBe(0);
  return r.stdout;
}

function storeDump(): unknown {
  return {
    records: rowsOf(dbPath, 'SELECT * FROM records ORDER BY id'),
    edges: rowsOf(dbPath, 'SELECT from_id, to_id, rel_type FROM edges ORDER BY from_id, to_id, rel_type'),
    candidates: rowsOf(dbPath, 'SELECT * FROM merge_candidates ORDER BY record_a, record_b'),
  };
}

describe('cross-project isolation', () => {
  it('no read surface shows another project’s records; every cross-project write is refused', async () => {
    let reads = 0;
    const found: string[] = [];
    const blind: string[] = [];
    const seen = (self: Project, surface: string, text: string, showsOwn = false) => {
      reads++;
      for (const l of leaks(self, text)) found.push(`${self.name} ${surface}: ${l}`);
      // a positive control: where the project's own records must show, they do
      if (showsOwn && !self.marks.some((m) => text.includes(m)) && !self.ids.some((id) => text.includes(id)))
        blind.push(`${self.name} ${surface}`);
    };
    for (const self of projects) {
      const foreign = projects.filter((p) => p !== self).flatMap((p) => p.ids);
      // the superseded and the current version of each chain, then the others
      const shown = projects.filter((p) => p !== self).flatMap((p) => [...p.ids].reverse().slice(0, SHOWN));
      const mcp: McpSession = await startMcp(self.repo, env);
      try {
        for (const q of QUERIES) {
          for (const extra of SEARCH_FLAGS) {
            const r = await cli(self, ['search', q, '--json', ...extra]);
            seen(self, `search ${q} ${extra.join(' ')}`, r.text);
          }
          for (const args of [{}, { history: true }, { scope: 'global' }]) {
            seen(
              self,
              `ctx_search ${q}`,
              (await mcp.call('ctx_search', { query: q, ...args })).text,
              !('scope' in args),
            );
          }
        }
        seen(
          self,
          'ctx_search file',
          (await mcp.call('ctx_search', { query: 'zebra', file: 'src/zebra.ts' })).text,
        );
        for (const id of shown) {
          const r = await cli(self, ['show', id]);
          expect(r.code, `show ${id}`).not.toBe(0);
          seen(self, `show ${id}`, r.text.replace(`${id}`, '')); // the error may name the id it did not find
        }
        for (let i = 0; i < foreign.length; i += 10) {
          const got = await mcp.call('ctx_get', { ids: foreign.slice(i, i + 10), history: true });
          expect(got.isError, got.text).toBe(false);
          expect(got.json.records).toEqual([]);
          seen(self, 'ctx_get', JSON.stringify(got.json.records));
        }
        for (const args of [{ file: 'src/zebra.ts' }, { file: 'src/zebra.ts', history: true }])
          seen(self, 'ctx_related', (await mcp.call('ctx_related', args)).text);
        seen(self, 'ctx_project', (await mcp.call('ctx_project')).text);
        for (const extra of [[], ['--history'], ['--json']])
          seen(self, 'export', (await cli(self, ['export', ...extra])).text);
        seen(self, 'status', (await cli(self, ['status', '--json'])).text);
        seen(
          self,
          'prompt hook',
          await hook(self, 'user-prompt-submit', {
            prompt: 'how does the zebra queue feed the ledger at checkout?',
          }),
        );
        seen(self, 'session start (no digest)', await hook(self, 'session-start', { source: 'startup' }));
      } finally {
        await mcp.close();
      }
    }
    // with a digest written by consolidation, too
    for (const self of projects) {
      expect((await cli(self, ['consolidate'])).code).toBe(0);
      seen(self, 'session start (digest)', await hook(self, 'session-start', { source: 'startup' }), true);
    }
    expect(found).toEqual([]);
    expect(blind).toEqual([]);

    // writes from the first project at every other project's records
    const self = projects[0]!;
    const before = storeDump();
    let refused = 0;
    let writes = 0;
    const mcp = await startMcp(self.repo, env);
    try {
      for (const other of projects.slice(1, scale(2, projects.length))) {
        const [fid, fid2] = [other.ids[0]!, other.ids[1]!];
        for (const args of [
          ['supersede', fid, '--body', 'hijacked', '--rationale', 'x'],
          ['record', '--type', 'decision', '--title', 'hijack', '--body', 'hijacked', '--supersedes', fid],
          ['merge', self.ids[0]!, fid],
          ['merge', fid, fid2],
          ['merge', fid, fid2, '--dismiss'],
        ]) {
          writes++;
          const r = await cli(self, args);
          if (r.code !== 0) refused++;
          expect(r.code, args.join(' ')).not.toBe(0);
        }
        for (const [name, args] of [
          ['ctx_supersede', { old_id: fid, new_body: 'hijacked', rationale: 'x' }],
          ['ctx_record', { type: 'decision', title: 'hijack', body: 'hijacked', supersedes: fid }],
        ] as const) {
          writes++;
          const r = await mcp.call(name, args);
          if (r.isError) refused++;
          expect(r.isError, name).toBe(true);
        }
      }
    } finally {
      await mcp.close();
    }
    expect(storeDump()).toEqual(before);
    expect(rowsOf(dbPath, 'SELECT id FROM records WHERE id = ?', globalId)).toHaveLength(1);

    const section = 'Cross-project isolation';
    figure(section, 'projects side by side', projects.length);
    figure(section, 'cross-project reads (CLI, MCP, hooks)', reads);
    figure(section, 'foreign records read', found.length);
    figure(section, 'cross-project writes refused, store unchanged', `${refused}/${writes}`);
    total('inputs tried (cross-project reads and writes)', reads + writes);
    total('foreign records read', found.length);
  }, 300_000);
});
