import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJson } from '../../support/cli.js';
import { basePayload, type HookWorld, hookWorld, runHook } from '../hooks/helpers.js';
import { type McpSession, startMcp } from './client.js';

/**
 * ctx_related over the graph production builds (CONTRACTS.md §ctx-related): file nodes from
 * PostToolUse capture, module and symbol nodes from consolidation reading those files. Every
 * relation the tool's description promises is shown here through the real hook, CLI and MCP server.
 */

let w: HookWorld;
let mcp: McpSession;
const stub = {} as { checkout: string; refunds: string; other: string; models: string; sync: string };
let centsRule: string;

function write(rel: string, text: string): void {
  mkdirSync(dirname(join(w.repo, rel)), { recursive: true });
  writeFileSync(join(w.repo, rel), text);
}

function edit(session: string, file: string): void {
  const r = runHook(
    w,
    'post-tool-use',
    basePayload(w, session, 'PostToolUse', {
      tool_name: 'Edit',
      tool_input: { file_path: join(w.repo, file), old_string: 'a', new_string: 'b' },
      tool_response: { filePath: join(w.repo, file), success: true },
    }),
  );
  expect(r.code).toBe(0);
}

/** A failing build in `session`: PostToolUse writes a bugfix stub linked to the session's files. */
function failingBuild(session: string, errorLine: string): string {
  runHook(
    w,
    'post-tool-use',
    basePayload(w, session, 'PostToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'npm run build' },
      tool_response: { stdout: `building…\n${errorLine}\n`, stderr: '', interrupted: false },
    }),
  );
  const row = w
    .db()
    .prepare("SELECT id FROM records WHERE session_id = ? AND type = 'bugfix'")
    .get(session) as { id: string };
  w.closeDb();
  return row.id;
}

const ids = (res: { json: Record<string, unknown> }) =>
  (res.json.results as { id: string }[]).map((r) => r.id);
const scores = (res: { json: Record<string, unknown> }) =>
  Object.fromEntries((res.json.results as { id: string; score: number }[]).map((r) => [r.id, r.score]));

beforeAll(async () => {
  w = hookWorld();
  write('src/pay.ts', "import Stripe from 'stripe';\nexport async function chargeCard(cents: number) {}\n");
  write('src/checkout.ts', "import { chargeCard } from './pay.js';\nexport function checkout() {}\n");
  write('src/refunds.ts', "import Stripe from 'stripe';\nimport { readFileSync } from 'node:fs';\n");
  write('src/other.ts', "import { readFileSync } from 'node:fs';\n");
  write('app/models.py', 'import requests\n\nclass OrderModel:\n    pass\n');
  write('app/sync.py', 'from requests import Session\n');

  edit('s-checkout', 'src/checkout.ts');
  stub.checkout = failingBuild(
    's-checkout',
    'src/checkout.ts:9:3 - error TS2554: Expected 1 arguments, but got 0.',
  );
  edit('s-refunds', 'src/refunds.ts');
  stub.refunds = failingBuild('s-refunds', "src/refunds.ts:4:1 - error TS2307: Cannot find module 'stripe'.");
  edit('s-pay', 'src/pay.ts');
  edit('s-other', 'src/other.ts');
  stub.other = failingBuild('s-other', 'src/other.ts:1:1 - error TS2305: Module has no exported member.');
  edit('s-py', 'app/models.py');
  stub.models = failingBuild('s-py', 'TypeError: OrderModel() takes no arguments');
  edit('s-py2', 'app/sync.py');
  stub.sync = failingBuild('s-py2', 'ConnectionError: sync endpoint refused');

  mcp = await startMcp(w.repo, w.env);
  const rec = await mcp.call('ctx_record', {
    type: 'convention',
    title: 'Amounts are integer cents',
    body: 'Always pass integer cents to `chargeCard`, never floats.',
  });
  centsRule = rec.json.id as string;
});

afterAll(async () => {
  await mcp?.close();
  w?.cleanup();
});

describe('ctx_related through the code graph consolidation builds', () => {
  it('before consolidation only direct file links exist', async () => {
    expect(ids(await mcp.call('ctx_related', { file: 'src/refunds.ts' }))).toEqual([stub.refunds]);
    expect(ids(await mcp.call('ctx_related', { file: 'src/pay.ts' }))).toEqual([]);
  });

  it('after consolidation relates records through modules and symbols', async () => {
    const c = runJson<{ code_graph: Record<string, number> }>(['consolidate'], { cwd: w.repo, env: w.env });
    expect(c.code, c.stderr).toBe(0);
    expect(c.json.code_graph).toMatchObject({ scanned: true, files_read: 6 });
    const kinds = w
      .db()
      .prepare('SELECT kind, count(*) AS n FROM nodes GROUP BY kind ORDER BY kind')
      .all() as { kind: string; n: number }[];
    w.closeDb();
    expect(kinds.map((k) => k.kind)).toEqual(['file', 'module', 'symbol']);

    // file: the stub linked to refunds.ts itself; module: checkout's stub, whose file imports
    // pay.ts, which imports stripe like refunds.ts does — the standard library relates nothing
    const refunds = await mcp.call('ctx_related', { file: 'src/refunds.ts' });
    expect(ids(refunds)[0]).toBe(stub.refunds);
    expect(scores(refunds)[stub.refunds]).toBe(1);
    expect(ids(refunds)).not.toContain(stub.other);
    expect(ids(refunds)).not.toContain(stub.models);

    // symbol: the convention names `chargeCard`, which pay.ts defines (1 hop); checkout.ts
    // imports pay.ts and refunds.ts imports stripe like pay.ts (2 hops through a module)
    const pay = await mcp.call('ctx_related', { file: 'src/pay.ts' });
    expect(ids(pay)[0]).toBe(centsRule);
    expect(scores(pay)).toEqual({ [centsRule]: 0.5, [stub.checkout]: 0.333, [stub.refunds]: 0.333 });

    // checkout.ts imports chargeCard by name: the convention is one hop from it
    const checkout = await mcp.call('ctx_related', { file: 'src/checkout.ts' });
    expect(ids(checkout).slice(0, 2)).toEqual([stub.checkout, centsRule]);
    expect(ids(checkout)).not.toContain(stub.other);

    // Python: two files importing the requests package relate through it
    const models = await mcp.call('ctx_related', { file: 'app/models.py' });
    expect(ids(models)).toEqual([stub.models, stub.sync]);

    // ctx_search(file) uses the same links
    const search = await mcp.call('ctx_search', { query: 'cents chargeCard', file: 'src/pay.ts' });
    expect(ids(search)).toEqual([centsRule]);
  });

  it('describes exactly these links', async () => {
    const { tools } = await mcp.client.listTools();
    const d = tools.find((t) => t.name === 'ctx_related')!.description!;
    for (const word of ['imports', 'symbol', 'agentctx consolidate']) expect(d).toContain(word);
  });
});
