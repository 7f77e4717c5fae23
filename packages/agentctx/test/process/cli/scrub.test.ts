import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePaths } from '../../../src/app/paths.js';
import { runAgentctx, runJson } from '../../support/cli.js';
import {
  asOldVersion,
  buildTermDf,
  insertLegacy,
  leakedPieces,
  legacyRows,
  rawStoreBytes,
  rawStoreBytesAfterCheckpoint,
} from '../../support/legacy-store.js';
import {
  anySecret,
  type GeneratedSecret,
  SECRET_FAMILIES,
  withNoise,
} from '../../support/secret-arbitraries.js';
import { basePayload, type HookWorld, hookWorld, promptPayload, runHook } from '../hooks/helpers.js';
import { startMcp } from '../mcp/client.js';

/**
 * Issue 24, "never keeps what it must not", for what older versions already kept: a store whose
 * records were written before the redaction gate (straight SQL, secrets in titles, bodies and
 * superseded rows, indexed, counted in the word-frequency copy, with stored vectors), and logs,
 * digests and a profile export holding secrets. After `agentctx consolidate` (which scrubs
 * first), or `agentctx scrub`, no 12-character piece of any secret comes back out of search,
 * show, export, ctx_get, ctx_search, the SessionStart and prompt injections, the files under the
 * home, or the raw bytes of the SQLite file and its WAL.
 */

let w: HookWorld | undefined;
afterEach(() => {
  w?.cleanup();
  w = undefined;
});

interface Legacy {
  world: HookWorld;
  samples: GeneratedSecret[];
  ids: string[];
  /** Superseded rows that held a secret. */
  history: string[];
  home: ReturnType<typeof resolvePaths>;
}

/** A project whose store and files an older agentctx left, holding the samples' secrets. */
function legacyWorld(samples: GeneratedSecret[], marker: string): Legacy {
  const world = hookWorld(`git@github.com:acme/${marker}.git`, marker);
  w = world;
  const home = resolvePaths(world.env as Record<string, string>);
  const rows = legacyRows(samples, marker);
  const db = world.db();
  insertLegacy(db, world.projectId, rows);
  buildTermDf(db);
  asOldVersion(db);
  world.closeDb();
  // what an older version's logs, digests and profile export held
  const flat = (s: GeneratedSecret) => s.text.replace(/\s*\n\s*/g, ' | ');
  mkdirSync(home.logs, { recursive: true });
  writeFileSync(
    join(home.logs, 'hooks.log'),
    `2025-06-01T10:00:00.000Z [7] uncaught: ${flat(samples[0]!)}\n`,
  );
  writeFileSync(
    join(home.logs, 'extract.log.1'),
    `2025-06-01T10:00:00.000Z [8] ok\n2025-06-01 [8] ${flat(samples[1]!)}\n`,
  );
  mkdirSync(home.digests, { recursive: true });
  // this project's digest as the store's digest file holds it (and its people's copy); another
  // project's in the older layout (text, and ids beside it): one showing a record the scrub
  // rewrites, one only holding a secret
  const shown = rows.filter((r) => !r.supersededBy).slice(0, 4);
  const text = `# Project context for ${marker}\n${shown.map((r) => `- ${r.title}: ${r.body}`).join('\n')}\n`;
  writeFileSync(join(home.digests, `${world.projectId}.md`), text);
  writeFileSync(
    join(home.digests, `${world.projectId}.digest.json`),
    JSON.stringify({ text, ids: shown.map((r) => r.id), tokens: 0, generated_at: '', retire_stamp: 0 }),
  );
  const rewritten = rows.find((r) => !r.supersededBy && r.body === samples[2]!.text)!;
  writeFileSync(join(home.digests, 'other-a.md'), `# Project context for other\n- ${samples[2]!.text}\n`);
  writeFileSync(
    join(home.digests, 'other-a.ids.json'),
    JSON.stringify({ ids: [rewritten.id], tokens: 0, generated_at: '' }),
  );
  writeFileSync(join(home.digests, 'other-b.md'), `# Project context for other\n- ${samples[4]!.text}\n`);
  mkdirSync(home.profile, { recursive: true });
  writeFileSync(join(home.profile, 'profile.md'), `# Profile\n\n${samples[3]!.text}\n`);
  return {
    world,
    samples,
    ids: rows.map((r) => r.id),
    history: rows.filter((r) => r.supersededBy).map((r) => r.id),
    home,
  };
}

/**
 * Every file under the home but the store and the V8 code caches of agentctx's own bundles
 * (`<home>/cache/*.v8`: compiled program text, no user data; its identifiers, such as
 * `propertyIsEnumerable`, are strings fast-check also mixes into generated noise), as text.
 */
function homeFiles(home: ReturnType<typeof resolvePaths>): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (dir === join(home.home, 'cache') && e.name.endsWith('.v8')) continue;
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && !e.name.startsWith('agentctx.db')) out.push(readFileSync(p, 'latin1'));
    }
  };
  walk(home.home);
  return out.join('\n');
}

/** What every read surface gives back, the store file bytes and the files under the home. */
async function everythingOut(l: Legacy, marker: string): Promise<{ reads: string; raw: string[] }> {
  const { world } = l;
  const opts = { cwd: world.repo, env: world.env };
  const reads: string[] = [
    runAgentctx(['search', `${marker} sample`, '--history', '--limit', '50', '--json'], opts).stdout,
    runAgentctx(['export', '--history', '--json'], opts).stdout,
    ...[...l.history.slice(0, 3), l.ids.at(-1)!].map(
      (id) => runAgentctx(['show', id, '--json'], opts).stdout,
    ),
  ];
  const mcp = await startMcp(world.repo, { ...world.env, CLAUDE_CODE_SESSION_ID: 'sess-scrub' });
  try {
    for (let i = 0; i < l.ids.length; i += 10) {
      const got = await mcp.call('ctx_get', { ids: l.ids.slice(i, i + 10) });
      expect(got.isError, got.text).toBe(false);
      reads.push(got.text);
    }
    reads.push((await mcp.call('ctx_search', { query: `${marker} sample`, limit: 20 })).text);
  } finally {
    await mcp.close();
  }
  const start = runHook(
    world,
    'session-start',
    basePayload(world, 'sess-start', 'SessionStart', { source: 'startup' }),
  );
  expect(start.code).toBe(0);
  const prompt = runHook(
    world,
    'user-prompt-submit',
    promptPayload(world, 'sess-prompt', `${marker} sample deploy token key`),
  );
  expect(prompt.code).toBe(0);
  expect(prompt.context).toContain(`${marker} sample`);
  reads.push(start.stdout, prompt.stdout);
  return {
    reads: reads.join('\n'),
    raw: [rawStoreBytes(world.dbPath), rawStoreBytesAfterCheckpoint(world.dbPath)],
  };
}

describe('records an older version stored with secrets', () => {
  it('consolidate scrubs them in place, history too, and nothing gives a piece back', async () => {
    // every family, twice, each written the way it turns up in a session
    const samples = Object.values(SECRET_FAMILIES).flatMap((arb) =>
      fc.sample(withNoise(arb), { numRuns: 2, seed: 2408 }),
    );
    const l = legacyWorld(samples, 'zqlegacy');
    const opts = { cwd: l.world.repo, env: l.world.env };

    // the check can fail: before the scrub, show returns a superseded secret as stored
    const before = runAgentctx(['show', l.history[0]!, '--json'], opts).stdout;
    expect(leakedPieces(samples, before).length).toBeGreaterThan(0);

    const run = runJson<{ scrub: Record<string, unknown> }>(['consolidate'], opts);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.scrub).toMatchObject({
      full_pass: true,
      complete: true,
      history_changed: l.history.length,
      vacuumed: true,
      wal_truncated: true,
      digests: { rewritten: 2, removed: 1 },
      profile: { rewritten: true },
      logs: { rewritten: 2 },
    });
    const scrub = run.json.scrub as {
      changed: number;
      secrets: { count: number; kinds: Record<string, number> };
    };
    expect(scrub.changed).toBeGreaterThanOrEqual(samples.length);
    expect(Object.keys(scrub.secrets.kinds).length).toBeGreaterThan(10);
    expect(leakedPieces(samples, JSON.stringify(run.json) + run.stderr, true)).toEqual([]);
    // another project's digest showing a rewritten record is gone (its next SessionStart has it
    // rebuilt), one only holding a secret is redacted in place; ours is composed again
    expect(existsSync(join(l.home.digests, 'other-a.md'))).toBe(false);
    expect(existsSync(join(l.home.digests, 'other-a.ids.json'))).toBe(false);
    expect(readFileSync(join(l.home.digests, 'other-b.md'), 'utf8')).toContain('[REDACTED:');
    expect(readFileSync(join(l.home.digests, `${l.world.projectId}.md`), 'utf8')).toContain('zqlegacy');

    const out = await everythingOut(l, 'zqlegacy');
    expect(leakedPieces(samples, out.reads)).toEqual([]);
    expect(leakedPieces(samples, homeFiles(l.home))).toEqual([]);
    for (const raw of out.raw) expect(leakedPieces(samples, raw, true)).toEqual([]);

    // the store is whole: the same rows, the index consistent, a second run finds nothing
    const again = runJson<{ scrub: Record<string, unknown> }>(['consolidate'], opts);
    expect(again.json.scrub).toMatchObject({ full_pass: false, changed: 0, vacuumed: false });
    const db = l.world.db();
    const kept = db.prepare("SELECT COUNT(*) AS n FROM records WHERE id LIKE '01LEGACY%'").get() as {
      n: number;
    };
    expect(kept.n).toBe(l.ids.length);
    db.prepare("INSERT INTO records_fts(records_fts, rank) VALUES ('integrity-check', 1)").run();
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  }, 120_000);

  it('agentctx scrub does it on demand and reports kinds and counts, never a value', async () => {
    const samples = fc.sample(anySecret, { numRuns: 12, seed: 2409 });
    const l = legacyWorld(samples, 'zqdemand');
    const opts = { cwd: l.world.repo, env: l.world.env };

    const res = runJson<Record<string, unknown>>(['scrub'], opts);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({
      full_pass: true,
      complete: true,
      history_changed: l.history.length,
      fts_optimized: true,
      term_df_rebuilt: true,
      vacuumed: true,
    });
    const report = res.json as { changed: number; embeddings_dropped: number; secrets: { count: number } };
    expect(report.changed).toBeGreaterThanOrEqual(samples.length);
    expect(report.embeddings_dropped).toBe(report.changed);
    expect(leakedPieces(samples, JSON.stringify(res.json) + res.stderr, true)).toEqual([]);

    const out = await everythingOut(l, 'zqdemand');
    expect(leakedPieces(samples, out.reads)).toEqual([]);
    expect(leakedPieces(samples, homeFiles(l.home))).toEqual([]);
    for (const raw of out.raw) expect(leakedPieces(samples, raw, true)).toEqual([]);

    const text = runAgentctx(['scrub'], opts);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/records +\d+ checked, 0 rewritten in place/);
    expect(text.stdout).toContain('secrets removed  0 secrets');
  }, 120_000);
});
