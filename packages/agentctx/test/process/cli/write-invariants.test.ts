import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/database/open.js';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { startMcp } from '../mcp/client.js';

/**
 * What every write path keeps (CONTRACTS.md §keyed, §namespaces, §supersession), through the built
 * CLI and the MCP server: one current handover per project and one current profile record per key,
 * and no write that reaches outside the namespace the writer works in (an error, nothing changed).
 */

interface World {
  env: NodeJS.ProcessEnv;
  home: string;
  repoA: string;
  repoB: string;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function world(): World {
  const t = tempDir('agentctx-writes-');
  cleanups.push(t.cleanup);
  return {
    env: isolatedEnv(t.path),
    home: t.path,
    repoA: fakeRepo(t.path, 'orders', 'git@github.com:acme/orders.git'),
    repoB: fakeRepo(t.path, 'billing', 'git@github.com:acme/billing.git'),
  };
}

function record(w: World, cwd: string, ...args: string[]): string {
  const r = runJson(['record', ...args], { cwd, env: w.env });
  expect(r.code, r.stderr).toBe(0);
  return r.json.id as string;
}

interface Row {
  id: string;
  project_id: string;
  type: string;
  title: string;
  superseded_at: string | null;
}

/** Every row of the store, for before/after comparisons. */
function snapshot(w: World): Row[] {
  const db = openDb(join(w.env.AGENTCTX_HOME!, 'agentctx.db'));
  try {
    return db
      .prepare(
        'SELECT id, project_id, type, title, superseded_at, superseded_by, pinned, confidence FROM records ORDER BY id',
      )
      .all() as Row[];
  } finally {
    db.close();
  }
}

const current = (rows: Row[], type: string) =>
  rows.filter((r) => r.type === type && r.superseded_at === null);

describe('one current keyed record, whichever path writes it', () => {
  it('agentctx record --type handover twice leaves one current handover', () => {
    const w = world();
    const first = record(
      w,
      w.repoA,
      '--type',
      'handover',
      '--title',
      'Invoices table',
      '--body',
      'Next: backfill.',
    );
    const second = record(w, w.repoA, '--type', 'handover', '--title', 'Refund flow', '--body', 'Next: QA.');
    const rows = snapshot(w);
    expect(current(rows, 'handover').map((r) => r.id)).toEqual([second]);
    expect(rows.find((r) => r.id === first)).toMatchObject({ superseded_by: second });
    // the other project's handover is its own
    const other = record(
      w,
      w.repoB,
      '--type',
      'handover',
      '--title',
      'Stripe keys',
      '--body',
      'Next: rotate.',
    );
    expect(
      current(snapshot(w), 'handover')
        .map((r) => r.id)
        .sort(),
    ).toEqual([second, other].sort());
  });

  it('ctx_record type handover twice: ctx_search returns one', async () => {
    const w = world();
    const mcp = await startMcp(w.repoA, w.env);
    try {
      for (const title of ['Handover: invoices table', 'Handover: refund flow']) {
        const r = await mcp.call('ctx_record', { type: 'handover', title, body: `${title}. Next: tests.` });
        expect(r.isError, r.text).toBe(false);
      }
      const found = await mcp.call('ctx_search', { query: 'handover next tests', type: 'handover' });
      const titles = (found.json.results as { title: string }[]).map((r) => r.title);
      expect(titles).toEqual(['Handover: refund flow']);
    } finally {
      await mcp.close();
    }
  });

  it('agentctx record --type profile with a key already current supersedes it', () => {
    const w = world();
    const a = record(
      w,
      w.repoA,
      '--type',
      'profile',
      '--title',
      'profile: test command',
      '--body',
      'npm test',
    );
    const b = record(
      w,
      w.repoA,
      '--type',
      'profile',
      '--title',
      'profile: test command',
      '--body',
      'vitest run',
    );
    const cur = current(snapshot(w), 'profile').filter((r) => r.title === 'profile: test command');
    expect(cur.map((r) => r.id)).toEqual([b]);
    expect(a).not.toBe(b);
  });
});

describe('writes stay inside the namespace (CONTRACTS.md §namespaces)', () => {
  it('ctx_record may not supersede a global record with a project one, nor another project’s record', async () => {
    const w = world();
    const global = record(
      w,
      w.repoA,
      '--type',
      'preference',
      '--title',
      'Small commits',
      '--body',
      'Small commits.',
      '--scope',
      'global',
    );
    const theirs = record(
      w,
      w.repoB,
      '--type',
      'decision',
      '--title',
      'Stripe',
      '--body',
      'Billing uses Stripe.',
    );
    const before = snapshot(w);
    const mcp = await startMcp(w.repoA, w.env);
    try {
      const cases: Record<string, unknown>[] = [
        { type: 'preference', title: 'Big commits', body: 'Squash everything.', supersedes: global },
        { type: 'decision', title: 'Adyen', body: 'Billing uses Adyen.', supersedes: theirs },
        {
          type: 'decision',
          title: 'Adyen',
          body: 'Billing uses Adyen.',
          supersedes: theirs,
          scope: 'global',
        },
      ];
      for (const args of cases) {
        const r = await mcp.call('ctx_record', args);
        expect(r.isError, r.text).toBe(true);
        expect(typeof r.json.error).toBe('string');
      }
      const sup = await mcp.call('ctx_supersede', {
        old_id: theirs,
        new_body: 'Adyen.',
        rationale: 'cheaper',
      });
      expect(sup.isError, sup.text).toBe(true);
    } finally {
      await mcp.close();
    }
    expect(snapshot(w)).toEqual(before);
  });

  it('the CLI answers the same with a one-line error and a non-zero exit, nothing changed', () => {
    const w = world();
    const global = record(
      w,
      w.repoA,
      '--type',
      'preference',
      '--title',
      'Small commits',
      '--body',
      'Small commits.',
      '--scope',
      'global',
    );
    const theirs = record(
      w,
      w.repoB,
      '--type',
      'decision',
      '--title',
      'Stripe',
      '--body',
      'Billing uses Stripe.',
    );
    const mine = record(w, w.repoA, '--type', 'decision', '--title', 'MySQL', '--body', 'Orders in MySQL.');
    const before = snapshot(w);
    const attempts: string[][] = [
      ['record', '--type', 'preference', '--title', 'Big', '--body', 'Squash.', '--supersedes', global],
      ['record', '--type', 'decision', '--title', 'Adyen', '--body', 'Adyen.', '--supersedes', theirs],
      [
        'record',
        '--type',
        'decision',
        '--title',
        'Adyen',
        '--body',
        'Adyen.',
        '--scope',
        'global',
        '--supersedes',
        mine,
      ],
      ['supersede', theirs, '--body', 'Adyen.', '--rationale', 'cheaper'],
      ['merge', mine, theirs],
    ];
    for (const args of attempts) {
      const r = runAgentctx(args, { cwd: w.repoA, env: w.env });
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(snapshot(w)).toEqual(before);
  });
});
