import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Config, DEFAULT_CONFIG } from '../../../src/app/config.js';
import { degradation, degradedMarker, type LadderInput } from '../../../src/app/ladder.js';
import { resolvePaths } from '../../../src/app/paths.js';
import { type DatabaseCtor, type Db, openWith } from '../../../src/database/connection.js';
import { addDailyExtractionCost } from '../../../src/database/extraction-state-repo.js';
import { Db as Database } from '../../../src/database/sqlite.js';
import { FIXTURE_MODELS } from '../../support/models.js';
import { withoutFts5 } from '../../support/no-fts5.js';
import { tempDir } from '../../support/tmp.js';

/** Which rungs of CONTRACTS.md §ladder apply, from the settings, the environment and the store's SQLite. */

const NOW = new Date('2026-12-03T10:00:00Z');
let dir: ReturnType<typeof tempDir>;
let db: Db;

beforeEach(() => {
  dir = tempDir('agentctx-ladder-');
  db = openWith(Database as unknown as DatabaseCtor, join(dir.path, 'agentctx.db'));
});
afterEach(() => {
  db.close();
  dir.cleanup();
});

function input(over: { config?: Partial<Config>; env?: Record<string, string>; db?: Db } = {}): LadderInput {
  const env = {
    HOME: dir.path,
    AGENTCTX_HOME: join(dir.path, '.agentctx'),
    CLAUDE_CONFIG_DIR: join(dir.path, '.claude'),
    PATH: '/nonexistent',
    ANTHROPIC_API_KEY: 'sk-ant-test',
    AGENTCTX_EMBED_MODEL: 'glove-sif-384-q8',
    AGENTCTX_MODEL_PATH: FIXTURE_MODELS,
    ...over.env,
  };
  return {
    db: over.db ?? db,
    config: { ...structuredClone(DEFAULT_CONFIG), ...over.config },
    paths: resolvePaths(env),
    env,
    now: NOW,
  };
}

const markers = (i: LadderInput) => degradation(i).map((r) => r.marker);

describe('the degradation ladder', () => {
  it('is rung 1 with a model for extraction, the embedding model present and FTS5', () => {
    expect(degradation(input())).toEqual([]);
    expect(degradedMarker([])).toBeUndefined();
  });

  it('rung 2 for each reason offline vector work cannot run', () => {
    const off = input({ config: { embeddings: { enabled: false } } });
    expect(markers(off)).toEqual(['no-vectors']);
    const missing = input({ env: { AGENTCTX_MODEL_PATH: join(dir.path, 'none') } });
    expect(degradation(missing)[0]!.reason).toMatch(/not downloaded/);
  });

  it('rung 3 without a backend, with the LLM turned off, or with the daily cap reached', () => {
    expect(markers(input({ env: { ANTHROPIC_API_KEY: '' } }))).toEqual(['no-llm']);
    const off = structuredClone(DEFAULT_CONFIG.llm);
    off.enabled = false;
    expect(markers(input({ config: { llm: off } }))).toEqual(['no-llm']);
    addDailyExtractionCost(db, '2026-12-03', 1.5);
    const capped = degradation(input());
    expect(capped.map((r) => r.marker)).toEqual(['no-llm']);
    expect(capped[0]!.reason).toMatch(/cost cap/);
  });

  it('rung 4 on a SQLite without FTS5, and the lowest rung names the marker', () => {
    const noFts = openWith(withoutFts5(), join(dir.path, 'agentctx.db'));
    try {
      const all = degradation(
        input({ db: noFts, env: { ANTHROPIC_API_KEY: '', AGENTCTX_MODEL_PATH: '/none' } }),
      );
      expect(all.map((r) => [r.rung, r.marker])).toEqual([
        [2, 'no-vectors'],
        [3, 'no-llm'],
        [4, 'like-search'],
      ]);
      expect(all[2]!.reason).toMatch(/no FTS5/);
      expect(degradedMarker(all)).toBe('like-search');
      // the FTS5 connection that was already open sees the index paused
      expect(degradation(input())[0]).toMatchObject({ rung: 4, reason: expect.stringMatching(/paused/) });
    } finally {
      noFts.close();
    }
  });
});
