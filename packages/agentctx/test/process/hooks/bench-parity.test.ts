// `bench:retrieval --path hook` scores promptInjection in-process; this checks that the built
// prompt hook injects exactly those records, so the published figure is what users get.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDataset } from '../../../src/bench/dataset.js';
import { promptInjection } from '../../../src/core/injection/prompt-injection.js';
import { PACKAGE_ROOT } from '../../support/cli.js';
import { type HookWorld, hookWorld, promptPayload, runHook } from './helpers.js';

let w: HookWorld;
beforeEach(() => {
  w = hookWorld();
});
afterEach(() => w.cleanup());

const data = parseDataset(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'bench', 'dev-memory.json'), 'utf8')));

describe('the hook-path benchmark and the prompt hook', () => {
  it('inject the same records for the same prompts', () => {
    const project = 'shop-api';
    const idOf = new Map<string, string>();
    for (const r of data.records.filter((x) => x.project === project)) {
      idOf.set(w.add({ type: r.type, title: r.title, body: r.body }).id, r.id);
    }
    const queries = data.queries.filter((q) => q.project === project).slice(0, 16);
    let injecting = 0;
    queries.forEach((q, i) => {
      const expected = promptInjection(w.db(), { projectId: w.projectId, prompt: q.query, now: new Date() });
      w.closeDb();
      const run = runHook(w, 'user-prompt-submit', promptPayload(w, `parity-${i}`, q.query));
      expect(run.code).toBe(0);
      const shown = [...run.context.matchAll(/id ([0-9A-Z]{26})\]/g)].map((m) => m[1]);
      expect(shown, q.query).toEqual(expected?.ids ?? []);
      if (shown.length) injecting++;
    });
    // the comparison means something only if most prompts inject
    expect(injecting).toBeGreaterThan(queries.length / 2);
  });
});
