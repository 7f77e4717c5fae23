import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardApp } from '../src/server/app.js';
import { type App, createApp } from '../src/server/core.js';
import { contextFromApp, newToken } from '../src/server/start.js';
import { type Seeded, seedStore } from './support/seed.js';

/**
 * The dashboard's writes keep the store's invariants: an edit made here is never contradicted
 * by the next SessionStart (the built hook, a real process), and no write reaches a record
 * outside the project it is made in.
 */

const BIN = join(import.meta.dirname, '..', '..', 'agentctx', 'bin', 'agentctx.cjs');
const PORT = 7398;
const HOST = `127.0.0.1:${PORT}`;

let seed: Seeded;
let core: App;
let app: Hono;
let token: string;

beforeAll(() => {
  seed = seedStore();
  core = createApp({ cwd: seed.repo, env: seed.env });
  token = newToken();
  app = createDashboardApp(contextFromApp(core, { token, port: () => PORT }));
});
afterAll(() => {
  core.close();
  seed.cleanup();
});

function post(path: string, body: unknown) {
  return app.request(path, {
    method: 'POST',
    headers: { host: HOST, 'content-type': 'application/json', 'x-agentctx-token': token },
    body: JSON.stringify(body),
  });
}

function agentctx(args: string[], input = ''): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: seed.repo,
    env: { PATH: process.env.PATH, ...seed.env },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function sessionStart(): string {
  const r = agentctx(
    ['hook', 'session-start'],
    JSON.stringify({
      session_id: `ui-${Math.random().toString(36).slice(2)}`,
      transcript_path: join(seed.dir, 'none.jsonl'),
      cwd: seed.repo,
      hook_event_name: 'SessionStart',
      source: 'startup',
    }),
  );
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim() ? (JSON.parse(r.stdout).hookSpecificOutput?.additionalContext ?? '') : '';
}

function rows(): unknown[] {
  return core.db.prepare('SELECT * FROM records ORDER BY id').all();
}

describe('dashboard writes', () => {
  it('an edit is what the next SessionStart shows, not the record it replaced', async () => {
    const c = agentctx(['consolidate']);
    expect(c.code, c.stderr).toBe(0);
    expect(sessionStart()).toContain('One SQLite file, WAL mode');
    const res = await post(`/api/records/${seed.ids.sqlite}/supersede`, {
      title: 'Store context in SQLite',
      body: 'One SQLite file in rollback-journal mode on network drives.',
      rationale: 'WAL does not work over NFS',
    });
    expect(res.status).toBe(200);
    const ctx = sessionStart();
    expect(ctx).not.toContain('One SQLite file, WAL mode');
    expect(ctx).toContain('rollback-journal mode');
  });

  it('edit, pin and confirm refuse a record of another project, changing nothing', async () => {
    const before = rows();
    const other = seed.ids.otherDecision;
    const attempts = [
      post(`/api/records/${other}/supersede`, { body: 'Invoices may be edited.', rationale: 'x' }),
      post(`/api/records/${other}/pin`, { pinned: true }),
      post(`/api/records/${other}/confidence`, { confidence: 'reinforced' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    expect(rows()).toEqual(before);
  });
});
