import { spawn } from 'node:child_process';
import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCurrent } from '../../../src/core/digest/current-digest.js';
import { readDigest } from '../../../src/core/digest/digest-file.js';
import {
  counterFiles,
  readRetirementCounters,
  STALE_RETIREMENT_MS,
} from '../../../src/database/retirement.js';
import { bundleChildScript } from '../../support/child-bundle.js';
import { isolatedEnv, PACKAGE_ROOT, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { runHook } from '../hooks/helpers.js';

/**
 * A writer killed between its retirement and its commit (database/retirement.ts): SQLite rolls
 * its transaction back, but it appended to `begun` and never to `done`. Until consolidation
 * decides the writer is dead (the mismatch untouched for 2 minutes), every SessionStart
 * recomposes from the store and no digest is written; then the counters are equalised and the
 * digest is current again.
 */

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repo: string;
let writer: string;

beforeAll(() => {
  t = tempDir('agentctx-killed-');
  env = isolatedEnv(t.path);
  repo = fakeRepo(t.path, 'orders', 'git@github.com:acme/orders.git');
  // the writer: agentctx's own storage code, bundled for a child process
  writer = bundleChildScript(
    t.path,
    'writer',
    `import { writeSync } from 'node:fs';
import { openDb } from ${JSON.stringify(join(PACKAGE_ROOT, 'src', 'database', 'open.ts'))};
const [dbPath, id] = process.argv.slice(2);
const db = openDb(dbPath);
db.transaction(() => {
  db.prepare('UPDATE records SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL').run(new Date().toISOString(), id);
  writeSync(1, 'retired\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000); // killed here, before the commit
}).immediate();
`,
    ['better-sqlite3'],
  );
});
afterAll(() => t.cleanup());

function sessionStart(n: number): string {
  const r = runHook({ env, repo }, 'session-start', {
    session_id: `killed-${n}`,
    transcript_path: join(repo, 'none.jsonl'),
    cwd: repo,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
  expect(r.code).toBe(0);
  return r.context;
}

async function killMidRetirement(dbPath: string, id: string): Promise<void> {
  const child = spawn(process.execPath, [writer, dbPath, id], {
    env: { ...env, NODE_PATH: join(PACKAGE_ROOT, '..', '..', 'node_modules') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('retired')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`writer exited ${code} before retiring: ${err}`)));
  });
  const gone = new Promise((r) => child.on('exit', r));
  child.kill('SIGKILL');
  await gone;
}

describe('a writer killed mid-retirement', () => {
  it('leaves the record current, SessionStart recomposing, until consolidation repairs the counters', async () => {
    const rec = runJson(
      ['record', '--type', 'decision', '--title', 'Use MySQL', '--body', 'Orders in MySQL 8.'],
      {
        cwd: repo,
        env,
      },
    );
    expect(rec.code, rec.stderr).toBe(0);
    expect(runAgentctx(['consolidate'], { cwd: repo, env }).code).toBe(0);
    const dbPath = join(env.AGENTCTX_HOME!, 'agentctx.db');
    const digests = join(env.AGENTCTX_HOME!, 'digests');
    const projectId = (
      runJson<{ project_id: string }>(['status'], { cwd: repo, env }).json as { project_id: string }
    ).project_id;

    await killMidRetirement(dbPath, rec.json.id as string);
    expect(readRetirementCounters(dbPath)).toEqual({ begun: 1, done: 0 });
    // rolled back: still current, and SessionStart (recomposing) shows it
    expect(sessionStart(1)).toContain('Orders in MySQL 8');
    expect(isCurrent(readDigest(digests, projectId)!, readRetirementCounters(dbPath))).toBe(false);

    // a consolidation right away cannot tell a dead writer from a slow one: no digest written
    const fresh = runJson<{ digest: { path_written: boolean } }>(['consolidate'], { cwd: repo, env });
    expect(fresh.json.digest.path_written).toBe(false);
    expect(readRetirementCounters(dbPath)).toEqual({ begun: 1, done: 0 });

    // two minutes later it can
    const past = new Date(Date.now() - STALE_RETIREMENT_MS - 5_000);
    utimesSync(counterFiles(dbPath).begun, past, past); // (`done` was never written)
    const later = runJson<{ digest: { path_written: boolean } }>(['consolidate'], { cwd: repo, env });
    expect(later.json.digest.path_written).toBe(true);
    expect(readRetirementCounters(dbPath)).toEqual({ begun: 1, done: 1 });
    const digest = readDigest(digests, projectId)!;
    expect(isCurrent(digest, readRetirementCounters(dbPath))).toBe(true);
    const mtime = statSync(join(digests, `${projectId}.digest.json`)).mtimeMs;
    expect(sessionStart(2)).toContain('Orders in MySQL 8');
    expect(statSync(join(digests, `${projectId}.digest.json`)).mtimeMs).toBe(mtime); // read, not rewritten
  }, 60_000);
});
