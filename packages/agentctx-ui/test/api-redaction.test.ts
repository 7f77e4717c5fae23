import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashboardApp } from '../src/server/app.js';
import { type App, createApp } from '../src/server/core.js';
import { contextFromApp, newToken } from '../src/server/start.js';
import { type Seeded, seedStore } from './support/seed.js';

/**
 * Issue 24 #5 on the dashboard: an edit (supersede) passes the same redaction gate as every
 * other write, with the user's patterns, and the API answer says what was redacted.
 */

const PORT = 7398;
let seed: Seeded;
let core: App;
let app: Hono;
let token: string;

beforeEach(() => {
  seed = seedStore();
  writeFileSync(
    join(seed.home, 'config.json'),
    JSON.stringify({ redact: { extraPatterns: ['ACME-[0-9]{6}'] } }),
  );
  core = createApp({ cwd: seed.repo, env: seed.env });
  token = newToken();
  app = createDashboardApp(contextFromApp(core, { token, port: () => PORT }));
});
afterEach(() => {
  core.close();
  seed.cleanup();
});

function randomKey(n: number): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(n)].map((b) => abc[b % abc.length]).join('');
}

describe('dashboard edits and the redaction gate', () => {
  it('POST supersede stores no secret and reports kinds and counts', async () => {
    const gh = `ghp_${randomKey(36)}`;
    const res = await app.request(`/api/records/${seed.ids.sqlite}/supersede`, {
      method: 'POST',
      headers: { host: `127.0.0.1:${PORT}`, 'content-type': 'application/json', 'x-agentctx-token': token },
      body: JSON.stringify({
        title: 'Store context in SQLite',
        body: `One SQLite file; backups pushed with ${gh} (ticket ACME-551234).`,
        rationale: 'DB_PASSWORD=Zq8Wm2Lk9Xc4Vb7N was in the old runbook',
      }),
    });
    expect(res.status).toBe(200);
    const out = (await res.json()) as { new_id: string; record: { body: string }; redacted: unknown };
    expect(out.redacted).toEqual({
      count: 3,
      kinds: { 'github-token': 1, custom: 1, secret: 1 },
      fields: ['body'],
    });
    expect(out.record.body).toBe(
      'One SQLite file; backups pushed with [REDACTED:github-token] (ticket [REDACTED:custom]).\n\nWhy it changed: DB_PASSWORD=[REDACTED:secret] was in the old runbook',
    );
    const detail = await app.request(`/api/records/${out.new_id}`, {
      headers: { host: `127.0.0.1:${PORT}` },
    });
    const text = await detail.text();
    expect(text).not.toContain(gh.slice(4, 16));
    expect(text).not.toContain('551234');
    expect(text).not.toContain('Zq8Wm2Lk9Xc4Vb7N');
  });
});
