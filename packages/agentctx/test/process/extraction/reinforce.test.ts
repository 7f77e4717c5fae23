import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContextRecord } from '../../../src/shared/types.js';
import { runAgentctx } from '../../support/cli.js';
import {
  extractArgs,
  isExtraction,
  runAsync,
  useExtractScene,
  userText,
  type Workspace,
} from '../../support/extract-harness.js';
import type { FakeApi } from '../../support/fake-messages-api.js';
import { type Concept, followPrompt, listedRecords } from '../../support/prompt-following-model.js';
import { TranscriptBuilder } from '../../support/transcript-fixture.js';

/**
 * CONTRACTS.md §confidence: an inferred record seen again in later sessions is reinforced (inferred →
 * reinforced at `reinforceThreshold` sessions). The model here does exactly what the prompt
 * says: it never restates a fact an existing record holds. Re-sightings must still count.
 */

let api: FakeApi;
let ws: Workspace;
useExtractScene((scene) => {
  ({ api, ws } = scene);
});

const PNPM: Concept = {
  said: /\bpnpm\b/i,
  listed: /\bpnpm\b/i,
  phrase: (n) =>
    [
      'Install and run packages with pnpm, never npm.',
      'The developer reaches for pnpm rather than npm for every package command.',
      'pnpm is the package manager of choice; npm is avoided.',
      'Package commands go through pnpm.',
    ][n % 4]!,
  category: 'tooling',
  scope: 'global',
};

/** The developer says the same thing in other words each session. */
const SAYINGS = [
  'Install the dependencies with pnpm please, I do not use npm in any of my projects.',
  'Add zod to the api package — pnpm add, as always.',
  'Run the unit tests through pnpm, not npm.',
  'Use pnpm dlx for the codegen step.',
];

function session(id: string, n: number): void {
  new TranscriptBuilder(id, ws.repo).user(SAYINGS[n]!).assistant('Done.').write(ws.transcript(id));
}

async function extract(id: string, env: NodeJS.ProcessEnv) {
  const r = await runAsync(extractArgs(ws, id), { cwd: ws.repo, env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { written: { reinforced: unknown[] } };
}

function preferences(): ContextRecord[] {
  const db = ws.db();
  try {
    return db
      .prepare("SELECT * FROM records WHERE type = 'preference' AND superseded_at IS NULL ORDER BY rowid")
      .all() as ContextRecord[];
  } finally {
    db.close();
  }
}

function digest(): string {
  const db = ws.db();
  db.close();
  const p = join(ws.home, '.agentctx', 'digests', `${ws.projectId}.md`);
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
}

/** Three (or `threshold`) sessions with a model that follows the prompt. */
async function sessions(count: number, env: NodeJS.ProcessEnv) {
  let n = 0;
  api.setScript((req) => (isExtraction(req) ? followPrompt(req, [PNPM], n) : { content: [] }));
  const seen: { count: number; confidence: string }[] = [];
  for (; n < count; n++) {
    session(`s-${n}`, n);
    await extract(`s-${n}`, env);
    const prefs = preferences();
    expect(prefs).toHaveLength(1);
    seen.push({ count: prefs[0]!.reinforce_count, confidence: prefs[0]!.confidence });
  }
  return seen;
}

describe('reinforcement with a model that follows the prompt', () => {
  it('a preference re-stated in other words in three sessions becomes reinforced and enters the digest', async () => {
    const env = ws.env();
    const seen = await sessions(3, env);
    expect(seen).toEqual([
      { count: 0, confidence: 'inferred' },
      { count: 1, confidence: 'inferred' },
      { count: 2, confidence: 'reinforced' },
    ]);
    const [pref] = preferences();
    expect(pref!.title).toBe('Install and run packages with pnpm, never npm');
    expect(pref!.project_id).toBe('_global');
    // the model saw the record, its id and that it is still inferred, and wrote no new entry
    const asks = api.requests.filter(isExtraction);
    expect(asks).toHaveLength(3);
    expect(listedRecords(userText(asks[1]!))).toContainEqual({
      id: pref!.id,
      type: 'preference',
      confidence: 'inferred',
      title: pref!.title,
    });
    // reinforced now: the SessionStart digest shows it (it kept it out while inferred)
    expect(digest()).toContain('Install and run packages with pnpm, never npm');

    // a second Stop of the same session does not count again
    const b = new TranscriptBuilder('s-2', ws.repo).user(SAYINGS[2]!).assistant('Done.');
    const lines = b.lines.length;
    b.user('And pnpm lint too.').assistant('Clean.');
    b.appendSince(ws.transcript('s-2'), lines);
    const again = await extract('s-2', env);
    expect(again.written.reinforced).toEqual([]);
    expect(preferences()[0]!.reinforce_count).toBe(2);
  });

  it('follows the configured reinforceThreshold', async () => {
    const env = ws.env();
    const set = runAgentctx(['config', 'set', 'reinforceThreshold', '4'], { cwd: ws.repo, env });
    expect(set.code, set.stderr).toBe(0);
    const seen = await sessions(4, env);
    expect(seen.map((x) => x.confidence)).toEqual(['inferred', 'inferred', 'inferred', 'reinforced']);
    expect(seen.map((x) => x.count)).toEqual([0, 1, 2, 3]);
  });
});
