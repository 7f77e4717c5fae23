import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db as Database } from '../../src/database/sqlite.js';
import { BIN, isolatedEnv, spawnCollect } from '../support/cli.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * Many `agentctx record` processes started together into a store that does not exist yet: each
 * of them sees an empty file and wants to run the migrations. Only one may; the others must wait
 * for it and then write their record. Before the fix, the schema version was read outside the
 * migration's write transaction and 2–6 of 20 writers failed with "table records already exists"
 * (about one round in two), their records lost.
 */

const WRITERS = 20;
const ROUNDS = 4;

let t: ReturnType<typeof tempDir>;
let repo: string;

beforeAll(() => {
  t = tempDir('agentctx-parallel-');
  repo = fakeRepo(t.path, 'proj', 'git@github.com:acme/parallel.git');
});
afterAll(() => t.cleanup());

describe('parallel first writes into a fresh store', () => {
  it(`${WRITERS} concurrent record processes, ${ROUNDS} rounds: every record kept`, async () => {
    const failures: string[] = [];
    const counts: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const home = join(t.path, `home-${round}`);
      rmSync(home, { recursive: true, force: true });
      const env = isolatedEnv(home);
      const runs = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) =>
          spawnCollect(
            process.execPath,
            [BIN, 'record', '--type', 'decision', '--title', `choice ${round}-${i}`, '--body', 'x'],
            { cwd: repo, env, timeoutMs: 60_000 },
          ),
        ),
      );
      for (const r of runs) if (r.code !== 0) failures.push(`exit ${r.code}: ${r.stderr.trim()}`);
      expect(failures).toEqual([]);
      const db = new Database(join(home, '.agentctx', 'agentctx.db'), { readonly: true });
      try {
        const titles = (db.prepare('SELECT title FROM records').all() as { title: string }[])
          .map((r) => r.title)
          .sort();
        counts.push(titles.length);
        expect(titles).toEqual(Array.from({ length: WRITERS }, (_, i) => `choice ${round}-${i}`).sort());
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        // the full-text index holds every record too
        const fts = db
          .prepare("SELECT count(*) AS n FROM records_fts WHERE records_fts MATCH 'choice'")
          .get() as {
          n: number;
        };
        expect(fts.n).toBe(WRITERS);
        expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
      } finally {
        db.close();
      }
    }
    expect(counts).toEqual(Array(ROUNDS).fill(WRITERS));
  }, 180_000);
});
