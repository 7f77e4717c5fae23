import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #9: `show 01M91Q44` (an id prefix, as the README elides ids) answered "no record".
 * Every command that takes an id takes any unique start of it; an ambiguous start lists the
 * candidates.
 */

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repo: string;
const ids: string[] = [];

const cli = <T = Record<string, unknown>>(args: string[]) => runJson<T>(args, { cwd: repo, env });

/** The shortest start of `id` no other id shares. */
function uniqueLength(id: string, all: readonly string[]): number {
  for (let n = 4; n <= id.length; n++)
    if (all.filter((x) => x.startsWith(id.slice(0, n))).length === 1) return n;
  return id.length;
}

/** A start of `id` of a length drawn between its unique length and the whole id (seeded). */
function prefixOf(id: string, seed: number): string {
  const min = uniqueLength(id, ids);
  const [n] = fc.sample(fc.integer({ min, max: id.length }), { numRuns: 1, seed });
  return id.slice(0, n);
}

beforeAll(() => {
  t = tempDir();
  env = isolatedEnv(t.path);
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
  for (const [type, title] of [
    ['decision', 'Orders live in Postgres'],
    ['decision', 'Orders live in Postgres too'],
    ['convention', 'Named exports only'],
    ['discovery', 'Checkout needs the fake payment server'],
    ['preference', 'Tabs for indentation'],
  ] as const) {
    const r = cli<{ id: string }>([
      'record',
      '--type',
      type,
      '--title',
      title,
      '--body',
      `${title}, recorded for the prefix test.`,
      ...(type === 'preference' ? ['--scope', 'global'] : []),
    ]);
    expect(r.code, r.stderr).toBe(0);
    ids.push(r.json.id);
  }
}, 60_000);
afterAll(() => t.cleanup());

describe('record ids by a unique prefix', () => {
  it('show finds every record by a start of its id, lower case too', () => {
    ids.forEach((id, i) => {
      const p = prefixOf(id, 100 + i);
      const r = cli<{ record: { id: string } }>(['show', i % 2 ? p.toLowerCase() : p]);
      expect(r.code, `${p}: ${r.stderr}`).toBe(0);
      expect(r.json.record.id).toBe(id);
    });
    // an id copied from elided output, with its ellipsis
    expect(cli<{ record: { id: string } }>(['show', `${prefixOf(ids[0]!, 7)}…`]).json.record.id).toBe(ids[0]);
  });

  it('an ambiguous start lists the candidates, and changes nothing', () => {
    // the ids share their time part: four characters start them all
    const shared = ids[0]!.slice(0, 4);
    expect(ids.every((id) => id.startsWith(shared))).toBe(true);
    const r = cli<{ code: string; error: string; candidates: { id: string }[] }>(['show', shared]);
    expect(r.code).toBe(2);
    expect(r.json.code).toBe('ambiguous_id');
    expect(r.json.candidates.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(r.stderr).toContain(ids[1]!);
    expect(cli(['confirm', shared]).code).toBe(2);
  });

  it('every command that takes an id takes a prefix: supersede, confirm, promote, merge, retire, profile edit', () => {
    const sup = cli<{ old_id: string; new_id: string }>([
      'supersede',
      prefixOf(ids[0]!, 1),
      '--body',
      'Orders live in Postgres 16.',
      '--rationale',
      'upgrade',
    ]);
    expect(sup.code, sup.stderr).toBe(0);
    expect(sup.json.old_id).toBe(ids[0]);
    ids.push(sup.json.new_id);
    expect(cli(['confirm', prefixOf(ids[2]!, 2)]).code).toBe(0);
    expect(cli(['promote', prefixOf(ids[3]!, 3)]).code).toBe(0);
    const merge = cli(['merge', prefixOf(ids[1]!, 4), prefixOf(ids[5]!, 5), '--dismiss']);
    expect(merge.code, merge.stderr).toBe(0);
    const edit = cli(['profile', 'edit', prefixOf(ids[4]!, 6), '--body', 'Tabs, width 4.']);
    expect(edit.code, edit.stderr).toBe(0);
    const retire = cli<{ id: string }>(['retire', prefixOf(ids[3]!, 8)]);
    expect(retire.code, retire.stderr).toBe(0);
    expect(retire.json.id).toBe(ids[3]);
  });
});
